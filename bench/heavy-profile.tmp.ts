import { startGatewayStack } from './targets/gateway-stack.ts';
import { clientFromKubeconfig } from './http-client.ts';
const stack = await startGatewayStack({ repoRoot: process.cwd(), floor: false, gatewayNodeFlags: [] });
try {
  const [heavy, quiet] = [await stack.createTenant('heavy'), await stack.createTenant('quiet')];
  const h = clientFromKubeconfig(heavy.kubeconfig, 4);
  const q = clientFromKubeconfig(quiet.kubeconfig, 2);
  await q.request('POST', '/api/v1/namespaces/default/configmaps', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'q' }, data: { a: 'b' } }));
  const labels: Record<string, string> = {};
  const N = Number(process.env.N ?? 200000); for (let i = 0; i < N; i++) labels[`k${i.toString(36)}`] = "v";
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big', labels }, data: { x: 'y'.repeat(2_900_000 - N * 12) } });
  console.log('body bytes', body.length);
  let t = performance.now();
  const pending = h.request('POST', '/api/v1/namespaces/default/configmaps', body);
  const lat: number[] = [];
  let done = false;
  pending.then(() => { done = true; });
  while (!done) { const s = performance.now(); await q.drain('/api/v1/namespaces/default/configmaps/q'); lat.push(performance.now() - s); }
  const r = await pending;
  console.log('heavy status', r.status, r.body.slice(0, 300), 'ms', (performance.now() - t).toFixed(0));
  console.log('quiet max', Math.max(...lat).toFixed(0), 'n', lat.length);
  t = performance.now();
  const direct = stack.direct(2);
  const r2 = await direct.request('POST', '/api/v1/namespaces/default/configmaps', body.replace('"big"', '"big2"'));
  console.log('direct status', r2.status, 'ms', (performance.now() - t).toFixed(0));
  h.close(); q.close(); direct.close();
} finally { await stack.stop(); }
