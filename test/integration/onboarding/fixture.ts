// The onboarding world: an embedded upstream with the Tenant CRD, the gateway
// (it creates the tenant CA in warren-system) and the onboarding controller.
import assert from 'node:assert/strict';
import { startApiServer, type RunningApiServer } from '../../../src/apiserver/server.ts';
import { createUpstream } from '../../../src/kube/upstream-client.ts';
import type { Upstream } from '../../../src/kube/upstream.ts';
import { startGateway, type RunningGateway } from '../../../src/gateway/server.ts';
import { TENANTS_PATH, TENANT_API_VERSION, TENANT_CRD_NAME, tenantCrd, type Tenant, type TenantSpec } from '../../../src/tenants/tenant-crd.ts';
import { startOnboardingController, type RunningOnboardingController } from '../../../src/controllers/onboarding/start-onboarding-controller.ts';
import { eventually } from '../../helpers/poll.ts';

export interface OnboardingWorld {
  server: RunningApiServer;
  upstream: Upstream;
  gateway: RunningGateway;
  controller: RunningOnboardingController;
  deleted: string[];
  restartController(): Promise<void>;
  create(name: string, spec: TenantSpec): Promise<{ status: number; body: Tenant }>;
  patchSpec(name: string, spec: TenantSpec): Promise<Tenant>;
  get(name: string): Promise<Tenant>;
  waitFor(name: string, what: string, ok: (t: Tenant) => boolean, timeoutMs?: number): Promise<Tenant>;
  stop(): Promise<void>;
}

export async function startWorld(): Promise<OnboardingWorld> {
  const server = await startApiServer({ port: 0 });
  const upstream = createUpstream({ yaml: server.kubeconfig });
  const crd = await upstream.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', tenantCrd());
  assert.equal(crd.status, 201, JSON.stringify(crd.body));
  await eventually(async () => {
    const res = await upstream.request<{ status?: { conditions?: { type: string; status: string }[] } }>('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${TENANT_CRD_NAME}`);
    return res.body.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
  }, 'Tenant CRD established');
  const gateway = await startGateway({ upstream });
  const deleted: string[] = [];
  const start = (): RunningOnboardingController => startOnboardingController({
    upstream, gatewayUrl: gateway.url, gatewayCaPem: gateway.servingCaPem, onTenantDeleted: (id) => { deleted.push(id); },
  });
  const world: OnboardingWorld = {
    server, upstream, gateway, deleted,
    controller: start(),
    async restartController() {
      world.controller.stop();
      world.controller = start();
      await world.controller.synced();
    },
    create: (name, spec) => upstream.request<Tenant>('POST', TENANTS_PATH, { apiVersion: TENANT_API_VERSION, kind: 'Tenant', metadata: { name }, spec }),
    async patchSpec(name, spec) {
      const res = await upstream.request<Tenant>('PATCH', `${TENANTS_PATH}/${name}`, { spec }, { 'Content-Type': 'application/merge-patch+json' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    },
    async get(name) {
      const res = await upstream.request<Tenant>('GET', `${TENANTS_PATH}/${name}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    },
    waitFor: (name, what, ok, timeoutMs = 20_000) => eventually(async () => {
      const t = await world.get(name);
      return ok(t) ? t : undefined;
    }, `${name}: ${what}`, { timeoutMs }),
    async stop() {
      world.controller.stop();
      await gateway.stop();
      upstream.close();
      await server.stop();
    },
  };
  await world.controller.synced();
  return world;
}

/** A raw request through the gateway with a kubeconfig's credentials (a fresh connection each time). */
export async function asTenant(kubeconfig: string, path: string, method = 'GET', body?: unknown): Promise<{ status: number; body: unknown }> {
  const client = createUpstream({ yaml: kubeconfig });
  try {
    return await client.request(method, path, body);
  } finally {
    client.close();
  }
}

export function secretKubeconfig(secret: { data?: Record<string, string> }, user: string): string {
  const value = secret.data?.[`${user}.kubeconfig`];
  assert.ok(value, `no kubeconfig for ${user} in the Secret`);
  return Buffer.from(value, 'base64').toString('utf8');
}
