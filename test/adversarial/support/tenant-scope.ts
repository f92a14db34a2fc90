// What "inside a tenant's prefix" means for an object as the host stores it,
// as one pure check shared by the write-path tests and the property tests:
// the object itself (namespace or cluster-scoped name, tenant label) and every
// reference in it that names something of another scope (RBAC subjects and
// roleRef, a CRD's group and conversion webhook service, a Namespace's Pod
// Security level). It returns what is wrong, in words, or [] when nothing is.
import type { KubeObject } from '../../../src/core/types.ts';

const TENANT_LABEL = 'tenancy.warren.dev/tenant';
const POD_SECURITY_LEVELS = ['privileged', 'baseline', 'restricted'];

interface Subject { kind?: string; name?: string; namespace?: string }

/** Where `obj` (an upstream object written for tenant `id`) reaches outside `<id>-`. */
export function outsideTenant(obj: KubeObject, id: string, opts: { podSecurity?: string } = {}): string[] {
  const prefix = `${id}-`;
  const wrong: string[] = [];
  const name = obj.metadata.name ?? '';
  const where = `${obj.kind ?? '?'} ${obj.metadata.namespace ? `${obj.metadata.namespace}/` : ''}${name}`;
  if (obj.metadata.namespace !== undefined && !obj.metadata.namespace.startsWith(prefix)) wrong.push(`${where}: namespace outside the tenant`);
  if (obj.metadata.namespace === undefined && !name.startsWith(prefix) && !name.includes(`.${prefix}`)) wrong.push(`${where}: cluster-scoped name outside the tenant`);
  if (obj.metadata.labels?.[TENANT_LABEL] !== id) wrong.push(`${where}: tenant label ${JSON.stringify(obj.metadata.labels?.[TENANT_LABEL])}`);
  for (const s of ((obj as { subjects?: Subject[] }).subjects ?? [])) {
    // ADR 0028: even the tenant's own host ServiceAccount is a host identity (its token works on the host).
    if (s.kind === 'ServiceAccount') {
      wrong.push(`${where}: ServiceAccount subject ${JSON.stringify(`${s.namespace ?? ''}/${s.name ?? ''}`)} is a host identity`);
    } else if (!(s.name ?? '').startsWith(`warren:${id}:`)) {
      wrong.push(`${where}: ${s.kind ?? 'subject'} ${JSON.stringify(s.name)} is not one of the tenant's`);
    }
  }
  const roleRef = (obj as { roleRef?: { kind?: string; name?: string } }).roleRef;
  if (roleRef?.kind === 'ClusterRole' && !(roleRef.name ?? '').startsWith(prefix)) wrong.push(`${where}: roleRef ClusterRole ${JSON.stringify(roleRef.name)}`);
  if (obj.kind === 'CustomResourceDefinition') {
    const spec = obj.spec as { group?: string; conversion?: { webhook?: { clientConfig?: { service?: { namespace?: string }; url?: string } } } } | undefined;
    if (!(spec?.group ?? '').startsWith(prefix)) wrong.push(`${where}: group ${JSON.stringify(spec?.group)}`);
    const service = spec?.conversion?.webhook?.clientConfig?.service;
    if (service && !(service.namespace ?? '').startsWith(prefix)) wrong.push(`${where}: conversion webhook service in ${JSON.stringify(service.namespace)}`);
  }
  if (obj.kind === 'Namespace' && opts.podSecurity) {
    const labels = obj.metadata.labels ?? {};
    const wanted = POD_SECURITY_LEVELS.indexOf(opts.podSecurity);
    for (const mode of ['enforce']) {
      const level = labels[`pod-security.kubernetes.io/${mode}`];
      if (POD_SECURITY_LEVELS.indexOf(level ?? '') < wanted) wrong.push(`${where}: pod-security ${mode}=${JSON.stringify(level)}, tenant level ${opts.podSecurity}`);
    }
  }
  return wrong;
}

/** The key of an object in a host snapshot. */
export function keyOf(resource: string, obj: KubeObject): string {
  return `${resource} ${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}

/** Whether a snapshot key is inside `<id>-` (its namespace, or its cluster-scoped name). */
export function keyInside(key: string, id: string): boolean {
  const [, path = ''] = key.split(' ');
  const [ns = '', name = ''] = path.split('/');
  return ns ? ns.startsWith(`${id}-`) : name.startsWith(`${id}-`) || name.includes(`.${id}-`);
}
