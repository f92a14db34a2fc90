// fieldOverrider (Karmada overridemanager.go applyFieldOverriders): patch inside
// a string field that holds a JSON or YAML document, e.g. a ConfigMap's
// data["config.yaml"]. The field must exist and be a string. YAML comes back
// out with sorted keys, as sigs.k8s.io/yaml's JSONToYAML writes it.
import YAML from 'yaml';
import type { KubeObject } from '../../types.ts';
import type { FieldOverrider } from '../karmada-types.ts';
import { escapeToken, getAt, parsePointer } from './json-pointer.ts';
import { patchInPlace } from './json-patch.ts';
import { OverriderFailure } from './overrider-failure.ts';

export function applyFieldOverrider(manifest: KubeObject, overrider: FieldOverrider, field: string): KubeObject {
  const tokens = parsePointer(overrider.fieldPath);
  if (typeof tokens === 'string') throw new OverriderFailure(`${field}.fieldPath`, tokens);
  const raw = getAt(manifest, tokens);
  if (raw === undefined) throw new OverriderFailure(`${field}.fieldPath`, `object has no key ${JSON.stringify(tokens[tokens.length - 1] ?? '')}`);
  if (typeof raw !== 'string') throw new OverriderFailure(`${field}.fieldPath`, `Get object's value by overrider's path(${overrider.fieldPath}) is not string`);
  let next: string;
  if (overrider.yaml && overrider.yaml.length > 0) {
    next = patchYaml(raw, overrider.yaml, `${field}.yaml`);
  } else if (overrider.json && overrider.json.length > 0) {
    next = patchJson(raw, overrider.json, `${field}.json`);
  } else {
    // Karmada writes back an empty string here (its applied data stays nil); keeping the
    // field as it was is the only reading a user could want, and the webhook allows it.
    return manifest;
  }
  const pointer = '/' + tokens.map(escapeToken).join('/');
  return patchInPlace(manifest, [{ op: 'replace', path: pointer, value: next }], `${field}.fieldPath`);
}

type SubPatch = NonNullable<FieldOverrider['json']>[number];

function patchJson(raw: string, ops: readonly SubPatch[], field: string): string {
  let doc: unknown;
  try {
    doc = JSON.parse(raw);
  } catch (err) {
    throw new OverriderFailure(field, `invalid JSON at fieldPath: ${(err as Error).message}`);
  }
  return JSON.stringify(patchInPlace(doc, ops.map((o) => ({ op: o.operator, path: o.subPath, value: o.value })), field));
}

function patchYaml(raw: string, ops: readonly SubPatch[], field: string): string {
  let doc: unknown;
  try {
    doc = YAML.parse(raw) ?? null;
  } catch (err) {
    throw new OverriderFailure(field, `error converting YAML to JSON: ${(err as Error).message.split('\n')[0] ?? ''}`);
  }
  const patched = patchInPlace(doc, ops.map((o) => ({ op: o.operator, path: o.subPath, value: o.value })), field);
  return YAML.stringify(patched, { sortMapEntries: true });
}
