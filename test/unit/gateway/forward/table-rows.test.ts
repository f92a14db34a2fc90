// Tables in tenant terms (issue 14, items 1 and 4): a row's object keeps its own
// kind when it is a whole object, and a PartialObjectMetadata row of a
// cluster-scoped kind outside the built-ins (Karmada's ClusterResourceBinding)
// loses the tenant prefix in its name cell as in its metadata.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { kindHintOf } from '../../../../src/gateway/forward/body-type.ts';
import { translateBody } from '../../../../src/gateway/forward/response-pipe.ts';
import { parseRequestInfo } from '../../../../src/core/request-info.ts';

const ID = 'acme01';
const OTHER = 'glob02';
const ctx = { id: ID };

function info(path: string): ReturnType<typeof parseRequestInfo> {
  return parseRequestInfo('GET', path, new URLSearchParams());
}

function table(rows: Array<{ cells: unknown[]; object: Record<string, unknown> }>): Record<string, unknown> {
  return {
    kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: {},
    columnDefinitions: [{ name: 'Name', type: 'string', format: 'name' }, { name: 'Age', type: 'string', format: '' }],
    rows,
  };
}

const partial = (name: string): Record<string, unknown> => ({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name, labels: { 'tenancy.warren.dev/tenant': name.slice(0, 6) } } });

describe('gateway tables: row objects and name cells', () => {
  it('kindHintOf names Karmada\'s cluster-scoped kinds too (not only built-ins)', () => {
    assert.deepEqual(kindHintOf(info('/apis/work.karmada.io/v1alpha2/clusterresourcebindings'), { group: 'work.karmada.io' }),
      { apiVersion: 'work.karmada.io/v1alpha2', kind: 'ClusterResourceBinding' });
    assert.deepEqual(kindHintOf(info('/apis/policy.karmada.io/v1alpha1/clusterpropagationpolicies'), { group: 'policy.karmada.io' }),
      { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'ClusterPropagationPolicy' });
    assert.deepEqual(kindHintOf(info('/api/v1/namespaces'), { group: '' }), { apiVersion: 'v1', kind: 'Namespace' });
  });

  it('kubectl get crb: the name cell and the row object lose the prefix; another tenant\'s row is dropped', () => {
    const hint = kindHintOf(info('/apis/work.karmada.io/v1alpha2/clusterresourcebindings'), { group: 'work.karmada.io' });
    const out = translateBody(ctx, table([
      { cells: [`${ID}-reader-clusterrole`, '5s'], object: partial(`${ID}-reader-clusterrole`) },
      { cells: [`${OTHER}-x-clusterrole`, '5s'], object: partial(`${OTHER}-x-clusterrole`) },
    ]), hint) as { rows: Array<{ cells: unknown[]; object: { kind: string; apiVersion: string; metadata: { name: string } } }> };
    assert.equal(out.rows.length, 1);
    assert.equal(out.rows[0]?.cells[0], 'reader-clusterrole');
    assert.equal(out.rows[0]?.object.metadata.name, 'reader-clusterrole');
    assert.equal(out.rows[0]?.object.kind, 'PartialObjectMetadata', 'a partial row stays partial');
    assert.equal(out.rows[0]?.object.apiVersion, 'meta.k8s.io/v1');
  });

  it('includeObject=Object: a whole object without spec or status (a ConfigMap) keeps its own kind', () => {
    const hint = kindHintOf(info('/api/v1/namespaces/default/configmaps'), { group: '' });
    const cm = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', namespace: `${ID}-default` }, data: { x: '1' } };
    const out = translateBody(ctx, table([{ cells: ['a', '1s'], object: cm }]), hint) as { rows: Array<{ object: { kind: string; apiVersion: string; metadata: { namespace: string } } }> };
    assert.equal(out.rows[0]?.object.kind, 'ConfigMap');
    assert.equal(out.rows[0]?.object.apiVersion, 'v1');
    assert.equal(out.rows[0]?.object.metadata.namespace, 'default');
  });

  it('property: a cluster-scoped row of this tenant shows its tenant name, never the prefix, in cell and object', () => {
    const hint = kindHintOf(info('/apis/work.karmada.io/v1alpha2/clusterresourcebindings'), { group: 'work.karmada.io' });
    fc.assert(fc.property(fc.stringMatching(/^[a-z][a-z0-9-]{0,30}[a-z0-9]$/), (name) => {
      const out = translateBody(ctx, table([{ cells: [`${ID}-${name}`, '1s'], object: partial(`${ID}-${name}`) }]), hint) as { rows: Array<{ cells: unknown[]; object: { metadata: { name: string } } }> };
      return out.rows[0]?.cells[0] === name && out.rows[0].object.metadata.name === name;
    }));
  });
});
