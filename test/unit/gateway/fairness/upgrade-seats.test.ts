// Exec, attach and port-forward hold a fairness seat for their whole session
// (break 5's "also seen"): a tenant holds at most its share; the next one gets
// 429 with Retry-After, as other requests do; a closed session frees its seat;
// other tenants and the tenant's ordinary requests are not affected.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createFairness } from '../../../../src/gateway/fairness/fairness-filter.ts';
import { createTenantSlots } from '../../../../src/gateway/fairness/tenant-slots.ts';
import { createUpgradeHandler } from '../../../../src/gateway/upgrade-handler.ts';
import { staticTenantDirectory, type TenantInfo } from '../../../../src/tenants/tenant-directory.ts';
import { buildPolicyIndex } from '../../../../src/core/rbac/index.ts';
import type { GatewayDeps } from '../../../../src/gateway/handler.ts';
import type { Proxy } from '../../../../src/gateway/proxy/proxy-adapter.ts';
import { ApiError } from '../../../../src/core/api-error.ts';
import { eventually } from '../../../helpers/poll.ts';

const tenant = (id: string): TenantInfo => ({ id, name: id, phase: 'Ready', suspended: false });

describe('upgrade seats', () => {
  it('at most the limit per tenant, each tenant its own count, released once', () => {
    const seats = createTenantSlots();
    const a1 = seats.take('acme01', 2);
    const a2 = seats.take('acme01', 2);
    assert.ok(a1 && a2);
    assert.equal(seats.take('acme01', 2), undefined);
    assert.ok(seats.take('globx1', 2), 'another tenant is not affected');
    a1.release();
    a1.release();
    assert.equal(seats.open('acme01'), 1);
    assert.ok(seats.take('acme01', 2));
    assert.equal(seats.take('acme01', 2), undefined);
  });

  it('fairness.enterUpgrade: the tenant\'s seats, then 429 TooManyRequests with Retry-After', () => {
    const fairness = createFairness({ defaults: { seats: 2 }, adaptive: { enabled: false }, pacing: { enabled: false } });
    const held = [fairness.enterUpgrade(tenant('acme01')), fairness.enterUpgrade(tenant('acme01'))];
    assert.throws(() => fairness.enterUpgrade(tenant('acme01')), (err: unknown) => {
      assert.ok(err instanceof ApiError);
      assert.equal(err.code, 429);
      assert.equal(err.details?.retryAfterSeconds, 1);
      assert.match(err.message, /2 exec, attach or port-forward sessions open/);
      return true;
    });
    held[0]?.release();
    assert.doesNotThrow(() => fairness.enterUpgrade(tenant('acme01')));
    assert.equal(fairness.stats().running, 0, 'sessions hold no request seat: ordinary requests keep the whole share');
  });

  it('through the upgrade handler: sessions are held until their socket closes; beyond the share, a raw 429 with Retry-After', { timeout: 30_000 }, async () => {
    const fairness = createFairness({ defaults: { seats: 2 }, adaptive: { enabled: false }, pacing: { enabled: false } });
    const tunnels: Duplex[] = [];
    const proxy = { upgrade: (_req: unknown, socket: Duplex) => { tunnels.push(socket); socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: SPDY/3.1\r\nConnection: Upgrade\r\n\r\n'); } } as unknown as Proxy;
    const admin = { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'admin' };
    const deps = {
      authenticate: async (req: http.IncomingMessage) => ({ tenantId: String(req.headers['x-test-tenant']), user: 'admin', groups: [], via: 'token', issuedAt: new Date() }),
      tenants: staticTenantDirectory([tenant('acme01'), tenant('globx1')]),
      policies: { indexFor: () => buildPolicyIndex({
        roles: [], roleBindings: [],
        clusterRoles: [{ metadata: { name: 'all' }, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] }],
        clusterRoleBindings: [{ metadata: { name: 'all' }, subjects: [admin], roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'all' } }],
      } as never) },
      security: { guardRefusal: () => undefined },
      fairness,
    } as unknown as GatewayDeps;
    const server = http.createServer((_req, res) => res.end());
    server.on('upgrade', createUpgradeHandler(deps, proxy));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const open = async (tenantId: string): Promise<{ socket: net.Socket; head: string }> => {
      const socket = net.connect(port, '127.0.0.1');
      socket.write(`POST /api/v1/namespaces/dev/pods/web/exec?command=sh HTTP/1.1\r\nHost: g\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Test-Tenant: ${tenantId}\r\n\r\n`);
      const head = await new Promise<string>((resolve) => {
        let text = '';
        socket.on('data', (c: Buffer) => { text += c.toString('utf8'); if (text.includes('\r\n\r\n')) resolve(text); });
        socket.on('end', () => resolve(text));
      });
      return { socket, head };
    };
    const sockets: net.Socket[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const s = await open('acme01');
        sockets.push(s.socket);
        assert.match(s.head, /^HTTP\/1\.1 101/);
      }
      const third = await open('acme01');
      sockets.push(third.socket);
      assert.match(third.head, /^HTTP\/1\.1 429 TooManyRequests/);
      assert.match(third.head, /\r\nRetry-After: 1\r\n/);
      assert.match(third.head, /"reason":"TooManyRequests"/);
      assert.doesNotMatch(third.head, /acme01-/);
      const other = await open('globx1');
      sockets.push(other.socket);
      assert.match(other.head, /^HTTP\/1\.1 101/, 'another tenant still gets its sessions');
      assert.equal(fairness.openUpgrades('acme01'), 2);
      // One session ends: its seat comes back.
      tunnels[0]?.destroy();
      await eventually(async () => fairness.openUpgrades('acme01') === 1, 'the closed session\'s seat back');
      const again = await open('acme01');
      sockets.push(again.socket);
      assert.match(again.head, /^HTTP\/1\.1 101/);
    } finally {
      for (const s of [...sockets, ...tunnels]) s.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
