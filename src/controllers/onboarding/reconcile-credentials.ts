// Phase 5, the doing half: read what was issued from the kubeconfig Secret
// (the certificates themselves are the record: no second bookkeeping to drift),
// issue what planCredentials asks for, and write one Secret
// warren-system/tenant-<name>-kubeconfigs with a `<user>.kubeconfig` key per user.
import { tenantServerUrl } from '../../tenants/tenant-url.ts';
import '../../pki/certificates.ts'; // side effect: the WebCrypto provider for @peculiar/x509
import * as x509 from '@peculiar/x509';
import { parse } from 'yaml';
import type { KubeObject } from '../../core/types.ts';
import { ApiError } from '../../core/api-error.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import type { KeyPairPem } from '../../pki/certificates.ts';
import { SYSTEM_NAMESPACE } from '../../tenants/platform-secrets.ts';
import { KUBECONFIG_SUFFIX, SECRETS_PATH, kubeconfigKey, kubeconfigSecretName } from '../../tenants/kubeconfig-secret.ts';
import { issueTenantUserCertificate, tenantUserKubeconfig } from '../../tenants/credentials/issue-certificate.ts';
import { tenantUidsOfSubjectAltName } from '../../tenants/credentials/tenant-binding.ts';
import type { TenantUser } from '../../tenants/tenant-crd.ts';
import type { ObjectClient } from '../../kube/object-client.ts';
import { driftOf, ensureObject, mergeOwned } from './ensure-object.ts';
import { planCredentials, type CredentialPlan, type IssuedCredential } from './plan-credentials.ts';

/** The certificate in a kubeconfig, as an IssuedCredential; undefined when unreadable. */
export function readIssuedCredential(kubeconfig: string): IssuedCredential | undefined {
  try {
    const doc = parse(kubeconfig) as { users?: { user?: Record<string, string> }[] };
    const data = doc.users?.[0]?.user?.['client-certificate-data'];
    if (!data) return undefined;
    const cert = new x509.X509Certificate(Buffer.from(data, 'base64').toString('utf8'));
    const name = new x509.Name(cert.subject).toJSON();
    const values = (key: string): string[] => name.flatMap((rdn) => rdn[key] ?? []);
    const user = values('CN')[0];
    if (user === undefined) return undefined;
    const issued: IssuedCredential = { user, groups: values('O'), notBefore: cert.notBefore, notAfter: cert.notAfter };
    const san = cert.getExtension(x509.SubjectAlternativeNameExtension);
    const uids = tenantUidsOfSubjectAltName(san?.names.toJSON().filter((n) => n.type === 'url').map((n) => `URI:${n.value}`).join(', '));
    if (uids.length === 1 && uids[0] !== undefined) issued.tenantUid = uids[0];
    return issued;
  } catch {
    return undefined;
  }
}

export interface CredentialsContext {
  client: ObjectClient;
  tenantName: string;
  id: string;
  /** The Tenant's metadata.uid, bound into every certificate (ADR 0025). */
  tenantUid?: string;
  users: readonly TenantUser[];
  lifetimeMs: number;
  revokeBefore?: Date;
  now: Date;
  tenantCa: () => Promise<KeyPairPem>;
  gatewayUrl: string;
  gatewayCaPem: string;
  /**
   * The tenant never had credentials (a first onboarding): its Secret is almost surely
   * missing, so it is created without reading it first; on AlreadyExists the Secret is read
   * and planned against as usual (the certificates made for the guess are dropped).
   */
  likelyMissing?: boolean;
}

export interface CredentialsOutcome {
  plan: CredentialPlan;
  secretRef: { namespace: string; name: string };
}

export async function reconcileCredentials(ctx: CredentialsContext): Promise<CredentialsOutcome> {
  const name = kubeconfigSecretName(ctx.tenantName);
  if (ctx.likelyMissing) {
    const created = await writeCredentials(ctx, undefined);
    if (created) return created;
  }
  const outcome = await writeCredentials({ ...ctx, likelyMissing: false }, await ctx.client.get(`${SECRETS_PATH}/${name}`));
  if (!outcome) throw new ApiError('InternalError', `secret ${SYSTEM_NAMESPACE}/${name} could not be written`); // not reached: only a create-first write returns none
  return outcome;
}

/** Plans against `secret` (undefined: none yet), issues, and writes; undefined when creating met AlreadyExists. */
async function writeCredentials(ctx: CredentialsContext, secret: KubeObject | undefined): Promise<CredentialsOutcome | undefined> {
  const name = kubeconfigSecretName(ctx.tenantName);
  const data: Record<string, string> = { ...((secret?.data ?? {}) as Record<string, string>) };
  const existing = new Map<string, IssuedCredential>();
  for (const [key, value] of Object.entries(data)) {
    const cred = key.endsWith(KUBECONFIG_SUFFIX) ? readIssuedCredential(Buffer.from(value, 'base64').toString('utf8')) : undefined;
    // A key that does not match its certificate's user is stale: rebuilt below.
    if (cred && kubeconfigKey(cred.user) === key) existing.set(cred.user, cred);
    else delete data[key];
  }
  const plan = planCredentials({
    users: ctx.users, existing, lifetimeMs: ctx.lifetimeMs, now: ctx.now,
    ...(ctx.tenantUid ? { tenantUid: ctx.tenantUid } : {}),
    ...(ctx.revokeBefore ? { revokeBefore: ctx.revokeBefore } : {}),
  });
  for (const user of plan.drop) delete data[kubeconfigKey(user)];
  if (plan.issue.length > 0) {
    const ca = await ctx.tenantCa();
    for (const { user } of plan.issue) {
      const cert = await issueTenantUserCertificate({ ca, tenantId: ctx.id, user: user.name, groups: user.groups ?? [], lifetimeMs: ctx.lifetimeMs, notBefore: ctx.now, ...(ctx.tenantUid ? { tenantUid: ctx.tenantUid } : {}) });
      const kubeconfig = tenantUserKubeconfig({
        server: tenantServerUrl(ctx.gatewayUrl, ctx.id), caCertPem: ctx.gatewayCaPem, tenantName: ctx.tenantName,
        user: user.name, cert: cert.certPem, key: cert.keyPem, namespace: 'default',
      });
      data[kubeconfigKey(user.name)] = Buffer.from(kubeconfig).toString('base64');
    }
  }
  const desired: KubeObject = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: SYSTEM_NAMESPACE, labels: { [TENANT_LABEL]: ctx.id, 'app.kubernetes.io/managed-by': 'warren' } },
    type: 'Opaque',
    data,
  };
  // The Secret was just read: compare against that copy rather than GET it again.
  if (!secret && ctx.likelyMissing) {
    try {
      await ctx.client.create(SECRETS_PATH, desired);
    } catch (err) {
      if (err instanceof ApiError && err.reason === 'AlreadyExists') return undefined;
      throw err;
    }
  } else if (!secret) await ensureObject(ctx.client, SECRETS_PATH, desired, { likelyMissing: true });
  else if (driftOf(secret, desired).length > 0) await ctx.client.update(`${SECRETS_PATH}/${name}`, mergeOwned(secret, desired));
  return { plan, secretRef: { namespace: SYSTEM_NAMESPACE, name } };
}
