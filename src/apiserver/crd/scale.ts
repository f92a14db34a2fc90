// The scale subresource over any object whose replicas live at known paths
// (a CRD's subresources.scale, or .spec.replicas/.status.replicas for the
// built-in workloads): read into an autoscaling/v1 Scale, write replicas back.
import { internalError } from '../../core/api-error.ts';
import type { ScaleSubresource } from '../../core/resources/resource-def.ts';
import type { KubeObject } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';

export interface Scale extends KubeObject {
  apiVersion: 'autoscaling/v1';
  kind: 'Scale';
  spec: { replicas: number };
  status: { replicas: number; selector?: string };
}

function segments(path: string): string[] {
  return path.split('.').filter((s) => s.length > 0);
}

function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const s of segments(path)) cur = isObject(cur) ? cur[s] : undefined;
  return cur;
}

/** Missing replicas read as 0, as kube does; a non-integer is a server-side error. */
function readInt(obj: unknown, path: string): number {
  const v = getPath(obj, path);
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw internalError(`${path} accessor error: ${JSON.stringify(v)} is of the type ${typeof v}, expected int64`);
  return v;
}

export function readScale(scale: ScaleSubresource, obj: KubeObject): Scale {
  const m = obj.metadata;
  const metadata: KubeObject['metadata'] = {};
  for (const k of ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp'] as const) if (m[k] !== undefined) (metadata as Record<string, unknown>)[k] = m[k];
  const status: Scale['status'] = { replicas: readInt(obj, scale.statusReplicasPath) };
  if (scale.labelSelectorPath) {
    const sel = getPath(obj, scale.labelSelectorPath);
    if (typeof sel === 'string') status.selector = sel;
    else if (isObject(sel)) status.selector = formatLabelSelector(sel);
  }
  return { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata, spec: { replicas: readInt(obj, scale.specReplicasPath) }, status };
}

/** A copy of obj with replicas set at specReplicasPath, creating missing parents. */
export function writeScale<T extends KubeObject>(scale: ScaleSubresource, obj: T, replicas: number): T {
  const copy = structuredClone(obj);
  const segs = segments(scale.specReplicasPath);
  let cur: Record<string, unknown> = copy;
  for (const s of segs.slice(0, -1)) {
    const next = cur[s];
    if (!isObject(next)) cur[s] = {};
    cur = cur[s] as Record<string, unknown>;
  }
  const last = segs[segs.length - 1];
  if (last !== undefined) cur[last] = replicas;
  return copy;
}

/** A metav1.LabelSelector as selector text (labels.Selector.String()): requirements sorted by key. */
export function formatLabelSelector(sel: Record<string, unknown>): string {
  const reqs: Array<[string, string]> = [];
  const labels = isObject(sel.matchLabels) ? sel.matchLabels : {};
  for (const [k, v] of Object.entries(labels)) reqs.push([k, `${k}=${String(v)}`]);
  const exprs = Array.isArray(sel.matchExpressions) ? sel.matchExpressions : [];
  for (const e of exprs) {
    if (!isObject(e)) continue;
    const k = String(e.key ?? '');
    const values = (Array.isArray(e.values) ? e.values.map(String) : []).sort();
    switch (e.operator) {
      case 'In': reqs.push([k, `${k} in (${values.join(',')})`]); break;
      case 'NotIn': reqs.push([k, `${k} notin (${values.join(',')})`]); break;
      case 'Exists': reqs.push([k, k]); break;
      case 'DoesNotExist': reqs.push([k, `!${k}`]); break;
    }
  }
  return reqs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((r) => r[1]).join(',');
}
