// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
// Validates Kubernetes manifests offline, without a cluster:
//   node validate-manifests.mjs PATH...   (files, or directories searched for *.yaml / *.yml)
// Every YAML document is parsed, checked against the Kubernetes OpenAPI schema
// of its apiVersion/kind (kubernetes-models; the Prometheus Operator's kinds
// from @kubernetes-models/prometheus-operator), then against tmacg's own policy
// for workloads (least privilege: see policyErrors; a node agent's probes,
// priority and resources: see nodeAgentErrors), and the documents together
// (a ServiceMonitor reaches the metrics port, a NetworkPolicy opens it: see
// crossErrors).  Prints each failure as
// "file: document N (Kind/name): error" and exits 1 when any failed, 2 on bad
// usage or when nothing was found to validate.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";

function yamlFiles(path) {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => {
      const p = join(path, e.name);
      if (e.isDirectory()) return yamlFiles(p);
      return /\.ya?ml$/.test(e.name) ? [p] : [];
    });
}

// API groups outside Kubernetes' own, by the npm package that models them.
const groupPackages = { "monitoring.coreos.com": "@kubernetes-models/prometheus-operator" };

// The model class of a document, e.g. kubernetes-models/apps/v1/DaemonSet.
async function modelClass(apiVersion, kind) {
  if (typeof apiVersion !== "string" || !/^([a-z0-9.-]+\/)?v[0-9a-z]+$/.test(apiVersion))
    throw new Error(`apiVersion ${JSON.stringify(apiVersion)} is not a Kubernetes API version`);
  if (typeof kind !== "string" || !/^[A-Z][A-Za-z0-9]*$/.test(kind))
    throw new Error(`kind ${JSON.stringify(kind)} is not a Kubernetes kind`);
  let mod;
  try {
    const pkg = groupPackages[apiVersion.split("/")[0]] ?? "kubernetes-models";
    mod = await import(`${pkg}/${apiVersion}/${kind}`);
  } catch {
    throw new Error(`unknown kind ${kind} in ${apiVersion} (misspelled, or not a built-in API)`);
  }
  if (typeof mod[kind] !== "function") throw new Error(`no model for ${apiVersion} ${kind}`);
  return mod[kind];
}

// tmacg's rules for anything with a pod template: the schema allows far more
// privilege than tmacg needs, and a manifest that drifts there must fail.
const allowedCapabilities = new Set(["BPF", "PERFMON"]);

function policyErrors(doc) {
  const pod = doc.kind === "Pod" ? doc.spec : doc.spec?.template?.spec;
  if (!pod) return [];
  const errors = [];
  const hostPathVolumes = new Set(
    (pod.volumes ?? []).filter((v) => v.hostPath).map((v) => v.name),
  );
  for (const c of [...(pod.initContainers ?? []), ...(pod.containers ?? [])]) {
    const sc = c.securityContext ?? {};
    const where = `container ${c.name}`;
    if (sc.privileged !== false) errors.push(`${where}: securityContext.privileged must be false`);
    if (sc.allowPrivilegeEscalation !== false)
      errors.push(`${where}: securityContext.allowPrivilegeEscalation must be false`);
    if (!(sc.capabilities?.drop ?? []).includes("ALL"))
      errors.push(`${where}: securityContext.capabilities.drop must include ALL`);
    for (const cap of sc.capabilities?.add ?? [])
      if (!allowedCapabilities.has(cap))
        errors.push(`${where}: capability ${cap} is not one tmacg needs (only BPF, PERFMON)`);
    for (const m of c.volumeMounts ?? [])
      if (hostPathVolumes.has(m.name) && m.readOnly !== true)
        errors.push(`${where}: hostPath volume ${m.name} must be mounted readOnly`);
  }
  if (pod.hostNetwork || pod.hostIPC) errors.push("hostNetwork and hostIPC must stay off");
  errors.push(...scrapeErrors(doc, pod));
  errors.push(...nodeAgentErrors(doc, pod));
  return errors;
}

// The --listen port of a container, as a string ("9464"), or undefined.
function listenPort(c) {
  const args = [...(c.command ?? []), ...(c.args ?? [])];
  const at = args.indexOf("--listen");
  const spec = at >= 0 ? args[at + 1] : args.find((a) => a.startsWith("--listen="))?.slice(9);
  return spec === undefined ? undefined : spec.slice(spec.lastIndexOf(":") + 1);
}

// A probe's or Service's port (number or a container port's name) as a number string.
function resolvePort(c, port) {
  if (typeof port === "number") return String(port);
  const named = (c.ports ?? []).find((p) => p.name === port);
  return named ? String(named.containerPort) : undefined;
}

// What a platform team expects of a node agent (issue 20): it is not evicted
// first, the kubelet knows when it is alive and ready (tmacg's /healthz and
// /readyz on its --listen port), its resources are bounded, and seccomp stays on.
function nodeAgentErrors(doc, pod) {
  if (doc.kind !== "DaemonSet") return [];
  const errors = [];
  if (pod.priorityClassName !== "system-node-critical")
    errors.push("priorityClassName must be system-node-critical (a node agent)");
  for (const c of pod.containers ?? []) {
    const where = `container ${c.name}`;
    const port = listenPort(c);
    for (const [probe, path] of [["livenessProbe", "/healthz"], ["readinessProbe", "/readyz"]]) {
      const get = c[probe]?.httpGet;
      if (port === undefined) continue;
      if (!get || get.path !== path || resolvePort(c, get.port) !== port)
        errors.push(`${where}: ${probe} must be an httpGet of ${path} on the --listen port ${port}`);
    }
    for (const kind of ["requests", "limits"])
      for (const r of ["cpu", "memory"])
        if (c.resources?.[kind]?.[r] === undefined)
          errors.push(`${where}: resources.${kind}.${r} is missing (measured figures: deploy/README.md)`);
    const seccomp = c.securityContext?.seccompProfile ?? pod.securityContext?.seccompProfile;
    if (!["RuntimeDefault", "Localhost"].includes(seccomp?.type))
      errors.push(`${where}: seccompProfile must be RuntimeDefault or Localhost (deploy/seccomp/tmacg.json)`);
  }
  return errors;
}

// Does a label selector's matchLabels hold for these labels?
function selects(selector, labels) {
  const want = selector?.matchLabels ?? {};
  return Object.keys(want).length > 0 && Object.entries(want).every(([k, v]) => labels?.[k] === v);
}

// Across documents: each ServiceMonitor selects a Service of its namespace
// with the endpoint's port, that Service selects a workload and targets its
// --listen port; a NetworkPolicy selecting such a workload's pods with
// Ingress lets the --listen port in.
function crossErrors(objects) {
  const errors = [];
  const workloads = objects.filter((o) => o.obj.spec?.template?.spec);
  const listeners = (ns) =>
    workloads
      .filter((w) => (w.obj.metadata?.namespace ?? "default") === ns)
      .flatMap((w) =>
        (w.obj.spec.template.spec.containers ?? [])
          .filter((c) => listenPort(c) !== undefined)
          .map((c) => ({ w, c, port: listenPort(c), labels: w.obj.spec.template.metadata?.labels })),
      );
  for (const sm of objects.filter((o) => o.obj.kind === "ServiceMonitor")) {
    const ns = sm.obj.metadata?.namespace ?? "default";
    const namespaces = sm.obj.spec?.namespaceSelector?.matchNames ?? [ns];
    const services = objects.filter(
      (o) =>
        o.obj.kind === "Service" &&
        namespaces.includes(o.obj.metadata?.namespace ?? "default") &&
        selects(sm.obj.spec?.selector, o.obj.metadata?.labels),
    );
    for (const ep of sm.obj.spec?.endpoints ?? []) {
      const reached = services.some((svc) => {
        const sp = (svc.obj.spec?.ports ?? []).find((p) => p.name === ep.port);
        if (!sp) return false;
        return listeners(svc.obj.metadata?.namespace ?? "default").some(
          (l) =>
            selects({ matchLabels: svc.obj.spec?.selector }, l.labels) &&
            resolvePort(l.c, sp.targetPort ?? sp.port) === l.port &&
            (ep.path ?? "/metrics") === "/metrics",
        );
      });
      if (!reached)
        errors.push(`${sm.where}: endpoint port ${ep.port} reaches no Service port targeting a --listen port`);
    }
  }
  for (const np of objects.filter((o) => o.obj.kind === "NetworkPolicy")) {
    const ns = np.obj.metadata?.namespace ?? "default";
    if (!(np.obj.spec?.policyTypes ?? ["Ingress"]).includes("Ingress")) continue;
    for (const l of listeners(ns).filter((l) => selects(np.obj.spec?.podSelector, l.labels))) {
      const open = (np.obj.spec?.ingress ?? []).some((rule) =>
        (rule.ports ?? [{}]).some((p) => p.port === undefined || resolvePort(l.c, p.port) === l.port),
      );
      if (!open) errors.push(`${np.where}: blocks the --listen port ${l.port} of ${l.w.obj.kind}/${l.w.obj.metadata?.name}`);
    }
  }
  return errors;
}

// A tmacg container with --listen: Prometheus finds it through the pod's
// annotations, which must name the port it listens on and /metrics, and the
// port must be declared (never as a hostPort: the node's own IP stays closed).
function scrapeErrors(doc, pod) {
  const errors = [];
  const ann = (doc.kind === "Pod" ? doc.metadata : doc.spec?.template?.metadata)?.annotations ?? {};
  for (const c of pod.containers ?? []) {
    const port = listenPort(c);
    if (port === undefined) continue;
    const where = `container ${c.name}`;
    if (ann["prometheus.io/scrape"] !== "true")
      errors.push(`${where}: --listen without the annotation prometheus.io/scrape: "true"`);
    if (ann["prometheus.io/port"] !== port)
      errors.push(`${where}: annotation prometheus.io/port is ${JSON.stringify(ann["prometheus.io/port"])}, --listen port is ${port}`);
    if (ann["prometheus.io/path"] !== "/metrics")
      errors.push(`${where}: annotation prometheus.io/path must be /metrics`);
    const declared = (c.ports ?? []).find((p) => String(p.containerPort) === port);
    if (!declared) errors.push(`${where}: --listen port ${port} is not in ports`);
    for (const p of c.ports ?? [])
      if (p.hostPort !== undefined) errors.push(`${where}: hostPort ${p.hostPort} exposes the node`);
  }
  return errors;
}

async function validateFile(file, objects) {
  const failures = [];
  let count = 0;
  const docs = parseAllDocuments(readFileSync(file, "utf8"));
  for (const [i, d] of docs.entries()) {
    const where = (obj) =>
      `${file}: document ${i + 1}` + (obj ? ` (${obj.kind}/${obj.metadata?.name})` : "");
    if (d.errors.length) {
      failures.push(`${where()}: YAML: ${d.errors.map((e) => e.message).join("; ")}`);
      continue;
    }
    const obj = d.toJS();
    if (obj === null || obj === undefined) continue; // an empty document, e.g. after a trailing ---
    count++;
    if (typeof obj !== "object" || Array.isArray(obj)) {
      failures.push(`${where()}: not a Kubernetes object (a YAML mapping)`);
      continue;
    }
    try {
      const Model = await modelClass(obj.apiVersion, obj.kind);
      new Model(obj).validate();
      if (!obj.metadata?.name) throw new Error("metadata.name is required");
      const policy = policyErrors(obj);
      if (policy.length) throw new Error(`policy: ${policy.join("; ")}`);
      objects.push({ obj, where: where(obj) });
    } catch (e) {
      failures.push(`${where(obj)}: ${e.message}`);
    }
  }
  return { failures, count };
}

async function main(args) {
  if (!args.length) {
    console.error("usage: validate-manifests.mjs PATH...  (YAML files or directories)");
    return 2;
  }
  let files;
  try {
    files = args.flatMap(yamlFiles);
  } catch (e) {
    console.error(`validate-manifests: ${e.message}`);
    return 2;
  }
  let total = 0;
  let failed = 0;
  const objects = [];
  for (const file of files) {
    const { failures, count } = await validateFile(file, objects);
    total += count;
    failed += failures.length;
    for (const f of failures) console.error(f);
  }
  for (const f of crossErrors(objects)) {
    failed++;
    console.error(f);
  }
  if (!total && !failed) {
    console.error(`validate-manifests: no Kubernetes documents under ${args.join(" ")}`);
    return 2;
  }
  console.log(`${total} document(s) in ${files.length} file(s): ${failed ? `${failed} invalid` : "all valid"}`);
  return failed ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
