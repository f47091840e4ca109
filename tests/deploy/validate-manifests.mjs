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
