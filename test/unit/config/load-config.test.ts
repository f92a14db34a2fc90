// loadConfig: precedence (defaults < file < env < flags), validation errors that
// name the field and its source, and docs/operations.md covering every field.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { loadConfig, ConfigError } from '../../../src/config/load-config.ts';
import { defaultConfig } from '../../../src/config/config-schema.ts';
import { OVERRIDES, configFlagOptions, parseOverride } from '../../../src/config/config-overrides.ts';

const HEAD = 'apiVersion: config.warren.dev/v1alpha1\nkind: WarrenConfig\n';
const files = (text: string) => (path: string) => {
  if (path !== '/etc/warren/config.yaml') throw Object.assign(new Error('nope'), { code: 'ENOENT' });
  return text;
};
const KC = { 'upstream-kubeconfig': '/kc' };

function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.problems;
  }
  assert.fail('expected a ConfigError');
}

describe('loadConfig', () => {
  it('defaults plus the one required field', () => {
    const c = loadConfig({ env: {}, flags: KC });
    assert.deepEqual(c, { ...defaultConfig(), upstream: { ...defaultConfig().upstream, kubeconfig: '/kc' } });
  });

  it('file < env < flags, field by field, and nested sections merge', () => {
    const text = `${HEAD}listen: 0.0.0.0:7443\nlog: { level: debug }\nleaderElection: { leaseDurationSeconds: 30, renewDeadlineSeconds: 20 }\nupstream: { kubeconfig: /file-kc }\nfairness: { tenants: { acme01: { seats: 5 } } }\n`;
    const c = loadConfig({
      file: '/etc/warren/config.yaml', readFile: files(text),
      env: { WARREN_LISTEN: '0.0.0.0:8443', WARREN_LOG_LEVEL: 'warn', WARREN_METRICS_ENABLED: 'false' },
      flags: { listen: '0.0.0.0:9443' },
    });
    assert.equal(c.listen, '0.0.0.0:9443'); // flag wins
    assert.equal(c.log.level, 'warn'); // env over file
    assert.equal(c.metrics.enabled, false);
    assert.equal(c.upstream.kubeconfig, '/file-kc');
    assert.equal(c.leaderElection.leaseDurationSeconds, 30);
    assert.equal(c.leaderElection.retryPeriodSeconds, 2); // default kept beside file values
    assert.deepEqual(c.fairness.tenants, { acme01: { seats: 5 } });
    assert.equal(c.fairness.defaults.seats, 20);
  });

  it('the heap growing factor (ADR 0040): 25% unless set, 0 leaves V8 its own', () => {
    assert.equal(loadConfig({ env: {}, flags: KC }).memory.heapGrowingPercent, 25);
    assert.equal(loadConfig({ env: { WARREN_MEMORY_HEAP_GROWING_PERCENT: '0' }, flags: KC }).memory.heapGrowingPercent, 0);
    assert.equal(loadConfig({ env: { WARREN_MEMORY_HEAP_GROWING_PERCENT: '10' }, flags: { ...KC, 'memory-heap-growing-percent': '40' } }).memory.heapGrowingPercent, 40);
  });

  it('the file comes from --config or WARREN_CONFIG', () => {
    const read = files(`${HEAD}upstream: { kubeconfig: /x }\n`);
    assert.equal(loadConfig({ env: { WARREN_CONFIG: '/etc/warren/config.yaml' }, flags: {}, readFile: read }).upstream.kubeconfig, '/x');
    assert.equal(loadConfig({ env: {}, flags: { config: '/etc/warren/config.yaml' }, readFile: read }).upstream.kubeconfig, '/x');
  });

  const bad: { name: string; text?: string; env?: Record<string, string>; flags?: Record<string, string>; want: RegExp }[] = [
    { name: 'unknown field, with its file', text: `${HEAD}lisen: x:1\n`, want: /^lisen: unknown field \(in \/etc\/warren\/config.yaml\)$/ },
    { name: 'unknown nested field', text: `${HEAD}metrics: { enable: true }\n`, want: /^metrics\.enable: unknown field/ },
    { name: 'wrong kind', text: 'apiVersion: config.warren.dev/v1alpha1\nkind: Config\n', want: /^kind: must be "WarrenConfig"/ },
    { name: 'missing apiVersion', text: 'kind: WarrenConfig\n', want: /^apiVersion: required \(in \/etc\/warren\/config.yaml\)$/ },
    { name: 'log level from env', env: { WARREN_LOG_LEVEL: 'loud' }, want: /^log\.level: must be one of debug, info, warn, error \(from env WARREN_LOG_LEVEL\)$/ },
    { name: 'boolean from env', env: { WARREN_METRICS_ENABLED: 'maybe' }, want: /^metrics\.enabled: must be true or false, got "maybe" \(from env WARREN_METRICS_ENABLED\)$/ },
    { name: 'integer from flag', flags: { 'leader-election-lease-duration-seconds': '1.5' }, want: /^leaderElection\.leaseDurationSeconds: must be an integer, got "1.5" \(from flag --leader-election-lease-duration-seconds\)$/ },
    { name: 'listen shape', flags: { listen: 'localhost' }, want: /^listen: must match pattern .* \(from flag --listen\)$/ },
    { name: 'listen port range', flags: { listen: ':70000' }, want: /^listen: port out of range: 70000$/ },
    { name: 'external URL must be https', env: { WARREN_EXTERNAL_URL: 'http://x' }, want: /^externalUrl: must match pattern/ },
    { name: 'fairness tenant keys are tenant ids', text: `${HEAD}fairness: { tenants: { ACME: { seats: 1 } } }\n`, want: /^fairness\.tenants: keys must be tenant ids/ },
    { name: 'seats at least 1', text: `${HEAD}fairness: { defaults: { seats: 0 } }\n`, want: /^fairness\.defaults\.seats: must be >= 1/ },
    { name: 'lease timings, client-go rule', flags: { 'leader-election-renew-deadline-seconds': '15' }, want: /^leaderElection\.leaseDurationSeconds: must be greater than leaderElection\.renewDeadlineSeconds$/ },
    { name: 'retry vs renew', flags: { 'leader-election-retry-period-seconds': '9' }, want: /^leaderElection\.renewDeadlineSeconds: must be greater than 1\.2 × leaderElection\.retryPeriodSeconds$/ },
    { name: 'kubeconfig and inCluster together', flags: { 'upstream-in-cluster': 'true' }, want: /^upstream\.inCluster: cannot be true when upstream\.kubeconfig is set$/ },
    { name: 'heap growing percent above V8\'s own ceiling', env: { WARREN_MEMORY_HEAP_GROWING_PERCENT: '301' }, want: /^memory\.heapGrowingPercent: must be <= 300 \(from env WARREN_MEMORY_HEAP_GROWING_PERCENT\)$/ },
    { name: 'heap growing percent negative', flags: { 'memory-heap-growing-percent': '-1' }, want: /^memory\.heapGrowingPercent: must be >= 0 \(from flag --memory-heap-growing-percent\)$/ },
    { name: 'file not YAML', text: 'a: [', want: /^config file \/etc\/warren\/config.yaml: not valid YAML/ },
    { name: 'file not a mapping', text: '- a\n', want: /must be a YAML mapping/ },
  ];
  for (const c of bad) {
    it(`rejects: ${c.name}`, () => {
      const got = problems(() => loadConfig({
        ...(c.text !== undefined ? { file: '/etc/warren/config.yaml', readFile: files(c.text) } : {}),
        env: c.env ?? {}, flags: { ...(c.text?.includes('kubeconfig') ? {} : KC), ...c.flags },
      }));
      assert.ok(got.some((p) => c.want.test(p)), `got:\n${got.join('\n')}`);
    });
  }

  it('a missing kubeconfig is named with the ways to give it', () => {
    assert.deepEqual(problems(() => loadConfig({ env: {}, flags: {} })), ['upstream.kubeconfig: required unless upstream.inCluster is true (--kubeconfig, WARREN_UPSTREAM_KUBECONFIG)']);
  });

  it('a missing file is one clear problem', () => {
    assert.deepEqual(problems(() => loadConfig({ file: '/nope.yaml', env: {}, flags: {}, readFile: files('') })), ['config file /nope.yaml: ENOENT']);
  });

  it('several problems are reported together', () => {
    const got = problems(() => loadConfig({ env: { WARREN_LOG_LEVEL: 'x', WARREN_METRICS_ENABLED: 'x' }, flags: KC }));
    assert.equal(got.length, 2);
  });

  it('the error message lists every problem', () => {
    assert.throws(() => loadConfig({ env: { WARREN_LOG_LEVEL: 'x' }, flags: KC }), /invalid configuration:\n {2}- log\.level: must be one of/);
  });
});

describe('overrides', () => {
  it('env and flag names follow the field path', () => {
    const row = OVERRIDES.find((r) => r.path === 'leaderElection.renewDeadlineSeconds');
    assert.equal(row?.env, 'WARREN_LEADER_ELECTION_RENEW_DEADLINE_SECONDS');
    assert.equal(row?.flag, 'leader-election-renew-deadline-seconds');
    assert.equal(OVERRIDES.find((r) => r.path === 'upstream.kubeconfig')?.flag, 'upstream-kubeconfig');
  });

  it('every override row names a real default field, and flags/env are unique', () => {
    const defaults = defaultConfig() as unknown as Record<string, unknown>;
    for (const r of OVERRIDES) {
      const v = r.path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], defaults);
      assert.notEqual(v, undefined, r.path);
    }
    assert.equal(new Set(OVERRIDES.map((r) => r.env)).size, OVERRIDES.length);
    assert.equal(new Set(OVERRIDES.map((r) => r.flag)).size, OVERRIDES.length);
    assert.ok(configFlagOptions().config);
  });

  it('every integer round-trips through its env text (property)', () => {
    fc.assert(fc.property(fc.integer(), (n) => {
      const r = parseOverride('integer', String(n));
      return 'value' in r && r.value === n;
    }));
  });

  it('a list splits on commas and drops empties', () => {
    assert.deepEqual(parseOverride('list', 'a, b,,c'), { value: ['a', 'b', 'c'] });
  });
});

describe('docs/operations.md', () => {
  const doc = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
  it('documents every field, env variable and flag', () => {
    const leaves: string[] = [];
    const walk = (o: unknown, prefix: string): void => {
      if (typeof o === 'object' && o !== null && !Array.isArray(o) && Object.keys(o).length > 0 && prefix !== 'fairness.tenants') {
        for (const [k, v] of Object.entries(o)) walk(v, prefix ? `${prefix}.${k}` : k);
      } else leaves.push(prefix);
    };
    walk(defaultConfig(), '');
    for (const leaf of leaves) assert.ok(doc.includes(`\`${leaf}\``), `field ${leaf} is not documented`);
    for (const r of OVERRIDES) {
      assert.ok(doc.includes(r.env), `env ${r.env} is not documented`);
      assert.ok(doc.includes(`--${r.flag}`), `flag --${r.flag} is not documented`);
    }
  });
});
