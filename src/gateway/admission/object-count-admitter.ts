// The tenant's count quota (namespaces, objects per resource) as the chain's
// last admitter (admission-chain.ts): a create reserves one object of its
// resource right before it is sent, after every other admitter let it through,
// and settles the reservation once its answer has gone out: stored (2xx), not
// stored (a 4xx from upstream), or unknown (anything else: the count is read
// again). A delete marks the count to be read again once it is answered; a
// namespace delete, every count of the tenant. Why counters and not a LIST per
// create: docs/adr/0031-object-count-quota-counters.md.
//
// Server-side apply that creates an object (a patch) is not counted, as before
// this admitter: see the ADR.
import type { ServerResponse } from 'node:http';
import type { Upstream } from '../../kube/upstream.ts';
import type { TenantDirectory } from '../../tenants/tenant-directory.ts';
import type { Admitter } from './admission-chain.ts';
import { createObjectCounts, type ObjectCounts, type Reservation } from './object-counts.ts';
import { countTargetOf, countTenantObjects, quotaExceeded } from './quota.ts';
import { answered } from './response-answered.ts';

export interface ObjectCountAdmitterOptions {
  upstream: Upstream;
  tenants: TenantDirectory;
  /** Default: counters trusted for 2 s (object-counts.ts). */
  counts?: ObjectCounts;
  /** Longest a reservation waits for its answer before it is settled as unknown. */
  answerTimeoutMs?: number;
  /** Called with each refusal (metrics). */
  onRefusal?: (tenantId: string) => void;
}

function settle(reservation: Reservation, res: ServerResponse, timeoutMs: number): void {
  void answered(res, timeoutMs).then(() => {
    const status = res.statusCode;
    // The client left, or no answer in time: the create may still land upstream.
    if (!res.writableFinished || !res.headersSent) reservation.unknown();
    else if (status >= 200 && status < 300) reservation.commit();
    // A 4xx proves nothing was stored (409 AlreadyExists, 422, a 429 from the upstream's
    // priority and fairness), except a 408: the upstream may have stored it after all.
    else if (status >= 400 && status < 500 && status !== 408) reservation.release();
    else reservation.unknown();
  });
}

export function objectCountAdmitter(options: ObjectCountAdmitterOptions): Admitter {
  const counts = options.counts ?? createObjectCounts();
  const answerTimeoutMs = options.answerTimeoutMs ?? 60_000;
  return {
    name: 'object-count-quota',
    start({ ctx, info, fwd, res }) {
      if (info.verb === 'delete' || info.verb === 'deletecollection') {
        if (!info.isResourceRequest || info.subresource) return undefined;
        const namespaceGone = info.apiGroup === '' && info.resource === 'namespaces';
        return { end: () => { void answered(res, answerTimeoutMs).then(() => counts.stale(ctx.id, namespaceGone ? undefined : `${fwd.group}/${info.resource}`)); } };
      }
      const tenant = options.tenants.byId(ctx.id);
      const target = tenant ? countTargetOf(tenant, info, fwd) : undefined;
      if (!target) return undefined;
      let reservation: Reservation | undefined;
      return {
        async admit() {
          if (reservation) return; // admitted again (a retried write): one object, one reservation
          const reserved = await counts.reserve({
            tenantId: ctx.id, resource: target.key, limit: target.limit,
            load: (cap) => countTenantObjects(options.upstream, ctx.id, target, cap),
          });
          if ('refused' in reserved) {
            options.onRefusal?.(ctx.id);
            throw quotaExceeded(target.resource, reserved.refused.used, target.limit);
          }
          reservation = reserved.reservation;
        },
        end(failed) {
          if (!reservation) return;
          // The write threw after its reservation: it may or may not have reached the upstream.
          if (failed) reservation.unknown();
          else settle(reservation, res, answerTimeoutMs);
        },
      };
    },
  };
}
