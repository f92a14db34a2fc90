// The kubectl session of kubectl-session.test.ts, step for step with the same
// output assertions, but through the gateway with a tenant admin kubeconfig
// (the steps: test/helpers/gateway-kubectl-session.ts, shared with the real tier).
// The client matrix: it runs with EVERY kubectl on the machine (kubectl.1.XX
// beside kubectl's real path; 1.27 to 1.33 must all be there), two versions
// at a time against ONE shared gateway child, each version in its own
// namespace, CRD group and short name, with its own HOME (discovery cache).
// A failure on any version fails the file. The tenant must see a cluster of
// its own: besides each step's assertions, no output of any command may show a
// tenant prefix (its own or the other tenant's).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { dirname } from 'node:path';
import { kubectlPath } from '../helpers/kubectl.ts';
import { startGatewayProcess, type GatewayUp as Up } from '../helpers/gateway-process.ts';
import { describeKubectlSession, kubectlVersions } from '../helpers/gateway-kubectl-session.ts';

/** The ids of TWO_TENANTS in gateway-harness.ts: neither may leak into what the tenant sees. */
const PREFIXES = /acme01|globx1/;

const VERSIONS = kubectlVersions();
const REQUIRED = ['1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33'];
const SESSIONS_AT_ONCE = 2;

let child: ChildProcess | undefined;
let up: Up | undefined;
let started = 0;
const timings: string[] = [];

before(async () => {
  started = Date.now();
  ({ child, up } = await startGatewayProcess());
  timings.push(`gateway up ${Date.now() - started} ms`);
});
after(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  process.stderr.write(`kubectl matrix: ${timings.join(', ')}; total ${Date.now() - started} ms\n`);
});

it('every kubectl from 1.27 to 1.33 is on the machine', () => {
  for (const v of REQUIRED) assert.ok(VERSIONS.includes(v), `kubectl.${v} is missing beside ${dirname(kubectlPath('1.33'))} (found ${VERSIONS.join(', ')})`);
});

// Side by side, because a session mostly waits (for kubectl to start, for the gateway,
// for the workload simulator's rollouts): one version after the other, the seven took
// 145 s of the last whole run, most of it idle. Each session's steps stay in order.
describe('kubectl 1.27 to 1.33, two at a time', { concurrency: SESSIONS_AT_ONCE }, () => {
  for (const version of VERSIONS) {
    describeKubectlSession(version, {
      kubeconfigPath: () => up!.kubeconfigs['acme/admin']!,
      prefixes: () => PREFIXES,
      workloadsReady: true,
      timing: (line) => timings.push(line),
    });
  }
});
