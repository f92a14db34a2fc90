// Inside the worker thread: starts one embedded apiserver with the options it was given,
// reports its address and kubeconfig, forwards its log lines, and stops it when asked.
import { parentPort, workerData } from 'node:worker_threads';
import { startApiServer, type ApiServerOptions } from '../apiserver/server.ts';
import type { ThreadMessage } from './apiserver-thread.ts';

const port = parentPort;
if (!port) throw new Error('apiserver-thread-body.ts runs only in a worker thread');
const post = (message: ThreadMessage): void => port.postMessage(message);
const options = (workerData as { options: Omit<ApiServerOptions, 'log'> }).options;
try {
  const server = await startApiServer({ ...options, log: (line) => post({ type: 'log', line }) });
  port.on('message', (message: unknown) => {
    if (message !== 'stop') return;
    void server.stop().finally(() => {
      post({ type: 'stopped' });
      port.close();
    });
  });
  post({ type: 'ready', url: server.url, port: server.port, caCertPem: server.caCertPem, kubeconfig: server.kubeconfig, ...(server.kubeconfigPath ? { kubeconfigPath: server.kubeconfigPath } : {}) });
} catch (err) {
  post({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
  port.close();
}
