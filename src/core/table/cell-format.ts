// Small formatters shared by the printers, each matching a kube printer helper.
import { isObject } from '../types.ts';

type Obj = Record<string, unknown>;

export const rec = (v: unknown): Obj => (isObject(v) ? v : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const int = (v: unknown): number => (typeof v === 'number' ? Math.trunc(v) : 0);

/** labels.FormatLabels: sorted "k=v,k2=v2", or "<none>". */
export function formatLabels(labels: unknown): string {
  const entries = Object.entries(rec(labels)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? '<none>' : entries.map(([k, v]) => `${k}=${String(v)}`).join(',');
}

/** labels.Selector.String() of a metav1.LabelSelector: requirements sorted by key. */
export function selectorString(selector: unknown): string {
  if (!isObject(selector)) return '';
  const reqs: Array<{ key: string; text: string }> = [];
  for (const [k, v] of Object.entries(rec(selector.matchLabels))) reqs.push({ key: k, text: `${k}=${String(v)}` });
  for (const raw of arr(selector.matchExpressions)) {
    const e = rec(raw);
    const key = str(e.key);
    const values = arr(e.values).map(String).sort();
    switch (e.operator) {
      case 'In': reqs.push({ key, text: `${key} in (${values.join(',')})` }); break;
      case 'NotIn': reqs.push({ key, text: `${key} notin (${values.join(',')})` }); break;
      case 'Exists': reqs.push({ key, text: key }); break;
      case 'DoesNotExist': reqs.push({ key, text: `!${key}` }); break;
      default:
    }
  }
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((r) => r.text).join(',');
}

/** metav1.FormatLabelSelector: "<none>" when empty. */
export function formatLabelSelector(selector: unknown): string {
  const s = selectorString(selector);
  return s === '' ? '<none>' : s;
}

/** layoutContainerCells: names and images, comma-joined. */
export function containerCells(podSpec: unknown): [string, string] {
  const containers = arr(rec(podSpec).containers).map(rec);
  return [containers.map((c) => str(c.name)).join(','), containers.map((c) => str(c.image)).join(',')];
}

export function templateSpec(obj: Obj): Obj {
  return rec(rec(rec(obj.spec).template).spec);
}

const ACCESS_MODE_ORDER: Array<[string, string]> = [
  ['ReadWriteOnce', 'RWO'], ['ReadOnlyMany', 'ROX'], ['ReadWriteMany', 'RWX'], ['ReadWriteOncePod', 'RWOP'],
];

/** helper.GetAccessModesAsString: fixed order, deduplicated. */
export function accessModes(modes: unknown): string {
  const set = new Set(arr(modes).map(String));
  return ACCESS_MODE_ORDER.filter(([m]) => set.has(m)).map(([, short]) => short).join(',');
}

export function rfc3339(timestamp: unknown): string {
  if (typeof timestamp !== 'string' || timestamp === '') return '';
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? timestamp : new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function printBool(v: boolean): string {
  return v ? 'True' : 'False';
}

/** "ip:port" with IPv6 in brackets, as net.JoinHostPort. */
export function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
