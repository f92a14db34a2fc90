// envOverrider: Warren's own, because Karmada users keep writing plaintext
// patches with container indexes for this. Works by container name over
// containers and initContainers of any workload kind (CronJob included):
//   add      sets each variable (appends it, or replaces its value when present)
//   replace  changes only variables that already exist
//   remove   deletes variables by name (values ignored)
// A variable set from valueFrom is replaced by the plain value.
import type { KubeObject } from '../../types.ts';
import type { EnvOverrider } from '../karmada-types.ts';
import { podSpecOf } from '../workload/pod-template.ts';
import { OverriderFailure } from './overrider-failure.ts';

interface EnvVar { name: string; value?: string; valueFrom?: unknown }

export function applyEnvOverrider(manifest: KubeObject, overrider: EnvOverrider, field: string): KubeObject {
  const spec = podSpecOf(manifest);
  if (!spec) return manifest;
  for (const v of overrider.value ?? []) {
    if (typeof v?.name !== 'string' || v.name === '') throw new OverriderFailure(`${field}.value`, 'every variable needs a name');
  }
  for (const key of ['containers', 'initContainers']) {
    const list = spec[key];
    if (!Array.isArray(list)) continue;
    for (const c of list as Array<Record<string, unknown>>) {
      if (c?.name !== overrider.containerName) continue;
      c.env = editEnv(Array.isArray(c.env) ? c.env as EnvVar[] : [], overrider);
    }
  }
  return manifest;
}

function editEnv(env: EnvVar[], overrider: EnvOverrider): EnvVar[] {
  const values = overrider.value ?? [];
  if (overrider.operator === 'remove') {
    const drop = new Set(values.map((v) => v.name));
    return env.filter((e) => !drop.has(e.name));
  }
  const out = env.map((e) => ({ ...e }));
  for (const v of values) {
    const i = out.findIndex((e) => e.name === v.name);
    const next: EnvVar = { name: v.name, value: v.value ?? '' };
    if (i >= 0) out[i] = next;
    else if (overrider.operator === 'add') out.push(next);
  }
  return out;
}
