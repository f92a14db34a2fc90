// A tenant the platform dedicates a host node to (ADR 0043), for the placement tests: the host's first node,
// named by hostname (the embedded host's nodes carry no pool label), forced on the tenant's pods by its
// placement contract; the tenant's namespace `app` made.
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/types.ts';
import type { AdversaryEnv } from './adversary-env.ts';

export interface DedicatedTenant {
  node: string;
  id: string;
  kubeconfig: string;
}

/** `extra` joins the contract (e.g. the tolerations the tenant may use). */
export async function dedicateNodeTo(env: AdversaryEnv, name: string, admin: string, extra: Record<string, unknown> = {}): Promise<DedicatedTenant> {
  const nodes = await env.host().request<{ items: KubeObject[] }>('GET', '/api/v1/nodes');
  const node = nodes.body.items[0]?.metadata.name ?? '';
  assert.ok(node, 'the host has a node');
  const kubeconfig = await env.createTenant(name, {
    users: [{ name: admin, admin: true }],
    placement: { nodeSelector: { 'kubernetes.io/hostname': node }, ...extra },
  });
  const tenant = await env.host().request<{ status?: { id?: string } }>('GET', `/apis/tenancy.warren.dev/v1alpha1/tenants/${name}`);
  const id = tenant.body.status?.id ?? '';
  assert.ok(id, `${name} has an id`);
  await env.kubectlWith(kubeconfig, ['create', 'namespace', 'app']);
  return { node, id, kubeconfig };
}
