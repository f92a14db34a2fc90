// `warren apiserver`: the embedded apiserver on its own port until SIGINT/SIGTERM.
import { startApiServer } from '../apiserver/server.ts';
import { bool, str, type CommandInput } from './cli-io.ts';
import { parseListen } from './listen-address.ts';
import { jsonLogger } from './log.ts';
import { untilSignal } from './signals.ts';

export async function runApiServerCommand({ io, values }: CommandInput): Promise<number> {
  const { host, port } = parseListen(str(values, 'listen') ?? '127.0.0.1:6443');
  const bookmark = str(values, 'bookmark-interval');
  const log = jsonLogger('apiserver');
  const server = await startApiServer({
    host,
    port,
    dataDir: str(values, 'data-dir') ?? '.warren/apiserver',
    simulateWorkloads: bool(values, 'simulate-workloads'),
    bookmarkIntervalMs: bookmark ? Number(bookmark) * 1000 : undefined,
    log,
    emulatedVersion: str(values, 'emulated-version'),
  });
  io.out(`warren apiserver ready at ${server.url} (kubeconfig: ${server.kubeconfigPath ?? '-'})\n`);
  await untilSignal();
  await server.stop();
  return 0;
}
