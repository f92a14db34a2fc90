// A workload may not name what the cluster reserves (core/tenancy/reserved-references.ts):
// a `system-*` priority class in a pod spec, a volume in a StatefulSet's claim
// templates. Both are followed by the host's own controllers (scheduler and
// kubelet; StatefulSet controller and volume binder), never by the gateway, so
// this is the only place to refuse them. A field left as the stored object has
// it passes (an object written before this check can still be scaled or
// deleted); a new or changed one is refused, 403 in the tenant's terms.
import { forbidden } from '../../core/api-error.ts';
import { hostReservedReferences, describeReserved, kindKey } from '../../core/tenancy/reserved-references.ts';
import type { Admitter } from './admission-chain.ts';

const WRITES = new Set(['create', 'update', 'patch']);

export function reservedReferencesAdmitter(): Admitter {
  return {
    name: 'reserved-references',
    start({ ctx, info }) {
      if (!WRITES.has(info.verb) || info.subresource) return undefined;
      return {
        admit(final) {
          const kind = final.tenant.kind;
          if (typeof kind !== 'string') return;
          const key = kindKey(info.apiGroup, kind);
          const kept = new Set(hostReservedReferences(key, final.stored).map((r) => `${r.field}=${r.value}`));
          const ref = hostReservedReferences(key, final.tenant).find((r) => !kept.has(`${r.field}=${r.value}`));
          if (!ref) return;
          const name = info.name || final.tenant.metadata?.name || '';
          throw forbidden({ resource: info.resource, group: info.apiGroup, verb: info.verb, name, namespace: info.namespace, ...(ctx.user !== undefined ? { user: ctx.user } : {}) }, describeReserved(ref));
        },
      };
    },
  };
}
