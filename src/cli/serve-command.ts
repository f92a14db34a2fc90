// `warren serve --upstream-kubeconfig FILE`: the gateway and controllers
// against a real cluster (or any apiserver), until SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import { createUpstream } from '../kube/upstream-client.ts';
import { startWarren } from '../warren.ts';
import { parseListen } from './listen-address.ts';
import { jsonLogger } from './log.ts';
import { untilSignal } from './signals.ts';

export async function runServeCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'upstream-kubeconfig': { type: 'string' },
      listen: { type: 'string', default: '127.0.0.1:6443' },
      'external-url': { type: 'string' },
      'audit-impersonate': { type: 'string' },
    },
    strict: true,
  });
  const kubeconfig = values['upstream-kubeconfig'];
  if (!kubeconfig) {
    process.stderr.write('warren serve: --upstream-kubeconfig FILE is required\n');
    return 2;
  }
  const { host, port } = parseListen(values.listen);
  const log = jsonLogger('warren');
  const upstream = createUpstream({ path: kubeconfig });
  const auditUser = values['audit-impersonate'];
  const warren = await startWarren({ upstream, host, port, externalUrl: values['external-url'], log, ...(auditUser ? { auditAttribution: { upstreamUser: auditUser } } : {}) });
  process.stdout.write(`warren gateway ready at ${warren.gateway.url}\n`);
  await untilSignal();
  await warren.stop();
  return 0;
}
