// Issue 13: a large body is parsed in slices with turns of the loop between
// them, and the answer is JSON.parse's, exactly (values, key order, duplicate
// keys, "__proto__", and the error of a malformed text).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseJsonInSlices } from '../../../src/http/json-slices.ts';

const noPause = async (): Promise<void> => undefined;

/** JSON.parse's answer or error message, to compare both ways. */
function outcome(f: () => unknown): { value?: unknown; error?: string } {
  try {
    return { value: f() };
  } catch (err) {
    return { error: `${(err as Error).name}: ${(err as Error).message}` };
  }
}

async function slicedOutcome(text: string, sliceChars: number): Promise<{ value?: unknown; error?: string }> {
  try {
    return { value: await parseJsonInSlices(text, { sliceChars, stepMs: 0, pause: noPause }) };
  } catch (err) {
    return { error: `${(err as Error).name}: ${(err as Error).message}` };
  }
}

/** Same values and the same member order at every level (deepStrictEqual ignores order). */
function assertSame(actual: unknown, expected: unknown): void {
  assert.deepStrictEqual(actual, expected);
  assert.equal(JSON.stringify(actual), JSON.stringify(expected));
}

describe('parseJsonInSlices', () => {
  it('property: any JSON text, any slice size, any indentation: what JSON.parse answers', async () => {
    await fc.assert(fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 1, max: 80 }), fc.constantFrom(0, 1, 2, '\t', ' \n '), async (value, sliceChars, space) => {
      const text = JSON.stringify(value, null, space as never);
      const got = await slicedOutcome(text, sliceChars);
      assert.equal(got.error, undefined);
      assertSame(got.value, JSON.parse(text));
    }), { numRuns: 400 });
  });

  it('property: a damaged text gets JSON.parse\'s own error, or its answer', async () => {
    const damaged = fc.tuple(fc.jsonValue({ maxDepth: 5 }), fc.nat(), fc.constantFrom('', ',', ':', '[', ']', '{', '}', '"', '\\', ' x', '1')).map(([value, at, insert]) => {
      const text = JSON.stringify(value, null, 1);
      const i = at % (text.length + 1);
      return `${text.slice(0, i)}${insert}${text.slice(i + (insert === '' ? 1 : 0))}`;
    });
    await fc.assert(fc.asyncProperty(damaged, fc.integer({ min: 1, max: 40 }), async (text, sliceChars) => {
      const expected = outcome(() => JSON.parse(text));
      const got = await slicedOutcome(text, sliceChars);
      assert.equal(got.error, expected.error);
      if (expected.error === undefined) assertSame(got.value, expected.value);
    }), { numRuns: 600 });
  });

  it('duplicate keys keep their first position and their last value, across slices and large members', async () => {
    const texts = [
      `{"a":1,"b":2,"a":${JSON.stringify({ big: 'x'.repeat(50) })},"c":3}`,
      `{"a":${JSON.stringify({ big: 'x'.repeat(50) })},"b":2,"a":1}`,
      `{"a":1,"b":[${'1,'.repeat(40)}1],"a":2,"b":0}`,
    ];
    for (const text of texts) for (const sliceChars of [1, 8, 30]) assertSame(await parseJsonInSlices(text, { sliceChars, pause: noPause }), JSON.parse(text));
  });

  it('"__proto__" stays an own member and never becomes the prototype', async () => {
    const text = `{"__proto__":{"polluted":true,"pad":"${'x'.repeat(40)}"},"a":{"__proto__":[1,2,3]}}`;
    for (const sliceChars of [1, 10, 100]) {
      const got = await parseJsonInSlices(text, { sliceChars, pause: noPause }) as Record<string, unknown>;
      assert.equal(Object.getPrototypeOf(got), Object.prototype);
      assert.deepEqual(Object.keys(got), ['__proto__', 'a']);
      assert.equal((got as { polluted?: unknown }).polluted, undefined);
      assertSame(got, JSON.parse(text));
    }
  });

  it('text after a large value, or a large value where no value starts, is JSON.parse\'s error', async () => {
    const big = JSON.stringify({ k: 'v'.repeat(100) });
    for (const text of [`${big} 1`, `[${big} ${big}]`, `{"a" ${big}}`, `{${big}}`, `[1 ${big}]`, `[${big},]`, `{"a":${big},}`]) {
      assert.deepEqual(await slicedOutcome(text, 10), outcome(() => JSON.parse(text)), text.slice(0, 30));
    }
  });

  it('the largest accepted ConfigMap and 99,000 one-member objects: many turns, the same answer', async () => {
    const labels: Record<string, string> = {};
    const data: Record<string, string> = {};
    for (let i = 0; i < 10_000; i++) {
      labels[`k${i.toString(36)}`] = 'v';
      if (i < 9_000) data[`d${i.toString(36)}`] = 'x'.repeat(100);
    }
    const configMap = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'heavy', labels }, data });
    const spread = `{"spec":{"items":[${Array.from({ length: 99_000 }, (_, i) => `{"k${i.toString(36)}":${i}}`).join(',')}]}}`;
    for (const text of [configMap, spread]) {
      let turns = 0;
      const got = await parseJsonInSlices(text, { stepMs: 0, pause: async () => { turns++; } });
      assertSame(got, JSON.parse(text));
      // stepMs 0: a turn after every run of ~16 KiB, so at least one per 16 KiB of text.
      assert.ok(turns >= Math.floor(text.length / (16 * 1024)), `${String(turns)} turns for ${String(text.length)} chars`);
    }
  });

  it('a small text is one JSON.parse, without a turn', async () => {
    let turns = 0;
    assert.deepEqual(await parseJsonInSlices('{"a":[1,2]}', { stepMs: 0, pause: async () => { turns++; } }), { a: [1, 2] });
    assert.equal(turns, 0);
  });
});
