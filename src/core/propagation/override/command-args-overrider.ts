// commandOverrider / argsOverrider (Karmada commandargsoverride.go): append to
// or remove from the command or args of the named container. Only `containers`
// of the kinds below, as in Karmada. A container without the field gets one:
// `add` sets the values, `remove` sets an empty list (Karmada does exactly that).
import type { KubeObject } from '../../types.ts';
import type { CommandArgsOverrider } from '../karmada-types.ts';
import { podSpecPointer } from '../workload/pod-template.ts';
import { getAt } from './json-pointer.ts';
import { patchInPlace } from './json-patch.ts';
import type { PatchOp } from './json-patch.ts';

const COMMAND_ARGS_KINDS = new Set(['Pod', 'ReplicaSet', 'Deployment', 'DaemonSet', 'Job', 'StatefulSet']);

export function applyCommandArgsOverrider(manifest: KubeObject, target: 'command' | 'args', overrider: CommandArgsOverrider, field: string): KubeObject {
  const spec = podSpecPointer(manifest.kind);
  if (!spec || !COMMAND_ARGS_KINDS.has(manifest.kind ?? '')) return manifest;
  const containers = getAt(manifest, [...spec, 'containers']);
  if (!Array.isArray(containers)) return manifest;
  const ops: PatchOp[] = [];
  containers.forEach((c, i) => {
    if ((c as { name?: unknown })?.name !== overrider.containerName) return;
    const path = `/${[...spec, 'containers', String(i), target].join('/')}`;
    const current = (c as Record<string, unknown>)[target];
    if (current === undefined || current === null) {
      ops.push({ op: 'add', path, value: edit([], overrider) });
    } else {
      const values = Array.isArray(current) ? current.map((v) => (typeof v === 'string' ? v : String(v))) : [];
      ops.push({ op: 'replace', path, value: edit(values, overrider) });
    }
  });
  return patchInPlace(manifest, ops, field);
}

function edit(current: string[], overrider: CommandArgsOverrider): string[] {
  const values = overrider.value ?? [];
  if (overrider.operator === 'add') return [...current, ...values];
  if (overrider.operator === 'remove') {
    const drop = new Set(values);
    return current.filter((v) => !drop.has(v));
  }
  return current;
}
