// `warren apiserver`: the embedded apiserver on its own port until SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import { startApiServer } from '../apiserver/server.ts';
import { parseListen } from './listen-address.ts';

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
  const log = (line: string): void => {
    process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), component: 'apiserver', msg: line })}\n`);
  };
  const server = await startApiServer({
    host,
    port,
    dataDir: values['data-dir'],
    simulateWorkloads: values['simulate-workloads'],
    bookmarkIntervalMs: values['bookmark-interval'] ? Number(values['bookmark-interval']) * 1000 : undefined,
    log,
  });
  process.stdout.write(`warren apiserver ready at ${server.url} (kubeconfig: ${server.kubeconfigPath ?? '-'})\n`);
  await new Promise<void>((resolve) => {
    const shutdown = (): void => {
      process.off('SIGINT', shutdown);
      process.off('SIGTERM', shutdown);
      server.stop().then(resolve, resolve);
    };
    process.on('SIGINT', shutdown);
    process.on('SIGTERM', shutdown);
  });
  return 0;
}
