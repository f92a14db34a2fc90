import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildAllocatable, buildNodeSummary, createPodTally, podRequests } from '../../../../src/controllers/clusters/resource-summary.ts';
import { formatQuantity } from '../../../../src/controllers/clusters/quantity.ts';
import { quantityNumber as parseQuantity } from '../../../../src/core/quantity.ts';

const node = (name: string, ready: boolean, allocatable: Record<string, string>) => ({
  metadata: { name }, status: { allocatable, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
});
const pod = (nodeName: string | undefined, phase: string, containers: Array<Record<string, string>>, init: Array<Record<string, string>> = []) => ({
  metadata: { name: 'p' },
  spec: { ...(nodeName ? { nodeName } : {}), containers: containers.map((requests) => ({ resources: { requests } })), initContainers: init.map((requests) => ({ resources: { requests } })) },
  status: { phase },
});

describe('quantity', () => {
  const cases: Array<[string, number]> = [['32', 32], ['500m', 0.5], ['256Gi', 256 * 2 ** 30], ['1k', 1000], ['1e3', 1000], ['1.5', 1.5], ['128974848', 128974848]];
  for (const [text, value] of cases) it(`parses ${text}`, () => assert.equal(parseQuantity(text), value));
  it('refuses non-quantities', () => assert.equal(parseQuantity('lots'), undefined));
  const formats: Array<[string, number, string]> = [['cpu', 31.5, '31500m'], ['cpu', 64, '64'], ['memory', 2 ** 31, '2Gi'], ['memory', 1000, '1000'], ['pods', 220, '220']];
  for (const [res, value, text] of formats) it(`formats ${res} ${value}`, () => assert.equal(formatQuantity(res, value), text));
  it('cpu millicores survive format → parse', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000 }), (milli) => Math.round((parseQuantity(formatQuantity('cpu', milli / 1000)) ?? -1) * 1000) === milli));
  });
});

describe('resource summary', () => {
  it('sums allocatable over nodes and counts ready ones', () => {
    const nodes = [node('a', true, { cpu: '32', memory: '256Gi', pods: '110' }), node('b', false, { cpu: '32', memory: '256Gi', pods: '110' })];
    assert.deepEqual(buildAllocatable(nodes), { cpu: '64', memory: '512Gi', pods: '220' });
    assert.deepEqual(buildNodeSummary(nodes), { totalNum: 2, readyNum: 1 });
  });

  it('a pod requests its containers\' sum, raised to its largest init container', () => {
    const r = podRequests(pod('a', 'Running', [{ cpu: '100m', memory: '64Mi' }, { cpu: '200m' }], [{ cpu: '1', memory: '1Mi' }]));
    assert.deepEqual(Object.fromEntries(r), { cpu: 1, memory: 64 * 2 ** 20 });
  });

  it('allocated counts bound, non-terminal pods; allocating the unbound', () => {
    const tally = createPodTally();
    tally.add(pod('a', 'Running', [{ cpu: '500m', memory: '1Gi' }]));
    tally.add(pod('a', 'Pending', [{ cpu: '250m' }]));
    tally.add(pod('a', 'Succeeded', [{ cpu: '8' }]));
    tally.add(pod('a', 'Failed', [{ cpu: '8' }]));
    tally.add(pod(undefined, 'Pending', [{ cpu: '2' }]));
    assert.deepEqual(tally.allocated(), { cpu: '750m', memory: '1Gi', pods: '2' });
    assert.deepEqual(tally.allocating(), { cpu: '2', memory: '0', pods: '1' });
  });
});
