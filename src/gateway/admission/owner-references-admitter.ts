// ownerReferences are followed by the host's garbage collector by uid: a
// reference to another tenant's object (its uid under one of the tenant's own
// names), to a Node, or to anything the tenant cannot reach, makes the
// collector act across the boundary (a foreground deletion of the other
// tenant's object waits on the tenant's dependent; a forged uid links graphs
// that must stay apart). The guard (guard-body.ts) refuses kinds the tenant
// cannot own by their class; this admitter proves each new reference names an
// object the tenant owns: the owner is read upstream where the reference
// points (the dependent's namespace for a namespaced kind) and must exist,
// carry the tenant label and have that uid, as kube's collector itself checks
// an owner. A namespaced owner of a cluster-scoped dependent is refused, as
// kube's collector treats it as invalid.
//
// A namespaced owner that does not exist (yet) is accepted, as kube accepts it:
// its coordinates are the dependent's own namespace, the tenant's, and kube's
// collector resolves an owner by those coordinates and the uid together. On
// 1.20 (checked with its garbage collector) a dependent whose owner is absent,
// or whose uid is another namespace's object, is deleted within seconds (the
// latter with an OwnerRefInvalidNamespace event in the dependent's namespace),
// and that other object, its dependents and its foreground deletion are
// untouched. The embedded collector looks owners up the same way. A
// cluster-scoped owner that does not exist stays refused: its coordinates are
// outside the tenant's namespaces.
import { invalid } from '../../core/api-error.ts';
import { isObject, type KubeObject } from '../../core/types.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import type { Upstream } from '../../kube/upstream.ts';
import type { Admitter } from './admission-chain.ts';

const WRITES = new Set(['create', 'update', 'patch']);

interface Ref { apiVersion: string; kind: string; name: string; uid: string }
interface Discovered { resource: string; namespaced: boolean }

function refsOf(obj: KubeObject | undefined): Ref[] {
  const refs = obj?.metadata?.ownerReferences;
  if (!Array.isArray(refs)) return [];
  return refs.filter((r): r is Ref => isObject(r) && typeof r.apiVersion === 'string' && typeof r.kind === 'string' && typeof r.name === 'string' && typeof r.uid === 'string');
}

/** The resource of a kind, from the upstream's discovery (built-in and custom kinds alike). */
async function discover(upstream: Upstream, apiVersion: string, kind: string): Promise<Discovered | undefined> {
  const path = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  const res = await upstream.request<{ resources?: Array<{ name: string; kind: string; namespaced: boolean }> }>('GET', path);
  if (res.status !== 200) return undefined;
  const found = (res.body.resources ?? []).find((r) => r.kind === kind && !r.name.includes('/'));
  return found ? { resource: found.name, namespaced: found.namespaced } : undefined;
}

/** Why the reference is not to one of the tenant's objects, or undefined. */
async function ownerRefusal(upstream: Upstream, tenantId: string, ref: Ref, namespace: string): Promise<string | undefined> {
  const found = await discover(upstream, ref.apiVersion, ref.kind);
  if (!found) return `the owner kind ${ref.kind} is not one this cluster serves`;
  if (found.namespaced && !namespace) return `a cluster-scoped object cannot be owned by a namespaced ${ref.kind}`;
  const base = ref.apiVersion.includes('/') ? `/apis/${ref.apiVersion}` : `/api/${ref.apiVersion}`;
  const path = `${base}${found.namespaced ? `/namespaces/${encodeURIComponent(namespace)}` : ''}/${found.resource}/${encodeURIComponent(ref.name)}`;
  const owner = await upstream.request<KubeObject>('GET', path);
  if (owner.status === 404 && found.namespaced) return undefined; // dangling: the collector's to delete (above)
  if (owner.status !== 200 || owner.body.metadata?.labels?.[TENANT_LABEL] !== tenantId || owner.body.metadata.uid !== ref.uid) {
    return `the owner ${ref.kind} with uid ${ref.uid} is not one of your objects`;
  }
  return undefined;
}

export function ownerReferencesAdmitter(upstream: Upstream): Admitter {
  return {
    name: 'owner-references',
    start({ ctx, info, fwd }) {
      if (!WRITES.has(info.verb) || (info.subresource !== '' && info.subresource !== 'status')) return undefined;
      return {
        async admit(final) {
          // References the stored object already had were judged when they were written.
          const known = new Set(refsOf(final.stored).map((r) => r.uid));
          const upstreamRefs = refsOf(final.upstream);
          for (const [i, ref] of upstreamRefs.entries()) {
            if (known.has(ref.uid)) continue;
            const why = await ownerRefusal(upstream, ctx.id, ref, fwd.namespaced ? fwd.namespace : '');
            if (!why) continue;
            const name = info.name || final.tenant.metadata?.name || final.tenant.metadata?.generateName || '';
            throw invalid({ ...(info.apiGroup ? { group: info.apiGroup } : {}), kind: final.tenant.kind ?? info.resource, name }, [{ type: 'FieldValueInvalid', field: `metadata.ownerReferences[${i}]`, message: `Invalid value: ${why}` }]);
          }
        },
      };
    },
  };
}
