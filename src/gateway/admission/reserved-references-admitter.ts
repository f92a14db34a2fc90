// A workload may not name what the cluster reserves (core/tenancy/reserved-references.ts):
// a `system-*` priority class or a node in a pod spec, a volume in a
// StatefulSet's claim templates, a Service's external IPs. Each is followed by
// the host's own components (scheduler, kubelet, StatefulSet controller and
// volume binder, kube-proxy), never by the gateway, so this is the only place to
// refuse them. A field left as the stored object has it passes (an object
// written before this check, or a pod the scheduler placed, can still be
// replaced, scaled or deleted); a new or changed one is refused, 403 in the
// tenant's terms. A PUT carries no stored object: it is read upstream, only
// when the body names something (none of these fields is rewritten by
// translation, so the upstream spelling compares as is).
// The tenant's placement contract (ADR 0043, core/tenancy/pod-placement.ts)
// is judged here too, with the same rule: a toleration it does not allow, or
// a forced node selector pair missing or changed, in any pod spec, is refused
// unless the stored object already has it (a pod kube's own admission gave
// more tolerations, an object written before the contract).
import { forbidden } from '../../core/api-error.ts';
import type { KubeObject } from '../../core/types.ts';
import { hostReservedReferences, describeReserved, kindKey, type ReservedReference } from '../../core/tenancy/reserved-references.ts';
import { placementViolations, SAFE_PLACEMENT, type PlacementContract } from '../../core/tenancy/pod-placement.ts';
import type { Upstream } from '../../kube/upstream.ts';
import type { Admitter } from './admission-chain.ts';

const WRITES = new Set(['create', 'update', 'patch']);

export function reservedReferencesAdmitter(upstream: Pick<Upstream, 'request'>, placementOf: (tenantId: string) => PlacementContract = () => SAFE_PLACEMENT): Admitter {
  return {
    name: 'reserved-references',
    start({ ctx, info, fwd }) {
      if (!WRITES.has(info.verb) || info.subresource) return undefined;
      const contract = placementOf(ctx.id);
      const refusable = (key: string, obj: unknown): ReservedReference[] => [...hostReservedReferences(key, obj), ...placementViolations(key, obj, contract)];
      const readStored = async (): Promise<KubeObject | undefined> => {
        if (info.verb === 'create') return undefined;
        const current = await upstream.request<KubeObject>('GET', fwd.path);
        return current.status === 200 ? current.body : undefined;
      };
      return {
        async admit(final) {
          const kind = final.tenant.kind;
          if (typeof kind !== 'string') return;
          const key = kindKey(info.apiGroup, kind);
          const asked = refusable(key, final.tenant);
          if (asked.length === 0) return;
          const stored = final.stored ?? await readStored();
          const kept = new Set(refusable(key, stored).map((r) => `${r.field}=${r.value}`));
          const ref = asked.find((r) => !kept.has(`${r.field}=${r.value}`));
          if (!ref) return;
          const name = info.name || final.tenant.metadata?.name || '';
          throw forbidden({ resource: info.resource, group: info.apiGroup, verb: info.verb, name, namespace: info.namespace, ...(ctx.user !== undefined ? { user: ctx.user } : {}) }, describeReserved(ref));
        },
      };
    },
  };
}
