// Every tenant's RBAC objects from the upstream: one informer per RBAC
// resource, selecting objects with the tenant label, indexed by tenant id.
import type { KubeObject } from '../../core/types.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import { RBAC_GROUP } from '../../core/rbac/index.ts';
import { startInformer, type Informer } from '../../kube/informer.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { tenantOfObject, type RbacResource, type RbacSource } from './tenant-policies.ts';

const RESOURCES: RbacResource[] = ['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings'];

export interface UpstreamRbacSource extends RbacSource {
  synced(): Promise<void>;
  stop(): void;
}

export function startUpstreamRbacSource(upstream: Upstream, log?: (line: string) => void): UpstreamRbacSource {
  const listeners: Array<(tenantId: string) => void> = [];
  const notify = (obj: KubeObject | undefined): void => {
    const id = obj ? tenantOfObject(obj) : undefined;
    if (id) for (const listener of listeners) listener(id);
  };
  const informers = new Map<RbacResource, Informer<KubeObject>>();
  // Memory per idle tenant (onboarding bench): every tenant holds its own copy of
  // kube's default roles, ~25 KB of JSON each. The authorizer reads only rules,
  // subjects, roleRef, aggregationRule, name and labels, and clones before use
  // (tenant-policies.ts), so the stored object drops managedFields and shares
  // identical rules (bounded, so tenants' own distinct roles cannot grow it forever).
  const sharedRules = new Map<string, unknown>();
  const shrink = (obj: KubeObject): void => {
    delete obj.metadata.managedFields;
    if (!Array.isArray(obj.rules)) return;
    const key = JSON.stringify(obj.rules);
    const shared = sharedRules.get(key);
    if (shared) obj.rules = shared;
    else if (sharedRules.size < 1_000) sharedRules.set(key, obj.rules);
  };
  for (const resource of RESOURCES) {
    const informer = startInformer<KubeObject>({
      upstream,
      listPath: `/apis/${RBAC_GROUP}/v1/${resource}`,
      labelSelector: TENANT_LABEL,
      onEvent: (type, obj, old) => {
        if (type !== 'DELETED') shrink(obj); // the stored object itself (the informer keeps this reference)
        notify(obj);
        if (old && tenantOfObject(old) !== tenantOfObject(obj)) notify(old);
      },
      ...(log ? { log } : {}),
    });
    informer.addIndex('tenant', (obj) => {
      const id = tenantOfObject(obj);
      return id ? [id] : [];
    });
    informers.set(resource, informer);
  }
  return {
    objectsOf: (resource, tenantId) => informers.get(resource)?.byIndex('tenant', tenantId) ?? [],
    onChange: (listener) => {
      listeners.push(listener);
    },
    synced: async () => {
      await Promise.all([...informers.values()].map((i) => i.synced()));
    },
    stop: () => {
      for (const informer of informers.values()) informer.stop();
    },
  };
}
