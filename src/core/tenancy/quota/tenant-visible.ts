// What a tenant's quota counts: the objects the tenant can see, never merely
// those carrying its label. Warren keeps objects about a tenant outside its
// space under that label too (its kubeconfig Secret in warren-system), and a
// quota that counted them refused the tenant's third Secret of three with two
// in sight (issue 14). Upstream objects say their scope themselves: a
// namespaced one lives in one of the tenant's namespaces, a cluster-scoped one
// carries the tenant prefix (a CRD as `plural.<id>-group`).
import type { KubeObject } from '../../types.ts';
import { toTenantClusterName, toTenantCrdName, toTenantNamespace } from '../names.ts';

export function visibleToTenant(id: string, obj: KubeObject, options: { crd?: boolean } = {}): boolean {
  const { namespace, name } = obj.metadata ?? {};
  if (namespace) return toTenantNamespace(id, namespace) !== undefined;
  if (typeof name !== 'string') return false;
  return (options.crd ? toTenantCrdName(id, name) : toTenantClusterName(id, name)) !== undefined;
}
