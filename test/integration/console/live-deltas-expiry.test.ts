// The console's live stream over HTTP: a whole state first, then only deltas (and nothing for a change the
// pages do not show), and the stream ends when the caller's credential expires, saying so.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { serveLive } from '../../../src/console/server/console-live.ts';
import type { ConsoleSource } from '../../../src/console/server/console-source.ts';
import { fakeConsoleSource } from './fake-console-source.ts';
import type { ConsoleState, TenantRow } from '../../../src/console/view/console-types.ts';
import { applyDelta, type ConsoleDelta } from '../../../src/console/view/state-delta.ts';
import { readEvents } from '../../../src/console/view/event-stream.ts';
import { eventually } from '../../helpers/poll.ts';

const row = (name: string, replicas: number): TenantRow => ({ name, id: 'abc123', displayName: '', phase: 'Ready', users: [], admins: [], usage: [], members: [], createdAt: '', suspended: false, replicas });
const stateOf = (rows: TenantRow[], revision: string): ConsoleState => ({ tenants: rows, members: [], placement: { tenants: rows.map((r) => r.name), members: [], cells: [], health: {} }, revision });

async function withServer(source: ConsoleSource, endsAt: number | undefined, body: (url: string, open: Set<ServerResponse>) => Promise<void>): Promise<void> {
  const open = new Set<ServerResponse>();
  const server = createServer((_req, res) => void serveLive(res, source, open, endsAt === undefined ? {} : { endsAt }));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  try {
    await body(`http://127.0.0.1:${port}/live`, open);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** Reads events off the stream as they come. */
function reader(res: Response): { events: { event: string; data: string }[]; ended: Promise<void> } {
  const events: { event: string; data: string }[] = [];
  assert.ok(res.body);
  const body = res.body;
  const ended = (async () => {
    for await (const e of readEvents(body)) events.push(e);
  })();
  return { events, ended };
}

describe('console live stream: deltas and expiry', { timeout: 60_000 }, () => {
  it('sends the whole state once, then the changed rows only; an unchanged state sends nothing', async () => {
    const { source, publish, listeners } = fakeConsoleSource(stateOf([row('acme', 1), row('globex', 2)], '1'));
    await withServer(source, undefined, async (url) => {
      const controller = new AbortController();
      const res = await fetch(url, { signal: controller.signal });
      const r = reader(res);
      r.ended.catch(() => undefined);
      await eventually(async () => listeners() === 1 && r.events.length === 1, 'the first state');
      publish(stateOf([row('acme', 1), row('globex', 2)], '2')); // nothing shown changed
      publish(stateOf([row('acme', 3), row('globex', 2)], '3'));
      await eventually(async () => r.events.length === 2, 'one delta');
      controller.abort();
      const [first, second] = r.events;
      assert.equal(first?.event, 'state');
      assert.equal(second?.event, 'delta');
      const delta = JSON.parse(second?.data ?? '{}') as ConsoleDelta;
      assert.equal(delta.revision, '3', 'the unchanged state (revision 2) sent nothing');
      assert.deepEqual(delta.tenants, { set: [row('acme', 3)], remove: [] }, 'only the row that changed');
      assert.equal(delta.members, undefined);
      assert.deepEqual(applyDelta(JSON.parse(first?.data ?? '{}') as ConsoleState, delta), stateOf([row('acme', 3), row('globex', 2)], '3'));
    });
  });

  it('ends at the credential\'s expiry with an `expired` event, and lets go of its subscription', async () => {
    const { source, listeners } = fakeConsoleSource(stateOf([row('acme', 1)], '1'));
    await withServer(source, Date.now() + 1_500, async (url, open) => {
      const res = await fetch(url);
      const r = reader(res);
      await eventually(async () => listeners() === 1, 'the stream to subscribe');
      await r.ended; // the server ends the stream: no abort from this side
      assert.deepEqual(r.events.map((e) => e.event), ['state', 'expired']);
      assert.match(JSON.parse(r.events[1]?.data ?? '{}').message, /expired/);
      assert.equal(listeners(), 0);
      assert.equal(open.size, 0);
    });
  });

  it('a credential already expired gets its state and the end at once', async () => {
    const { source } = fakeConsoleSource(stateOf([], '1'));
    await withServer(source, Date.now() - 1, async (url) => {
      const r = reader(await fetch(url));
      await r.ended;
      assert.deepEqual(r.events.map((e) => e.event), ['state', 'expired']);
    });
  });
});
