// The placement contract (ADR 0043): kube's whitelist rule for tolerations,
// PodNodeSelector's merge, and a property over the class: whatever pod spec a
// tenant writes (any tolerations, node selector, node affinity, in any kind
// that holds a pod spec), once the gateway has merged and admitted it, a
// scheduler that follows kube's rules can place it only on nodes the contract
// gives the tenant: never the control plane, never a node dedicated to
// another tenant. The scheduler model here is written apart from the code
// under test (taints through the engine's own toleratesTaint, selectors and
// affinity by kube's API).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  SAFE_PLACEMENT, covers, forceNodeSelector, isToleratedByContract, placementContractOf, placementViolations, type PlacementContract, type Toleration,
} from '../../../../src/core/tenancy/pod-placement.ts';
import { toleratesTaint } from '../../../../src/core/propagation/scheduler/taint-toleration.ts';
import type { Taint, Toleration as KarmadaToleration } from '../../../../src/core/propagation/karmada-types.ts';

type Obj = Record<string, unknown>;
const norm = (t: Toleration): Toleration => ({ key: t.key ?? '', operator: t.operator ?? 'Equal', value: t.value ?? '', effect: t.effect ?? '', ...(t.tolerationSeconds !== undefined ? { tolerationSeconds: t.tolerationSeconds } : {}) });

describe('covers: kube\'s whitelist rule (tolerations.isSuperset)', () => {
  const cases: Array<[string, Toleration, Toleration, boolean]> = [
    ['the same toleration', { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }, { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }, true],
    ['empty-key Exists covers any key', { key: '', operator: 'Exists' }, { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' }, true],
    ['another key', { key: 'gpu', operator: 'Exists' }, { key: 'dedicated', operator: 'Exists' }, false],
    ['a keyed Exists does not cover empty-key Exists', { key: 'gpu', operator: 'Exists' }, { key: '', operator: 'Exists' }, false],
    ['an allowed effect does not cover all effects', { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }, { key: 'gpu', operator: 'Exists' }, false],
    ['an allowed empty effect covers any effect', { key: 'gpu', operator: 'Exists' }, { key: 'gpu', operator: 'Exists', effect: 'NoExecute' }, true],
    ['Equal covers its own value', { key: 'dedicated', operator: 'Equal', value: 'a' }, { key: 'dedicated', operator: 'Equal', value: 'a', effect: 'NoSchedule' }, true],
    ['Equal does not cover another value', { key: 'dedicated', operator: 'Equal', value: 'a' }, { key: 'dedicated', operator: 'Equal', value: 'b' }, false],
    ['Equal does not cover Exists', { key: 'dedicated', operator: 'Equal', value: 'a' }, { key: 'dedicated', operator: 'Exists' }, false],
    ['NoExecute seconds: shorter is covered', { key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }, { key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }, true],
    ['NoExecute seconds: longer is not', { key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }, { key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 61 }, false],
    ['NoExecute seconds: forever is not', { key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }, { key: 'k', operator: 'Exists', effect: 'NoExecute' }, false],
  ];
  for (const [name, allowed, asked, want] of cases) it(name, () => assert.equal(covers(norm(allowed), norm(asked)), want));
});

describe('the safe default: nothing configured', () => {
  const refused: Array<[string, Obj]> = [
    ['empty-key Exists (tolerates everything)', { operator: 'Exists' }],
    ['empty-key Exists for one effect', { operator: 'Exists', effect: 'NoSchedule' }],
    ['the master taint', { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' }],
    ['the control-plane taint', { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists' }],
    ['any node-role key', { key: 'node-role.kubernetes.io/infra', operator: 'Equal', value: '', effect: 'NoSchedule' }],
    ['a dedication taint of the platform', { key: 'dedicated', operator: 'Equal', value: 'globex', effect: 'NoSchedule' }],
    ['a cordoned node', { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }],
    ['not-ready for scheduling (NoSchedule)', { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }],
    ['not-ready with every effect', { key: 'node.kubernetes.io/not-ready', operator: 'Exists' }],
    ['not an object', 'node-role.kubernetes.io/master' as unknown as Obj],
  ];
  for (const [name, t] of refused) it(`refuses ${name}`, () => assert.equal(isToleratedByContract(t, SAFE_PLACEMENT), false));
  const allowed: Array<[string, Obj]> = [
    ['not-ready NoExecute 300 s (DefaultTolerationSeconds)', { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    ['unreachable NoExecute 300 s (DefaultTolerationSeconds)', { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    ['unreachable NoExecute forever', { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }],
  ];
  for (const [name, t] of allowed) it(`allows ${name}`, () => assert.equal(isToleratedByContract(t, SAFE_PLACEMENT), true));
});

describe('the node selector: PodNodeSelector\'s merge', () => {
  const contract: PlacementContract = { nodeSelector: { pool: 'acme' }, tolerations: [] };
  it('merges into a Deployment\'s template, keeping the tenant\'s own keys', () => {
    const d = { spec: { template: { spec: { nodeSelector: { disk: 'ssd' }, containers: [] } } } };
    assert.equal(forceNodeSelector('apps/Deployment', d, contract), undefined);
    assert.deepEqual(d.spec.template.spec.nodeSelector, { disk: 'ssd', pool: 'acme' });
    assert.deepEqual(placementViolations('apps/Deployment', d, contract), []);
  });
  it('creates the path of a CronJob\'s pod spec', () => {
    const c: Obj = { spec: { schedule: '* * * * *' } };
    assert.equal(forceNodeSelector('batch/CronJob', c, contract), undefined);
    assert.deepEqual(c, { spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { nodeSelector: { pool: 'acme' } } } } } } });
  });
  it('refuses a conflicting value and leaves the body as it was', () => {
    const p = { spec: { nodeSelector: { pool: 'globex' } } };
    const ref = forceNodeSelector('/Pod', p, contract);
    assert.equal(ref?.field, 'spec.nodeSelector');
    assert.equal(ref?.value, 'pool=globex');
    assert.deepEqual(p.spec.nodeSelector, { pool: 'globex' });
  });
  it('judges a missing pair as a violation (an object written before the contract)', () => {
    assert.deepEqual(placementViolations('/Pod', { spec: { containers: [] } }, contract).map((r) => r.value), ['pool=acme']);
  });
  it('merges the selector into a ControllerRevision\'s template when it has one (written on create and apply only: its data is immutable), and leaves data without a template alone', () => {
    const revision = { data: { spec: { template: { spec: { tolerations: [{ operator: 'Exists' }] } } } } };
    assert.equal(forceNodeSelector('apps/ControllerRevision', revision, contract), undefined);
    assert.deepEqual(revision.data.spec.template.spec, { tolerations: [{ operator: 'Exists' }], nodeSelector: { pool: 'acme' } });
    assert.deepEqual(placementViolations('apps/ControllerRevision', revision, contract).map((r) => r.field), ['data.spec.template.spec.tolerations']);
    const other = { data: { anything: 1 } };
    assert.equal(forceNodeSelector('apps/ControllerRevision', other, contract), undefined);
    assert.deepEqual(other, { data: { anything: 1 } });
    assert.deepEqual(placementViolations('apps/ControllerRevision', other, contract), []);
  });
  it('leaves kinds without a pod spec alone', () => {
    const cm = { data: { tolerations: '[{"operator":"Exists"}]' } };
    assert.equal(forceNodeSelector('/ConfigMap', cm, contract), undefined);
    assert.deepEqual(cm, { data: { tolerations: '[{"operator":"Exists"}]' } });
    assert.deepEqual(placementViolations('/ConfigMap', { spec: { tolerations: [{ operator: 'Exists' }] } }, contract), []);
  });
  it('each field of a Tenant\'s spec.placement replaces the platform\'s', () => {
    const platform: PlacementContract = { nodeSelector: { pool: 'shared' }, tolerations: [{ key: 'gpu', operator: 'Exists' }] };
    assert.deepEqual(placementContractOf(undefined, platform), platform);
    assert.deepEqual(placementContractOf({ nodeSelector: { pool: 'acme' } }, platform), { nodeSelector: { pool: 'acme' }, tolerations: platform.tolerations });
    assert.deepEqual(placementContractOf({ tolerations: [] }, platform).tolerations, []);
    assert.deepEqual(placementContractOf(undefined), SAFE_PLACEMENT);
  });
});

// ---------------------------------------------------------------- property over the class

interface Node { name: string; labels: Record<string, string>; taints: Taint[] }
const NODES: Node[] = [
  { name: 'control-plane', labels: { 'kubernetes.io/hostname': 'control-plane', 'node-role.kubernetes.io/master': '' }, taints: [{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' }] },
  { name: 'globex-1', labels: { 'kubernetes.io/hostname': 'globex-1', pool: 'globex' }, taints: [{ key: 'dedicated', value: 'globex', effect: 'NoSchedule' }] },
  { name: 'acme-1', labels: { 'kubernetes.io/hostname': 'acme-1', pool: 'acme' }, taints: [{ key: 'dedicated', value: 'acme', effect: 'NoSchedule' }] },
  { name: 'shared-1', labels: { 'kubernetes.io/hostname': 'shared-1', pool: 'shared' }, taints: [] },
  { name: 'cordoned', labels: { 'kubernetes.io/hostname': 'cordoned', pool: 'shared' }, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] },
];
/** The contracts under test, and the nodes each may reach. */
const CONTRACTS: Array<{ name: string; contract: PlacementContract; reachable: string[] }> = [
  { name: 'safe default', contract: SAFE_PLACEMENT, reachable: ['shared-1'] },
  { name: 'acme dedicated', contract: { nodeSelector: { pool: 'acme' }, tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'acme', effect: 'NoSchedule' }] }, reachable: ['acme-1'] },
  { name: 'shared pool', contract: { nodeSelector: { pool: 'shared' }, tolerations: [] }, reachable: ['shared-1'] },
];

const KEYS = ['', 'node-role.kubernetes.io/master', 'node-role.kubernetes.io/control-plane', 'dedicated', 'node.kubernetes.io/unschedulable', 'node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable', 'pool', 'kubernetes.io/hostname'];
const VALUES = ['', 'acme', 'globex', 'shared', 'control-plane', 'globex-1'];
const arbToleration: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 9, arbitrary: fc.record({ key: fc.constantFrom(...KEYS), operator: fc.constantFrom('Exists', 'Equal', '', 'exists'), value: fc.constantFrom(...VALUES), effect: fc.constantFrom('', 'NoSchedule', 'NoExecute', 'PreferNoSchedule'), tolerationSeconds: fc.constantFrom(0, 300, 3600) }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.constantFrom(null, 'Exists', 7) },
);
const arbSelector = fc.dictionary(fc.constantFrom('pool', 'kubernetes.io/hostname', 'node-role.kubernetes.io/master', 'disk'), fc.constantFrom(...VALUES), { maxKeys: 3 });
const arbExpression = fc.record({ key: fc.constantFrom('pool', 'kubernetes.io/hostname', 'node-role.kubernetes.io/master'), operator: fc.constantFrom('In', 'NotIn', 'Exists', 'DoesNotExist'), values: fc.array(fc.constantFrom(...VALUES), { maxLength: 2 }) });
const arbAffinity = fc.option(fc.record({ nodeAffinity: fc.record({ requiredDuringSchedulingIgnoredDuringExecution: fc.record({ nodeSelectorTerms: fc.array(fc.record({ matchExpressions: fc.array(arbExpression, { maxLength: 2 }) }), { minLength: 1, maxLength: 2 }) }) }) }), { nil: undefined });
const arbPodSpec = fc.record({ tolerations: fc.option(fc.array(arbToleration, { maxLength: 3 }), { nil: undefined }), nodeSelector: fc.option(arbSelector, { nil: undefined }), affinity: arbAffinity }, { requiredKeys: [] });
const KINDS: Record<string, string[]> = {
  '/Pod': ['spec'], 'apps/Deployment': ['spec', 'template', 'spec'], 'apps/DaemonSet': ['spec', 'template', 'spec'], 'apps/StatefulSet': ['spec', 'template', 'spec'],
  'apps/ReplicaSet': ['spec', 'template', 'spec'], 'batch/Job': ['spec', 'template', 'spec'], 'batch/CronJob': ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
  '/ReplicationController': ['spec', 'template', 'spec'], '/PodTemplate': ['template', 'spec'],
  // A StatefulSet's history: kube's controller builds pods below the partition from its template (v1, session 14).
  'apps/ControllerRevision': ['data', 'spec', 'template', 'spec'],
};

function wrap(path: string[], spec: Obj): Obj {
  return path.reduceRight<Obj>((inner, key) => ({ [key]: inner }), { ...spec, containers: [{ name: 'c', image: 'nginx' }] });
}
const dig = (obj: Obj, path: string[]): Obj => path.reduce<Obj>((o, k) => o[k] as Obj, obj);

/** Kube's scheduler filters, as its API documents them: node selector, required node affinity, NoSchedule/NoExecute taints. */
function schedulable(spec: Obj, node: Node): boolean {
  const selector = (spec.nodeSelector ?? {}) as Record<string, string>;
  if (!Object.entries(selector).every(([k, v]) => node.labels[k] === v)) return false;
  const terms = ((spec.affinity as Obj | undefined)?.nodeAffinity as Obj | undefined)?.requiredDuringSchedulingIgnoredDuringExecution as { nodeSelectorTerms: Array<{ matchExpressions: Array<{ key: string; operator: string; values: string[] }> }> } | undefined;
  const matches = (e: { key: string; operator: string; values: string[] }): boolean => {
    const has = e.key in node.labels;
    switch (e.operator) {
      case 'In': return has && e.values.includes(node.labels[e.key]!);
      case 'NotIn': return !has || !e.values.includes(node.labels[e.key]!);
      case 'Exists': return has;
      default: return !has;
    }
  };
  if (terms && !terms.nodeSelectorTerms.some((t) => t.matchExpressions.length > 0 && t.matchExpressions.every(matches))) return false;
  // kube reads an empty operator as Equal (toleratesTaint reads only an absent one so).
  const tolerations = ((spec.tolerations ?? []) as unknown[]).filter((t): t is KarmadaToleration => typeof t === 'object' && t !== null)
    .map((t) => ({ ...t, operator: t.operator || 'Equal' } as KarmadaToleration));
  return node.taints.every((taint) => taint.effect === 'PreferNoSchedule' || tolerations.some((t) => toleratesTaint(t, taint)));
}

describe('property: an admitted pod spec reaches only the nodes its contract gives', () => {
  it('any tolerations, selector and affinity, in any kind, on create', () => {
    const seen = { admitted: 0, refused: 0, escapedWithoutContract: 0 };
    fc.assert(fc.property(fc.constantFrom(...CONTRACTS), fc.constantFrom(...Object.keys(KINDS)), arbPodSpec, ({ contract, reachable }, key, podSpec) => {
      const path = KINDS[key]!;
      const body = wrap(path, podSpec as Obj);
      // Without the contract, some of these specs reach a node they must not (the hole this closes).
      if (NODES.some((n) => !reachable.includes(n.name) && schedulable(dig(body, path), n))) seen.escapedWithoutContract++;
      const conflict = forceNodeSelector(key, body, contract);
      if (conflict || placementViolations(key, body, contract).length > 0) { seen.refused++; return; }
      seen.admitted++;
      const spec = dig(body, path);
      for (const node of NODES) {
        if (schedulable(spec, node)) assert.ok(reachable.includes(node.name), `${key} under ${JSON.stringify(contract)} reaches ${node.name}: ${JSON.stringify(spec)}`);
      }
    }), { numRuns: 1500 });
    assert.ok(seen.admitted > 50 && seen.refused > 50 && seen.escapedWithoutContract > 50, JSON.stringify(seen));
  });
});
