// Tenant-wide cpu/memory/storage quota as the last admitter of the chain
// (admission-chain.ts). A counted write takes the tenant's lock when it starts
// (quota-locks.ts) and keeps it until the upstream has answered, so the next
// write of the tenant sees this one; the final object (create/update body,
// patched object, an apply's merged dry-run result) is judged right before it is sent.
// Semantics: core/tenancy/quota; why a lock: docs/adr/0010-tenant-resource-quota.md.
import { hasResourceLimits, type ResourceLimits } from '../../core/tenancy/quota/quota-decision.ts';
import type { Upstream } from '../../kube/upstream.ts';
import type { TenantDirectory } from '../../tenants/tenant-directory.ts';
import type { Admitter, AdmitterRun } from './admission-chain.ts';
import { createTenantLocks } from './quota-locks.ts';
import { createQuotaUsageCache, type QuotaUsageCache, type TenantObjects } from './quota-usage-cache.ts';
import { answered, succeeded } from './response-answered.ts';
import { freesQuota, judgeWrite, quotaTargetOf, type JudgedWrite } from './quota-write.ts';

export interface QuotaAdmitterOptions {
  upstream: Upstream;
  tenants: TenantDirectory;
  /** How long a usage snapshot read from upstream is trusted (default 2 s). */
  ttlMs?: number;
  /** Longest the tenant's lock waits for an upstream answer before letting the next write in. */
  answerTimeoutMs?: number;
  /** Called with each refusal (metrics). */
  onRefusal?: (tenantId: string) => void;
}

export function quotaAdmitter(options: QuotaAdmitterOptions): Admitter {
  const locks = createTenantLocks();
  const cache: QuotaUsageCache = createQuotaUsageCache(options.upstream, options.ttlMs !== undefined ? { ttlMs: options.ttlMs } : {});
  const answerTimeoutMs = options.answerTimeoutMs ?? 60_000;
  const limitsOf = (tenantId: string): ResourceLimits | undefined => {
    const quota = options.tenants.byId(tenantId)?.quota;
    return hasResourceLimits(quota) ? quota : undefined;
  };

  return {
    name: 'quota',
    async start({ ctx, info, fwd, res }): Promise<AdmitterRun | undefined> {
      const target = quotaTargetOf(info, fwd.group);
      const limits = target ? limitsOf(ctx.id) : undefined;
      if (!target || !limits) {
        // A delete frees quota: read usage again once it is done.
        if (!freesQuota(info, fwd.group)) return undefined;
        return { end: () => { void answered(res, answerTimeoutMs).then(() => cache.invalidate(ctx.id)); } };
      }
      const release = await locks.acquire(ctx.id);
      let snapshot: TenantObjects;
      try {
        snapshot = await cache.get(ctx.id);
      } catch (err) {
        cache.invalidate(ctx.id);
        release();
        throw err; // unreadable usage refuses the write (500) rather than let it through unchecked
      }
      let judged: JudgedWrite | undefined;
      return {
        admit(final) {
          const name = info.name || final.upstream.metadata?.name || '';
          judged = judgeWrite({ limits, snapshot, target, namespace: fwd.namespace, name, written: final.upstream, apply: final.apply });
          if (judged?.refusal) {
            options.onRefusal?.(ctx.id);
            throw judged.refusal;
          }
        },
        async end(failed) {
          try {
            if (failed) {
              cache.invalidate(ctx.id); // nothing was answered: the handler answers, and the lock is free at once
              return;
            }
            await answered(res, answerTimeoutMs);
            // A written object whose name is known updates the snapshot; anything else reads upstream again.
            if (judged && !judged.refusal && succeeded(res) && judged.next.obj.metadata.name) snapshot.objects.set(judged.key, judged.next);
            else cache.invalidate(ctx.id);
          } finally {
            release();
          }
        },
      };
    },
  };
}
