import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createProgress, describeTenant, tenantVerdict, whyNotReady } from '../../../src/cli/progress.ts';
import type { Tenant, TenantCondition } from '../../../src/tenants/tenant-crd.ts';

function tenant(status: Tenant['status'], generation = 1): Tenant {
  return { apiVersion: 'tenancy.warren.dev/v1alpha1', kind: 'Tenant', metadata: { name: 'acme', generation }, spec: {}, ...(status ? { status } : {}) };
}
const ok = (type: string): TenantCondition => ({ type, status: 'True', reason: type });

test('createProgress: stamps elapsed time, prints an update only when it changes', () => {
  let clock = 1000;
  const out: string[] = [];
  const p = createProgress((t) => out.push(t), () => clock);
  p.update('tenant/acme', 'Pending');
  p.update('tenant/acme', 'Pending');
  clock += 2500;
  p.update('tenant/acme', 'Ready');
  p.update('tenant/globex', 'Pending');
  p.line('done');
  assert.deepEqual(out, [
    '  [  0.0s] tenant/acme: Pending\n',
    '  [  2.5s] tenant/acme: Ready\n',
    '  [  2.5s] tenant/globex: Pending\n',
    '  [  2.5s] done\n',
  ]);
  // Never a carriage return or an escape sequence: a pipe reads the same as a terminal.
  assert.ok(out.every((l) => !l.includes('\r') && !l.includes(String.fromCharCode(27))));
});

const describeCases: Array<[string, Tenant, string]> = [
  ['no status yet', tenant(undefined), 'Pending: waiting for the onboarding controller'],
  ['first step done', tenant({ phase: 'Pending', conditions: [ok('IdAssigned')] }), 'Pending: NamespacesReady (1/5 steps done)'],
  ['steps out of order in the list', tenant({ phase: 'Pending', conditions: [ok('RbacReady'), ok('IdAssigned'), ok('NamespacesReady')] }), 'Pending: CredentialsReady (3/5 steps done)'],
  ['a False condition wins over missing steps', tenant({ phase: 'Pending', conditions: [{ type: 'Ready', status: 'False', reason: 'InvalidSpec', message: 'spec.x: bad' }] }), 'Pending: Ready False (InvalidSpec: spec.x: bad)'],
  ['id conflict', tenant({ phase: 'Pending', conditions: [{ type: 'IdAssigned', status: 'False', reason: 'IdConflict', message: 'id abcdef is already held by tenant b' }, { type: 'Ready', status: 'False', reason: 'IdConflict' }] }), 'Pending: IdAssigned False (IdConflict: id abcdef is already held by tenant b)'],
  ['ready', tenant({ phase: 'Ready', id: 'abcdef', conditions: [ok('Ready')] }), 'Ready (id abcdef)'],
  ['suspended', tenant({ phase: 'Suspended', id: 'abcdef' }), 'Suspended (id abcdef)'],
  ['terminating', tenant({ phase: 'Terminating', id: 'abcdef' }), 'Terminating'],
];

for (const [name, input, want] of describeCases) {
  test(`describeTenant: ${name}`, () => assert.equal(describeTenant(input), want));
}

test('tenantVerdict: Ready counts only for the current generation', () => {
  assert.equal(tenantVerdict(tenant({ phase: 'Ready', id: 'abcdef', observedGeneration: 2 }, 2)), 'ready');
  assert.equal(tenantVerdict(tenant({ phase: 'Ready', id: 'abcdef', observedGeneration: 1 }, 2)), 'waiting');
  assert.equal(tenantVerdict(tenant({ phase: 'Ready' }, 1)), 'waiting', 'no id yet');
  assert.equal(tenantVerdict(tenant(undefined)), 'waiting');
});

test('tenantVerdict: InvalidSpec of the current generation is final, of an older one is not', () => {
  const invalid = (observedGeneration: number): TenantCondition => ({ type: 'Ready', status: 'False', reason: 'InvalidSpec', observedGeneration });
  assert.equal(tenantVerdict(tenant({ phase: 'Pending', conditions: [invalid(3)] }, 3)), 'failed');
  assert.equal(tenantVerdict(tenant({ phase: 'Pending', conditions: [invalid(2)] }, 3)), 'waiting');
  assert.equal(tenantVerdict(tenant({ phase: 'Pending', conditions: [{ type: 'Ready', status: 'False', reason: 'ReconcileFailed', observedGeneration: 3 }] }, 3)), 'waiting', 'transient failures are retried');
});

test('whyNotReady: every condition not True, in step order; a hint when there is no status', () => {
  assert.deepEqual(whyNotReady(tenant({ phase: 'Pending', conditions: [
    { type: 'Ready', status: 'False', reason: 'IdConflict', message: 'm' },
    ok('NamespacesReady'),
    { type: 'IdAssigned', status: 'False', reason: 'IdConflict', message: 'held' },
  ] })), ['IdAssigned=False IdConflict: held', 'Ready=False IdConflict: m']);
  assert.match(whyNotReady(tenant(undefined))[0] ?? '', /onboarding controller running/);
  assert.match(whyNotReady(undefined)[0] ?? '', /never read back/);
  assert.match(whyNotReady(tenant({ phase: 'Pending', conditions: [ok('Ready')] }))[0] ?? '', /every condition is True but the phase is Pending/);
});

test('tenantVerdict: an IdConflict for the current generation is final (apply --wait stops at once)', () => {
  const conflicted: Tenant = {
    metadata: { name: 'dup', generation: 1 },
    status: { phase: 'Pending', conditions: [{ type: 'Ready', status: 'False', reason: 'IdConflict', message: 'id taken', observedGeneration: 1, lastTransitionTime: '' }] },
  };
  assert.equal(tenantVerdict(conflicted), 'failed');
  assert.deepEqual(whyNotReady(conflicted), ['Ready=False IdConflict: id taken']);
});
