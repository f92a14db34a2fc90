// kubectl's last-applied annotation as the upstream rewrites it on a kubectl
// server-side apply (from the gateway's upstream configuration): shown in the
// tenant's terms, without the gateway's resourceVersion pin; one in tenant
// terms (client-side apply) is left alone; another tenant's is dropped.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/core/types.ts';
import { toTenantObject } from '../../../../src/core/tenancy/object-translation.ts';
import { LAST_APPLIED } from '../../../../src/core/tenancy/last-applied.ts';

const A = 'aaaaaa';
const ctx = { id: A };
const LABEL = 'tenancy.warren.dev/tenant';
const stored = (annotation: string): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'web', namespace: `${A}-shop`, labels: { [LABEL]: A, app: 'web' }, annotations: { [LAST_APPLIED]: annotation } },
  spec: { template: { metadata: { labels: { [LABEL]: A, app: 'web' } } } },
} as KubeObject);

describe('last-applied annotation', () => {
  it('an upstream applied configuration reads back in tenant terms, without the pin', () => {
    const upstream = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: `${A}-shop`, resourceVersion: '488', labels: { [LABEL]: A, app: 'web' } }, spec: { template: { metadata: { labels: { [LABEL]: A, app: 'web' } } } } };
    const view = toTenantObject(ctx, stored(`${JSON.stringify(upstream)}\n`))!;
    const text = view.metadata.annotations?.[LAST_APPLIED] ?? '';
    assert.ok(text.endsWith('\n'));
    assert.deepEqual(JSON.parse(text), { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop', labels: { app: 'web' } }, spec: { template: { metadata: { labels: { app: 'web' } } } } });
    assert.ok(!text.includes(`${A}-`) && !text.includes(LABEL));
  });
  it('one kubectl wrote in tenant terms is left as it is', () => {
    const tenantTerms = '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop"}}\n';
    assert.equal(toTenantObject(ctx, stored(tenantTerms))!.metadata.annotations?.[LAST_APPLIED], tenantTerms);
  });
  it('one naming another tenant is dropped, not shown', () => {
    const other = JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'bbbbbb-shop', labels: { [LABEL]: 'bbbbbb' } } });
    assert.equal(toTenantObject(ctx, stored(other))!.metadata.annotations?.[LAST_APPLIED], undefined);
  });
});
