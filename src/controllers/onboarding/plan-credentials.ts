// Phase 5, the decision half (pure): which users need a new certificate and
// why, which kubeconfigs to drop, and when to look again. A user's certificate
// is re-issued when it is new, when its groups or the tenant's certificate
// lifetime changed, when less than a third of its lifetime remains (rotation),
// or when it was issued before spec.credentials.revokeBefore (revocation; the
// gateway already refuses it), or when it is not bound to this Tenant object's
// uid (ADR 0025: from before the binding, or from an earlier Tenant). Certificates carry whole seconds, and so does
// the gateway's revocation check (authn/revocation.ts): compare the same way.
import type { TenantUser } from '../../tenants/tenant-crd.ts';

export interface IssuedCredential {
  user: string;
  groups: string[];
  notBefore: Date;
  notAfter: Date;
  /** The Tenant uid the certificate is bound to (ADR 0025); absent in certificates from before. */
  tenantUid?: string;
}

export type IssueWhy = 'new' | 'changed' | 'rotate' | 'revoke' | 'rebind';

export interface CredentialPlan {
  issue: { user: TenantUser; why: IssueWhy }[];
  /** Users whose kubeconfig is in the Secret but who are no longer in spec.users. */
  drop: string[];
  /** When the next rotation (or a revocation instant still in the future) is due. */
  requeueAfterMs?: number;
  /** Set once every kept certificate was issued at or after revokeBefore. */
  revokedUpTo?: Date;
}

export interface PlanCredentialsInput {
  users: readonly TenantUser[];
  existing: ReadonlyMap<string, IssuedCredential>;
  lifetimeMs: number;
  revokeBefore?: Date;
  now: Date;
  /** The Tenant's metadata.uid: a certificate bound to no Tenant, or to another, is re-issued. */
  tenantUid?: string;
}

const sec = (d: Date): number => Math.floor(d.getTime() / 1000);
const sameGroups = (a: readonly string[], b: readonly string[]): boolean => [...a].sort().join('\n') === [...b].sort().join('\n');

export function rotationDue(cred: IssuedCredential): Date {
  const lifetime = cred.notAfter.getTime() - cred.notBefore.getTime();
  return new Date(cred.notAfter.getTime() - lifetime / 3);
}

export function planCredentials(input: PlanCredentialsInput): CredentialPlan {
  const { now, lifetimeMs, revokeBefore } = input;
  const plan: CredentialPlan = { issue: [], drop: [] };
  const wanted = new Set(input.users.map((u) => u.name));
  for (const user of input.existing.keys()) if (!wanted.has(user)) plan.drop.push(user);
  // A revocation instant in the future: a certificate issued now would be refused then, so wait for it.
  const revocationPending = revokeBefore !== undefined && sec(now) < sec(revokeBefore);
  let next = Infinity;
  for (const user of input.users) {
    const cred = input.existing.get(user.name);
    const why = whyIssue(user, cred, { lifetimeMs, revokeBefore, now, tenantUid: input.tenantUid });
    if (why && !(why === 'revoke' && revocationPending)) {
      plan.issue.push({ user, why });
      next = Math.min(next, lifetimeMs - lifetimeMs / 3);
      continue;
    }
    if (cred) next = Math.min(next, rotationDue(cred).getTime() - now.getTime());
  }
  if (revocationPending && revokeBefore) next = Math.min(next, revokeBefore.getTime() - now.getTime() + 1000 - (revokeBefore.getTime() % 1000));
  if (Number.isFinite(next)) plan.requeueAfterMs = Math.max(0, Math.ceil(next));
  if (revokeBefore && !revocationPending) plan.revokedUpTo = revokeBefore;
  return plan;
}

function whyIssue(user: TenantUser, cred: IssuedCredential | undefined, ctx: { lifetimeMs: number; revokeBefore: Date | undefined; now: Date; tenantUid: string | undefined }): IssueWhy | undefined {
  if (!cred) return 'new';
  if (ctx.revokeBefore && sec(cred.notBefore) < sec(ctx.revokeBefore)) return 'revoke';
  // Migration (ADR 0025): certificates from before the binding, or left in the Secret by an
  // earlier Tenant with this name, are re-issued bound to this Tenant.
  if (ctx.tenantUid !== undefined && cred.tenantUid !== ctx.tenantUid) return 'rebind';
  if (!sameGroups(user.groups ?? [], cred.groups)) return 'changed';
  // Whole seconds on the certificate: a lifetime with a fraction differs by under a second.
  if (Math.abs(cred.notAfter.getTime() - cred.notBefore.getTime() - ctx.lifetimeMs) >= 1000) return 'changed';
  if (ctx.now.getTime() >= rotationDue(cred).getTime()) return 'rotate';
  return undefined;
}
