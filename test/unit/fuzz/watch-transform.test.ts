// Fuzzing the gateway's watch stream rewriter: a valid upstream event stream
// cut into random chunks comes out event for event, translated (tenant →
// upstream → tenant round trip); garbage lines end the stream with an ERROR
// event carrying a Status, never an exception or a garbled line.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { WatchTransform } from '../../../src/gateway/proxy/watch-transform.ts';
import { toTenantWatchEvent } from '../../../src/core/tenancy/response-translation.ts';
import { toUpstreamObject } from '../../../src/core/tenancy/object-translation.ts';
import type { KubeObject, WatchEvent } from '../../../src/core/types.ts';
import type { TenantContext } from '../../../src/core/tenancy/tenant-context.ts';
import { dnsLabel, nastyString } from './fuzz-helpers.ts';

const ctx: TenantContext = { id: 'aaaaaa' };

/** Feeds `input` in chunks cut at `cuts`; resolves with the output text, or rejects with the stream's error. */
async function run(input: Buffer, cuts: number[]): Promise<string> {
  const t = new WatchTransform({ translateEvent: (e) => toTenantWatchEvent(ctx, e) });
  const out: Buffer[] = [];
  t.on('data', (c: Buffer | string) => out.push(Buffer.from(c)));
  const done = new Promise<void>((resolve, reject) => {
    t.on('end', resolve);
    t.on('error', reject);
  });
  let at = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (input.length + 1)))].sort((a, b) => a - b)) {
    if (cut > at) t.write(input.subarray(at, cut));
    at = Math.max(at, cut);
  }
  if (at < input.length) t.write(input.subarray(at));
  t.end();
  await done;
  return Buffer.concat(out).toString('utf8');
}

const tenantEvent = fc.record({
  type: fc.constantFrom<WatchEvent['type']>('ADDED', 'MODIFIED', 'DELETED'),
  ns: dnsLabel.filter((n) => n.length <= 56),
  name: dnsLabel,
  data: fc.dictionary(dnsLabel, fc.string({ unit: 'grapheme' }), { maxKeys: 2, noNullPrototype: true }),
}).map(({ type, ns, name, data }) => ({ type, object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, resourceVersion: '5' }, data } as KubeObject }));

describe('fuzz: watch stream transform', () => {
  it('a valid event stream in random chunks comes out whole and in tenant terms', async () => {
    await fc.assert(fc.asyncProperty(fc.array(tenantEvent, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), async (events, cuts, crlf) => {
      const upstream = events.map((e) => ({ type: e.type, object: toUpstreamObject(ctx, structuredClone(e.object)) }));
      const nl = crlf ? '\r\n' : '\n';
      const input = Buffer.from(upstream.map((e) => JSON.stringify(e) + nl).join('') + JSON.stringify({ type: 'BOOKMARK', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { resourceVersion: '9' } } }) + nl);
      const lines = (await run(input, cuts)).split('\n').filter(Boolean).map((l) => JSON.parse(l) as WatchEvent);
      assert.deepEqual(lines.slice(0, -1), events);
      assert.equal(lines.at(-1)?.type, 'BOOKMARK');
    }), { numRuns: 300 });
  });

  it('garbage lines: what came before, then one ERROR event with a Status, then the end', async () => {
    const garbage = fc.oneof(nastyString.filter((s) => !s.includes('\n') && s.trim() !== ''), fc.constantFrom('{"type":"ADDED"}', '{"type":"NOPE","object":{}}', '[1,2]', 'null', '{"type":"ADDED","object":"x"}', '{"type":"ADDED","object":{"metadata":{"ownerReferences":{}}}'));
    await fc.assert(fc.asyncProperty(fc.array(tenantEvent, { maxLength: 3 }), garbage, fc.array(fc.nat(), { maxLength: 8 }), async (events, junk, cuts) => {
      const upstream = events.map((e) => JSON.stringify({ type: e.type, object: toUpstreamObject(ctx, structuredClone(e.object)) }) + '\n').join('');
      const text = await run(Buffer.from(`${upstream}${junk}\n${upstream}`), cuts);
      const lines = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as WatchEvent);
      const last = lines.at(-1);
      if (last?.type !== 'ERROR') {
        // Only lines that parse as events and are dropped as foreign (bad metadata) may pass quietly.
        assert.equal(lines.length, 2 * events.length, `unexpected output for ${JSON.stringify(junk)}: ${text}`);
        return;
      }
      assert.equal(lines.length, events.length + 1);
      assert.equal((last.object as unknown as { kind: string }).kind, 'Status');
    }), { numRuns: 500 });
  });
});
