// Priority admission (checked on real 1.20): a pod's spec.priority and preemptionPolicy are the server's,
// computed from its priorityClassName, else from the globalDefault class, else 0 / PreemptLowerPriority.
// (No globalDefault class here: on a shared real cluster it would change every other test's pods; the unit
// tests of priority-admission.ts cover it, and it was checked on real 1.20 by hand: docs/compatibility.md.)
// A client-given value that differs is refused 403 and nothing is stored: a forged priority would let a
// tenant's pod preempt everyone else's.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useContractServer } from '../helpers/contract-suite.ts';
import { uniqueName } from '../helpers/test-namespace.ts';

const CLASSES = '/apis/scheduling.k8s.io/v1/priorityclasses';

const pod = (name: string, spec: Record<string, unknown> = {}): object => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox:1.36' }], ...spec },
});

describe('Priority admission', { timeout: 120_000 }, () => {
  const ctx = useContractServer();
  const pods = (ns: string): string => `/api/v1/namespaces/${ns}/pods`;

  const priorityClass = async (body: Record<string, unknown>): Promise<string> => {
    const name = uniqueName('pc');
    const created = await ctx.http.post(CLASSES, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, ...body });
    assert.equal(created.status, 201, created.text);
    ctx.onCleanup(() => ctx.http.delete(`${CLASSES}/${name}`));
    return name;
  };

  const assertRefused = async (ns: string, name: string, body: object, why: string): Promise<void> => {
    const res = await ctx.http.post(pods(ns), body);
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.reason, 'Forbidden');
    assert.equal(res.body.message, `pods "${name}" is forbidden: ${why}`);
    assert.deepEqual(res.body.details, { name, kind: 'pods' });
    assert.equal((await ctx.http.get(`${pods(ns)}/${name}`)).status, 404, 'nothing stored');
  };

  it('a forged spec.priority is refused; a pod without a class gets priority 0 and PreemptLowerPriority', async () => {
    const ns = await ctx.namespaces.create('prio');
    await assertRefused(ns, 'forged', pod('forged', { priority: 1000000 }),
      'the integer value of priority (1000000) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name');
    const plain = await ctx.http.post(pods(ns), pod('plain'));
    assert.equal(plain.status, 201, plain.text);
    assert.equal(plain.body.spec.priority, 0);
    assert.equal(plain.body.spec.preemptionPolicy, 'PreemptLowerPriority');
    assert.equal(plain.body.spec.priorityClassName, undefined);
    // The value admission would compute is accepted as given.
    assert.equal((await ctx.http.post(pods(ns), pod('zero', { priority: 0 }))).status, 201);
  });

  it('a missing class is refused; a class gives its value and preemptionPolicy, and a different one is refused', async () => {
    const ns = await ctx.namespaces.create('prio');
    const missing = uniqueName('nosuch');
    await assertRefused(ns, 'missing', pod('missing', { priorityClassName: missing }), `no PriorityClass with name ${missing} was found`);
    const name = await priorityClass({ value: 1000, preemptionPolicy: 'Never' });
    await assertRefused(ns, 'higher', pod('higher', { priorityClassName: name, priority: 2000 }),
      'the integer value of priority (2000) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name');
    await assertRefused(ns, 'preempts', pod('preempts', { priorityClassName: name, preemptionPolicy: 'PreemptLowerPriority' }),
      'the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name');
    // A generated name is not made yet when admission refuses: the 403 names the generateName.
    const generated = await ctx.http.post(pods(ns), { ...pod(''), metadata: { generateName: 'gen-' } , spec: { containers: [{ name: 'c', image: 'busybox:1.36' }], priorityClassName: missing } });
    assert.equal(generated.status, 403, generated.text);
    assert.equal(generated.body.message, `pods "gen-" is forbidden: no PriorityClass with name ${missing} was found`);
    const classed = await ctx.http.post(pods(ns), pod('classed', { priorityClassName: name }));
    assert.equal(classed.status, 201, classed.text);
    assert.equal(classed.body.spec.priority, 1000);
    assert.equal(classed.body.spec.preemptionPolicy, 'Never');
    // An update that leaves them out keeps them (admission copies the stored ones); one that changes them is invalid.
    const { priority: _p, preemptionPolicy: _pp, ...without } = classed.body.spec;
    const kept = await ctx.http.put(`${pods(ns)}/classed`, { ...classed.body, spec: without });
    assert.equal(kept.status, 200, kept.text);
    assert.equal(kept.body.spec.priority, 1000);
    assert.equal(kept.body.spec.preemptionPolicy, 'Never');
    const changed = await ctx.http.put(`${pods(ns)}/classed`, { ...kept.body, spec: { ...kept.body.spec, priority: 5 } });
    assert.equal(changed.status, 422, changed.text);
    assert.equal((await ctx.http.get(`${pods(ns)}/classed`)).body.spec.priority, 1000);
  });

  it('the system classes exist; a pod may name one', async () => {
    const ns = await ctx.namespaces.create('prio');
    const system = await ctx.http.get(`${CLASSES}/system-cluster-critical`);
    assert.equal(system.status, 200, system.text);
    assert.equal(system.body.value, 2000000000);
    assert.equal((await ctx.http.get(`${CLASSES}/system-node-critical`)).body.value, 2000001000);
    const critical = await ctx.http.post(pods(ns), pod('critical', { priorityClassName: 'system-cluster-critical' }));
    assert.equal(critical.status, 201, critical.text);
    assert.equal(critical.body.spec.priority, 2000000000);
    // Only kube makes `system-` classes, and only with their own value (validation, before the name is looked up).
    for (const [name, value, why] of [
      ['system-node-critical', 5, 'value of system-node-critical PriorityClass must be 2000001000'],
      ['system-k1', 5, 'system-k1 is not a known system priority class'],
    ] as const) {
      const res = await ctx.http.post(CLASSES, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value });
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.message, `PriorityClass.scheduling.k8s.io "${name}" is invalid: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: ${why}`);
    }
  });
});
