import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  bindingName, clusterOfExecutionNamespace, executionNamespace, safeEncodeString, workName,
} from '../../../../../src/core/propagation/detector/index.ts';

describe('bindingName', () => {
  // Karmada's names_test.go vectors.
  const cases: Array<[string, string, string]> = [
    ['Deployment', 'nginx', 'nginx-deployment'],
    ['pods', 'Pod', 'pod-pods'],
    ['Role', 'system:controller:tom', 'system.controller.tom-role'],
    ['ClusterRole', 'system::tom', 'system..tom-clusterrole'],
    ['RoleBinding', 'system::tt:tom', 'system..tt.tom-rolebinding'],
    ['ClusterRoleBinding', 'system:tt:tom', 'system.tt.tom-clusterrolebinding'],
  ];
  for (const [kind, name, want] of cases) it(`${kind} ${name}`, () => assert.equal(bindingName(kind, name), want));
});

describe('workName', () => {
  it("matches Karmada's quick start (Deployment default/nginx → nginx-687f7fb96f)", () => {
    assert.equal(workName('Deployment', 'nginx', 'default'), 'nginx-687f7fb96f');
  });
  it('differs by namespace and kind, keeps the lowercased name as prefix', () => {
    const a = workName('Deployment', 'Web:x', 'a');
    assert.match(a, /^web\.x-[bcdfghjklmnpqrstvwxz2456789]+$/);
    assert.notEqual(a, workName('Deployment', 'Web:x', 'b'));
    assert.notEqual(a, workName('Service', 'Web:x', 'a'));
    assert.notEqual(workName('ClusterRole', 'admin'), workName('ClusterRole', 'admin', 'x'));
  });
  it('safeEncodeString maps digits as apimachinery does', () => {
    assert.equal(safeEncodeString('0123456789'), '456789bcdf');
  });
});

describe('executionNamespace', () => {
  it('forward', () => assert.equal(executionNamespace('member1'), 'karmada-es-member1'));
  it('inverse refuses other namespaces', () => {
    assert.equal(clusterOfExecutionNamespace('default'), undefined);
    assert.equal(clusterOfExecutionNamespace('karmada-system'), undefined);
  });
  it('round-trips every cluster name', () => {
    const clusterName = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,40}[a-z0-9])?$/);
    fc.assert(fc.property(clusterName, (c) => clusterOfExecutionNamespace(executionNamespace(c)) === c));
    fc.assert(fc.property(clusterName, (c) => {
      const ns = `karmada-es-${c}`;
      const back = clusterOfExecutionNamespace(ns);
      return back !== undefined && executionNamespace(back) === ns;
    }));
  });
});
