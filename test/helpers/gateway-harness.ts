// Two (or more) tenants behind a real gateway, in process, over real TLS: the
// embedded apiserver as upstream, the Tenant CRD and Tenant objects applied
// upstream as the platform would, and per-user client certificates, kubeconfigs
// and Warren JWTs. Until onboarding (issue 4) seeds tenants, the harness creates
// upstream what a test needs (admin bindings, Roles), translated with the core
// mapping so the objects look exactly like ones created through the gateway.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type ApiServerOptions, type RunningApiServer } from '../../src/apiserver/server.ts';
import { createUpstream } from '../../src/kube/upstream-client.ts';
import type { Upstream } from '../../src/kube/upstream.ts';
import { startGateway, type GatewayOptions, type RunningGateway } from '../../src/gateway/server.ts';
import { tenantServerUrl } from '../../src/tenants/tenant-url.ts';
import { tenantCrd } from '../../src/tenants/tenant-crd.ts';
import { issueTenantUserCertificate, tenantUserKubeconfig, type TenantUserCertificate } from '../../src/tenants/credentials/issue-certificate.ts';
import { mintTenantToken } from '../../src/tenants/credentials/signing-keys.ts';
import { toUpstreamObject } from '../../src/core/tenancy/object-translation.ts';
import type { KubeObject } from '../../src/core/types.ts';
import { KubeHttp } from './kube-http.ts';
import { eventually } from './poll.ts';

export interface HarnessUser {
  name: string;
  groups?: string[];
  /** Bound to the tenant's virtual cluster-admin ClusterRole. */
  admin?: boolean;
}

export interface HarnessTenant {
  name: string;
  id: string;
  users: HarnessUser[];
}

export interface GatewayHarnessOptions {
  tenants: HarnessTenant[];
  simulateWorkloads?: boolean;
  /** The upstream's test-only kubelet stand-in (ApiServerOptions.podStreams). */
  podStreams?: ApiServerOptions['podStreams'];
  /** Gateway log lines (security events, refusals); default: dropped. */
  log?: (line: string) => void;
  /** More gateway options (fairness, audit, shutdown deadline). */
  gateway?: Omit<GatewayOptions, 'upstream'>;
  /** What the gateway gets as its upstream client (e.g. a wrapper that delays some watches); default the client itself. */
  wrapUpstream?: (upstream: Upstream) => Upstream;
}

export interface PolicyRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
}

export interface GatewayHarness {
  api: RunningApiServer;
  upstream: Upstream;
  /** An admin client straight to the upstream: what the platform sees. */
  upstreamHttp: KubeHttp;
  upstreamKubeconfigPath: string;
  gateway: RunningGateway;
  /** Path of a kubeconfig for a harness user (tenant by name). */
  kubeconfigPath(tenant: string, user: string): string;
  /** Raw HTTPS JSON client with that user's client certificate. */
  http(tenant: string, user: string): KubeHttp;
  /** A Warren JWT for that user. */
  token(tenant: string, user: string, extra?: { ttlSeconds?: number; now?: Date }): Promise<string>;
  /** A fresh certificate from the tenant CA for any (tenant id, user), and a client that uses it. */
  issue(tenantId: string, user: string, extra?: { groups?: string[]; notBefore?: Date; lifetimeMs?: number }): Promise<TenantUserCertificate>;
  clientFor(cert: { certPem: string; keyPem: string }, tenant?: string, user?: string): KubeHttp;
  /** A client with no credentials at all (server CA only); add an Authorization header per request. */
  anonymous(): KubeHttp;
  /** Tenant id by tenant name. */
  idOf(tenant: string): string;
  /**
   * Grants `user` a Role in tenant namespace `namespace` (created upstream, as
   * onboarding or the tenant admin would) and waits until the gateway's RBAC
   * answers with it.
   */
  grantRole(tenant: string, user: string, namespace: string, rules: PolicyRule[], roleName?: string): Promise<void>;
  /** Merge-patches the Tenant object upstream and waits until the gateway's directory shows `until`. */
  patchTenant(tenant: string, patch: unknown, until: (info: ReturnType<RunningGateway['tenants']['byId']>) => boolean): Promise<void>;
  stop(): Promise<void>;
}

const RBAC = 'rbac.authorization.k8s.io';

/** Tenant users get their tenant's own base URL (as onboarding writes it); others the bare gateway URL. */
function userKubeconfig(gateway: RunningGateway, tenantName: string, user: string, cert: { certPem: string; keyPem: string }, tenantId?: string): string {
  const server = tenantId ? tenantServerUrl(gateway.url, tenantId) : gateway.url;
  return tenantUserKubeconfig({ server, caCertPem: gateway.servingCaPem, tenantName, user, cert: cert.certPem, key: cert.keyPem });
}

async function createUpstreamObject(upstream: Upstream, path: string, obj: unknown): Promise<void> {
  const r = await upstream.request('POST', path, obj);
  if (r.status !== 201) throw new Error(`harness: POST ${path} → ${r.status} ${JSON.stringify(r.body)}`);
}

export async function startGatewayHarness(options: GatewayHarnessOptions): Promise<GatewayHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'warren-gw-harness-'));
  const api = await startApiServer({ port: 0, simulateWorkloads: options.simulateWorkloads ?? false, ...(options.podStreams ? { podStreams: options.podStreams } : {}) });
  const upstream = createUpstream({ yaml: api.kubeconfig });
  const upstreamKubeconfigPath = join(dir, 'upstream.kubeconfig');
  writeFileSync(upstreamKubeconfigPath, api.kubeconfig, { mode: 0o600 });
  const upstreamHttp = new KubeHttp(api.kubeconfig);

  await createUpstreamObject(upstream, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', tenantCrd());
  await eventually(async () => (await upstream.request('GET', '/apis/tenancy.warren.dev/v1alpha1/tenants')).status === 200, 'the Tenant CRD to serve', { timeoutMs: 10_000, intervalMs: 50 });
  for (const t of options.tenants) {
    await createUpstreamObject(upstream, '/apis/tenancy.warren.dev/v1alpha1/tenants', {
      apiVersion: 'tenancy.warren.dev/v1alpha1', kind: 'Tenant', metadata: { name: t.name }, spec: { id: t.id },
    });
    const admins = t.users.filter((u) => u.admin);
    if (admins.length === 0) continue;
    const binding = toUpstreamObject({ id: t.id }, {
      apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'tenant-admins' },
      subjects: admins.map((u) => ({ kind: 'User', apiGroup: RBAC, name: u.name })),
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'cluster-admin' },
    } as unknown as KubeObject);
    await createUpstreamObject(upstream, `/apis/${RBAC}/v1/clusterrolebindings`, binding);
  }

  const gateway = await startGateway({ upstream: options.wrapUpstream ? options.wrapUpstream(upstream) : upstream, ...options.gateway, ...(options.log ? { log: options.log } : {}) });
  await eventually(async () => options.tenants.every((t) => gateway.tenants.byId(t.id)), 'the gateway to know every tenant', { timeoutMs: 10_000, intervalMs: 50 });

  const byName = new Map(options.tenants.map((t) => [t.name, t]));
  const tenantOfName = (name: string): HarnessTenant => {
    const t = byName.get(name);
    if (!t) throw new Error(`harness: no tenant ${name}`);
    return t;
  };
  const paths = new Map<string, string>();
  const yamls = new Map<string, string>();
  for (const t of options.tenants) {
    for (const u of t.users) {
      const cert = await issueTenantUserCertificate({ ca: gateway.tenantCa, tenantId: t.id, user: u.name, groups: u.groups ?? [], lifetimeMs: 3600_000 });
      const yaml = userKubeconfig(gateway, t.name, u.name, cert, t.id);
      const path = join(dir, `${t.name}-${u.name}.kubeconfig`);
      writeFileSync(path, yaml, { mode: 0o600 });
      paths.set(`${t.name}/${u.name}`, path);
      yamls.set(`${t.name}/${u.name}`, yaml);
    }
  }
  const lookup = <T>(map: Map<string, T>, tenant: string, user: string): T => {
    const v = map.get(`${tenant}/${user}`);
    if (v === undefined) throw new Error(`harness: no user ${user} in tenant ${tenant}`);
    return v;
  };
  // Empty PEMs leave the user without a client certificate (buildKubeconfig skips them).
  const anonymousYaml = userKubeconfig(gateway, 'anonymous', 'anonymous', { certPem: '', keyPem: '' });

  const harness: GatewayHarness = {
    api,
    upstream,
    upstreamHttp,
    upstreamKubeconfigPath,
    gateway,
    kubeconfigPath: (tenant, user) => lookup(paths, tenant, user),
    http: (tenant, user) => new KubeHttp(lookup(yamls, tenant, user)),
    token: (tenant, user, extra = {}) => {
      const t = tenantOfName(tenant);
      const u = t.users.find((x) => x.name === user);
      return mintTenantToken({ keys: gateway.signingKeys, tenantId: t.id, user, groups: u?.groups ?? [], ttlSeconds: extra.ttlSeconds ?? 3600, ...(extra.now ? { now: extra.now } : {}) });
    },
    issue: (tenantId, user, extra = {}) =>
      issueTenantUserCertificate({ ca: gateway.tenantCa, tenantId, user, groups: extra.groups ?? [], lifetimeMs: extra.lifetimeMs ?? 3600_000, ...(extra.notBefore ? { notBefore: extra.notBefore } : {}) }),
    clientFor: (cert, tenant = 'someone', user = 'someone') => new KubeHttp(userKubeconfig(gateway, tenant, user, cert)),
    anonymous: () => new KubeHttp(anonymousYaml),
    idOf: (tenant) => tenantOfName(tenant).id,
    async grantRole(tenant, user, namespace, rules, roleName = `role-${user}`) {
      const t = tenantOfName(tenant);
      const role = toUpstreamObject({ id: t.id }, { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: roleName, namespace }, rules } as unknown as KubeObject);
      const binding = toUpstreamObject({ id: t.id }, {
        apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: roleName, namespace },
        subjects: [{ kind: 'User', apiGroup: RBAC, name: user }],
        roleRef: { apiGroup: RBAC, kind: 'Role', name: roleName },
      } as unknown as KubeObject);
      const ns = role.metadata.namespace ?? '';
      await createUpstreamObject(upstream, `/apis/${RBAC}/v1/namespaces/${ns}/roles`, role);
      await createUpstreamObject(upstream, `/apis/${RBAC}/v1/namespaces/${ns}/rolebindings`, binding);
      const first = rules[0];
      if (!first) return;
      const client = harness.http(tenant, user);
      await eventually(async () => {
        const r = await client.post('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
          apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview',
          spec: { resourceAttributes: { namespace, verb: first.verbs[0], group: first.apiGroups[0], resource: first.resources[0] } },
        });
        return r.body?.status?.allowed === true;
      }, `the gateway's RBAC to grant ${user} in ${tenant}/${namespace}`, { timeoutMs: 10_000, intervalMs: 50 });
    },
    async patchTenant(tenant, patch, until) {
      const t = tenantOfName(tenant);
      const r = await upstream.request('PATCH', `/apis/tenancy.warren.dev/v1alpha1/tenants/${t.name}`, patch, { 'Content-Type': 'application/merge-patch+json' });
      if (r.status !== 200) throw new Error(`harness: patch tenant ${t.name} → ${r.status} ${JSON.stringify(r.body)}`);
      await eventually(async () => until(gateway.tenants.byId(t.id)), `the gateway to see the change to tenant ${t.name}`, { timeoutMs: 10_000, intervalMs: 50 });
    },
    async stop() {
      await gateway.stop();
      upstream.close();
      await api.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** The usual two tenants: acme (acme01) and globex (globx1), each with an admin and a restricted dev. */
export const TWO_TENANTS: HarnessTenant[] = [
  { name: 'acme', id: 'acme01', users: [{ name: 'admin', admin: true }, { name: 'dev', groups: ['devs'] }] },
  { name: 'globex', id: 'globx1', users: [{ name: 'admin', admin: true }, { name: 'dev', groups: ['devs'] }] },
];
