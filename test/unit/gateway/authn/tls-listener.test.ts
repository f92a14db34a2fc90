import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createGatewayTlsOptions } from '../../../../src/gateway/authn/tls-listener.ts';

describe('createGatewayTlsOptions', () => {
  it('asks for a client certificate, trusts only the tenant CA, and leaves the refusal to the hook', () => {
    const options = createGatewayTlsOptions({ servingCert: 'CERT', servingKey: 'KEY', tenantCaPem: 'TENANT-CA' });
    assert.deepEqual(options, { cert: 'CERT', key: 'KEY', ca: 'TENANT-CA', requestCert: true, rejectUnauthorized: false, minVersion: 'TLSv1.2' });
  });
});
