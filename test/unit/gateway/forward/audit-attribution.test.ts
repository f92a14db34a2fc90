// Upstream audit attribution: off unless configured; when on, Warren impersonates
// itself (keeping its own permissions) and names the tenant and user in extras.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { attributionHeaders } from '../../../../src/gateway/forward/response-pipe.ts';

describe('audit attribution headers', () => {
  it('adds nothing when not configured', () => {
    assert.deepEqual(attributionHeaders(undefined, { id: 'acme01', user: 'alice' }), {});
  });

  it('impersonates Warren itself with the tenant and user as percent-encoded extras', () => {
    assert.deepEqual(attributionHeaders({ upstreamUser: 'system:serviceaccount:warren-system:warren' }, { id: 'acme01', user: 'alice' }), {
      'impersonate-user': 'system:serviceaccount:warren-system:warren',
      'impersonate-extra-warren.dev%2ftenant': 'acme01',
      'impersonate-extra-warren.dev%2fuser': 'alice',
    });
  });
});
