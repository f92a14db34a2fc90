// Stands up the embedded upstream, the gateway and the two usual tenants in a
// process of its own, for kubectl e2e tests: prints one line
// `READY {"upstream": PATH, "kubeconfigs": {"acme/admin": PATH, ...}}` and runs
// until SIGTERM. There is no gateway CLI yet; when `warren up` exists, use it.
import { startGatewayHarness, TWO_TENANTS } from './gateway-harness.ts';

const h = await startGatewayHarness({ tenants: TWO_TENANTS, simulateWorkloads: true });
const kubeconfigs: Record<string, string> = {};
for (const t of TWO_TENANTS) for (const u of t.users) kubeconfigs[`${t.name}/${u.name}`] = h.kubeconfigPath(t.name, u.name);
process.stdout.write(`READY ${JSON.stringify({ upstream: h.upstreamKubeconfigPath, kubeconfigs })}\n`);
const stop = (): void => { void h.stop().finally(() => process.exit(0)); };
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
