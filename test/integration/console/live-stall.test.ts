// The console's live stream against a reader that stops reading: the gateway
// must cut it off (destroy, never end-then-write) and live on. A write after
// end would be an unhandled 'error' event, which ends the whole process.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { once } from 'node:events';
import { serveLive } from '../../../src/console/server/console-live.ts';
import type { ConsoleSource } from '../../../src/console/server/console-source.ts';
import { fakeConsoleSource } from './fake-console-source.ts';
import type { ConsoleState } from '../../../src/console/view/console-types.ts';
import { eventually } from '../../helpers/poll.ts';

/** About 1 MiB per state, a different one each time (a delta carries the changed row whole): a few pushes exceed the 4 MiB the stream may hold for a reader. */
function bigSource(): { source: ConsoleSource; push: () => void; listeners: () => number } {
  const stateOf = (i: number): ConsoleState => ({
    tenants: [{ name: 'x', pad: `${'x'.repeat(1024 * 1024)}${i}` }],
    members: [],
    placement: { tenants: [], members: [], cells: [], health: {} },
    revision: String(i),
  }) as unknown as ConsoleState;
  let n = 0;
  const fake = fakeConsoleSource(stateOf(n));
  return { source: fake.source, push: () => fake.publish(stateOf(++n)), listeners: fake.listeners };
}

describe('console live stream: a reader that stops reading', { timeout: 120_000 }, () => {
  it('is cut off once 4 MiB wait for it; its subscription goes, and the server keeps answering', async () => {
    const { source, push, listeners } = bigSource();
    const open = new Set<ServerResponse>();
    const errors: unknown[] = [];
    const server = createServer((req, res) => {
      res.on('error', (e) => errors.push(e));
      if (req.url === '/live') void serveLive(res, source, open);
      else res.end('ok');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    const socket = connect(port, '127.0.0.1');
    try {
      await once(socket, 'connect');
      socket.write('GET /live HTTP/1.1\r\nHost: x\r\n\r\n');
      await eventually(async () => (listeners() === 1 ? true : undefined), 'the stream to subscribe', { timeoutMs: 30_000, intervalMs: 50 });
      socket.pause(); // the reader stops reading; its socket stays open
      await eventually(async () => {
        push();
        await new Promise((r) => setTimeout(r, 20));
        return listeners() === 0 ? true : undefined;
      }, 'the stalled stream to be cut off', { timeoutMs: 60_000, intervalMs: 100 });
      assert.equal(open.size, 0, 'the stream left the open set');
      push(); // a later state reaches no one and writes nothing
      const answer = await fetch(`http://127.0.0.1:${port}/other`);
      assert.equal(await answer.text(), 'ok', 'the server lives on');
      assert.deepEqual(errors, []);
    } finally {
      socket.destroy();
      server.closeAllConnections();
      server.close();
    }
  });
});
