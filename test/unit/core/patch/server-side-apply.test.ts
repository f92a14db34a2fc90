import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/core/api-error.ts';
import { serverSideApply, trackUpdate } from '../../../../src/core/patch/server-side-apply.ts';
import { fieldSetOf, pathString, toFieldsV1, fromFieldsV1 } from '../../../../src/core/patch/fields-v1.ts';

const DEPLOYMENT = 'io.k8s.api.apps.v1.Deployment';
const NOW = '2024-05-01T10:00:00Z';
const base = { manager: 'kubectl', typeName: DEPLOYMENT, now: NOW, apiVersion: 'apps/v1' };

const config = (replicas: number, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: { replicas, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1', ports: [{ containerPort: 80 }] }] } }, ...extra },
});

const entries = (obj: any) => obj.metadata.managedFields as Array<Record<string, any>>;
const conflictOf = (fn: () => unknown): ApiError => {
  try { fn(); } catch (e) { if (e instanceof ApiError) return e; throw e; }
  throw new Error('expected a conflict');
};

describe('fieldsV1', () => {
  it('keys lists by merge keys, sets by value, atomics as one leaf', () => {
    const obj = { metadata: { name: 'x', finalizers: ['a.io/f'] }, spec: { selector: { matchLabels: { a: 'b' } }, template: { spec: {
      containers: [{ name: 'c', ports: [{ containerPort: 80 }] }], tolerations: [{ key: 'k' }] } } } };
    assert.deepEqual(toFieldsV1(fieldSetOf(obj, DEPLOYMENT)), {
      'f:metadata': { 'f:finalizers': { 'v:"a.io/f"': {} } },
      'f:spec': {
        'f:selector': {},
        'f:template': { 'f:spec': {
          'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:name': {}, 'f:ports': {
            'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } } } },
          'f:tolerations': {},
        } },
      },
    });
  });
  it('round-trips through the FieldsV1 tree', () => {
    const set = fieldSetOf(config(2), DEPLOYMENT);
    assert.deepEqual(fromFieldsV1(toFieldsV1(set)), set);
  });
  it('prints paths as structured-merge-diff does', () => {
    assert.equal(pathString(['f:spec', 'f:replicas']), '.spec.replicas');
    assert.equal(pathString(['f:spec', 'f:containers', 'k:{"name":"project"}', 'f:image']), '.spec.containers[name="project"].image');
    assert.equal(pathString(['f:ports', 'k:{"containerPort":80,"protocol":"TCP"}']), '.ports[containerPort=80,protocol="TCP"]');
    assert.equal(pathString(['f:data', 'f:.dockerconfigjson']), '.data..dockerconfigjson');
  });
});

describe('serverSideApply', () => {
  it('creates the object and records an Apply entry', () => {
    const applied = config(2);
    const before = structuredClone(applied);
    const { object } = serverSideApply({ ...base, live: undefined, applied });
    assert.deepEqual(applied, before, 'input not mutated');
    assert.equal((object as any).spec.replicas, 2);
    const [entry] = entries(object);
    assert.equal(entries(object).length, 1);
    assert.deepEqual({ ...entry, fieldsV1: undefined }, { manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', time: NOW, fieldsType: 'FieldsV1', fieldsV1: undefined });
    assert.deepEqual(entry?.fieldsV1['f:spec']['f:replicas'], {});
    assert.ok(entry?.fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"nginx"}']);
  });

  it('conflicts with an Update manager over a changed field, in kube\'s words', () => {
    const live = trackUpdate({ previous: undefined, next: config(1), manager: 'kubectl-client-side-apply', now: NOW, apiVersion: 'apps/v1', typeName: DEPLOYMENT });
    const err = conflictOf(() => serverSideApply({ ...base, live, applied: config(3) }));
    assert.equal(err.code, 409);
    assert.equal(err.reason, 'Conflict');
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas');
    assert.deepEqual(err.details?.causes, [{ type: 'FieldManagerConflict', message: 'conflict with "kubectl-client-side-apply" using apps/v1', field: '.spec.replicas' }]);
  });

  it('groups several conflicts by manager', () => {
    const live = trackUpdate({ previous: undefined, next: config(1), manager: 'ci', now: NOW, apiVersion: 'apps/v1', typeName: DEPLOYMENT });
    const applied = config(3);
    applied.spec.template.spec.containers[0]!.image = 'nginx:2';
    const err = conflictOf(() => serverSideApply({ ...base, live, applied }));
    assert.equal(err.message, 'Apply failed with 2 conflicts: conflicts with "ci" using apps/v1:\n- .spec.replicas\n- .spec.template.spec.containers[name="nginx"].image');
  });

  it('names the subresource of the owner', () => {
    const live = serverSideApply({ ...base, live: undefined, applied: config(1) }).object;
    const scaled = trackUpdate({ previous: live, next: { ...live, spec: { ...(live as any).spec, replicas: 5 } }, manager: 'kube-controller-manager', now: NOW, apiVersion: 'apps/v1', typeName: DEPLOYMENT, subresource: 'scale' });
    const err = conflictOf(() => serverSideApply({ ...base, manager: 'other', live: scaled, applied: config(7) }));
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "kube-controller-manager" with subresource "scale" using apps/v1: .spec.replicas');
  });

  it('applying the same value shares ownership instead of conflicting', () => {
    const live = serverSideApply({ ...base, manager: 'a', live: undefined, applied: config(2) }).object;
    const { object } = serverSideApply({ ...base, manager: 'b', live, applied: config(2) });
    for (const e of entries(object)) assert.deepEqual(e.fieldsV1['f:spec']['f:replicas'], {}, e.manager);
  });

  it('force takes ownership from the other manager', () => {
    const live = serverSideApply({ ...base, manager: 'a', live: undefined, applied: config(2) }).object;
    const { object } = serverSideApply({ ...base, manager: 'b', force: true, live, applied: config(4, {}) });
    assert.equal((object as any).spec.replicas, 4);
    const a = entries(object).find((e) => e.manager === 'a');
    assert.equal(a?.fieldsV1['f:spec']['f:replicas'], undefined);
  });

  it('a field the manager stops applying is removed', () => {
    const live = serverSideApply({ ...base, live: undefined, applied: config(2, { minReadySeconds: 5 }) }).object;
    const { object } = serverSideApply({ ...base, live, applied: config(2) });
    assert.equal((object as any).spec.minReadySeconds, undefined);
  });

  it('...unless another manager still owns it', () => {
    const one = serverSideApply({ ...base, manager: 'a', live: undefined, applied: config(2, { minReadySeconds: 5 }) }).object;
    const two = serverSideApply({ ...base, manager: 'b', live: one, applied: config(2, { minReadySeconds: 5 }) }).object;
    const { object } = serverSideApply({ ...base, manager: 'a', live: two, applied: config(2) });
    assert.equal((object as any).spec.minReadySeconds, 5);
  });

  it('a container dropped from the config is removed; others keep theirs', () => {
    const applied = config(1);
    applied.spec.template.spec.containers.push({ name: 'sidecar', image: 'envoy', ports: [] });
    const live = serverSideApply({ ...base, live: undefined, applied }).object;
    const { object } = serverSideApply({ ...base, live, applied: config(1) });
    assert.deepEqual((object as any).spec.template.spec.containers.map((c: any) => c.name), ['nginx']);
  });

  it('an object with no managedFields is owned by before-first-apply', () => {
    const live = { ...config(1), metadata: { name: 'web', labels: { app: 'web' } } };
    const err = conflictOf(() => serverSideApply({ ...base, live, applied: config(2) }));
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .spec.replicas');
  });

  it('custom resources (no type) treat lists atomically', () => {
    const live = serverSideApply({ ...base, typeName: undefined, live: undefined, applied: { spec: { items: [1, 2] } } }).object;
    const { object } = serverSideApply({ ...base, typeName: undefined, live, applied: { spec: { items: [3] } } });
    assert.deepEqual((object as any).spec.items, [3]);
    assert.deepEqual(entries(object)[0]?.fieldsV1, { 'f:spec': { 'f:items': {} } });
  });
});

describe('trackUpdate', () => {
  it('gives changed fields to the writer and takes them from others', () => {
    const live = serverSideApply({ ...base, live: undefined, applied: config(2) }).object;
    const next = structuredClone(live) as any;
    next.spec.replicas = 9;
    const out = trackUpdate({ previous: live, next, manager: 'hpa', now: NOW, apiVersion: 'apps/v1', typeName: DEPLOYMENT }) as any;
    const hpa = entries(out).find((e) => e.manager === 'hpa');
    assert.deepEqual(hpa, { manager: 'hpa', operation: 'Update', apiVersion: 'apps/v1', time: NOW, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
    assert.equal(entries(out).find((e) => e.manager === 'kubectl')?.fieldsV1['f:spec']['f:replicas'], undefined);
  });
  it('an update that changes nothing adds no entry', () => {
    const live = serverSideApply({ ...base, live: undefined, applied: config(2) }).object;
    const out = trackUpdate({ previous: live, next: structuredClone(live), manager: 'noop', now: NOW, apiVersion: 'apps/v1', typeName: DEPLOYMENT });
    assert.deepEqual(entries(out).map((e) => e.manager), ['kubectl']);
  });
});
