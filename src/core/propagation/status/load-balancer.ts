// A LoadBalancer Service's or an Ingress's addresses from every member, as
// Karmada collects them (helper.DedupeAndSort*LoadBalancerIngress): one entry
// per hostname/ip/ipMode with the ports of all its duplicates merged, entries
// with a hostname first (by hostname), then by ip, then ipMode; ports by port,
// protocol, then error. Member entries are kept as the member reported them.
import type { AggregatedStatusItem } from '../karmada-types.ts';
import { rec } from './status-fields.ts';
import type { Json } from './status-fields.ts';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function comparePorts(a: Json, b: Json): number {
  const pa = typeof a.port === 'number' ? a.port : 0;
  const pb = typeof b.port === 'number' ? b.port : 0;
  return pa - pb || cmp(str(a.protocol), str(b.protocol)) || cmp(str(a.error), str(b.error));
}

function compareEntries(a: Json, b: Json): number {
  const ha = str(a.hostname);
  const hb = str(b.hostname);
  if (ha !== hb) return ha === '' ? 1 : hb === '' ? -1 : cmp(ha, hb);
  return cmp(str(a.ip), str(b.ip)) || cmp(str(a.ipMode), str(b.ipMode));
}

export function collectLoadBalancerIngress(items: readonly AggregatedStatusItem[]): Json[] {
  const byKey = new Map<string, { entry: Json; ports: Map<string, Json> }>();
  for (const item of items) {
    const ingress = rec(rec(item.status).loadBalancer).ingress;
    for (const raw of Array.isArray(ingress) ? ingress : []) {
      const { ports, ...entry } = rec(raw);
      const key = JSON.stringify([str(entry.hostname), str(entry.ip), str(entry.ipMode)]);
      const slot = byKey.get(key) ?? { entry, ports: new Map<string, Json>() };
      byKey.set(key, slot);
      for (const p of Array.isArray(ports) ? ports.map(rec) : []) slot.ports.set(JSON.stringify([p.port, p.protocol, p.error]), p);
    }
  }
  return [...byKey.values()].map(({ entry, ports }) => (ports.size > 0 ? { ...entry, ports: [...ports.values()].sort(comparePorts) } : entry)).sort(compareEntries);
}
