import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidPathSegmentName } from '../../../../src/apiserver/validation/name-rules.ts';
import { validateCronSchedule } from '../../../../src/apiserver/validation/cron-schedule.ts';
import { validateObjectName } from '../../../../src/apiserver/validation/object-name.ts';

describe('name rules', () => {
  const cases: Array<{ name: string; fn: (v: string) => string[]; value: string; want: string[] }> = [
    { name: 'label ok', fn: isDNS1123Label, value: 'my-name', want: [] },
    { name: 'label too long', fn: isDNS1123Label, value: 'a'.repeat(64), want: ['must be no more than 63 characters'] },
    { name: 'subdomain ok', fn: isDNS1123Subdomain, value: 'a.b-c.d', want: [] },
    { name: 'qualified ok', fn: isQualifiedName, value: 'example.com/My_Name', want: [] },
    { name: 'qualified empty prefix', fn: isQualifiedName, value: '/x', want: ['prefix part must be non-empty'] },
    {
      name: 'qualified two slashes', fn: isQualifiedName, value: 'a/b/c',
      want: ["a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"],
    },
    { name: 'path segment ..', fn: (v) => isValidPathSegmentName(v), value: '..', want: ["may not be '..'"] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(c.fn(c.value), c.want));

  it('every generated DNS label is also a valid subdomain', () => {
    fc.assert(fc.property(fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/), (s) => isDNS1123Label(s).length === 0 && isDNS1123Subdomain(s).length === 0));
  });
  it('upper case never passes as a label', () => {
    fc.assert(fc.property(fc.stringMatching(/^[a-z]{0,5}[A-Z][a-z]{0,5}$/), (s) => isDNS1123Label(s).length > 0));
  });
  it('validateObjectName picks the rule per kind', () => {
    assert.deepEqual(validateObjectName({ group: '', resource: 'configmaps' }, 'a.b'), []);
    assert.equal(validateObjectName({ group: '', resource: 'namespaces' }, 'a.b').length, 1);
    assert.deepEqual(validateObjectName({ group: 'rbac.authorization.k8s.io', resource: 'clusterroles' }, 'system:admin'), []);
  });
});

describe('validateCronSchedule', () => {
  const cases: Array<[string, string | undefined]> = [
    ['*/5 * * * *', undefined], ['0 0 1 jan mon', undefined], ['@daily', undefined], ['@every 1h30m', undefined],
    ['', 'empty spec string'], ['@sometimes', 'unrecognized descriptor: @sometimes'],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'], ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'], ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['TZ=UTC 0 * * * *', 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'],
  ];
  for (const [s, want] of cases) it(JSON.stringify(s), () => assert.equal(validateCronSchedule(s), want));
});
