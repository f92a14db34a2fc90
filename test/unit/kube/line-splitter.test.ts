import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LineSplitter } from '../../../src/kube/line-splitter.ts';

describe('LineSplitter', () => {
  it('yields the same lines however the bytes are chunked, multi-byte characters included', () => {
    const line = fc.string({ unit: fc.constantFrom('a', '{', '"', 'é', '雪', '😀', ' '), minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== '');
    fc.assert(fc.property(fc.array(line, { maxLength: 8 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 10 }), (lines, trailingNewline, cuts) => {
      const bytes = Buffer.from(lines.join('\n') + (trailingNewline && lines.length > 0 ? '\n' : ''));
      const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
      const splitter = new LineSplitter();
      const out: string[] = [];
      let from = 0;
      for (const p of [...points, bytes.length]) {
        out.push(...splitter.push(bytes.subarray(from, p)));
        from = p;
      }
      out.push(...splitter.end());
      assert.deepEqual(out, lines);
    }));
  });

  it('skips blank lines (keep-alive newlines)', () => {
    const splitter = new LineSplitter();
    assert.deepEqual(splitter.push(Buffer.from('\n{"a":1}\n\n{"b"')), ['{"a":1}']);
    assert.deepEqual(splitter.push(Buffer.from(':2}\n')), ['{"b":2}']);
    assert.deepEqual(splitter.end(), []);
  });
});
