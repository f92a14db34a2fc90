// The version of a kind a member serves (member-version.ts): CronJob is
// watched upstream as batch/v1 or batch/v1beta1, and a member that serves only
// the other version gets it converted.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Upstream, UpstreamResponse } from '../../../../src/kube/upstream.ts';
import { apiVersionOf, templateResourceOf } from '../../../../src/controllers/propagation/template-resources.ts';
import { inMemberVersion, memberRowOf } from '../../../../src/controllers/propagation/member-version.ts';

function fakeDiscovery(docs: Record<string, string[] | number>): Upstream & { calls: string[] } {
  const calls: string[] = [];
  return {
    server: 'https://fake', calls, requestOptions: () => ({}),
    async request<T>(_method: string, path: string): Promise<UpstreamResponse<T>> {
      calls.push(path);
      const doc = docs[path] ?? 404;
      if (typeof doc === 'number') return { status: doc, headers: {}, body: {} as T };
      return { status: 200, headers: {}, body: { resources: doc.map((name) => ({ name })) } as T };
    },
    stream: () => Promise.reject(new Error('no streams')),
    close: () => undefined,
  };
}

const cronV1 = templateResourceOf('batch/v1', 'CronJob')!;
const cronV1beta1 = templateResourceOf('batch/v1beta1', 'CronJob')!;
const K120 = { '/apis/batch/v1': ['jobs'], '/apis/batch/v1beta1': ['cronjobs'] };
const K125 = { '/apis/batch/v1': ['jobs', 'cronjobs'] };
const K121 = { '/apis/batch/v1': ['jobs', 'cronjobs'], '/apis/batch/v1beta1': ['cronjobs'] };

describe('memberRowOf: the CronJob version a member serves', () => {
  it('converts only where the member serves the other version alone', async () => {
    assert.equal(await memberRowOf(fakeDiscovery(K120), cronV1), cronV1beta1, 'a 1.20 member of a 1.21+ host');
    assert.equal(await memberRowOf(fakeDiscovery(K125), cronV1beta1), cronV1, 'a 1.25+ member of a 1.20 host');
    assert.equal(await memberRowOf(fakeDiscovery(K121), cronV1), cronV1, 'both served: the template\'s own');
    assert.equal(await memberRowOf(fakeDiscovery(K121), cronV1beta1), cronV1beta1);
    assert.equal(await memberRowOf(fakeDiscovery(K120), cronV1beta1), cronV1beta1);
  });

  it('asks discovery once per member and kind, keeps only clear answers, and never for kinds with one version', async () => {
    const member = fakeDiscovery(K120);
    await memberRowOf(member, cronV1);
    await memberRowOf(member, cronV1);
    assert.deepEqual(member.calls.sort(), ['/apis/batch/v1', '/apis/batch/v1beta1']);
    const flaky = fakeDiscovery({ '/apis/batch/v1': 503, '/apis/batch/v1beta1': ['cronjobs'] });
    assert.equal(await memberRowOf(flaky, cronV1), cronV1, 'could not tell: the template\'s own version');
    await memberRowOf(flaky, cronV1);
    assert.equal(flaky.calls.length, 4, 'asked again');
    const deployments = fakeDiscovery({});
    const row = templateResourceOf('apps/v1', 'Deployment')!;
    assert.equal(await memberRowOf(deployments, row), row);
    assert.deepEqual(deployments.calls, []);
  });

  it('inMemberVersion sets the apiVersion and nothing else', () => {
    const cj = { apiVersion: 'batch/v1beta1', kind: 'CronJob', metadata: { name: 'c' }, spec: { schedule: '* * * * *' } };
    assert.deepEqual(inMemberVersion(cj, cronV1), { ...cj, apiVersion: apiVersionOf(cronV1) });
    assert.equal(inMemberVersion(cj, cronV1beta1), cj);
  });
});
