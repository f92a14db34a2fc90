import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError } from '../../../../src/core/api-error.ts';
import {
  fieldValue, formatFieldSelector, matchesFields, parseFieldSelector, type FieldRequirement,
} from '../../../../src/core/selectors/index.ts';

describe('parseFieldSelector', () => {
  const cases: [string, FieldRequirement[]][] = [
    ['', []],
    ['spec.nodeName=n1', [{ field: 'spec.nodeName', operator: '=', value: 'n1' }]],
    ['metadata.name==a', [{ field: 'metadata.name', operator: '==', value: 'a' }]],
    ['status.phase!=Running', [{ field: 'status.phase', operator: '!=', value: 'Running' }]],
    ['spec.nodeName=', [{ field: 'spec.nodeName', operator: '=', value: '' }]],
    // kube sorts the raw terms, and skips empty ones.
    ['b=2,,a=1', [{ field: 'a', operator: '=', value: '1' }, { field: 'b', operator: '=', value: '2' }]],
    // Escapes in values: \, \= \\ ; the first operator splits, so '=' in a value must be escaped.
    ['x=a\\,b', [{ field: 'x', operator: '=', value: 'a,b' }]],
    ['x=a\\=b', [{ field: 'x', operator: '=', value: 'a=b' }]],
    ['x=a\\\\b', [{ field: 'x', operator: '=', value: 'a\\b' }]],
    ['x!=a\\,b,y=c', [{ field: 'x', operator: '!=', value: 'a,b' }, { field: 'y', operator: '=', value: 'c' }]],
  ];
  for (const [input, expected] of cases) {
    it(JSON.stringify(input), () => assert.deepEqual(parseFieldSelector(input), expected));
  }

  const bad: [string, string][] = [
    ['x', "invalid selector: 'x'; can't understand 'x'"],
    ['a=1,x', "invalid selector: 'a=1,x'; can't understand 'x'"],
    ['x=a=b', 'invalid field selector: unescaped character in value: 61'],
    ['x==a==b', 'invalid field selector: unescaped character in value: 61'],
    ['x=a\\b', 'invalid field selector: invalid escape sequence: \\b'],
    ['x=a\\', 'invalid field selector: invalid escape sequence: \\'],
  ];
  for (const [input, message] of bad) {
    it(`refuses ${JSON.stringify(input)}`, () => assert.throws(() => parseFieldSelector(input), (err: unknown) => {
      assert.ok(err instanceof ApiError);
      assert.equal(err.code, 400);
      assert.equal(err.message, message);
      return true;
    }));
  }
});

describe('matchesFields and fieldValue', () => {
  const pod = { metadata: { name: 'p', namespace: 'ns' }, spec: { nodeName: 'n1', hostNetwork: true, priority: 5 }, status: { phase: 'Running' } };
  const get = (f: string): string | undefined => fieldValue(pod, f);
  const cases: [string, boolean][] = [
    ['', true],
    ['spec.nodeName=n1', true],
    ['spec.nodeName!=n1', false],
    ['metadata.name=p,metadata.namespace=ns', true],
    ['metadata.name=p,metadata.namespace=other', false],
    ['spec.hostNetwork=true', true],
    ['spec.priority=5', true],
    ['spec.schedulerName=', true],
    ['spec.schedulerName!=', false],
  ];
  for (const [selector, expected] of cases) {
    it(JSON.stringify(selector), () => assert.equal(matchesFields(parseFieldSelector(selector), get), expected));
  }
  it('reads paths with or without a leading dot, scalars only', () => {
    assert.equal(fieldValue(pod, '.spec.nodeName'), 'n1');
    assert.equal(fieldValue(pod, 'spec.hostNetwork'), 'true');
    assert.equal(fieldValue(pod, 'spec'), undefined);
    assert.equal(fieldValue(pod, 'spec.missing.deeper'), undefined);
  });
});

describe('round trip', () => {
  // Field names cannot hold operators, commas or backslashes (kube never escapes them); values hold anything.
  const field = fc.stringMatching(/^[a-zA-Z][a-zA-Z.]{0,12}$/);
  const value = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ',', '=', '\\', '!', ' ', 'é'), maxLength: 8 });
  const req = fc.record({ field, operator: fc.constantFrom('=' as const, '==' as const, '!=' as const), value }).map((r) => ({ ...r }));
  it('parse(format(reqs)) gives back the requirements, in kube order', () => {
    fc.assert(fc.property(fc.array(req, { maxLength: 5 }), (reqs) => {
      const text = formatFieldSelector(reqs);
      const parsed = parseFieldSelector(text);
      assert.equal(parsed.length, reqs.length);
      assert.deepEqual(formatFieldSelector(parsed), formatFieldSelector(parseFieldSelector(formatFieldSelector(parsed))));
      const key = (r: FieldRequirement): string => `${r.field}${r.operator}${r.value}`;
      assert.deepEqual(parsed.map(key).sort(), reqs.map(key).sort());
    }));
  });
});
