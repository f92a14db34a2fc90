import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolveTenantClusters } from '../../../../src/controllers/onboarding/resolve-clusters.ts';

const cluster = (name: string, labels: Record<string, string> = {}) => ({ metadata: { name, labels } });
const registered = [cluster('member2', { location: 'region-b' }), cluster('member1', { location: 'region-a', tier: 'gold' }), cluster('edge', { location: 'region-a' })];

describe('resolveTenantClusters', () => {
  const cases: Array<{ name: string; allowed: Parameters<typeof resolveTenantClusters>[0]; want: string[] }> = [
    { name: 'nothing allowed → none', allowed: undefined, want: [] },
    { name: 'names that exist, sorted', allowed: { names: ['member2', 'member1'] }, want: ['member1', 'member2'] },
    { name: 'a missing name is left out', allowed: { names: ['member1', 'ghost'] }, want: ['member1'] },
    { name: 'matchLabels', allowed: { labelSelector: { matchLabels: { location: 'region-a' } } }, want: ['edge', 'member1'] },
    { name: 'matchExpressions', allowed: { labelSelector: { matchExpressions: [{ key: 'tier', operator: 'Exists' }] } }, want: ['member1'] },
    { name: 'an empty selector matches all', allowed: { labelSelector: {} }, want: ['edge', 'member1', 'member2'] },
    { name: 'names and selector: the union', allowed: { names: ['member2'], labelSelector: { matchLabels: { tier: 'gold' } } }, want: ['member1', 'member2'] },
    { name: 'a selector matching nothing', allowed: { labelSelector: { matchLabels: { region: 'eu' } } }, want: [] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(resolveTenantClusters(c.allowed, registered), c.want));
});
