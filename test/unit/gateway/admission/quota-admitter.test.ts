// Quota as the chain's last admitter: a counted write holds the tenant's lock
// from its start until the upstream answered, so a second write waits and sees
// the first; a refused or failed write lets go of the lock at once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseRequestInfo } from '../../../../src/core/request-info.ts';
import { translateRequest, type ForwardedRequest } from '../../../../src/core/tenancy/request-translation.ts';
import { toUpstreamObject } from '../../../../src/core/tenancy/object-translation.ts';
import { createAdmissionChain, type WriteScope } from '../../../../src/gateway/admission/admission-chain.ts';
import { quotaAdmitter } from '../../../../src/gateway/admission/quota-admitter.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import type { Upstream } from '../../../../src/kube/upstream.ts';

const ctx = { id: 'aaaaaa' };
const pod = (name: string, cpu: string): KubeObject => toUpstreamObject(ctx, {
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'web' }, spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu } } }] },
});

function fakeRes(): ServerResponse & EventEmitter {
  const res = new EventEmitter() as ServerResponse & EventEmitter;
  Object.assign(res, { statusCode: 201, writableFinished: false, destroyed: false });
  return res;
}

function scope(res: ServerResponse): WriteScope {
  const info = parseRequestInfo('POST', '/api/v1/namespaces/web/pods', new URLSearchParams());
  return { req: {} as IncomingMessage, res, ctx, info, fwd: translateRequest(ctx, info, new URLSearchParams()) as ForwardedRequest };
}

describe('quota admitter', () => {
  const upstream = { request: async () => ({ status: 200, headers: {}, body: { items: [] } }) } as unknown as Upstream;
  const tenants = { byId: () => ({ quota: { cpu: '1' } }) } as never;

  it('a second counted write waits for the first one\'s answer, then sees it', async () => {
    const chain = createAdmissionChain([quotaAdmitter({ upstream, tenants })]);
    const res1 = fakeRes();
    const order: string[] = [];
    const first = chain.write(scope(res1), async (admit) => { await admit({ tenant: pod('a', '600m'), upstream: pod('a', '600m'), apply: false }); order.push('first sent'); });
    await new Promise((r) => setImmediate(r));
    const second = chain.write(scope(fakeRes()), async (admit) => { order.push('second admitting'); await admit({ tenant: pod('b', '600m'), upstream: pod('b', '600m'), apply: false }); });
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(order, ['first sent'], 'the second write waits while the first is unanswered');
    Object.assign(res1, { writableFinished: true });
    res1.emit('finish');
    await first;
    await assert.rejects(second, (err: Error) => /exceeded quota: tenant-quota/.test(err.message));
    assert.deepEqual(order, ['first sent', 'second admitting']);
  });

  it('a refused write frees the lock at once', async () => {
    const chain = createAdmissionChain([quotaAdmitter({ upstream, tenants })]);
    await assert.rejects(chain.write(scope(fakeRes()), async (admit) => { await admit({ tenant: pod('big', '2'), upstream: pod('big', '2'), apply: false }); }));
    let ran = false;
    const res = fakeRes();
    Object.assign(res, { writableFinished: true });
    await chain.write(scope(res), async (admit) => { await admit({ tenant: pod('ok', '100m'), upstream: pod('ok', '100m'), apply: false }); ran = true; });
    assert.ok(ran);
  });
});
