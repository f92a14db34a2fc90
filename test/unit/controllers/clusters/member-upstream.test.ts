import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { buildMemberKubeconfig, memberSecretName } from '../../../../src/kube/member-upstream.ts';
import type { Cluster } from '../../../../src/core/propagation/karmada-types.ts';
import { ApiError } from '../../../../src/core/api-error.ts';

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const cluster = (spec: Partial<Cluster['spec']> = {}): Cluster => ({ metadata: { name: 'm1' }, spec: { syncMode: 'Push', ...spec } });

describe('buildMemberKubeconfig', () => {
  it('uses a whole kubeconfig as is', () => {
    assert.equal(buildMemberKubeconfig(cluster(), { data: { kubeconfig: b64('apiVersion: v1\nkind: Config\n') } }), 'apiVersion: v1\nkind: Config\n');
  });

  it('builds one from token, caBundle and apiEndpoint', () => {
    const config = parse(buildMemberKubeconfig(cluster({ apiEndpoint: 'https://10.0.0.1:6443' }), { data: { token: b64('s3cret\n'), caBundle: b64('PEM') } }));
    assert.equal(config.clusters[0].cluster.server, 'https://10.0.0.1:6443');
    assert.equal(config.clusters[0].cluster['certificate-authority-data'], b64('PEM'));
    assert.equal(config.users[0].user.token, 's3cret');
    assert.equal(config['current-context'], 'm1');
  });

  it('honours insecureSkipTLSVerification', () => {
    const config = parse(buildMemberKubeconfig(cluster({ apiEndpoint: 'https://x', insecureSkipTLSVerification: true }), { data: { token: b64('t') } }));
    assert.equal(config.clusters[0].cluster['insecure-skip-tls-verify'], true);
  });

  const invalid: Array<[string, Cluster, Record<string, string>]> = [
    ['an empty secret', cluster({ apiEndpoint: 'https://x' }), {}],
    ['a token without apiEndpoint', cluster(), { token: b64('t') }],
  ];
  for (const [name, c, data] of invalid) {
    it(`refuses ${name}`, () => assert.throws(() => buildMemberKubeconfig(c, { data }), (e: unknown) => e instanceof ApiError && e.reason === 'Invalid'));
  }

  it('names secrets as warren member add writes them', () => assert.equal(memberSecretName('member1'), 'cluster-member1'));
});
