// How the admin commands find the host, as kubectl finds its cluster, and an
// unreachable host named in the error (the tenant-facing wording hides it).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostSource, hostUpstream, loadHostKubeconfig } from '../../../src/cli/host-upstream.ts';
import { currentCluster } from '../../../src/kube/kubeconfig-view.ts';

function kubeconfig(contexts: Array<{ name: string; server: string }>, current?: string): string {
  return JSON.stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': current,
    clusters: contexts.map((c) => ({ name: c.name, cluster: { server: c.server, 'insecure-skip-tls-verify': true } })),
    users: contexts.map((c) => ({ name: c.name, user: { token: `token-${c.name}` } })),
    contexts: contexts.map((c) => ({ name: c.name, context: { cluster: c.name, user: c.name } })),
  });
}

describe('host kubeconfig', () => {
  let dir: string;
  before(() => { dir = mkdtempSync(join(tmpdir(), 'warren-host-')); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('precedence: --kubeconfig, then --data-dir, then $KUBECONFIG, then .warren', () => {
    const exists = (): boolean => true;
    const env = { KUBECONFIG: '/a:/b' };
    assert.deepEqual(hostSource({ kubeconfig: '/k', dataDir: '/d' }, env, exists), { paths: ['/k'], from: '--kubeconfig' });
    assert.deepEqual(hostSource({ dataDir: '/d' }, env, exists), { paths: ['/d/admin.kubeconfig'], from: '--data-dir' });
    assert.deepEqual(hostSource({}, env, exists), { paths: ['/a', '/b'], from: '$KUBECONFIG=/a:/b' });
    assert.deepEqual(hostSource({}, {}, exists), { paths: ['.warren/admin.kubeconfig'], from: 'the default .warren' });
    // Missing files in $KUBECONFIG are skipped, as kubectl skips them.
    assert.deepEqual(hostSource({}, env, (p) => p === '/b').paths, ['/b']);
  });

  it('$KUBECONFIG files merge as kubectl merges them: the first to set a name or current-context wins; --context picks', () => {
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    writeFileSync(a, kubeconfig([{ name: 'dev', server: 'https://dev.example:6443' }]));
    writeFileSync(b, kubeconfig([{ name: 'prod', server: 'https://prod.example:6443' }, { name: 'dev', server: 'https://shadowed.example:6443' }], 'prod'));
    const source = hostSource({}, { KUBECONFIG: `${a}:${b}` });
    assert.equal(currentCluster(loadHostKubeconfig(source, undefined))?.server, 'https://prod.example:6443');
    assert.equal(currentCluster(loadHostKubeconfig(source, 'dev'))?.server, 'https://dev.example:6443');
    assert.throws(() => loadHostKubeconfig(source, 'staging'), /context "staging" does not exist in/);
  });

  it('a kubeconfig without current-context asks for --context', () => {
    const c = join(dir, 'c');
    writeFileSync(c, kubeconfig([{ name: 'only', server: 'https://only.example:6443' }]));
    assert.throws(() => loadHostKubeconfig({ paths: [c], from: '--kubeconfig' }, undefined), /has no current context \(pass --context NAME\)/);
    assert.equal(currentCluster(loadHostKubeconfig({ paths: [c], from: '--kubeconfig' }, 'only'))?.server, 'https://only.example:6443');
  });

  it('an unreachable host: the error names the address tried and the kubeconfig', async () => {
    // A port that was free a moment ago: nothing listens there.
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise((resolve) => server.close(resolve));
    const file = join(dir, 'down');
    writeFileSync(file, kubeconfig([{ name: 'down', server: `https://127.0.0.1:${port}` }], 'down'));
    const upstream = hostUpstream({ kubeconfig: file }, {});
    try {
      await assert.rejects(upstream.request('GET', '/version'), (err: Error) => {
        assert.match(err.message, new RegExp(`^the upstream apiserver is unavailable: tried https://127\\.0\\.0\\.1:${port} \\(kubeconfig ${file} from --kubeconfig; is it running\\?\\)$`));
        return true;
      });
    } finally {
      upstream.close();
    }
  });
});
