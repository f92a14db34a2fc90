// Progress for long CLI operations (`tenant create --wait`, `apply --wait`):
// one short line per change, stamped with the elapsed time. Never a spinner or
// a rewritten line: a pipe, a CI log or `tee` must read the same as a terminal,
// and a line only appears when something changed, so a slow tenant does not
// flood the log while it waits.
import type { Tenant } from '../tenants/tenant-crd.ts';

export interface Progress {
  /** Prints the line at once. */
  line(text: string): void;
  /** Prints `subject: text` only when text differs from the last one printed for subject. */
  update(subject: string, text: string): void;
}

export function createProgress(write: (text: string) => void, now: () => number = Date.now): Progress {
  const startedAt = now();
  const last = new Map<string, string>();
  const stamp = (): string => `${((now() - startedAt) / 1000).toFixed(1)}s`.padStart(6);
  return {
    line: (text) => write(`  [${stamp()}] ${text}\n`),
    update(subject, text) {
      if (last.get(subject) === text) return;
      last.set(subject, text);
      write(`  [${stamp()}] ${subject}: ${text}\n`);
    },
  };
}

// Onboarding sets its conditions in this order; the first one not True is the step under way.
const STEPS = ['IdAssigned', 'NamespacesReady', 'RbacReady', 'CredentialsReady', 'Ready'];

function rank(type: string): number {
  const at = STEPS.indexOf(type);
  return at < 0 ? STEPS.length : at;
}

/**
 * One short phrase for where a Tenant's onboarding stands, from its status alone:
 * a False condition first (that is a problem to show), else the first step not
 * yet done, present or not (the controller writes each as it gets there).
 */
export function describeTenant(tenant: Tenant): string {
  const status = tenant.status;
  if (status?.phase === 'Ready' && status.id) return `Ready (id ${status.id})`;
  if (status?.phase === 'Terminating') return 'Terminating';
  if (status?.phase === 'Suspended') return `Suspended (id ${status.id ?? '?'})`;
  const phase = status?.phase ?? 'Pending';
  const conditions = status?.conditions ?? [];
  if (conditions.length === 0) return `${phase}: waiting for the onboarding controller`;
  const failing = conditions.filter((c) => c.status === 'False').sort((a, b) => rank(a.type) - rank(b.type))[0];
  if (failing) {
    const detail = [failing.reason, failing.message].filter((s) => s).join(': ');
    return `${phase}: ${failing.type} False${detail ? ` (${detail})` : ''}`;
  }
  const next = STEPS.find((step) => conditions.find((c) => c.type === step)?.status !== 'True');
  const done = STEPS.filter((step) => conditions.find((c) => c.type === step)?.status === 'True').length;
  return next ? `${phase}: ${next} (${done}/${STEPS.length} steps done)` : `${phase}: every step done, waiting for the phase`;
}

/** Every condition that is not True, as `Type=Status Reason: message`; what `--wait` prints when it gives up. */
export function whyNotReady(tenant: Tenant | undefined): string[] {
  if (!tenant) return ['the Tenant was never read back from the host'];
  const conditions = tenant.status?.conditions ?? [];
  if (conditions.length === 0) return ['no status at all: is the onboarding controller running (warren up or warren serve against this host)?'];
  const open = conditions.filter((c) => c.status !== 'True').sort((a, b) => rank(a.type) - rank(b.type));
  if (open.length === 0) return [`every condition is True but the phase is ${tenant.status?.phase ?? 'unset'}`];
  return open.map((c) => `${c.type}=${c.status}${c.reason ? ` ${c.reason}` : ''}${c.message ? `: ${c.message}` : ''}`);
}

export type TenantVerdict = 'ready' | 'waiting' | 'failed';

/** Ready=False reasons that stay until someone changes a Tenant (the onboarding controller's Reason names). */
const FINAL_REASONS = new Set(['InvalidSpec', 'IdConflict']);

/**
 * Whether `--wait` is done with a Tenant. Ready counts only once the controller
 * has seen the current generation: right after an apply the old Ready is stale.
 * An InvalidSpec for the current generation is final until someone edits the
 * spec, so waiting on it would only burn the timeout. So is an IdConflict
 * (another Tenant holds the spec.id): the controller looks again now and then,
 * but only a human deleting or editing one of the two ends it.
 */
export function tenantVerdict(tenant: Tenant): TenantVerdict {
  const status = tenant.status;
  const generation = tenant.metadata.generation;
  const current = generation === undefined || (status?.observedGeneration ?? 0) >= generation;
  if (status?.phase === 'Ready' && status.id && current) return 'ready';
  const ready = status?.conditions?.find((c) => c.type === 'Ready');
  const seen = generation === undefined || ready?.observedGeneration === generation;
  if (ready?.status === 'False' && FINAL_REASONS.has(ready.reason ?? '') && seen) return 'failed';
  return 'waiting';
}
