// `warren up` runs each embedded apiserver (the host and every member) on a
// worker thread of its own. In the gateway's thread, the host's synchronous
// work on a large write (parse, validation, managedFields, store, watch
// fan-out: 0.2-0.4 s of CPU for a 1 MB ConfigMap) held the gateway's event
// loop, so every tenant's request waited behind one tenant's heavy write
// (issue 13). On its own thread the apiserver keeps its own loop, as a real
// kube-apiserver is a process of its own, and the gateway reaches it over
// HTTPS as before.
import { Worker } from 'node:worker_threads';
import type { ApiServerOptions } from '../apiserver/server.ts';

/** What the gateway's side needs of an embedded apiserver on another thread. */
export interface ThreadedApiServer {
  url: string;
  port: number;
  caCertPem: string;
  kubeconfig: string;
  kubeconfigPath?: string;
  stop(): Promise<void>;
}

export type ThreadMessage =
  | { type: 'ready'; url: string; port: number; caCertPem: string; kubeconfig: string; kubeconfigPath?: string }
  | { type: 'log'; line: string }
  | { type: 'stopped' }
  | { type: 'failed'; message: string };

export function startApiServerThread(options: ApiServerOptions): Promise<ThreadedApiServer> {
  const { log, ...plain } = options;
  const worker = new Worker(new URL('./apiserver-thread-entry.mjs', import.meta.url), {
    workerData: { options: plain, bodyUrl: new URL('./apiserver-thread-body.ts', import.meta.url).href },
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let ready = false;
    worker.on('error', (err) => {
      if (!ready) reject(err);
      else log?.(`embedded apiserver thread failed: ${err.message}`);
    });
    worker.on('message', (message: ThreadMessage) => {
      if (message.type === 'log') log?.(message.line);
      else if (message.type === 'failed') reject(new Error(message.message));
      // Stopped: whatever timer the server left behind must not keep the thread alive.
      else if (message.type === 'stopped') void worker.terminate();
      else {
        ready = true;
        const { type: _type, ...server } = message;
        resolve({
          ...server,
          async stop() {
            worker.postMessage('stop');
            await exited;
          },
        });
      }
    });
    void exited.then(() => reject(new Error('the embedded apiserver thread exited before it was ready')));
  });
}
