import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/core/types.ts';
import { hold, withHeldStatus } from '../../../../src/core/propagation/host-hold.ts';
import { heldRowCells } from '../../../../src/core/propagation/held-table.ts';
import { toTenantObject } from '../../../../src/core/tenancy/object-translation.ts';
import { toTenantTable, type Table } from '../../../../src/core/tenancy/response-translation.ts';

const ctx = { id: 'aaaaaa' };
const COLUMNS = ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector'].map((name) => ({ name, format: name === 'Name' ? 'name' : '' }));
const held = (): KubeObject => withHeldStatus(hold({
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'web', namespace: 'aaaaaa-default', labels: { 'tenancy.warren.dev/tenant': 'aaaaaa', app: 'web' } },
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' } } },
}), { replicas: 3, readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 });
/** What the host prints for the held form: 0/0, and its own (empty) status. */
const hostCells = (): unknown[] => ['web', '0/0', 0, 0, '5m', 'web', 'nginx', 'app=web'];

describe('held-table: Table rows of held Deployments show the tenant\'s replicas and the engine\'s status (ADR 0023)', () => {
  it('prints Ready, Up-to-date and Available again, and nothing else', () => {
    assert.deepEqual(heldRowCells(COLUMNS, hostCells(), held()), ['web', '2/3', 3, 2, '5m', 'web', 'nginx', 'app=web']);
  });

  it('leaves rows of objects that are not held, or not of a held kind, alone', () => {
    const plain: KubeObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } };
    assert.deepEqual(heldRowCells(COLUMNS, hostCells(), plain), hostCells());
    assert.deepEqual(heldRowCells(COLUMNS, hostCells(), { ...held(), kind: 'ControllerRevision' }), hostCells());
  });

  it('through the gateway\'s Table translation, with the row\'s PartialObjectMetadata: cells printed, marks gone', () => {
    const { metadata } = held();
    const table: Table = { apiVersion: 'meta.k8s.io/v1', kind: 'Table', metadata: {}, columnDefinitions: COLUMNS, rows: [{ cells: hostCells(), object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata } }] };
    const out = toTenantTable(ctx, table);
    assert.deepEqual(out.rows?.[0]?.cells, ['web', '2/3', 3, 2, '5m', 'web', 'nginx', 'app=web']);
    const shown = JSON.stringify(out.rows?.[0]?.object);
    assert.ok(!shown.includes('propagation.warren.dev'), shown);
    assert.ok(!shown.includes('"spec"') && !shown.includes('"status"'), 'a partial object stays partial');
  });

  it('the kind converter shows a held Deployment as the tenant wrote it, with the engine\'s status', () => {
    const view = toTenantObject(ctx, { ...held(), status: { replicas: 0, conditions: [{ type: 'Progressing', reason: 'DeploymentPaused' }] } });
    assert.deepEqual(view?.spec, { replicas: 3, selector: { matchLabels: { app: 'web' } } });
    assert.deepEqual(view?.status, { replicas: 3, readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 });
    assert.deepEqual(view?.metadata.labels, { app: 'web' });
    assert.equal(view?.metadata.annotations, undefined);
  });
});
