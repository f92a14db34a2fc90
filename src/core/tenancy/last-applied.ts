// kubectl's last-applied annotation, when the upstream wrote it. On a
// server-side apply by kubectl over an object that has the annotation, kube-
// apiserver rewrites it from the applied configuration it received: the
// gateway's upstream one (prefixed namespace, the tenant label, the
// resourceVersion pin of apply-by-dry-run.ts). Shown as is, it names the
// tenant's upstream prefix. Such a configuration is recognised by the tenant
// label, which a tenant can never write itself (ADR 21): it is translated back
// like any object, the pin dropped. One kubectl wrote in tenant terms (client-
// side apply) carries no tenant label and passes untouched.
import { isObject, type KubeObject } from '../types.ts';
import { TENANT_LABEL } from './tenant-id.ts';
import type { TenantContext } from './tenant-context.ts';

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** Rewrites the annotation (in place) to tenant terms, or removes it when it is not the tenant's. */
export function lastAppliedToTenant(ctx: TenantContext, obj: KubeObject, toTenant: (ctx: TenantContext, obj: KubeObject) => KubeObject | undefined): void {
  const annotations = obj.metadata?.annotations;
  const text = annotations?.[LAST_APPLIED];
  if (!annotations || typeof text !== 'string') return;
  let applied: unknown;
  try {
    applied = JSON.parse(text);
  } catch {
    return; // not JSON: kubectl's own business, nothing the gateway wrote
  }
  if (!isObject(applied) || !isObject(applied.metadata) || !isObject(applied.metadata.labels) || applied.metadata.labels[TENANT_LABEL] === undefined) return;
  const inner = applied as unknown as KubeObject;
  if (inner.metadata.annotations) delete inner.metadata.annotations[LAST_APPLIED];
  delete inner.metadata.resourceVersion;
  const view = inner.metadata.labels?.[TENANT_LABEL] === ctx.id ? toTenant(ctx, inner) : undefined;
  if (view === undefined) delete annotations[LAST_APPLIED];
  else annotations[LAST_APPLIED] = `${JSON.stringify(view)}${text.endsWith('\n') ? '\n' : ''}`;
}
