// Priority admission as a pure function: table cases for what real 1.20 does (checked by hand there,
// globalDefault included, which the contract test cannot create on a shared cluster), and a property: a pod
// is admitted with exactly the priority its class (or the default) gives, whatever priority the body claims.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError } from '../../../../src/core/api-error.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import { admitPodPriority, admitPriorityClass, type PriorityAdmissionInput } from '../../../../src/apiserver/registry/priority-admission.ts';

const PODS = { group: '', resource: 'pods' };
const CLASSES = { group: 'scheduling.k8s.io', resource: 'priorityclasses' };

const pc = (name: string, value: number, extra: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, preemptionPolicy: 'PreemptLowerPriority', ...extra }) as KubeObject;
const pod = (spec: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x' }], ...spec } }) as KubeObject;
const input = (obj: KubeObject, classes: KubeObject[], extra: Partial<PriorityAdmissionInput> = {}): PriorityAdmissionInput =>
  ({ def: PODS, obj, old: undefined, subresource: undefined, classes: () => classes, requestName: obj.metadata.name ?? '', ...extra });

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ApiError && err.reason === 'Forbidden', String(err));
    return err.message;
  }
  return assert.fail('not refused');
};

describe('Priority admission', () => {
  it('the globalDefault class names itself in the pod and gives its value and policy; of two, the lower value', () => {
    const classes = [pc('high', 900, { globalDefault: true }), pc('low', 100, { globalDefault: true, preemptionPolicy: 'Never' }), pc('other', 5)];
    const spec = admitPodPriority(input(pod(), classes)).spec as Record<string, unknown>;
    assert.deepEqual([spec.priorityClassName, spec.priority, spec.preemptionPolicy], ['low', 100, 'Never']);
  });

  it('a priority that differs from the default class is refused, naming the computed one', () => {
    assert.equal(refusal(() => admitPodPriority(input(pod({ priority: 0 }), [pc('d', 7, { globalDefault: true })]))),
      'pods "p" is forbidden: the integer value of priority (0) must not be provided in pod spec; priority admission controller computed 7 from the given PriorityClass name');
  });

  it('an update keeps the stored priority and policy when the body leaves them out; subresources are not admitted', () => {
    const old = pod({ priority: 9, preemptionPolicy: 'Never' });
    assert.deepEqual(admitPodPriority(input(pod(), [], { old })).spec, { ...(old.spec as object) });
    const status = pod({ priority: 123 });
    assert.equal(admitPodPriority(input(status, [], { subresource: 'status' })), status);
  });

  it('a second globalDefault class is refused; the default itself may be updated', () => {
    const existing = pc('d', 1, { globalDefault: true });
    const second = pc('e', 2, { globalDefault: true });
    assert.equal(refusal(() => admitPriorityClass(input(second, [existing], { def: CLASSES, requestName: 'e' }))),
      'priorityclasses.scheduling.k8s.io "e" is forbidden: PriorityClass d is already marked as default. Only one default can exist');
    admitPriorityClass(input(existing, [existing], { def: CLASSES, old: existing, requestName: 'd' }));
  });

  it('property: whatever priority a body claims, the stored one is the class\'s or the default\'s', () => {
    fc.assert(fc.property(
      fc.array(fc.record({ value: fc.integer({ min: -5, max: 5 }), globalDefault: fc.boolean() }), { maxLength: 4 }),
      fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }),
      fc.option(fc.nat({ max: 4 }), { nil: undefined }),
      (specs, claimed, pick) => {
        const classes = specs.map((s, i) => pc(`c${i}`, s.value, { globalDefault: s.globalDefault }));
        const named = pick === undefined ? undefined : `c${pick}`;
        const chosen = named !== undefined ? classes.find((c) => c.metadata.name === named)
          : classes.filter((c) => c.globalDefault === true).sort((a, b) => Number(a.value) - Number(b.value))[0];
        const expected = chosen ? Number(chosen.value) : 0;
        const body = pod({ ...(claimed === undefined ? {} : { priority: claimed }), ...(named ? { priorityClassName: named } : {}) });
        let admitted: KubeObject | undefined;
        try {
          admitted = admitPodPriority(input(body, classes));
        } catch (err) {
          assert.ok(err instanceof ApiError && err.reason === 'Forbidden');
          // Refused only for a class that does not exist or a claim that is not the computed value.
          assert.ok((named !== undefined && !chosen) || (claimed !== undefined && claimed !== expected), String(err));
          return;
        }
        assert.equal((admitted.spec as { priority: number }).priority, expected);
      },
    ));
  });
});
