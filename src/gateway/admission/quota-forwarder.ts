// Tenant-wide cpu/memory/storage quota around the forwarder: a counted write is
// judged and sent under the tenant's lock (quota-locks.ts), and the lock is held
// until the upstream has answered, so the next write of the tenant sees this
// one. Creates, updates and server-side applies are judged here on the body the
// forwarder prepared; JSON, merge and strategic patches (which the gateway
// applies itself) are judged on their final object through admitUpstreamObject
// (admit-request.ts → judgePendingPatch). Semantics: core/tenancy/quota;
// why a lock: docs/adr/0010-tenant-resource-quota.md.
import type { ServerResponse } from 'node:http';
import type { KubeObject } from '../../core/types.ts';
import type { RequestInfo } from '../../core/request-info.ts';
import { hasResourceLimits, type ResourceLimits } from '../../core/tenancy/quota/quota-decision.ts';
import type { Upstream } from '../../kube/upstream.ts';
import type { Forwarder } from '../forward/forwarder.ts';
import type { TenantDirectory } from '../tenant-directory.ts';
import { createTenantLocks } from './quota-locks.ts';
import { createQuotaUsageCache, type QuotaUsageCache, type TenantObjects } from './quota-usage-cache.ts';
import { freesQuota, judgeWrite, quotaTargetOf, type JudgedWrite, type QuotaTarget } from './quota-write.ts';
import { expectPatch } from './quota-pending-patch.ts';

export interface ResourceQuotaOptions {
  upstream: Upstream;
  tenants: TenantDirectory;
  /** How long a usage snapshot read from upstream is trusted (default 2 s). */
  ttlMs?: number;
  /** Longest the tenant's lock waits for an upstream answer before letting the next write in. */
  answerTimeoutMs?: number;
  /** Called with each refusal (metrics). */
  onRefusal?: (tenantId: string) => void;
}

/** Resolves when the response has gone out (or the client went away), or after the timeout. */
function answered(res: ServerResponse, timeoutMs: number): Promise<void> {
  if (res.writableFinished || res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, timeoutMs);
    function done(): void {
      clearTimeout(timer);
      res.off('finish', done);
      res.off('close', done);
      resolve();
    }
    res.once('finish', done);
    res.once('close', done);
  });
}

const succeeded = (res: ServerResponse): boolean => res.statusCode >= 200 && res.statusCode < 300;

export function withResourceQuota(inner: Forwarder, options: ResourceQuotaOptions): Forwarder {
  const locks = createTenantLocks();
  const cache: QuotaUsageCache = createQuotaUsageCache(options.upstream, options.ttlMs !== undefined ? { ttlMs: options.ttlMs } : {});
  const answerTimeoutMs = options.answerTimeoutMs ?? 60_000;
  const limitsOf = (tenantId: string): ResourceLimits | undefined => {
    const quota = options.tenants.byId(tenantId)?.quota;
    return hasResourceLimits(quota) ? quota : undefined;
  };

  function judge(limits: ResourceLimits, snapshot: TenantObjects, target: QuotaTarget, info: RequestInfo, namespace: string, written: KubeObject, apply: boolean): JudgedWrite | undefined {
    const name = info.name || written.metadata?.name || '';
    const judged = judgeWrite({ limits, snapshot, target, namespace, name, written, apply });
    if (judged?.refusal) throw judged.refusal;
    return judged;
  }

  return {
    prepare: (...args) => inner.prepare(...args),

    async send(req, res, ctx, info, fwd, prepared) {
      const target = quotaTargetOf(info, fwd.group);
      const limits = target ? limitsOf(ctx.id) : undefined;
      if (!target || !limits) {
        await inner.send(req, res, ctx, info, fwd, prepared);
        if (freesQuota(info, fwd.group)) void answered(res, answerTimeoutMs).then(() => cache.invalidate(ctx.id));
        return;
      }
      await locks.run(ctx.id, async () => {
        let snapshot: TenantObjects;
        try {
          snapshot = await cache.get(ctx.id);
        } catch (err) {
          cache.invalidate(ctx.id);
          throw err;
        }
        let judged: JudgedWrite | undefined;
        try {
          if (prepared.mode === 'patch') {
            // Judged on the final object, when patchByReadModifyWrite has it (possibly more than once, on conflicts).
            expectPatch(info, (obj) => { judged = judge(limits, snapshot, target, info, fwd.namespace, obj, false); });
          } else if (isObjectBody(prepared.body)) {
            judged = judge(limits, snapshot, target, info, fwd.namespace, prepared.body, prepared.contentType === 'application/apply-patch+yaml');
          }
        } catch (err) {
          options.onRefusal?.(ctx.id);
          throw err;
        }
        try {
          await inner.send(req, res, ctx, info, fwd, prepared);
        } catch (err) {
          if (isForbiddenQuota(err)) options.onRefusal?.(ctx.id);
          cache.invalidate(ctx.id);
          throw err; // nothing was answered yet: the handler answers, and the lock is free at once
        }
        await answered(res, answerTimeoutMs);
        // A written object whose name is known updates the snapshot; anything else reads upstream again.
        if (judged && succeeded(res) && judged.next.obj.metadata.name) snapshot.objects.set(judged.key, judged.next);
        else cache.invalidate(ctx.id);
      });
    },
  };
}

function isObjectBody(body: unknown): body is KubeObject {
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}

function isForbiddenQuota(err: unknown): boolean {
  return err instanceof Error && /exceeded quota: tenant-quota/.test(err.message);
}
