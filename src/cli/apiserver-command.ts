// `warren apiserver`: the embedded apiserver on its own port until SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import { startApiServer } from '../apiserver/server.ts';
import { parseListen } from './listen-address.ts';
import { jsonLogger } from './log.ts';
import { untilSignal } from './signals.ts';

export async function runApiServerCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      listen: { type: 'string', default: '127.0.0.1:6443' },
      'data-dir': { type: 'string', default: '.warren/apiserver' },
      'simulate-workloads': { type: 'boolean', default: false },
      'bookmark-interval': { type: 'string' },
    },
    strict: true,
  });
  const { host, port } = parseListen(values.listen);
  const log = jsonLogger('apiserver');
  const server = await startApiServer({
    host,
    port,
    dataDir: values['data-dir'],
    simulateWorkloads: values['simulate-workloads'],
    bookmarkIntervalMs: values['bookmark-interval'] ? Number(values['bookmark-interval']) * 1000 : undefined,
    log,
  });
  process.stdout.write(`warren apiserver ready at ${server.url} (kubeconfig: ${server.kubeconfigPath ?? '-'})\n`);
  await untilSignal();
  await server.stop();
  return 0;
}
