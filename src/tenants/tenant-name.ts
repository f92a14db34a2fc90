// A Tenant's name, as the provisioning API and the console take it from a URL
// (pure): a DNS-1123 label, since it becomes part of upstream names (the
// kubeconfig Secret, the ClusterRoleBindings). Invalid → 422, as kube answers a
// bad metadata.name.
import { invalid } from '../core/api-error.ts';
import { TENANT_GROUP } from './tenant-crd.ts';

const NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export function checkTenantName(name: string): void {
  const problem = name.length > 63 ? 'must be no more than 63 characters'
    : NAME.test(name) ? undefined
      : "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
  if (problem) throw invalid({ group: TENANT_GROUP, kind: 'Tenant', name }, [{ type: 'FieldValueInvalid', field: 'metadata.name', message: `Invalid value: ${JSON.stringify(name)}: ${problem}` }]);
}
