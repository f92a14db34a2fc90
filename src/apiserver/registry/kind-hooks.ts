// Per-kind lifecycle rules that kube-apiserver's registry strategies apply:
// what status a new object starts with, how a deletion is staged. Kinds with no
// row here get the generic behaviour.
import type { KubeObject } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import type { Store } from '../store/store.ts';
import { timestamp } from './object-meta.ts';
import { allocateServiceAddresses } from './service-addresses.ts';

export interface HookContext {
  now: Date;
  store: Store;
}

export interface KindHooks {
  prepareForCreate(obj: KubeObject, ctx: HookContext): KubeObject;
  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx: HookContext): KubeObject;
  /** The object marked for deletion (deletionTimestamp set) when it must linger, or undefined to delete now. */
  prepareForDelete(old: KubeObject, ctx: { now: Date; finalizers: string[] }): KubeObject | undefined;
  /** Writes through the main endpoint may change status (kinds without a status subresource). */
  statusWritableOnMain?: boolean;
}

function markDeleted(old: KubeObject, now: Date, finalizers: string[]): KubeObject {
  return {
    ...old,
    metadata: {
      ...old.metadata,
      finalizers,
      deletionTimestamp: old.metadata.deletionTimestamp ?? timestamp(now),
      deletionGracePeriodSeconds: old.metadata.deletionGracePeriodSeconds ?? 0,
    },
  };
}

const generic = (def: ResourceDef): KindHooks => ({
  prepareForCreate: (obj) => {
    if (!def.subresources?.status) return obj;
    // The status of a new object is the server's to fill in, not the client's.
    const out = { ...obj };
    if (def.custom) delete out.status;
    else out.status = {};
    return out;
  },
  prepareForUpdate: (obj) => obj,
  prepareForDelete: (old, { now, finalizers }) => (finalizers.length > 0 ? markDeleted(old, now, finalizers) : undefined),
});

const namespaces: KindHooks = {
  prepareForCreate: (obj) => ({
    ...obj,
    metadata: { ...obj.metadata, labels: { ...(obj.metadata.labels ?? {}), 'kubernetes.io/metadata.name': obj.metadata.name ?? '' } },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  }),
  prepareForUpdate: (obj, old) => ({
    ...obj,
    metadata: { ...obj.metadata, labels: { ...(obj.metadata.labels ?? {}), 'kubernetes.io/metadata.name': obj.metadata.name ?? '' } },
    // spec.finalizers only change through the finalize subresource.
    spec: old.spec,
  }),
  prepareForDelete: (old, { now, finalizers }) => {
    const specFinalizers = ((old.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []);
    if (specFinalizers.length === 0 && finalizers.length === 0) return undefined;
    const marked = markDeleted(old, now, finalizers);
    return { ...marked, status: { ...((old.status as object | undefined) ?? {}), phase: 'Terminating' } };
  },
};

const pods = (def: ResourceDef): KindHooks => ({
  ...generic(def),
  prepareForCreate: (obj) => ({ ...obj, status: { phase: 'Pending', qosClass: qosClass(obj) } }),
});

const services = (def: ResourceDef): KindHooks => ({
  ...generic(def),
  prepareForCreate: (obj, ctx) => ({ ...allocateServiceAddresses(obj, undefined, ctx.store), status: { loadBalancer: {} } }),
  prepareForUpdate: (obj, old, ctx) => allocateServiceAddresses(obj, old, ctx.store),
});

/**
 * A new quota starts with an empty status, as kube's strategy makes it: its controller fills status.hard and
 * status.used soon after (quota-controller.ts), and admission enforces nothing of it until then (real 1.20).
 */
const resourceQuotas = (def: ResourceDef): KindHooks => ({
  ...generic(def),
  prepareForCreate: (obj) => ({ ...obj, status: {} }),
});

const pvcs = (def: ResourceDef): KindHooks => ({
  ...generic(def),
  prepareForCreate: (obj) => ({ ...obj, status: { phase: 'Pending' } }),
});

/**
 * Secret.stringData is write-only: the server merges it into data (base64),
 * stringData winning on a shared key, and never stores or returns it.
 */
function mergeStringData(obj: KubeObject): KubeObject {
  const stringData = obj.stringData as Record<string, unknown> | undefined;
  if (stringData === undefined || stringData === null) return obj;
  const { stringData: _merged, ...rest } = obj;
  const data = { ...((obj.data as Record<string, string> | undefined) ?? {}) };
  for (const [key, value] of Object.entries(stringData)) data[key] = Buffer.from(String(value), 'utf8').toString('base64');
  return { ...rest, data } as KubeObject;
}

const secrets = (def: ResourceDef): KindHooks => ({
  ...generic(def),
  prepareForCreate: (obj, ctx) => generic(def).prepareForCreate(mergeStringData(obj), ctx),
  prepareForUpdate: (obj) => mergeStringData(obj),
});

function qosClass(pod: KubeObject): string {
  const containers = ((pod.spec as { containers?: Array<{ resources?: { requests?: object; limits?: object } }> } | undefined)?.containers ?? []);
  const any = containers.some((c) => Object.keys(c.resources?.requests ?? {}).length + Object.keys(c.resources?.limits ?? {}).length > 0);
  if (!any) return 'BestEffort';
  const guaranteed = containers.every((c) => {
    const limits = c.resources?.limits as Record<string, string> | undefined;
    const requests = (c.resources?.requests ?? limits ?? {}) as Record<string, string>;
    return limits?.cpu !== undefined && limits?.memory !== undefined && requests.cpu === limits.cpu && requests.memory === limits.memory;
  });
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** CRDs carry the cleanup finalizer from birth, so their custom resources go before they do. */
const crds = (def: ResourceDef): KindHooks => ({
  ...generic(def),
  prepareForCreate: (obj, ctx) => {
    const out = generic(def).prepareForCreate(obj, ctx);
    const finalizers = out.metadata.finalizers ?? [];
    if (finalizers.includes(CRD_CLEANUP_FINALIZER)) return out;
    return { ...out, metadata: { ...out.metadata, finalizers: [...finalizers, CRD_CLEANUP_FINALIZER] } };
  },
});

const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

// Built once per resource definition: every write asks, and building the hooks allocates a dozen closures.
const hooksByDef = new WeakMap<ResourceDef, KindHooks>();

export function kindHooks(def: ResourceDef): KindHooks {
  let hooks = hooksByDef.get(def);
  if (!hooks) {
    hooks = buildKindHooks(def);
    hooksByDef.set(def, hooks);
  }
  return hooks;
}

function buildKindHooks(def: ResourceDef): KindHooks {
  if (def.group === 'apiextensions.k8s.io' && def.resource === 'customresourcedefinitions') return crds(def);
  if (def.group === '') {
    switch (def.resource) {
      case 'namespaces': return namespaces;
      case 'pods': return pods(def);
      case 'services': return services(def);
      case 'persistentvolumeclaims': return pvcs(def);
      case 'resourcequotas': return resourceQuotas(def);
      case 'secrets': return secrets(def);
      default: break;
    }
  }
  return generic(def);
}
