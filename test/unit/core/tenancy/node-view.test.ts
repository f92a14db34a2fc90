// Virtual nodes (ADR 30): built from the tenant's own pods alone, so nothing
// another tenant does can show in them, and writes are refused by translation.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { KubeObject } from '../../../../src/core/types.ts';
import { nodeMatcher, virtualNodes, VIRTUAL_NODE_CAPACITY } from '../../../../src/core/tenancy/node-view.ts';
import { translateRequest } from '../../../../src/core/tenancy/request-translation.ts';
import { parseRequestInfo } from '../../../../src/core/request-info.ts';
import { ApiError } from '../../../../src/core/api-error.ts';

const pod = (name: string, nodeName: string | undefined, rv: number, created = '2026-01-01T00:00:00Z'): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, namespace: 'ns', resourceVersion: String(rv), creationTimestamp: created },
  spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'x' }] },
});

const options = { tenantId: 'abc123', kubeletVersion: 'v1.30.0' };
const nodeName = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/);
const pods = fc.array(fc.record({ node: fc.option(nodeName, { nil: undefined }), rv: fc.integer({ min: 1, max: 1e6 }) }), { maxLength: 20 })
  .map((list) => list.map((p, i) => pod(`p${i}`, p.node, p.rv)));

describe('virtual nodes', () => {
  it('one node per distinct nodeName of the tenant\'s pods, sorted, with fixed capacity and only virtual labels', () => {
    const nodes = virtualNodes([pod('a', 'n2', 5), pod('b', 'n1', 7), pod('c', 'n2', 9), pod('d', undefined, 11)], options);
    assert.deepEqual(nodes.map((n) => n.metadata.name), ['n1', 'n2']);
    assert.equal(nodes[1]!.metadata.resourceVersion, '9');
    assert.deepEqual((nodes[0]!.status as { capacity: unknown }).capacity, VIRTUAL_NODE_CAPACITY);
    assert.deepEqual(Object.keys(nodes[0]!.metadata.labels ?? {}).sort(), ['kubernetes.io/arch', 'kubernetes.io/hostname', 'kubernetes.io/os', 'warren.dev/virtual-node']);
  });

  it('property: a node shows only what the pods bound to it say (pods elsewhere change nothing of it), uids are per tenant', () => {
    fc.assert(fc.property(pods, pods, (mine, elsewhere) => {
      const alone = virtualNodes(mine, options);
      const names = new Set(mine.map((p) => (p.spec as { nodeName?: string }).nodeName).filter(Boolean));
      assert.deepEqual(alone.map((n) => n.metadata.name).sort(), [...names].sort());
      // More pods on nodes this list does not use leave every existing node as it was.
      const others = elsewhere.map((p, i) => pod(`o${i}`, `other-${(p.spec as { nodeName?: string }).nodeName ?? 'x'}`, Number(p.metadata.resourceVersion) + 1e7));
      const mixed = virtualNodes([...mine, ...others], options).filter((n) => names.has(n.metadata.name ?? ''));
      assert.deepEqual(mixed, alone);
      const other = virtualNodes(mine, { ...options, tenantId: 'xyz789' });
      other.forEach((n, i) => assert.notEqual(n.metadata.uid, alone[i]!.metadata.uid));
    }));
  });

  it('selectors: metadata.name and spec.unschedulable fields, labels; other fields are a 400 as in kube', () => {
    const [n1] = virtualNodes([pod('a', 'n1', 1)], options);
    assert.equal(nodeMatcher({ fieldSelector: 'spec.unschedulable=false' })(n1!), true);
    assert.equal(nodeMatcher({ fieldSelector: 'metadata.name=n2' })(n1!), false);
    assert.equal(nodeMatcher({ labelSelector: 'warren.dev/virtual-node=true' })(n1!), true);
    assert.throws(() => nodeMatcher({ fieldSelector: 'status.phase=Running' }), (err: unknown) => err instanceof ApiError && err.code === 400 && /field label not supported: status.phase/.test(err.message));
  });

  it('every write verb and every subresource is refused 403, reads become view reads', () => {
    const ctx = { id: 'abc123', user: 'alice' };
    for (const [method, path] of [['POST', '/api/v1/nodes'], ['PUT', '/api/v1/nodes/n1'], ['PATCH', '/api/v1/nodes/n1'], ['DELETE', '/api/v1/nodes/n1'], ['DELETE', '/api/v1/nodes'], ['GET', '/api/v1/nodes/n1/proxy'], ['PATCH', '/api/v1/nodes/n1/status']] as const) {
      const q = new URLSearchParams();
      assert.throws(() => translateRequest(ctx, parseRequestInfo(method, path, q), q), (err: unknown) => err instanceof ApiError && err.code === 403, `${method} ${path}`);
    }
    const q = new URLSearchParams();
    assert.deepEqual(translateRequest(ctx, parseRequestInfo('GET', '/api/v1/nodes', q), q), { action: 'view', verb: 'list', resource: 'nodes', name: '' });
  });
});
