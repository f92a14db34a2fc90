// Every tenant's RBAC objects from the upstream: one informer per RBAC
// resource, selecting objects with the tenant label, indexed by tenant id.
import type { KubeObject } from '../../core/types.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import { RBAC_GROUP } from '../../core/rbac/index.ts';
import { startInformer, type Informer } from '../../kube/informer.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { createCatchUp } from '../../kube/informer-catch-up.ts';
import { tenantOfObject, type RbacResource, type RbacSource } from './tenant-policies.ts';

const RESOURCES: RbacResource[] = ['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings'];

export interface UpstreamRbacSource extends RbacSource {
  synced(): Promise<void>;
  /**
   * Resolves once every RBAC informer has caught up with the upstream's version as of
   * this call (true), or after timeoutMs (false). Only upstreams that bookmark on request
   * (a Warren apiserver) can prove it; with others it resolves false at once.
   */
  catchUp(timeoutMs: number): Promise<boolean>;
  stop(): void;
}

export function startUpstreamRbacSource(upstream: Upstream, log?: (line: string) => void): UpstreamRbacSource {
  const listeners: Array<(tenantId: string) => void> = [];
  const notify = (obj: KubeObject | undefined): void => {
    const id = obj ? tenantOfObject(obj) : undefined;
    if (id) for (const listener of listeners) listener(id);
  };
  const informers = new Map<RbacResource, Informer<KubeObject>>();
  const policyView = createPolicyView();
  for (const resource of RESOURCES) {
    const informer = startInformer<KubeObject>({
      upstream,
      listPath: `/apis/${RBAC_GROUP}/v1/${resource}`,
      labelSelector: TENANT_LABEL,
      transform: policyView,
      // A Warren upstream bookmarks these watches on request: catchUp() can prove them current.
      progressNotify: true,
      onEvent: (_type, obj, old) => {
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
    catchUp: createCatchUp(upstream, [...informers.values()], `/apis/${RBAC_GROUP}/v1/clusterrolebindings`),
    stop: () => {
      for (const informer of informers.values()) informer.stop();
    },
  };
}

/**
 * What the authorizer reads of an RBAC object, stored in place of the whole object.
 * Memory per idle tenant (onboarding bench): every tenant holds its own copy of kube's
 * default roles, 14 objects and ~25 KB of JSON. The authorizer reads only rules, subjects,
 * roleRef, aggregationRule, name, namespace and labels, and clones before use
 * (tenant-policies.ts), so the view drops managedFields, annotations, uid and timestamps,
 * shares identical rules, and keeps one copy of the strings every tenant repeats
 * (apiVersion, kind, label keys and values, roleRef and subject kinds). Both pools are
 * bounded, so tenants' own distinct roles cannot grow them forever.
 */
export function createPolicyView(limit = 1_000): (obj: KubeObject) => KubeObject {
  const sharedRules = new Map<string, unknown>();
  const strings = new Map<string, string>();
  const intern = (s: string): string => {
    const known = strings.get(s);
    if (known !== undefined) return known;
    if (strings.size < limit) strings.set(s, s);
    return s;
  };
  const internAll = (value: unknown): unknown => {
    if (typeof value === 'string') return intern(value);
    if (Array.isArray(value)) return value.map(internAll);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, internAll(v)]));
    return value;
  };
  return (obj) => {
    const { name, namespace, resourceVersion, labels } = obj.metadata;
    const view: KubeObject = {
      ...(obj.apiVersion ? { apiVersion: intern(obj.apiVersion) } : {}),
      ...(obj.kind ? { kind: intern(obj.kind) } : {}),
      metadata: {
        ...(name !== undefined ? { name } : {}),
        ...(namespace !== undefined ? { namespace } : {}),
        ...(resourceVersion !== undefined ? { resourceVersion } : {}),
        ...(labels ? { labels: internAll(labels) as Record<string, string> } : {}),
      },
    };
    if (obj.roleRef !== undefined) view.roleRef = internAll(obj.roleRef);
    if (obj.subjects !== undefined) view.subjects = internAll(obj.subjects);
    if (obj.aggregationRule !== undefined) view.aggregationRule = obj.aggregationRule;
    if (Array.isArray(obj.rules)) {
      const key = JSON.stringify(obj.rules);
      const shared = sharedRules.get(key);
      if (shared) view.rules = shared;
      else {
        if (sharedRules.size < limit) sharedRules.set(key, obj.rules);
        view.rules = obj.rules;
      }
    } else if (obj.rules !== undefined) view.rules = obj.rules;
    return view;
  };
}
