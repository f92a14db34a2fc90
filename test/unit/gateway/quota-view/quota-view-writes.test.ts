// The quota view is read-only to the tenant (issue 14 item 9): every write naming it is a 403 in kube's words.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestInfo } from '../../../../src/core/request-info.ts';
import { ApiError } from '../../../../src/core/api-error.ts';
import { refuseQuotaViewWrite, sparesQuotaView } from '../../../../src/gateway/quota-view/quota-view-writes.ts';

const info = (method: string, path: string) => parseRequestInfo(method, path, new URLSearchParams());

describe('refuseQuotaViewWrite', () => {
  for (const [method, path, verb] of [
    ['PUT', '/api/v1/namespaces/default/resourcequotas/tenant-quota', 'update'],
    ['PATCH', '/api/v1/namespaces/web/resourcequotas/tenant-quota', 'patch'],
    ['DELETE', '/api/v1/namespaces/web/resourcequotas/tenant-quota', 'delete'],
    ['PUT', '/api/v1/namespaces/web/resourcequotas/tenant-quota/status', 'update'],
  ] as const) {
    it(`${method} ${path}: 403 Forbidden, kube's message for a user without the right`, () => {
      const i = info(method, path);
      assert.throws(() => refuseQuotaViewWrite(i, 'alice'), (err: unknown) => {
        assert.ok(err instanceof ApiError);
        assert.equal(err.code, 403);
        assert.equal(err.reason, 'Forbidden');
        assert.match(err.message, new RegExp(`^resourcequotas "tenant-quota" is forbidden: User "alice" cannot ${verb} resource "resourcequotas${path.endsWith('/status') ? '/status' : ''}" in API group "" in the namespace "${i.namespace}"$`));
        return true;
      });
    });
  }
  it('a create that names it in the body is refused; the tenant\'s own quotas and reads are not', () => {
    assert.throws(() => refuseQuotaViewWrite(info('POST', '/api/v1/namespaces/web/resourcequotas'), 'alice', { metadata: { name: 'tenant-quota' } }), /forbidden/);
    assert.doesNotThrow(() => refuseQuotaViewWrite(info('POST', '/api/v1/namespaces/web/resourcequotas'), 'alice', { metadata: { name: 'mine' } }));
    assert.doesNotThrow(() => refuseQuotaViewWrite(info('PUT', '/api/v1/namespaces/web/resourcequotas/mine'), 'alice'));
    assert.doesNotThrow(() => refuseQuotaViewWrite(info('GET', '/api/v1/namespaces/web/resourcequotas/tenant-quota'), 'alice'));
    assert.doesNotThrow(() => refuseQuotaViewWrite(info('PUT', '/api/v1/namespaces/web/configmaps/tenant-quota'), 'alice'));
  });
});

describe('sparesQuotaView', () => {
  it('a deletecollection of quotas keeps the view out, beside the tenant\'s own field selector', () => {
    const q = new URLSearchParams();
    sparesQuotaView(info('DELETE', '/api/v1/namespaces/web/resourcequotas'), q);
    assert.equal(q.get('fieldSelector'), 'metadata.name!=tenant-quota');
    const q2 = new URLSearchParams({ fieldSelector: 'metadata.name=a' });
    sparesQuotaView(info('DELETE', '/api/v1/namespaces/web/resourcequotas'), q2);
    assert.equal(q2.get('fieldSelector'), 'metadata.name=a,metadata.name!=tenant-quota');
    const q3 = new URLSearchParams();
    sparesQuotaView(info('DELETE', '/api/v1/namespaces/web/configmaps'), q3);
    assert.equal(q3.get('fieldSelector'), null);
  });
});
