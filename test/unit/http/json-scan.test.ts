// Break 5: bodies whose cost is out of all proportion to their size are
// refused before JSON.parse, in kube's words, with a 400 (never a 500).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MAX_BODY_MEMBERS, MAX_JSON_DEPTH, MAX_OBJECT_MEMBERS, scanJson } from '../../../src/http/json-scan.ts';
import { decodeBody, GATEWAY_JSON_LIMITS } from '../../../src/http/request-body.ts';
import { ApiError } from '../../../src/core/api-error.ts';
import { labelsTooLong, MAX_LABELS_BYTES } from '../../../src/core/tenancy/tenant-label.ts';

const deep = (n: number, open = '[', close = ']') => Buffer.from(`{"apiVersion":"v1","kind":"ConfigMap","x":${open.repeat(n)}${close.repeat(n)}}`);
const wide = (n: number) => {
  const labels: Record<string, string> = {};
  for (let i = 0; i < n; i++) labels[`k${i}`] = 'v';
  return Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w', labels } }));
};

describe('scanJson', () => {
  it('depth: at the limit passes, one more is refused; 100,000 deep too', () => {
    assert.equal(scanJson(deep(MAX_JSON_DEPTH - 1)), undefined); // the outer object is one level
    assert.deepEqual(scanJson(deep(MAX_JSON_DEPTH)), { kind: 'depth', limit: MAX_JSON_DEPTH, char: '[' });
    assert.equal(scanJson(deep(100_000, '{"a":', '}'))?.kind, 'depth');
  });
  it('members: an object of the limit passes, one more is refused; arrays are not objects', () => {
    assert.equal(scanJson(wide(MAX_OBJECT_MEMBERS)), undefined);
    assert.deepEqual(scanJson(wide(MAX_OBJECT_MEMBERS + 1)), { kind: 'members', limit: MAX_OBJECT_MEMBERS });
    assert.equal(scanJson(wide(200_000))?.kind, 'members');
    assert.equal(scanJson(Buffer.from(JSON.stringify({ a: Array.from({ length: 50_000 }, (_, i) => i) }))), undefined);
  });
  it('members in the whole body: the limit passes, one more is refused, however they are spread', () => {
    // One-member objects, each with a key of its own: the costliest shape per byte for V8 (ADR 0026).
    const spread = (n: number) => Buffer.from(`{"x":[${Array.from({ length: n - 1 }, (_, i) => `{"k${i.toString(36)}":0}`).join(',')}]}`);
    assert.equal(scanJson(spread(MAX_BODY_MEMBERS)), undefined); // "x" is a member too
    assert.deepEqual(scanJson(spread(MAX_BODY_MEMBERS + 1)), { kind: 'total', limit: MAX_BODY_MEMBERS });
    // Colons inside strings (escaped quotes included) are not members.
    assert.equal(scanJson(Buffer.from(JSON.stringify({ s: `\\":${':'.repeat(200_000)}` })), { total: 1 }), undefined);
  });
  it('property: the body-wide count is the number of object members', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
      const count = (v: unknown): number => (Array.isArray(v) ? v.reduce((a: number, x) => a + count(x), 0)
        : v !== null && typeof v === 'object' ? Object.values(v).reduce((a: number, x) => a + 1 + count(x), 0) : 0);
      const text = Buffer.from(JSON.stringify(value));
      const n = count(value);
      assert.equal(scanJson(text, { depth: 1e9, members: 1e9, total: n }), undefined);
      if (n > 0) assert.deepEqual(scanJson(text, { depth: 1e9, members: 1e9, total: n - 1 }), { kind: 'total', limit: n - 1 });
    }), { numRuns: 300 });
  });
  it('brackets, braces and commas inside strings (escaped quotes included) do not count', () => {
    const tricky = JSON.stringify({ s: `\\"${'['.repeat(10_000)}${','.repeat(20_000)}\\\\`, t: 'a"b' });
    assert.equal(scanJson(Buffer.from(tricky)), undefined);
  });
  it('property: agrees with the real depth and widest object of random JSON', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 8 }), (value) => {
      const text = JSON.stringify({ v: value });
      const measure = (v: unknown, d: number): { depth: number; widest: number } => {
        if (Array.isArray(v)) return v.map((x) => measure(x, d + 1)).reduce((a, b) => ({ depth: Math.max(a.depth, b.depth), widest: Math.max(a.widest, b.widest) }), { depth: d + 1, widest: 0 });
        if (v !== null && typeof v === 'object') {
          const own = Object.keys(v).length;
          return Object.values(v).map((x) => measure(x, d + 1)).reduce((a, b) => ({ depth: Math.max(a.depth, b.depth), widest: Math.max(a.widest, b.widest) }), { depth: d + 1, widest: own });
        }
        return { depth: d, widest: 0 };
      };
      const m = measure({ v: value }, 0);
      const depthLimit = Math.max(1, m.depth);
      assert.equal(scanJson(Buffer.from(text), { depth: depthLimit, members: Math.max(1, m.widest) }), undefined, text);
      if (m.depth > 1) assert.equal(scanJson(Buffer.from(text), { depth: m.depth - 1, members: 1e9 })?.kind, 'depth', text);
      if (m.widest > 1) assert.equal(scanJson(Buffer.from(text), { depth: 1e9, members: m.widest - 1 })?.kind, 'members', text);
    }), { numRuns: 300 });
  });
});

describe('decodeBody refusals', () => {
  const refusal = (body: Buffer, type = 'application/json'): ApiError => {
    try {
      decodeBody(body, type, { group: '', version: 'v1', kind: 'ConfigMap' }, GATEWAY_JSON_LIMITS);
    } catch (err) {
      assert.ok(err instanceof ApiError);
      return err;
    }
    assert.fail('not refused');
  };
  it('100,000-deep JSON is a 400 BadRequest in kube\'s words, not a 500', () => {
    for (const type of ['application/json', 'application/apply-patch+yaml', 'application/merge-patch+json']) {
      const err = refusal(deep(100_000), type);
      assert.equal(err.code, 400);
      assert.equal(err.reason, 'BadRequest');
      assert.match(err.message, /^the object provided is unrecognized \(must be of type ConfigMap\): couldn't get version\/kind; json parse error: invalid character '\[' exceeded max depth/);
    }
  });
  it('an object with 200,000 members is a 400', () => {
    const err = refusal(wide(200_000));
    assert.equal(err.code, 400);
    assert.match(err.message, /more than 10000 members/);
  });
  it('3 MB of one-member objects with keys of their own (277,000 members, 1.5-5.5 s to parse) is a 400', () => {
    const parts: string[] = [];
    for (let i = 0, len = 0; len < 3_000_000; i++) { const p = `{"${i.toString(36)}":0}`; parts.push(p); len += p.length + 1; }
    const err = refusal(Buffer.from(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"x":[${parts.join(',')}]}`));
    assert.equal(err.code, 400);
    assert.match(err.message, /json parse error: the body has more than 100000 object members$/);
  });
  it('the embedded apiserver\'s default bounds depth only: kube has no bound on members', () => {
    assert.equal((decodeBody(wide(20_000), 'application/json') as { kind: string }).kind, 'ConfigMap');
    assert.throws(() => decodeBody(deep(100_000), 'application/json'), /exceeded max depth/);
  });
  it('ordinary bodies decode as before', () => {
    assert.deepEqual(decodeBody(Buffer.from('{"a":[1,{"b":"]"}]}'), 'application/json'), { a: [1, { b: ']' }] });
  });
});

describe('labels are bounded like kube\'s annotations', () => {
  it('at most 256 KiB of keys and values; beyond, kube\'s FieldValueTooLong', () => {
    const obj = (bytes: number) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'l', labels: { a: 'x'.repeat(bytes - 1) } } });
    assert.equal(labelsTooLong(obj(MAX_LABELS_BYTES)), null);
    const err = labelsTooLong(obj(MAX_LABELS_BYTES + 1));
    assert.equal(err?.code, 422);
    assert.equal(err?.message, 'ConfigMap "l" is invalid: metadata.labels: Too long: must have at most 262144 bytes');
  });
});
