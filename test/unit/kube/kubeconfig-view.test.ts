// kubeconfig-view replaces client-node's KubeConfig where credentials are static:
// for any kubeconfig of that kind, the current cluster and the request options must
// be what client-node gives (its agent aside), and a malformed one must throw as it does.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestOptions } from 'node:https';
import fc from 'fast-check';
import { KubeConfig } from '@kubernetes/client-node';
import { applyStaticOptions, currentCluster, needsKubeClient, parseKubeconfig } from '../../../src/kube/kubeconfig-view.ts';

const name = fc.constantFrom('a', 'b', 'c');
const b64 = fc.uint8Array({ minLength: 1, maxLength: 8 }).map((bytes) => Buffer.from(bytes).toString('base64'));
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const cluster = fc.record({
  name,
  cluster: fc.record({
    server: fc.constantFrom('https://127.0.0.1:6443', 'https://h.example:443/', 'https://[::1]:8443/prefix'),
    'certificate-authority-data': maybe(b64),
    'insecure-skip-tls-verify': maybe(fc.boolean()),
    'tls-server-name': maybe(fc.constantFrom('kubernetes', 'h.example')),
  }, { requiredKeys: ['server'] }),
});
const user = fc.record({
  name,
  user: fc.record({
    'client-certificate-data': maybe(b64),
    'client-key-data': maybe(b64),
    token: maybe(fc.constantFrom('t0ken', 'abc.def.ghi')),
    username: maybe(fc.constantFrom('admin', 'dev')),
    password: maybe(fc.constantFrom('secret', 'p:w')),
    as: maybe(fc.constantFrom('someone', 'system:admin')),
  }, { requiredKeys: [] }),
});
const context = fc.record({ name, context: fc.record({ cluster: name, user: maybe(name), namespace: maybe(fc.constantFrom('default', 'web')) }, { requiredKeys: ['cluster'] }) });
const kubeconfig = fc.record({
  clusters: fc.array(cluster, { maxLength: 3 }),
  users: fc.array(user, { maxLength: 3 }),
  contexts: fc.array(context, { maxLength: 3 }),
  'current-context': maybe(name),
});

function withoutAgent(opts: RequestOptions): RequestOptions {
  const { agent: _agent, ...rest } = opts as RequestOptions & { agent?: unknown };
  return rest;
}

describe('kubeconfig-view', () => {
  it('gives the current cluster and request options client-node gives, for static users (property)', async () => {
    await fc.assert(fc.asyncProperty(kubeconfig, async (config) => {
      const yaml = JSON.stringify(config);
      const kc = new KubeConfig();
      kc.loadFromString(yaml);
      const view = parseKubeconfig(yaml);
      assert.equal(needsKubeClient(view), false);
      const theirs = kc.getCurrentCluster();
      const ours = currentCluster(view);
      assert.equal(ours?.server, theirs?.server);
      assert.equal(ours?.caData, theirs?.caData ?? undefined);
      assert.equal(ours?.skipTLSVerify, theirs?.skipTLSVerify);
      const expected: RequestOptions = { headers: { Accept: 'application/json' } };
      await kc.applyToHTTPSOptions(expected);
      const actual: RequestOptions = { headers: { Accept: 'application/json' } };
      applyStaticOptions(view, actual);
      assert.deepEqual(actual, withoutAgent(expected));
    }), { numRuns: 200 });
  });

  it('throws on a nameless or serverless entry, as client-node does', () => {
    for (const bad of [
      { clusters: [{ cluster: { server: 'https://x' } }] },
      { clusters: [{ name: 'c', cluster: {} }] },
      { clusters: [{ name: 'c' }] },
      { users: [{ user: { token: 't' } }] },
      { contexts: [{ name: 'x', context: {} }] },
      { contexts: [{ context: { cluster: 'c' } }] },
    ]) {
      const yaml = JSON.stringify(bad);
      assert.throws(() => new KubeConfig().loadFromString(yaml), Error, yaml);
      assert.throws(() => parseKubeconfig(yaml), Error, yaml);
    }
  });

  it('reads YAML, and sends an exec or auth-provider user to client-node', () => {
    const view = parseKubeconfig([
      'apiVersion: v1', 'kind: Config', 'current-context: x',
      'clusters: [{name: c, cluster: {server: "https://127.0.0.1:1/"}}]',
      'users: [{name: u, user: {auth-provider: {name: tokenFile, config: {tokenFile: /nowhere}}}}]',
      'contexts: [{name: x, context: {cluster: c, user: u}}]',
    ].join('\n'));
    assert.equal(currentCluster(view)?.server, 'https://127.0.0.1:1');
    assert.equal(needsKubeClient(view), true);
    assert.throws(() => applyStaticOptions(view, {}), /needs client-node/);
    const exec = parseKubeconfig(JSON.stringify({ 'current-context': 'x', users: [{ name: 'u', user: { exec: { command: 'x' } } }], contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }] }));
    assert.equal(needsKubeClient(exec), true);
  });
});
