import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildHealthReport, buildSingleCheckReport, type CheckResult } from '../../../../src/gateway/health/health-report.ts';

// The cases of kube's own healthz tests (k8s.io/apiserver/pkg/server/healthz), in our terms.
const ping: CheckResult = { name: 'ping' };
const bad: CheckResult = { name: 'bad', failure: 'this will fail' };

describe('buildHealthReport (kube-apiserver healthz text)', () => {
  const cases: Array<{ name: string; results: CheckResult[]; unmatched?: string[]; verbose: boolean; status: number; body: string }> = [
    { name: 'all pass, terse', results: [ping], verbose: false, status: 200, body: 'ok' },
    { name: 'all pass, verbose', results: [ping], verbose: true, status: 200, body: '[+]ping ok\nreadyz check passed\n' },
    { name: 'a failure is listed even without verbose, reason withheld', results: [ping, bad], verbose: false, status: 500, body: '[+]ping ok\n[-]bad failed: reason withheld\nreadyz check failed\n' },
    { name: 'a failure, verbose', results: [ping, bad], verbose: true, status: 500, body: '[+]ping ok\n[-]bad failed: reason withheld\nreadyz check failed\n' },
    { name: 'excluded, verbose', results: [ping, { name: 'bad', excluded: true }], verbose: true, status: 200, body: '[+]ping ok\n[+]bad excluded: ok\nreadyz check passed\n' },
    { name: 'excluded, terse', results: [ping, { name: 'bad', excluded: true }], verbose: false, status: 200, body: 'ok' },
    { name: 'unmatched exclude warns, verbose', results: [ping], unmatched: ['dontexist'], verbose: true, status: 200, body: '[+]ping ok\nwarn: some health checks cannot be excluded: no matches for "dontexist"\nreadyz check passed\n' },
    { name: 'unmatched excludes sorted, quoted', results: [ping], unmatched: ['zz', 'aa'], verbose: true, status: 200, body: '[+]ping ok\nwarn: some health checks cannot be excluded: no matches for "aa", "zz"\nreadyz check passed\n' },
    { name: 'everything excluded', results: [{ name: 'ping', excluded: true }], verbose: true, status: 200, body: '[+]ping excluded: ok\nreadyz check passed\n' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const report = buildHealthReport('readyz', c.results, c.unmatched ?? [], c.verbose);
      assert.equal(report.status, c.status);
      assert.equal(report.body, c.body);
    });
  }

  it('never shows a reason, and hands every failure with its reason to the log', () => {
    fc.assert(fc.property(
      fc.uniqueArray(fc.record({ name: fc.stringMatching(/^[a-z][a-z-]{0,12}$/), failure: fc.option(fc.constant('SECRET-REASON'), { nil: undefined }) }), { selector: (r) => r.name }),
      fc.boolean(),
      (rows, verbose) => {
        const results: CheckResult[] = rows.map((r) => (r.failure === undefined ? { name: r.name } : { name: r.name, failure: r.failure }));
        const report = buildHealthReport('livez', results, [], verbose);
        const failing = results.filter((r) => r.failure !== undefined).map((r) => r.name);
        assert.equal(report.status, failing.length > 0 ? 500 : 200);
        assert.ok(!report.body.includes('SECRET-REASON'));
        assert.deepEqual(report.failed.map((f) => f.name), failing);
        if (failing.length > 0) assert.ok(report.body.endsWith('livez check failed\n'));
      },
    ));
  });
});

describe('buildSingleCheckReport (/readyz/<check>)', () => {
  it('ok when it passes', () => assert.deepEqual(buildSingleCheckReport(ping), { status: 200, body: 'ok', failed: [] }));
  it('500 with the reason when it fails, as kube', () => {
    const report = buildSingleCheckReport(bad);
    assert.equal(report.status, 500);
    assert.equal(report.body, 'internal server error: this will fail\n');
  });
});
