// `warren serve [--config FILE] [--upstream-kubeconfig FILE] [--listen H:P] ...`:
// the gateway and controllers against a real cluster (or any apiserver), until
// SIGINT/SIGTERM. Configuration is one file with WARREN_* env and flag
// overrides (docs/operations.md), validated before anything starts.
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { buildServeOptions } from '../config/serve-options.ts';
import { configFlagOptions } from '../config/config-overrides.ts';
import { ConfigError, loadConfig } from '../config/load-config.ts';
import type { LogLevel } from '../config/config-schema.ts';
import { createUpstream } from '../kube/upstream-client.ts';
import { startWarren } from '../warren.ts';
import { jsonLogger } from './log.ts';
import { untilSignal } from './signals.ts';

export async function runServeCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: configFlagOptions(), strict: true });
  let options;
  let level: LogLevel = 'info';
  try {
    const config = loadConfig({ env: process.env, flags: values });
    level = config.log.level;
    options = buildServeOptions(config, process.env, hostname(), process.pid);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`warren serve: ${err.message}\n`);
    return 2;
  }
  const log = jsonLogger('warren', level);
  const upstream = createUpstream(options.upstreamKubeconfig, { timeoutMs: options.upstreamTimeoutMs });
  const warren = await startWarren({
    upstream, host: options.host, port: options.port, externalUrl: options.externalUrl, log,
    ...(options.auditAttribution ? { auditAttribution: options.auditAttribution } : {}),
    ...(options.leaderElection ? { leaderElection: options.leaderElection } : {}),
    gateway: options.gateway,
  });
  process.stdout.write(`warren gateway ready at ${warren.gateway.url}\n`);
  await untilSignal();
  await warren.stop();
  return 0;
}
