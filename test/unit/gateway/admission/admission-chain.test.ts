// The admission chain: one ordered list, run once per write on the final
// object; ends run in reverse, also when the write fails; a refusal stops the
// write before anything is sent. The composed chain's order is the documented one.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../../../../src/core/api-error.ts';
import { parseRequestInfo } from '../../../../src/core/request-info.ts';
import { translateRequest, type ForwardedRequest } from '../../../../src/core/tenancy/request-translation.ts';
import { createAdmissionChain, type Admitter, type FinalObject, type WriteScope } from '../../../../src/gateway/admission/admission-chain.ts';
import { createWriteAdmission } from '../../../../src/gateway/admission/write-admission.ts';
import { podSecurityAdmitter, podSecurityEdit } from '../../../../src/gateway/admission/pod-security-admitter.ts';
import { mentionsTenantLabel } from '../../../../src/gateway/forward/tenant-label-edits.ts';
import type { KubeObject } from '../../../../src/core/types.ts';

const ctx = { id: 'aaaaaa', user: 'eve' };
function scopeOf(method: string, path: string): WriteScope {
  const info = parseRequestInfo(method, path, new URLSearchParams());
  const fwd = translateRequest(ctx, info, new URLSearchParams()) as ForwardedRequest;
  return { req: {} as IncomingMessage, res: {} as ServerResponse, ctx, info, fwd };
}
const final = (tenant: KubeObject, stored?: KubeObject): FinalObject => ({ tenant, upstream: tenant, apply: false, ...(stored ? { stored } : {}) });

function recorder(name: string, log: string[], refuse = false): Admitter {
  return {
    name,
    start: () => {
      log.push(`start ${name}`);
      return {
        admit: () => {
          log.push(`admit ${name}`);
          if (refuse) throw new ApiError('Forbidden', `${name} says no`);
        },
        end: (failed) => { log.push(`end ${name}${failed ? ' failed' : ''}`); },
      };
    },
  };
}

describe('admission chain', () => {
  it('starts, admits in order, then ends in reverse', async () => {
    const log: string[] = [];
    const chain = createAdmissionChain([recorder('a', log), recorder('b', log)]);
    await chain.write(scopeOf('POST', '/api/v1/namespaces/web/configmaps'), async (admit) => {
      await admit(final({ metadata: { name: 'x' } }));
      log.push('send');
    });
    assert.deepEqual(log, ['start a', 'start b', 'admit a', 'admit b', 'send', 'end b', 'end a']);
  });

  it('a refusal stops the chain and the write; every started admitter still ends', async () => {
    const log: string[] = [];
    const chain = createAdmissionChain([recorder('a', log, true), recorder('b', log)]);
    await assert.rejects(chain.write(scopeOf('POST', '/api/v1/namespaces/web/configmaps'), async (admit) => {
      await admit(final({ metadata: {} }));
      log.push('send');
    }), /a says no/);
    assert.deepEqual(log, ['start a', 'start b', 'admit a', 'end b failed', 'end a failed']);
  });

  it('the gateway\'s chain runs RBAC escalation, Pod Security labels, Karmada policies, then the two quotas', () => {
    const chain = createWriteAdmission({ upstream: {} as never, tenants: { byId: () => undefined } as never, policies: { indexFor: () => { throw new Error('unused'); } } });
    assert.deepEqual(chain.order, ['rbac-escalation', 'pod-security-labels', 'karmada-policies', 'owner-references', 'pvc-volume', 'reserved-references', 'quota', 'object-count-quota']);
  });
});

describe('Pod Security labels admitter', () => {
  const ns = (labels: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'web', labels } });
  const E = 'pod-security.kubernetes.io/enforce';
  it('refuses a weaker, stronger or unknown Pod Security label; passes the tenant\'s level, none, or the stored value', () => {
    assert.deepEqual(podSecurityEdit('restricted', ns({ [E]: 'privileged' }), undefined), { key: E, value: 'privileged' });
    assert.ok(podSecurityEdit('baseline', ns({ [E]: 'restricted' }), undefined));
    assert.ok(podSecurityEdit('baseline', ns({ 'pod-security.kubernetes.io/exempt': 'x' }), undefined));
    assert.equal(podSecurityEdit('restricted', ns({ [E]: 'restricted', app: 'x' }), undefined), undefined);
    assert.equal(podSecurityEdit('restricted', ns({}), undefined), undefined);
    assert.equal(podSecurityEdit('baseline', ns({ [E]: 'restricted' }), ns({ [E]: 'restricted' })), undefined);
  });
  it('answers 403 in tenant terms, for Namespaces only', async () => {
    const admitter = podSecurityAdmitter(() => 'restricted');
    const run = await admitter.start(scopeOf('PATCH', '/api/v1/namespaces/web'));
    assert.ok(run?.admit);
    assert.throws(() => run.admit!(final(ns({ [E]: 'privileged' }))), (err: ApiError) => err.code === 403 && /enforce is set by the platform to "restricted"/.test(err.message) && !err.message.includes('aaaaaa-'));
    assert.equal(await admitter.start(scopeOf('POST', '/api/v1/namespaces/web/configmaps')), undefined);
  });
});

describe('tenant label edits', () => {
  it('finds the label as a key anywhere, or in a JSON patch path', () => {
    assert.ok(mentionsTenantLabel({ metadata: { labels: { 'tenancy.warren.dev/tenant': null } } }));
    assert.ok(mentionsTenantLabel({ spec: { template: { metadata: { labels: { 'tenancy.warren.dev/tenant': 'x' } } } } }));
    assert.ok(mentionsTenantLabel([{ op: 'remove', path: '/metadata/labels/tenancy.warren.dev~1tenant' }]));
    assert.ok(mentionsTenantLabel([{ op: 'move', from: '/metadata/labels/tenancy.warren.dev~1tenant', path: '/metadata/labels/x' }]));
    assert.ok(!mentionsTenantLabel({ metadata: { labels: { app: 'tenancy.warren.dev/tenant' } } }));
    assert.ok(!mentionsTenantLabel([{ op: 'add', path: '/metadata/labels/app', value: 'x' }]));
  });
});
