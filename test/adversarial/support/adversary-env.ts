// One `warren up`-like system per adversarial file (host + member1 + member2,
// tenants acme and globex from tenants/), seen three ways: as a tenant through
// the gateway (real kubectl, or raw HTTPS with the tenant's client certificate),
// and as the platform on the host and on each member directly. An attack is
// judged by what the host and the members hold afterwards, never only by what
// the gateway answers. Call it inside a describe(): it registers that
// describe's before/after hooks (through usePropagationEnv).
import { after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createUpstream } from '../../../src/kube/upstream-client.ts';
import type { Upstream } from '../../../src/kube/upstream.ts';
import { KubeHttp } from '../../helpers/kube-http.ts';
import { kubectl, type KubectlResult } from '../../helpers/kubectl.ts';
import { usePropagationEnv, type PropagationEnv } from '../../helpers/propagation-env.ts';
import { waitForTenant } from '../../../src/up/wait-for-tenants.ts';
import { readTenantKubeconfig } from '../../../src/tenants/tenant-kubeconfig.ts';
import { TENANTS_PATH, TENANT_API_VERSION, type Tenant } from '../../../src/tenants/tenant-crd.ts';

export interface AdversaryEnv extends PropagationEnv {
  /** The tenant admin's kubeconfig file (acme: alice, globex: hank). */
  kubeconfigPath(tenant: string): string;
  /** Raw HTTPS to the gateway with a kubeconfig's client certificate (default: the tenant admin's). */
  http(tenant: string, kubeconfigPath?: string): KubeHttp;
  /** The host apiserver as the platform admin: where the gateway stores everything. */
  host(): Upstream;
  /** A member apiserver as its own admin. */
  member(name: string): Upstream;
  /**
   * A tenant user's kubeconfig, as `warren tenant kubeconfig <tenant> --user <user>` reads it (from the
   * Tenant's credentials Secret), written under root; returns its path. In process: each `./bin/warren`
   * run costs 40-60 s on a loaded machine before it exits.
   */
  issueUser(tenant: string, user: string): Promise<string>;
  /** Creates a Tenant on the host as the platform admin and waits until it is Ready; returns its admin kubeconfig path. */
  createTenant(name: string, spec: Record<string, unknown>): Promise<string>;
  /** Any kubectl version with any kubeconfig, whatever its exit code. */
  kubectlWith(kubeconfigPath: string, args: string[], version?: string): Promise<KubectlResult>;
  /** Writes `text` under root and returns its path (manifests, bodies for kubectl). */
  file(name: string, text: string): string;
}

export function useAdversaryEnv(name: string, tuning?: Parameters<typeof usePropagationEnv>[1]): AdversaryEnv {
  const env = usePropagationEnv(`adversarial-${name}`, tuning);
  let host: Upstream | undefined;
  const clients = new Map<string, KubeHttp>();
  after(() => host?.close());

  const hostClient = (): Upstream => {
    host ??= createUpstream({ path: env.up().adminKubeconfigPath });
    return host;
  };
  const kubeconfigPath = (tenant: string): string => join(env.root, 'tenants', `${tenant}.kubeconfig`);
  return {
    ...env,
    kubeconfigPath,
    http(tenant: string, path = kubeconfigPath(tenant)): KubeHttp {
      let client = clients.get(path);
      if (!client) { client = new KubeHttp(readFileSync(path, 'utf8')); clients.set(path, client); }
      return client;
    },
    host: hostClient,
    member(member: string): Upstream {
      const client = env.members[member];
      assert.ok(client, `member ${member} is running`);
      return client;
    },
    async issueUser(tenant: string, user: string): Promise<string> {
      const res = await hostClient().request<Tenant>('GET', `${TENANTS_PATH}/${tenant}`);
      assert.equal(res.status, 200, `tenant ${tenant}`);
      const found = await readTenantKubeconfig(hostClient(), res.body, user);
      assert.ok(found, `a kubeconfig for ${user} of ${tenant}`);
      const path = join(env.root, 'tenants', `${tenant}-${user}.kubeconfig`);
      writeFileSync(path, found.kubeconfig, { mode: 0o600 });
      return path;
    },
    async createTenant(tenantName: string, spec: Record<string, unknown>): Promise<string> {
      const res = await hostClient().request('POST', TENANTS_PATH, { apiVersion: TENANT_API_VERSION, kind: 'Tenant', metadata: { name: tenantName }, spec });
      assert.equal(res.status, 201, `create tenant ${tenantName}: ${JSON.stringify(res.body)}`);
      const ready = await waitForTenant(hostClient(), tenantName, 90_000);
      const path = join(env.root, 'tenants', `${tenantName}.kubeconfig`);
      writeFileSync(path, ready.adminKubeconfig, { mode: 0o600 });
      return path;
    },
    kubectlWith(path: string, args: string[], version = '1.33'): Promise<KubectlResult> {
      return kubectl(version, args, { kubeconfigPath: path });
    },
    file(fileName: string, text: string): string {
      const path = join(env.root, fileName);
      writeFileSync(path, text);
      return path;
    },
  };
}
