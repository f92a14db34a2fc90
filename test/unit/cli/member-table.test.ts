// `warren member list|get` output, kubectl's way (Karmada's printer columns).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { formatClusters } from '../../../src/cli/member-command.ts';
import type { Cluster } from '../../../src/core/propagation/karmada-types.ts';

const now = new Date('2026-01-01T12:00:00Z');
const ready: Cluster = {
  apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster',
  metadata: { name: 'member1', creationTimestamp: '2026-01-01T10:00:00Z' },
  spec: { syncMode: 'Push', provider: 'warren', region: 'region-a', zone: 'a1', taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }, { key: 'x', effect: 'NoExecute' }] },
  status: { kubernetesVersion: 'v1.33.0', conditions: [{ type: 'Ready', status: 'True', reason: 'ClusterReady', message: '', lastTransitionTime: '' }] },
};
const fresh: Cluster = { metadata: { name: 'edge-1', creationTimestamp: '2026-01-01T11:59:50Z' }, spec: { syncMode: 'Push' } } as Cluster;
const base = { noHeaders: false, now, single: false };

describe('member table', () => {
  it('default: Karmada\'s NAME VERSION MODE READY AGE; a member never probed is Unknown', () => {
    assert.equal(formatClusters([ready, fresh], { ...base, output: 'table' }), [
      'NAME      VERSION   MODE   READY     AGE',
      'member1   v1.33.0   Push   True      120m',
      'edge-1              Push   Unknown   10s',
      '',
    ].join('\n'));
  });

  it('-o wide adds provider, region, zone and taints in kubectl taint syntax', () => {
    const rows = formatClusters([ready, fresh], { ...base, output: 'wide' }).trimEnd().split('\n').map((l) => l.split(/\s{3,}/));
    assert.deepEqual(rows[0]?.slice(5), ['PROVIDER', 'REGION', 'ZONE', 'TAINTS']);
    assert.deepEqual(rows[1]?.slice(5), ['warren', 'region-a', 'a1', 'dedicated=gpu:NoSchedule,x:NoExecute']);
    assert.deepEqual(rows[2]?.slice(-4), ['<none>', '<none>', '<none>', '<none>']);
  });

  it('-o name, --no-headers, and json/yaml as one object or a List', () => {
    assert.equal(formatClusters([ready], { ...base, output: 'name' }), 'cluster.cluster.karmada.io/member1\n');
    assert.equal(formatClusters([ready], { ...base, output: 'table', noHeaders: true }).split('\n')[0]?.startsWith('member1'), true);
    assert.deepEqual(JSON.parse(formatClusters([ready], { ...base, output: 'json', single: true })), ready);
    assert.equal((parse(formatClusters([ready, fresh], { ...base, output: 'yaml' })) as { kind: string }).kind, 'List');
  });
});
