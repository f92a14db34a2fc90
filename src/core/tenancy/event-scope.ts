// Events about a tenant's cluster-scoped objects, on a real host. kube 1.20 takes an Event whose reference
// (core involvedObject, events.k8s.io regarding) has no namespace only in "default" (or, with eventTime, in
// "kube-system"), else the reference must name the Event's own namespace (legacyValidateEvent, which both APIs
// run). A tenant's "default" is `<id>-default` upstream, which the first rule refuses; the host's own "default"
// is shared by every tenant. So upstream such a reference names the Event's namespace, and the tenant reads it
// back without one, as kube shows an Event about a cluster-scoped object.
import type { KubeObject } from '../types.ts';
import { isObject } from '../types.ts';
import { splitApiVersion } from './names.ts';
import { treatmentOf } from './kind-treatment.ts';
import type { TenantContext } from './tenant-context.ts';
import { hasTime, takesClusterScopedReference } from '../event-scope-rule.ts';

type Obj = Record<string, unknown>;

function clusterScopedRef(ctx: TenantContext, holder: Obj, key: string): Obj | undefined {
  const ref = holder[key];
  if (!isObject(ref) || typeof ref.kind !== 'string' || ref.kind === '') return undefined;
  const group = typeof ref.apiVersion === 'string' ? splitApiVersion(ref.apiVersion).group : '';
  return treatmentOf(ctx, group, ref.kind).namespaced ? undefined : ref;
}

/**
 * Before the reference is translated (tenant terms): a cluster-scoped reference without a namespace, in an
 * Event in a namespace where kube takes it, names that namespace (`tenantNamespace`, the Event's).
 */
export function clusterScopedEventRefIn(ctx: TenantContext, obj: KubeObject, key: string, tenantNamespace: string | undefined): void {
  const ref = clusterScopedRef(ctx, obj as Obj, key);
  if (!ref || (ref.namespace !== undefined && ref.namespace !== '') || tenantNamespace === undefined) return;
  if (tenantNamespace !== '' && takesClusterScopedReference(tenantNamespace, hasTime((obj as Obj).eventTime))) ref.namespace = tenantNamespace;
}

/** After the reference is translated (tenant terms): a cluster-scoped reference naming the Event's own namespace names none. */
export function clusterScopedEventRefOut(ctx: TenantContext, obj: KubeObject, key: string): void {
  const ref = clusterScopedRef(ctx, obj as Obj, key);
  if (ref && ref.namespace !== undefined && ref.namespace === obj.metadata?.namespace) delete ref.namespace;
}
