import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { jsonPathValues } from '../../../../src/core/table/jsonpath.ts';
import { crdTableColumns, goPrint } from '../../../../src/core/table/crd-columns.ts';

const obj = {
  metadata: { name: 'a', creationTimestamp: '2024-01-01T00:00:00Z', labels: { 'app.kubernetes.io/name': 'x' } },
  spec: { replicas: 3, items: [{ n: 1 }, { n: 2 }, { n: 3 }], flag: true },
  status: { conditions: [{ type: 'Synced', status: 'False' }, { type: 'Ready', status: 'True', reason: 'Up' }] },
};

describe('jsonPathValues', () => {
  const cases: Array<[string, unknown[]]> = [
    ['.spec.replicas', [3]],
    ['{.spec.replicas}', [3]],
    ['.spec.missing', []],
    ['.status.conditions[?(@.type=="Ready")].status', ['True']],
    [".status.conditions[?(@.type=='Synced')].status", ['False']],
    ['.status.conditions[?(@.reason)].type', ['Ready']],
    ['.spec.items[1].n', [2]],
    ['.spec.items[-1].n', [3]],
    ['.spec.items[*].n', [1, 2, 3]],
    ['.spec.items[0:2].n', [1, 2]],
    ['.spec.items[?(@.n > 1)].n', [2, 3]],
    [".metadata.labels['app.kubernetes.io/name']", ['x']],
    ['..type', ['Synced', 'Ready']],
  ];
  for (const [path, want] of cases) it(path, () => assert.deepEqual(jsonPathValues(path, obj), want));
  it('rejects what it does not support', () => assert.throws(() => jsonPathValues('.a[?(x)]', obj)));
});

describe('crdTableColumns', () => {
  it('defaults to Name and Age (date)', () => {
    const p = crdTableColumns(undefined);
    assert.deepEqual(p.columns.map((c) => [c.name, c.type, c.format]), [['Name', 'string', 'name'], ['Age', 'date', '']]);
    // Date columns print as an age, as apiextensions' table convertor does.
    assert.deepEqual(p.cells(obj, new Date('2024-01-01T00:05:00Z')), ['a', '5m']);
  });
  it('types cells per column and takes the first result', () => {
    const p = crdTableColumns([
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status', priority: 1 },
      { name: 'All', type: 'string', jsonPath: '.status.conditions[*].type' },
      { name: 'Spec', type: 'string', jsonPath: '.spec.items[0]' },
      { name: 'Flag', type: 'boolean', jsonPath: '.spec.flag' },
      { name: 'WrongType', type: 'integer', jsonPath: '.metadata.name' },
      { name: 'Missing', type: 'string', jsonPath: '.nope' },
      { name: 'BadDate', type: 'date', jsonPath: '.metadata.name' },
    ]);
    assert.equal(p.columns[2]?.priority, 1);
    assert.deepEqual(p.cells(obj, new Date()), ['a', 3, 'True', 'Synced', 'map[n:1]', true, null, null, '<invalid>']);
  });
  it('goPrint mirrors fmt.Print', () => assert.equal(goPrint({ b: [1, 'x'], a: true }), 'map[a:true b:[1 x]]'));
});
