// What a template depends on, for propagateDeps (Karmada
// resourceinterpreter/default/native/dependencies.go): the ConfigMaps, Secrets,
// ServiceAccounts and PVCs its pod template refers to, for Deployment,
// StatefulSet, DaemonSet, Job, CronJob and Pod; and an Ingress's TLS Secrets.
// ReplicaSet is Warren's addition. All in the template's namespace, sorted
// (Karmada iterates Go sets, so its order is random; ours is stable).
import type { KubeObject } from '../../types.ts';
import { podSpecOf } from '../workload/pod-template.ts';
import { podReferences } from './pod-references.ts';

export type DependencyKind = 'ConfigMap' | 'Secret' | 'ServiceAccount' | 'PersistentVolumeClaim';

export interface Dependency {
  apiVersion: string;
  kind: DependencyKind;
  namespace: string;
  name: string;
}

const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob', 'Pod']);

export function dependenciesOf(template: KubeObject): Dependency[] {
  const namespace = template.metadata.namespace ?? '';
  const kind = template.kind ?? '';
  const out: Dependency[] = [];
  const push = (k: DependencyKind, names: Iterable<string>): void => {
    for (const name of [...names].sort()) out.push({ apiVersion: 'v1', kind: k, namespace, name });
  };
  if (kind === 'Ingress') {
    const tls = (template.spec as { tls?: unknown } | undefined)?.tls;
    const names = new Set<string>();
    for (const t of Array.isArray(tls) ? tls : []) {
      const name = (t as { secretName?: unknown } | null)?.secretName;
      if (typeof name === 'string' && name) names.add(name);
    }
    push('Secret', names);
    return out;
  }
  if (!WORKLOAD_KINDS.has(kind)) return out;
  const spec = podSpecOf(template);
  if (!spec) return out;
  const refs = podReferences(spec);
  push('ConfigMap', refs.configMaps);
  push('Secret', refs.secrets);
  push('ServiceAccount', refs.serviceAccounts);
  push('PersistentVolumeClaim', refs.persistentVolumeClaims);
  return out;
}
