// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
// Validates Kubernetes manifests offline, without a cluster:
//   node validate-manifests.mjs PATH...   (files, or directories searched for *.yaml / *.yml)
// Every YAML document is parsed, checked against the Kubernetes OpenAPI schema
// of its apiVersion/kind (kubernetes-models), then against tmacg's own policy
// for workloads (least privilege: see policyErrors).  Prints each failure as
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

// The model class of a document, e.g. kubernetes-models/apps/v1/DaemonSet.
async function modelClass(apiVersion, kind) {
  if (typeof apiVersion !== "string" || !/^([a-z0-9.-]+\/)?v[0-9a-z]+$/.test(apiVersion))
    throw new Error(`apiVersion ${JSON.stringify(apiVersion)} is not a Kubernetes API version`);
  if (typeof kind !== "string" || !/^[A-Z][A-Za-z0-9]*$/.test(kind))
    throw new Error(`kind ${JSON.stringify(kind)} is not a Kubernetes kind`);
  let mod;
  try {
    mod = await import(`kubernetes-models/${apiVersion}/${kind}`);
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
  return errors;
}

// A tmacg container with --listen: Prometheus finds it through the pod's
// annotations, which must name the port it listens on and /metrics, and the
// port must be declared (never as a hostPort: the node's own IP stays closed).
function scrapeErrors(doc, pod) {
  const errors = [];
  const ann = (doc.kind === "Pod" ? doc.metadata : doc.spec?.template?.metadata)?.annotations ?? {};
  for (const c of pod.containers ?? []) {
    const args = [...(c.command ?? []), ...(c.args ?? [])];
    const at = args.indexOf("--listen");
    const spec = at >= 0 ? args[at + 1] : args.find((a) => a.startsWith("--listen="))?.slice(9);
    if (spec === undefined) continue;
    const port = spec.slice(spec.lastIndexOf(":") + 1);
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

async function validateFile(file) {
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
  for (const file of files) {
    const { failures, count } = await validateFile(file);
    total += count;
    failed += failures.length;
    for (const f of failures) console.error(f);
  }
  if (!total && !failed) {
    console.error(`validate-manifests: no Kubernetes documents under ${args.join(" ")}`);
    return 2;
  }
  console.log(`${total} document(s) in ${files.length} file(s): ${failed ? `${failed} invalid` : "all valid"}`);
  return failed ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
