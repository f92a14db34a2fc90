// A Tenant's name, as the provisioning API and the console take it from a URL
// (pure): a DNS-1123 label, since it becomes part of upstream names (the
// kubeconfig Secret, the ClusterRoleBindings). Invalid → 422, as kube answers a
// bad metadata.name.
import { invalid } from '../core/api-error.ts';
import { dns1123LabelErrors } from '../core/selectors/label-syntax.ts';
import { TENANT_GROUP } from './tenant-crd.ts';

export function checkTenantName(name: string): void {
  // The first problem only (the length before the shape), as before.
  const [problem] = dns1123LabelErrors(name);
  if (problem) throw invalid({ group: TENANT_GROUP, kind: 'Tenant', name }, [{ type: 'FieldValueInvalid', field: 'metadata.name', message: `Invalid value: ${JSON.stringify(name)}: ${problem}` }]);
}
