import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compileCachePredicate } from '../../../../src/gateway/cache/cache-selector.ts';
import { toUpstreamLabelSelector } from '../../../../src/core/tenancy/label-selector-translation.ts';
import { TENANT_LABEL } from '../../../../src/core/tenancy/tenant-id.ts';
import type { KubeObject } from '../../../../src/core/types.ts';

const id = 'abc123';
const unlabelled: KubeObject = { metadata: { namespace: 'abc123-web', name: 'ev1' }, reason: 'Started' };
const labelled: KubeObject = { metadata: { namespace: 'abc123-web', name: 'cm', labels: { app: 'x', [TENANT_LABEL]: id } } };

/** The query the translator makes for an all-namespaces read. */
function translated(labelSelector: string, fieldSelector?: string): URLSearchParams {
  const q = new URLSearchParams();
  const upstream = toUpstreamLabelSelector(id, labelSelector, { requireTenantLabel: true });
  if (upstream) q.set('labelSelector', upstream);
  if (fieldSelector !== undefined) q.set('fieldSelector', fieldSelector);
  return q;
}

describe('compileCachePredicate', () => {
  const scope = { namespaced: true, fieldPaths: { reason: '.reason' } };
  const cases: { name: string; label: string; field?: string; obj: KubeObject; want: boolean }[] = [
    { name: 'no selector keeps objects without the tenant label', label: '', obj: unlabelled, want: true },
    { name: 'a tenant label selector matches', label: 'app=x', obj: labelled, want: true },
    { name: 'a tenant label selector excludes', label: 'app=y', obj: labelled, want: false },
    { name: '!app matches the unlabelled', label: '!app', obj: unlabelled, want: true },
    { name: 'selecting on the tenant label selects nothing', label: `${TENANT_LABEL}=${id}`, obj: labelled, want: false },
    { name: 'selecting on its absence selects everything', label: `!${TENANT_LABEL}`, obj: labelled, want: true },
    { name: 'a field of the kind', label: '', field: 'reason=Started', obj: unlabelled, want: true },
    { name: 'a namespace field in upstream terms', label: '', field: 'metadata.namespace=abc123-web', obj: unlabelled, want: true },
    { name: 'a namespace field of another namespace', label: '', field: 'metadata.namespace=abc123-db', obj: unlabelled, want: false },
    { name: '!= on a missing field', label: '', field: 'reason!=Killed', obj: labelled, want: true },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const p = compileCachePredicate(id, translated(c.label, c.field), scope);
      assert.ok(p);
      assert.equal(p.matches(c.obj), c.want);
    });
  }

  it('says everything only without a selector', () => {
    assert.equal(compileCachePredicate(id, translated(''), scope)?.everything, true);
    assert.equal(compileCachePredicate(id, translated('app=x'), scope)?.everything, false);
  });

  it('declines a field label it does not know (the request is forwarded)', () => {
    assert.equal(compileCachePredicate(id, translated('', 'spec.nodeName=n1'), scope), undefined);
    assert.equal(compileCachePredicate(id, translated('', 'metadata.namespace=x'), { namespaced: false }), undefined);
  });
});
