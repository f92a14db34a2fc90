// A connection that sends no request is closed at its deadline (ADR 0045: it
// belongs to no tenant, so no tenant's bound holds it); one that sent a
// request is left to its requests' own timeouts, however quiet it is after.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { closeSilentConnections } from '../../../../src/gateway/fairness/silent-connections.ts';

describe('silent connections', () => {
  it('closes a connection that never sends a request; keeps one that did', { timeout: 20_000 }, async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    closeSilentConnections(server, { ms: 200, connectionEvent: 'connection' });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const connect = async (): Promise<net.Socket> => {
      const socket = net.connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      return socket;
    };
    const closed = (socket: net.Socket): Promise<void> => new Promise((resolve) => socket.once('close', () => resolve()));
    const silent = await connect();
    const spoke = await connect();
    spoke.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => spoke.once('data', resolve));
    await closed(silent);
    // Well past the deadline: the connection that sent a request is still open (its keep-alive is Node's 5 s).
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.equal(spoke.destroyed, false);
    spoke.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
