import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { WatchEvent } from '../../../../src/core/types.ts';
import { WatchOverflowError, WatchTransform, type WatchTransformOptions } from '../../../../src/gateway/proxy/watch-transform.ts';

type Translate = WatchTransformOptions['translateEvent'];

const identity: Translate = (event) => event;

function event(type: WatchEvent['type'], name: string, extra: Record<string, unknown> = {}): WatchEvent {
  return { type, object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'abc123-ns', resourceVersion: '7' }, ...extra } };
}

/** Feeds the chunks in order, ends the input, and returns every output line parsed. */
async function run(chunks: (string | Buffer)[], translateEvent: Translate = identity): Promise<{ events: any[]; transform: WatchTransform }> {
  const transform = new WatchTransform({ translateEvent });
  const out: Buffer[] = [];
  transform.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise<void>((resolve, reject) => { transform.on('end', resolve); transform.on('error', reject); });
  for (const chunk of chunks) transform.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  transform.end();
  await ended;
  const text = Buffer.concat(out).toString('utf8');
  assert.ok(text === '' || text.endsWith('\n'), 'output is whole lines');
  return { events: text.split('\n').filter(Boolean).map((line) => JSON.parse(line)), transform };
}

const wire = (events: WatchEvent[], eol = '\n'): string => events.map((e) => JSON.stringify(e) + eol).join('');

// Multi-byte characters make every byte split a potential UTF-8 split too.
const sample = [
  event('ADDED', 'ünïcode-日本', { data: { k: 'naïve ☃' } }),
  event('MODIFIED', 'b'),
  { type: 'BOOKMARK', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { resourceVersion: '9' } } } as WatchEvent,
  event('DELETED', 'c'),
];

describe('WatchTransform framing', () => {
  it('reassembles events split at every byte boundary (two chunks)', async () => {
    const bytes = Buffer.from(wire(sample));
    for (let cut = 0; cut <= bytes.length; cut++) {
      const { events } = await run([bytes.subarray(0, cut), bytes.subarray(cut)]);
      assert.deepEqual(events, sample, `cut at byte ${cut}`);
    }
  });

  it('reassembles events sent one byte per chunk', async () => {
    const bytes = Buffer.from(wire(sample));
    const { events } = await run([...bytes].map((b) => Buffer.from([b])));
    assert.deepEqual(events, sample);
  });

  it('reads several events from one chunk', async () => {
    const { events } = await run([wire(sample)]);
    assert.deepEqual(events, sample);
  });

  it('accepts CRLF framing and skips blank lines', async () => {
    const { events } = await run(['\r\n', wire(sample, '\r\n'), '\n\n']);
    assert.deepEqual(events, sample);
  });

  it('emits a final event that lacks only its newline', async () => {
    const { events } = await run([JSON.stringify(sample[1])]);
    assert.deepEqual(events, [sample[1]]);
  });

  it('drops a final event cut off mid-line (upstream went away)', async () => {
    const text = wire(sample.slice(0, 2)) + JSON.stringify(sample[3]).slice(0, 20);
    const { events, transform } = await run([text]);
    assert.deepEqual(events, sample.slice(0, 2));
    assert.equal(transform.endReason, undefined);
  });

  it('property: any chunking of any event sequence yields the same events', async () => {
    const names = fc.stringMatching(/^[a-z0-9ü日-]{1,20}$/);
    const events = fc.array(fc.record({ type: fc.constantFrom('ADDED', 'MODIFIED', 'DELETED'), name: names }), { maxLength: 8 });
    await fc.assert(fc.asyncProperty(events, fc.array(fc.nat(), { maxLength: 10 }), async (specs, cuts) => {
      const expected = specs.map((s) => event(s.type as WatchEvent['type'], s.name));
      const bytes = Buffer.from(wire(expected));
      const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
      const chunks: Buffer[] = [];
      let at = 0;
      for (const p of points) { chunks.push(bytes.subarray(at, p)); at = p; }
      chunks.push(bytes.subarray(at));
      const { events: got } = await run(chunks);
      assert.deepEqual(got, expected);
    }), { numRuns: 200 });
  });
});

describe('WatchTransform translation', () => {
  it('passes every event type through translateEvent, BOOKMARK and ERROR included', async () => {
    const seen: string[] = [];
    const error = { type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 410, reason: 'Expired', message: 'too old resource version' } } as unknown as WatchEvent;
    const { events } = await run([wire([...sample, error])], (e) => {
      seen.push(e.type);
      return { type: e.type, object: { ...e.object, translated: true } as any };
    });
    assert.deepEqual(seen, ['ADDED', 'MODIFIED', 'BOOKMARK', 'DELETED', 'ERROR']);
    assert.ok(events.every((e) => e.object.translated === true));
  });

  it('drops events for which translateEvent returns undefined', async () => {
    const { events } = await run([wire(sample)], (e) => (e.type === 'MODIFIED' || e.type === 'BOOKMARK' ? undefined : e));
    assert.deepEqual(events.map((e) => e.type), ['ADDED', 'DELETED']);
  });

  it('rewrites objects (a prefix removed) and keeps the line framing', async () => {
    const { events } = await run([wire(sample)], (e) => {
      const ns = e.object.metadata?.namespace;
      if (ns) e.object.metadata.namespace = ns.replace(/^abc123-/, '');
      return e;
    });
    assert.equal(events[0].object.metadata.namespace, 'ns');
  });
});

describe('WatchTransform malformed input', () => {
  const malformed: { name: string; line: string }[] = [
    { name: 'not JSON', line: 'this is not json' },
    { name: 'truncated JSON followed by a newline', line: '{"type":"ADDED","object":{' },
    { name: 'JSON that is not an event', line: '{"kind":"Pod"}' },
    { name: 'an unknown event type', line: '{"type":"EXPLODED","object":{}}' },
    { name: 'an event without an object', line: '{"type":"ADDED","object":"x"}' },
    { name: 'a JSON array', line: '[1,2]' },
  ];
  for (const c of malformed) {
    it(`ends with a 500 ERROR event on ${c.name}, after the good events, and forwards nothing after`, async () => {
      const { events, transform } = await run([wire(sample.slice(0, 2)), `${c.line}\n`, wire(sample.slice(2))]);
      assert.equal(events.length, 3);
      assert.deepEqual(events.slice(0, 2), sample.slice(0, 2));
      const last = events[2];
      assert.equal(last.type, 'ERROR');
      assert.equal(last.object.kind, 'Status');
      assert.equal(last.object.code, 500);
      assert.equal(last.object.reason, 'InternalError');
      assert.ok(!JSON.stringify(last).includes(c.line), 'the garbage itself is not echoed');
      assert.equal(transform.endReason, 'malformed');
    });
  }

  it('treats a translateEvent that throws like a malformed line', async () => {
    const { events } = await run([wire(sample)], (e) => { if (e.type === 'MODIFIED') throw new Error('boom abc123-secret'); return e; });
    assert.deepEqual(events.map((e) => e.type), ['ADDED', 'ERROR']);
    assert.ok(!JSON.stringify(events).includes('abc123-secret'));
  });
});

describe('WatchTransform buffering', () => {
  it('signals backpressure instead of buffering without bound while nobody reads', () => {
    const transform = new WatchTransform({ translateEvent: identity });
    const line = Buffer.from(wire([event('ADDED', 'x', { data: { big: 'y'.repeat(4096) } })]));
    let accepted = 0;
    while (transform.write(line) && accepted < 1000) accepted++;
    assert.ok(accepted < 100, `write() returned false after ${accepted} events`);
    assert.equal(transform.destroyed, false);
    transform.destroy();
  });

  it('cuts off a client that falls more than maxBufferedBytes behind a writer that ignores backpressure', async () => {
    const transform = new WatchTransform({ translateEvent: identity, maxBufferedBytes: 256 * 1024 });
    const failed = new Promise<Error>((resolve) => transform.on('error', resolve));
    const line = Buffer.from(wire([event('ADDED', 'x', { data: { big: 'y'.repeat(4096) } })]));
    for (let i = 0; i < 200 && !transform.destroyed; i++) transform.write(line);
    const err = await failed;
    assert.ok(err instanceof WatchOverflowError);
    assert.equal(transform.endReason, 'overflow');
  });

  it('cuts off an upstream line that never ends', async () => {
    const transform = new WatchTransform({ translateEvent: identity, maxBufferedBytes: 64 * 1024 });
    const failed = new Promise<Error>((resolve) => transform.on('error', resolve));
    transform.resume();
    for (let i = 0; i < 100 && !transform.destroyed; i++) transform.write(Buffer.alloc(4096, 0x61));
    assert.ok((await failed) instanceof WatchOverflowError);
  });

  it('does not cut off a reader that keeps up, however much flows', async () => {
    const line = wire([event('ADDED', 'x', { data: { big: 'y'.repeat(1024) } })]);
    const { events } = await run(Array.from({ length: 2000 }, () => line));
    assert.equal(events.length, 2000);
  });
});
