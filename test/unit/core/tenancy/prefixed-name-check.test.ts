// Prefixed names are judged as the tenant wrote them (issue 13): every kind
// whose name the tenant prefix touches, at kube's limit minus the prefix, with
// kube's rule for the kind, and messages that name only the tenant's spelling.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError } from '../../../../src/core/api-error.ts';
import { toUpstreamObject } from '../../../../src/core/tenancy/object-translation.ts';
import type { KubeObject } from '../../../../src/core/types.ts';

const ID = 'acme01';
const ctx = { id: ID, customKindNamespaced: (group: string) => (group === 'example.com' ? false : undefined) };

const KINDS = [
  { apiVersion: 'v1', kind: 'Namespace', rule: 'label' },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', rule: 'path-segment' },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', rule: 'path-segment' },
  { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'ClusterPropagationPolicy', rule: 'subdomain' },
  { apiVersion: 'example.com/v1', kind: 'Widget', rule: 'subdomain' },
] as const;

// An oracle written apart from the code: kube's rules (apimachinery validation, path.ValidatePathSegmentName) minus the 7-character prefix.
const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
function kubeAccepts(rule: string, name: string): boolean {
  if (rule === 'label') return LABEL.test(name) && name.length <= 56;
  if (rule === 'subdomain') return SUBDOMAIN.test(name) && name.length <= 246;
  return name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%');
}

function write(kind: (typeof KINDS)[number], metadata: Record<string, unknown>): KubeObject | ApiError {
  const group = kind.apiVersion.includes('/') ? kind.apiVersion.split('/')[0]! : '';
  try {
    return toUpstreamObject(ctx, { apiVersion: kind.apiVersion, kind: kind.kind, metadata } as KubeObject, { type: { group, kind: kind.kind }, namespaced: false });
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}

const nameArb = fc.oneof(
  fc.stringMatching(/^[a-z0-9.-]{1,12}$/),
  fc.constantFrom('.', '..', 'a/b', 'a%2f', '-shop', 'shop-', 'a..b', 'system:view'),
  fc.integer({ min: 240, max: 260 }).map((n) => 'a'.repeat(n)),
  fc.integer({ min: 50, max: 70 }).map((n) => 'b'.repeat(n)),
);

describe('prefixed names in tenant terms', () => {
  it('property: accepted iff kube accepts the tenant\'s spelling; a refusal is 422 naming only the tenant\'s name', () => {
    fc.assert(fc.property(fc.constantFrom(...KINDS), nameArb, (kind, name) => {
      const out = write(kind, { name });
      const accepted = !(out instanceof ApiError);
      assert.equal(accepted, kubeAccepts(kind.rule, name), `${kind.kind} ${JSON.stringify(name)}`);
      if (out instanceof ApiError) {
        assert.equal(out.code, 422);
        assert.doesNotMatch(JSON.stringify(out.toStatus()), new RegExp(`${ID}-`));
        assert.match(out.message, new RegExp(`${kind.kind}[^"]* "${name.replace(/[.]/g, '\\.')}" is invalid`));
      } else {
        assert.equal(out.metadata.name, `${ID}-${name}`);
      }
    }), { numRuns: 500 });
  });

  it('a 250-character ClusterPropagationPolicy is refused at 246, in the tenant\'s name', () => {
    const err = write(KINDS[3], { name: 'p'.repeat(250) });
    assert.ok(err instanceof ApiError);
    assert.match(err.message, /must be no more than 246 characters/);
    assert.doesNotMatch(err.message, /253|acme01/);
  });

  it('ClusterRole "." and ".." are refused as kube refuses them (valid once prefixed)', () => {
    for (const name of ['.', '..']) {
      const err = write(KINDS[1], { name });
      assert.ok(err instanceof ApiError && err.code === 422 && err.message.includes(`may not be '${name}'`), String(err));
    }
  });

  it('generateName starting with "-" is refused for every prefixed kind whose rule is DNS', () => {
    for (const kind of KINDS.filter((k) => k.rule !== 'path-segment')) {
      const err = write(kind, { generateName: '-x' });
      assert.ok(err instanceof ApiError && err.code === 422, `${kind.kind}: ${String(err)}`);
      assert.match(err.message, /metadata\.generateName: Invalid value: "-x"/);
    }
  });

  it('generateName ending in "-" is fine (kube masks it), a long one is cut to fit the prefix', () => {
    const ok = write(KINDS[0], { generateName: 'shop-' });
    assert.ok(!(ok instanceof ApiError));
    assert.equal(ok.metadata.generateName, `${ID}-shop-`);
    const long = write(KINDS[0], { generateName: 'g'.repeat(62) });
    assert.ok(!(long instanceof ApiError));
    assert.equal(long.metadata.generateName, `${ID}-${'g'.repeat(56)}`);
    assert.ok(write(KINDS[0], { generateName: 'g'.repeat(64) }) instanceof ApiError, 'over kube\'s own 63: refused as kube does');
  });
});
