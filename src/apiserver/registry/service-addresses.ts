// ClusterIP and NodePort allocation for Services, from the default ranges of a
// kubeadm cluster (10.96.0.0/12, 30000-32767). Addresses in use are found by
// scanning stored Services: allocation is rare, so no separate bitmap is kept.
import type { KubeObject } from '../../core/types.ts';
import type { Store } from '../store/store.ts';

interface ServicePort { nodePort?: number; [k: string]: unknown }
interface ServiceSpec { type?: string; clusterIP?: string; clusterIPs?: string[]; ports?: ServicePort[]; [k: string]: unknown }

function usedAddresses(store: Store): { ips: Set<string>; nodePorts: Set<number> } {
  const ips = new Set<string>();
  const nodePorts = new Set<number>();
  for (const svc of store.list('services').items) {
    const spec = svc.spec as ServiceSpec | undefined;
    if (spec?.clusterIP) ips.add(spec.clusterIP);
    for (const port of spec?.ports ?? []) if (port.nodePort) nodePorts.add(port.nodePort);
  }
  return { ips, nodePorts };
}

function nextIp(used: Set<string>): string {
  // 10.96.0.1 is the kubernetes Service; start after it.
  for (let i = 2; i < 1 << 20; i++) {
    const ip = `10.${96 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}`;
    if (!used.has(ip)) return ip;
  }
  throw new Error('service IP range exhausted');
}

export function allocateServiceAddresses(obj: KubeObject, old: KubeObject | undefined, store: Store): KubeObject {
  const spec: ServiceSpec = { ...((obj.spec as ServiceSpec | undefined) ?? {}) };
  const oldSpec = old?.spec as ServiceSpec | undefined;
  const type = spec.type ?? 'ClusterIP';
  if (type === 'ExternalName') return obj;
  const needsIp = !spec.clusterIP || spec.clusterIP === '';
  const needsPorts = (type === 'NodePort' || type === 'LoadBalancer') && (spec.ports ?? []).some((p) => !p.nodePort);
  if (!needsIp && !needsPorts) return obj;
  const used = usedAddresses(store);
  if (needsIp) {
    spec.clusterIP = oldSpec?.clusterIP ?? nextIp(used.ips);
    spec.clusterIPs = [spec.clusterIP];
    spec.ipFamilies ??= ['IPv4'];
    spec.ipFamilyPolicy ??= 'SingleStack';
  }
  if (needsPorts) {
    let candidate = 30000;
    spec.ports = (spec.ports ?? []).map((port, i) => {
      if (port.nodePort) return port;
      const kept = oldSpec?.ports?.[i]?.nodePort;
      if (kept) return { ...port, nodePort: kept };
      while (used.nodePorts.has(candidate)) candidate++;
      used.nodePorts.add(candidate);
      return { ...port, nodePort: candidate };
    });
  }
  return { ...obj, spec };
}
