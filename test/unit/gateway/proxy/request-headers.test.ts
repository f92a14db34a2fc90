import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { outgoingHeaders } from '../../../../src/gateway/proxy/request-headers.ts';

describe('outgoingHeaders', () => {
  it('drops credentials, identity headers, hop-by-hop fields and Warren\'s own protocol headers; keeps the rest', () => {
    const out = outgoingHeaders({
      authorization: 'Bearer tenant-token', cookie: 'c=1', host: 'gateway', expect: '100-continue',
      'impersonate-user': 'admin', 'impersonate-extra-scopes': 'x', 'x-remote-user': 'admin',
      'x-warren-progress-request': 'true', 'x-warren-progress-notify': 'true',
      connection: 'keep-alive, x-custom-hop', 'keep-alive': 'timeout=5', 'x-custom-hop': '1', te: 'trailers',
      accept: 'application/json', 'content-type': 'application/json', 'user-agent': 'kubectl/v1.32.0',
    });
    assert.deepEqual(out, { accept: 'application/json', 'content-type': 'application/json', 'user-agent': 'kubectl/v1.32.0' });
  });

  it('Warren\'s credential and the caller\'s extra headers go on top', () => {
    const out = outgoingHeaders({ accept: 'application/json' }, { credential: { authorization: 'Bearer warren' }, extra: { 'Impersonate-User': 'warren:tenant:acme01:alice' } });
    assert.equal(out.authorization, 'Bearer warren');
    assert.equal(out.accept, 'application/json');
    assert.equal(Object.entries(out).find(([k]) => k.toLowerCase() === 'impersonate-user')?.[1], 'warren:tenant:acme01:alice');
  });
});
