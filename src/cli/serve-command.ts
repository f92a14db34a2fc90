// `warren serve [--config FILE] [--kubeconfig FILE] [--listen H:P] ...`:
// the gateway and controllers against a real cluster (or any apiserver), until
// SIGINT/SIGTERM. Configuration is one file with WARREN_* env and flag
// overrides (docs/operations.md), validated before anything starts.
// --kubeconfig is upstream.kubeconfig (--upstream-kubeconfig, its old name,
// still works); --context picks a context in it, as kubectl's does.
import { hostname } from 'node:os';
import { buildServeOptions } from '../config/serve-options.ts';
import { ConfigError, loadConfig } from '../config/load-config.ts';
import type { LogLevel } from '../config/config-schema.ts';
import { ApiError } from '../core/api-error.ts';
import { createUpstream, kubeconfigNeedsClient, loadKubeClient } from '../kube/upstream-client.ts';
import { loadHostKubeconfig } from './host-upstream.ts';
import { exportKubeconfig } from './kubeconfig-merge.ts';
import { startWarren } from '../warren.ts';
import { str, type CommandInput } from './cli-io.ts';
import { jsonLogger } from './log.ts';
import { untilSignal } from './signals.ts';
import { limitHeapGrowth } from './heap-growth.ts';

export async function runServeCommand({ io, values }: CommandInput): Promise<number> {
  const { kubeconfig, context, help: _help, ...rest } = values;
  const flags = { ...rest, ...(typeof kubeconfig === 'string' ? { 'upstream-kubeconfig': kubeconfig } : {}) } as Record<string, string | boolean | undefined>;
  let options;
  let level: LogLevel = 'info';
  try {
    const config = loadConfig({ env: io.env, flags });
    level = config.log.level;
    options = buildServeOptions(config, io.env, hostname(), process.pid);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.err(`error: ${err.message}\n`);
    return 2;
  }
  let upstreamKubeconfig = options.upstreamKubeconfig;
  const chosen = str({ context }, 'context');
  if (chosen !== undefined) {
    if (!('path' in upstreamKubeconfig)) throw new Error('--context needs a kubeconfig file (not upstream.inCluster)');
    upstreamKubeconfig = { yaml: exportKubeconfig(loadHostKubeconfig({ paths: [upstreamKubeconfig.path], from: 'upstream.kubeconfig' }, chosen)) };
  }
  const log = jsonLogger('warren', level);
  // This process hosts the propagation engine: its heap stays near its live data (ADR 0040).
  limitHeapGrowth(options.heapGrowingPercent);
  // An exec or auth-provider user (in cluster: the ServiceAccount token file) needs
  // client-node before the gateway reads Warren's credential from requestOptions().
  if (kubeconfigNeedsClient(upstreamKubeconfig)) await loadKubeClient();
  const upstream = createUpstream(upstreamKubeconfig, { timeoutMs: options.upstreamTimeoutMs });
  let warren;
  try {
    warren = await startWarren({
      upstream, host: options.host, port: options.port, externalUrl: options.externalUrl, log, placement: options.placement,
      ...(options.auditAttribution ? { auditAttribution: options.auditAttribution } : {}),
      ...(options.leaderElection ? { leaderElection: options.leaderElection } : {}),
      gateway: options.gateway,
    });
  } catch (err) {
    // The tenant-facing wording says nothing of where the upstream is; the operator starting Warren needs it.
    if (err instanceof ApiError && (err.reason === 'ServiceUnavailable' || err.reason === 'Timeout')) throw new Error(`${err.message}: tried ${upstream.server}`);
    throw err;
  }
  io.out(`warren gateway ready at ${warren.gateway.url}\n`);
  await untilSignal();
  await warren.stop();
  return 0;
}
