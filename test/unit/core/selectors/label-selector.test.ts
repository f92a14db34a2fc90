import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError } from '../../../../src/core/api-error.ts';
import {
  formatLabelSelector, fromLabelSelectorObject, matchesLabels, parseLabelSelector, type LabelRequirement,
} from '../../../../src/core/selectors/index.ts';

describe('parseLabelSelector accepts what kube accepts, in canonical form', () => {
  // [input, canonical String() as kube prints it]
  const cases: [string, string][] = [
    ['', ''],
    ['x=a,y=b,z=c', 'x=a,y=b,z=c'],
    ['z=c,x=a', 'x=a,z=c'],
    ['x!=a,y=b', 'x!=a,y=b'],
    ['x=', 'x='],
    ['x= ', 'x='],
    ['x=,z= ', 'x=,z='],
    ['x==a', 'x==a'],
    ['!x', '!x'],
    ['x', 'x'],
    ['  x  ,  !y ', 'x,!y'],
    ['x>1', 'x>1'],
    ['x>1,z<5', 'x>1,z<5'],
    ['x in (foo,,baz),y,z notin ()', 'x in (,baz,foo),y,z notin ()'],
    ['x in (in)', 'x in (in)'],
    ['x notin (a, b)', 'x notin (a,b)'],
    ['x in (b,a,b)', 'x in (a,b)'],
    ['example.com/app=web', 'example.com/app=web'],
    ['x=in', 'x=in'],
  ];
  for (const [input, canonical] of cases) {
    it(JSON.stringify(input), () => assert.equal(formatLabelSelector(parseLabelSelector(input)), canonical));
  }
});

describe('parseLabelSelector refuses what kube refuses, with its message', () => {
  const cases: [string, string][] = [
    // '|' is not special to kube's lexer: "a||y" is read as one (invalid) value.
    ['x=a||y=b', 'unable to parse requirement: values[0][x]: Invalid value: "a||y": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')'],
    ['x==a==b', "found '==', expected: ',' or 'end of string'"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    ['x=a,', "found '', expected: identifier after ','"],
    [',x=a', "found ',', expected: !, identifier, or 'end of string'"],
    ['x y', "unable to parse requirement: found 'y', expected: in, notin, =, ==, !=, gt, lt"],
    ['x in a', "unable to parse requirement: found 'a' expected: '('"],
    ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['x>a', "unable to parse requirement: values[0]: Invalid value: \"a\": for 'Gt', 'Lt' operators, the value must be an integer"],
    ['x=a b', "found 'b', expected: ',' or 'end of string'"],
    ['a_b-/c=d', 'unable to parse requirement: <nil>: Invalid value: "a_b-/c": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')'],
    ['x=-a', 'unable to parse requirement: values[0][x]: Invalid value: "-a": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')'],
    [`${'k'.repeat(64)}`, `unable to parse requirement: <nil>: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 characters`],
  ];
  for (const [input, message] of cases) {
    it(JSON.stringify(input), () => {
      assert.throws(() => parseLabelSelector(input), (err: unknown) => {
        assert.ok(err instanceof ApiError);
        assert.equal(err.code, 400);
        assert.equal(err.message, message);
        return true;
      });
    });
  }
});

describe('matchesLabels', () => {
  const labels = { app: 'web', tier: 'front', n: '10' };
  const cases: [string, Record<string, string> | undefined, boolean][] = [
    ['', labels, true],
    ['app=web', labels, true],
    ['app==db', labels, false],
    ['app!=db', labels, true],
    ['missing!=x', labels, true],
    ['app in (db,web)', labels, true],
    ['app notin (db,web)', labels, false],
    ['missing notin (a)', labels, true],
    ['missing in (a)', labels, false],
    ['app', labels, true],
    ['!app', labels, false],
    ['!missing', undefined, true],
    ['n>9,n<11', labels, true],
    ['n>10', labels, false],
    ['app>1', labels, false],
    ['app=web,tier=back', labels, false],
    ['x=', { x: '' }, true],
    ['x=', {}, false],
  ];
  for (const [selector, set, expected] of cases) {
    it(`${JSON.stringify(selector)} on ${JSON.stringify(set)}`, () => assert.equal(matchesLabels(parseLabelSelector(selector), set), expected));
  }
});

describe('fromLabelSelectorObject', () => {
  it('null selects nothing, {} selects everything', () => {
    assert.equal(fromLabelSelectorObject(null), null);
    assert.deepEqual(fromLabelSelectorObject({}), []);
  });
  it('maps matchLabels and matchExpressions, sorted by key', () => {
    const reqs = fromLabelSelectorObject({
      matchLabels: { tier: 'front' },
      matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }, { key: 'gone', operator: 'DoesNotExist' }, { key: 'env', operator: 'Exists' }],
    });
    assert.equal(formatLabelSelector(reqs ?? []), 'app in (api,web),env,!gone,tier=front');
  });
  const bad: [string, Parameters<typeof fromLabelSelectorObject>[0], string][] = [
    ['unknown operator', { matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }, '"Gt" is not a valid label selector operator'],
    ['In without values', { matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }, "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty"],
    ['Exists with values', { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }, 'values set must be empty'],
  ];
  for (const [name, input, message] of bad) {
    it(`refuses ${name}`, () => assert.throws(() => fromLabelSelectorObject(input), (err: unknown) => err instanceof ApiError && err.code === 400 && err.message.includes(message)));
  }
  it('accepts Exists without values', () => {
    assert.deepEqual(fromLabelSelectorObject({ matchExpressions: [{ key: 'a', operator: 'Exists' }] }), [{ key: 'a', operator: 'exists', values: [] }]);
  });
});

// Generators of valid keys and values, so the property covers the whole grammar.
const alnum = fc.constantFrom(...'abcXYZ019'.split(''));
const inner = fc.constantFrom(...'abz09-_.'.split(''));
const namePart = fc.tuple(alnum, fc.array(inner, { maxLength: 6 }), alnum).map(([a, m, z]) => a + m.join('') + z);
const value = fc.oneof(fc.constant(''), namePart, fc.constantFrom('in', 'notin'));
const dnsLabel = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,4}[a-z0-9])?$/);
const key = fc.oneof(namePart, fc.tuple(fc.array(dnsLabel, { minLength: 1, maxLength: 3 }), namePart).map(([p, n]) => `${p.join('.')}/${n}`));
const requirement: fc.Arbitrary<LabelRequirement> = fc.oneof(
  fc.record({ key, operator: fc.constantFrom('=' as const, '==' as const, '!=' as const), values: value.map((v) => [v]) }),
  fc.record({ key, operator: fc.constantFrom('in' as const, 'notin' as const), values: fc.uniqueArray(value, { minLength: 1, maxLength: 4 }).map((vs) => vs.sort()) }),
  fc.record({ key, operator: fc.constantFrom('exists' as const, '!' as const), values: fc.constant([] as string[]) }),
  // Negative numbers are not valid label values, so kube cannot express "x>-1" either.
  fc.record({ key, operator: fc.constantFrom('gt' as const, 'lt' as const), values: fc.integer({ min: 0, max: 999 }).map((n) => [String(n)]) }),
).map((r) => ({ ...r }));

describe('round trip', () => {
  it('parse(format(reqs)) gives back the requirements, sorted by key', () => {
    fc.assert(fc.property(fc.array(requirement, { maxLength: 5 }), (reqs) => {
      const sorted = [...reqs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      assert.deepEqual(parseLabelSelector(formatLabelSelector(reqs)), sorted);
    }));
  });
  it('format(parse(text)) is a fixed point', () => {
    fc.assert(fc.property(fc.array(requirement, { maxLength: 5 }), (reqs) => {
      const once = formatLabelSelector(parseLabelSelector(formatLabelSelector(reqs)));
      assert.equal(formatLabelSelector(parseLabelSelector(once)), once);
    }));
  });
});
