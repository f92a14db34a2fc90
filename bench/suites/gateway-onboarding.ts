// Onboarding throughput and the gateway's memory per idle tenant (issue 4):
// Tenant objects are POSTed upstream as a platform admin would apply them, and
// the onboarding controller (in the `warren serve` child) brings them to Ready.
// First 100 tenants; then up to 1,000 in all if the first batch was quick
// enough to keep the run within a few minutes.
import { TENANTS_PATH, TENANT_API_VERSION, type Tenant } from '../../src/gateway/tenants/tenant-crd.ts';
import type { BenchClient } from '../http-client.ts';
import { expectStatus, runConcurrent } from '../load.ts';
import { msSince } from '../stats.ts';
import type { Suite } from '../suite.ts';
import { startGatewayStack } from '../targets/gateway-stack.ts';
import { renderGatewayText, writeGatewaySection, type GatewayRow } from './gateway-report.ts';

const FIRST_BATCH = 100;
const TOTAL_IF_FAST = 1_000;
/** Go on to 1,000 only if the first 100 took less than this (900 more would then take about 9x). */
const FAST_ENOUGH_MS = 12_000;
const CREATORS = 20;
const POLL_MS = 250;
const SETTLE_MS = 3_000;
const BATCH_TIMEOUT_MS = 180_000;

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, SETTLE_MS));

async function readyCount(client: BenchClient): Promise<number> {
  const reply = await client.request('GET', TENANTS_PATH);
  expectStatus(reply, 200);
  return (JSON.parse(reply.body) as { items: Tenant[] }).items.filter((t) => t.status?.phase === 'Ready').length;
}

/** Creates tenants `from`..`to`-1 and waits until `to` tenants are Ready; returns ms from first POST to all Ready. */
async function onboard(client: BenchClient, from: number, to: number): Promise<number> {
  const start = process.hrtime.bigint();
  await runConcurrent(CREATORS, to - from, async (k) => {
    const body = { apiVersion: TENANT_API_VERSION, kind: 'Tenant', metadata: { name: `t-${String(from + k).padStart(4, '0')}` }, spec: { users: [{ name: 'alice', admin: true }] } };
    expectStatus(await client.request('POST', TENANTS_PATH, JSON.stringify(body)), 201);
  });
  for (;;) {
    const ready = await readyCount(client);
    if (ready >= to) return msSince(start);
    if (msSince(start) > BATCH_TIMEOUT_MS) throw new Error(`only ${ready} of ${to} tenants Ready after ${BATCH_TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

export const gatewayOnboardingSuite: Suite = {
  name: 'onboarding',
  method: 'see the Onboarding section of docs/benchmarks.md',
  async run(env) {
    const started = process.hrtime.bigint();
    const stack = await startGatewayStack({ repoRoot: env.repoRoot, floor: false, gatewayNodeFlags: env.serverNodeFlags });
    const rows: GatewayRow[] = [];
    const notes: string[] = [];
    const client = stack.direct(CREATORS);
    try {
      await settle();
      const baseline = stack.gateway.memory().rssKiB;
      let done = 0;
      for (const target of [FIRST_BATCH, TOTAL_IF_FAST]) {
        const ms = await onboard(client, done, target);
        const count = target - done;
        done = target;
        await settle();
        const rss = stack.gateway.memory().rssKiB;
        const perSecond = (count / ms) * 1000;
        const perTenant = (rss - baseline) / done;
        env.log(`onboarding: ${count} tenants Ready in ${(ms / 1000).toFixed(1)} s (${perSecond.toFixed(1)}/s); gateway RSS ${(rss / 1024).toFixed(0)} MiB, ${perTenant.toFixed(0)} KiB per tenant`);
        rows.push({ metric: `tenants ${done - count + 1}-${done}: Ready per second`, unit: 'tenants/s', gateway: perSecond, goal: '>= 50/s', pass: perSecond >= 50 });
        rows.push({ metric: `${done} idle tenants: gateway RSS delta per tenant`, unit: 'KiB', gateway: perTenant, goal: '<= 100 KiB', pass: perTenant <= 100 });
        rows.push({ metric: `${done} idle tenants: gateway RSS`, unit: 'MiB', gateway: rss / 1024 });
        if (target === FIRST_BATCH && ms > FAST_ENOUGH_MS) {
          notes.push(`stopped at ${FIRST_BATCH} tenants: they took ${(ms / 1000).toFixed(0)} s, so ${TOTAL_IF_FAST} would take about ${((ms * TOTAL_IF_FAST) / FIRST_BATCH / 1000).toFixed(0)} s`);
          break;
        }
      }
      notes.push(`gateway RSS with no tenant: ${(baseline / 1024).toFixed(0)} MiB`);
    } finally {
      client.close();
      await stack.stop();
    }
    const seconds = msSince(started) / 1000;
    process.stdout.write(`\nOnboarding (Tenant objects upstream -> Ready, warren serve child)\n${renderGatewayText(rows)}\n`);
    const path = writeGatewaySection(env.repoRoot, { title: 'Onboarding', rows, notes, seconds, method: ONBOARDING_METHOD });
    return { rows: [], notes: [`${rows.filter((r) => r.pass === false).length} of ${rows.filter((r) => r.pass !== undefined).length} goals failed; table above and in ${path}`] };
  },
};

const ONBOARDING_METHOD = [
  'A fresh `warren apiserver` upstream and `warren serve --upstream-kubeconfig` (gateway + onboarding controller), each in its own process.',
  `Tenant objects (\`spec.users: [{name: alice, admin: true}]\`, id assigned by the controller) are POSTed upstream by ${CREATORS} concurrent admin clients; tenants Ready per second = tenants in the batch / (first POST to the moment a LIST of Tenants, polled every ${POLL_MS} ms, shows them all with \`status.phase: Ready\`).`,
  `Ready means namespaces, RBAC, a client certificate and a kubeconfig Secret per user (issue 4). First ${FIRST_BATCH} tenants; then ${TOTAL_IF_FAST} in all if the first ${FIRST_BATCH} took under ${FAST_ENOUGH_MS / 1000} s.`,
  `Memory per idle tenant = (gateway VmRSS ${SETTLE_MS / 1000} s after the batch - VmRSS before any tenant) / tenants; nobody uses the tenants, so this is what the gateway keeps per tenant (directory, policies, caches).`,
  'The "direct" and "floor" columns do not apply here.',
];
