// The audit log speaks the tenant's language: request URIs, namespaces and
// names as the tenant wrote them, never the upstream's prefixed ones; each
// tenant's own file holds its events only.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGatewayHarness, TWO_TENANTS, type GatewayHarness } from '../../helpers/gateway-harness.ts';
import { eventually } from '../../helpers/poll.ts';
import type { AuditEvent } from '../../../src/gateway/observability/audit-event.ts';

const readEvents = (path: string): AuditEvent[] => {
  try {
    return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditEvent);
  } catch {
    return [];
  }
};

describe('audit log', { timeout: 60_000 }, () => {
  let h: GatewayHarness;
  const dir = mkdtempSync(join(tmpdir(), 'warren-audit-'));
  const mainLog = join(dir, 'audit.log');
  const tenantDir = join(dir, 'tenants');
  before(async () => {
    h = await startGatewayHarness({ tenants: TWO_TENANTS, gateway: { auditLogPath: mainLog, auditTenantDir: tenantDir } });
  });
  after(async () => {
    await h?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('records who did what in the tenant\'s own terms', async () => {
    const acme = h.http('acme', 'admin');
    assert.equal((await acme.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } })).status, 201);
    assert.equal((await acme.post('/api/v1/namespaces/shop/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'prices' } })).status, 201);
    assert.equal((await acme.get('/api/v1/namespaces/shop/configmaps/missing')).status, 404);
    assert.equal((await h.http('globex', 'dev').get('/api/v1/namespaces/shop/configmaps')).status, 403);

    await eventually(async () => readEvents(mainLog).length >= 4 && readEvents(join(tenantDir, 'acme01.log')).length >= 3 && readEvents(join(tenantDir, 'globx1.log')).length >= 1,
      'the audit events, in the main and the tenants\' files', { timeoutMs: 5_000, intervalMs: 50 });
    const events = readEvents(mainLog);
    const create = events.find((e) => e.verb === 'create' && e.objectRef?.resource === 'configmaps');
    assert.ok(create);
    assert.equal(create.apiVersion, 'audit.k8s.io/v1');
    assert.equal(create.kind, 'Event');
    assert.equal(create.level, 'Metadata');
    assert.equal(create.stage, 'ResponseComplete');
    assert.equal(create.requestURI, '/api/v1/namespaces/shop/configmaps');
    assert.deepEqual(create.objectRef, { resource: 'configmaps', namespace: 'shop', apiVersion: 'v1' });
    assert.equal(create.user.username, 'admin');
    assert.deepEqual(create.user.extra, { 'warren.dev/tenant': ['acme01'] });
    assert.equal(create.responseStatus.code, 201);
    assert.match(create.auditID, /^[0-9a-f-]{36}$/);
    assert.ok(create.requestReceivedTimestamp <= create.stageTimestamp);

    const notFound = events.find((e) => e.objectRef?.name === 'missing');
    assert.equal(notFound?.responseStatus.code, 404);
    assert.equal(notFound?.verb, 'get');
    const denied = events.find((e) => e.user.extra?.['warren.dev/tenant']?.[0] === 'globx1');
    assert.equal(denied?.responseStatus.code, 403);
    assert.equal(denied?.verb, 'list');

    // Never the upstream's view: no tenant prefix anywhere in the log.
    const text = readFileSync(mainLog, 'utf8');
    assert.doesNotMatch(text, /acme01-|globx1-/);

    const acmeOwn = readEvents(join(tenantDir, 'acme01.log'));
    const globexOwn = readEvents(join(tenantDir, 'globx1.log'));
    assert.ok(acmeOwn.length >= 3);
    assert.ok(acmeOwn.every((e) => e.user.extra?.['warren.dev/tenant']?.[0] === 'acme01'));
    assert.ok(globexOwn.length >= 1);
    assert.ok(globexOwn.every((e) => e.user.extra?.['warren.dev/tenant']?.[0] === 'globx1'));
  });
});
