// The CLI's kubeconfig merge replaced one built on client-node's KubeConfig
// (loadFromFile per file, the first to define a name keeps it, exportConfig).
// For any list of files, the merged document must read the same as the one the
// old code exported: same clusters, users, contexts, current-context, relative
// certificate paths made absolute against their own file's directory.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { KubeConfig } from '@kubernetes/client-node';
import { exportKubeconfig, mergeKubeconfigs, readKubeconfigFile } from '../../../src/cli/kubeconfig-merge.ts';
import { parseKubeconfig } from '../../../src/kube/kubeconfig-view.ts';

const name = fc.constantFrom('a', 'b', 'c');
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const path = fc.constantFrom('ca.crt', 'sub/key.pem', '/abs/cert.pem', '../up.crt');

const cluster = fc.record({
  name,
  cluster: fc.record({
    server: fc.constantFrom('https://127.0.0.1:6443', 'https://h.example:443/'),
    'certificate-authority': maybe(path),
    'certificate-authority-data': maybe(fc.constantFrom('Y2E=', 'eA==')),
    'insecure-skip-tls-verify': maybe(fc.boolean()),
    'tls-server-name': maybe(fc.constantFrom('kubernetes')),
    'proxy-url': maybe(fc.constantFrom('http://proxy:3128')),
  }, { requiredKeys: ['server'] }),
});
const user = fc.record({
  name,
  user: fc.record({
    'client-certificate': maybe(path),
    'client-key': maybe(path),
    'client-certificate-data': maybe(fc.constantFrom('Y2VydA==')),
    token: maybe(fc.constantFrom('t0ken')),
    username: maybe(fc.constantFrom('admin')),
    password: maybe(fc.constantFrom('secret')),
    as: maybe(fc.constantFrom('someone')),
    exec: maybe(fc.constant({ apiVersion: 'client.authentication.k8s.io/v1', command: 'get-token', args: ['--x'] })),
  }, { requiredKeys: [] }),
});
const context = fc.record({ name, context: fc.record({ cluster: name, user: maybe(name), namespace: maybe(fc.constantFrom('web')) }, { requiredKeys: ['cluster'] }) });
const kubeconfig = fc.record({
  clusters: fc.array(cluster, { maxLength: 3 }),
  users: fc.array(user, { maxLength: 3 }),
  contexts: fc.array(context, { maxLength: 3 }),
  'current-context': maybe(name),
});

/** The merge as host-upstream made it with client-node before. */
function clientNodeMerge(paths: string[]): string {
  const merged = new KubeConfig();
  paths.forEach((p, i) => {
    const one = new KubeConfig();
    one.loadFromFile(p);
    if (i === 0) {
      merged.loadFromFile(p);
      return;
    }
    if (!merged.currentContext && one.currentContext) merged.setCurrentContext(one.currentContext);
    for (const c of one.clusters) if (!merged.getCluster(c.name)) merged.addCluster(c);
    for (const u of one.users) if (!merged.getUser(u.name)) merged.addUser(u);
    for (const c of one.contexts) if (!merged.getContextObject(c.name)) merged.addContext(c);
  });
  return merged.exportConfig();
}

describe('kubeconfig merge', () => {
  let dir: string;
  before(() => { dir = mkdtempSync(join(tmpdir(), 'warren-merge-')); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads as the old client-node merge exported it, for any list of files (property)', () => {
    let run = 0;
    fc.assert(fc.property(fc.array(kubeconfig, { minLength: 1, maxLength: 3 }), (configs) => {
      const paths = configs.map((config, i) => {
        const sub = join(dir, `r${run}`, `f${i}`);
        mkdirSync(sub, { recursive: true });
        const file = join(sub, 'config');
        writeFileSync(file, JSON.stringify(config));
        return file;
      });
      run += 1;
      const ours = exportKubeconfig(mergeKubeconfigs(paths.map(readKubeconfigFile)));
      assert.deepEqual(parseKubeconfig(ours), parseKubeconfig(clientNodeMerge(paths)));
    }), { numRuns: 150 });
  });

  it('a relative certificate path is taken against its own file\'s directory', () => {
    const sub = join(dir, 'rel');
    mkdirSync(sub, { recursive: true });
    const file = join(sub, 'config');
    writeFileSync(file, JSON.stringify({
      clusters: [{ name: 'c', cluster: { server: 'https://x', 'certificate-authority': 'ca.crt' } }],
      users: [{ name: 'u', user: { 'client-certificate': 'pki/u.crt', 'client-key': '/etc/u.key' } }],
    }));
    const view = readKubeconfigFile(file);
    assert.equal(view.clusters[0]?.caFile, join(sub, 'ca.crt'));
    assert.equal(view.users[0]?.certFile, join(sub, 'pki/u.crt'));
    assert.equal(view.users[0]?.keyFile, '/etc/u.key');
  });

  it('the first file keeps a name and current-context; a later file adds what is new', () => {
    const one = parseKubeconfig(JSON.stringify({
      clusters: [{ name: 'dev', cluster: { server: 'https://dev' } }],
      contexts: [{ name: 'dev', context: { cluster: 'dev' } }],
    }));
    const two = parseKubeconfig(JSON.stringify({
      'current-context': 'prod',
      clusters: [{ name: 'dev', cluster: { server: 'https://shadowed' } }, { name: 'prod', cluster: { server: 'https://prod' } }],
      contexts: [{ name: 'prod', context: { cluster: 'prod' } }],
    }));
    const merged = mergeKubeconfigs([one, two]);
    assert.equal(merged.currentContext, 'prod');
    assert.deepEqual(merged.clusters.map((c) => c.server), ['https://dev', 'https://prod']);
    assert.deepEqual(mergeKubeconfigs([two, one]).clusters.map((c) => c.server), ['https://shadowed', 'https://prod']);
  });
});
