import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toTenantAggregatedDiscovery, toTenantGroupList, toTenantResourceList, withoutEmptyVersions } from '../../../../src/core/tenancy/discovery-translation.ts';

const A = 'aaaaaa';
const group = (name: string) => ({ name, versions: [{ groupVersion: `${name}/v1`, version: 'v1' }], preferredVersion: { groupVersion: `${name}/v1`, version: 'v1' } });

describe('discovery translation', () => {
  it('APIGroupList: own CRD groups unprefixed, other tenants\' and denied-only groups gone', () => {
    const out = toTenantGroupList(A, { kind: 'APIGroupList', groups: ['apps', 'aaaaaa-a.com', 'bbbbbb-a.com', 'certificates.k8s.io', 'platform.example.com', 'policy.karmada.io'].map(group) });
    const groups = out.groups as any[];
    assert.deepEqual(groups.map((g) => g.name), ['apps', 'a.com', 'policy.karmada.io']);
    assert.equal(groups[1].preferredVersion.groupVersion, 'a.com/v1');
    assert.doesNotMatch(JSON.stringify(out), /aaaaaa|bbbbbb/);
  });
  it('APIResourceList: denied resources and subresources removed', () => {
    const out = toTenantResourceList(A, { kind: 'APIResourceList', groupVersion: 'v1', resources: ['pods', 'pods/log', 'pods/binding', 'nodes', 'nodes/proxy', 'nodes/status', 'serviceaccounts/token', 'secrets', 'componentstatuses'].map((name) => ({ name })) });
    // serviceaccounts/token is answered by the gateway (ADR 0028), so it stays in discovery; nodes are
    // the tenant's virtual nodes (ADR 30), a view without the host's subresources.
    assert.deepEqual((out?.resources as any[]).map((r) => r.name), ['pods', 'pods/log', 'nodes', 'serviceaccounts/token', 'secrets']);
  });
  it("APIResourceList of another tenant's group is hidden", () => {
    assert.equal(toTenantResourceList(A, { groupVersion: 'bbbbbb-a.com/v1', resources: [{ name: 'foos' }] }), undefined);
    assert.equal(toTenantResourceList(A, { groupVersion: 'aaaaaa-a.com/v1', resources: [{ name: 'foos' }] })?.groupVersion, 'a.com/v1');
  });
  it('aggregated discovery: own groups renamed, foreign and denied removed', () => {
    const item = (name: string, resources: string[]) => ({ metadata: { name }, versions: [{ version: 'v1', resources: resources.map((r) => ({ resource: r, responseKind: { group: name, version: 'v1', kind: 'K' } })) }] });
    const out = toTenantAggregatedDiscovery(A, { kind: 'APIGroupDiscoveryList', items: [item('', ['pods', 'componentstatuses']), item('aaaaaa-a.com', ['foos']), item('bbbbbb-a.com', ['foos']), item('apiregistration.k8s.io', ['apiservices'])] });
    const items = out.items as any[];
    assert.deepEqual(items.map((i) => i.metadata.name), ['', 'a.com']);
    assert.deepEqual(items[0].versions[0].resources.map((r: any) => r.resource), ['pods']);
    assert.equal(items[1].versions[0].resources[0].responseKind.group, 'a.com');
  });
  // kube never serves an empty group-version; kubectl api-resources fails on one ("received empty
  // response for: authentication.k8s.io/v1" on a 1.20 host, whose only resource there is tokenreviews).
  it('APIResourceList of only hidden resources is hidden as a whole', () => {
    assert.equal(toTenantResourceList(A, { kind: 'APIResourceList', groupVersion: 'authentication.k8s.io/v1', resources: [{ name: 'tokenreviews' }] }), undefined);
    assert.equal(toTenantResourceList(A, { kind: 'APIResourceList', groupVersion: 'authorization.k8s.io/v1', resources: [{ name: 'subjectaccessreviews' }, { name: 'localsubjectaccessreviews' }] }), undefined);
    assert.equal(toTenantResourceList(A, { kind: 'APIResourceList', groupVersion: 'apps/v1', resources: [] }), undefined);
    assert.deepEqual((toTenantResourceList(A, { kind: 'APIResourceList', groupVersion: 'authentication.k8s.io/v1', resources: [{ name: 'tokenreviews' }, { name: 'selfsubjectreviews' }] })?.resources as any[]).map((r) => r.name), ['selfsubjectreviews']);
  });
  it('APIGroupList without the empty group-versions: a group left with none is gone, the preferred version moves', () => {
    const two = (name: string, preferred: string) => ({ name, versions: ['v1', 'v1beta1'].map((v) => ({ groupVersion: `${name}/${v}`, version: v })), preferredVersion: { groupVersion: `${name}/${preferred}`, version: preferred } });
    const list = toTenantGroupList(A, { kind: 'APIGroupList', groups: [two('authentication.k8s.io', 'v1'), two('batch', 'v1'), two('apps', 'v1')] });
    assert.deepEqual((list.groups as any[]).map((g) => g.name), ['authentication.k8s.io', 'batch', 'apps'], 'the list alone keeps a group with a visible row');
    const out = withoutEmptyVersions(list, new Set(['authentication.k8s.io/v1', 'authentication.k8s.io/v1beta1', 'batch/v1']));
    const groups = out.groups as any[];
    assert.deepEqual(groups.map((g) => g.name), ['batch', 'apps']);
    assert.deepEqual(groups[0].versions.map((v: any) => v.groupVersion), ['batch/v1beta1']);
    assert.deepEqual(groups[0].preferredVersion, { groupVersion: 'batch/v1beta1', version: 'v1beta1' });
    assert.deepEqual(groups[1], list.groups && (list.groups as any[])[2], 'a group with nothing empty is unchanged');
  });
  it('aggregated discovery: a group whose versions hold only denied resources is gone', () => {
    const out = toTenantAggregatedDiscovery(A, { kind: 'APIGroupDiscoveryList', items: [
      { metadata: { name: 'authentication.k8s.io' }, versions: [{ version: 'v1', resources: [{ resource: 'tokenreviews' }] }, { version: 'v1beta1', resources: [{ resource: 'tokenreviews' }] }] },
      { metadata: { name: 'batch' }, versions: [{ version: 'v1', resources: [{ resource: 'jobs' }] }, { version: 'v1beta1', resources: [{ resource: 'tokenreviews' }] }] },
    ] });
    const items = out.items as any[];
    assert.deepEqual(items.map((i) => i.metadata.name), ['batch']);
    assert.deepEqual(items[0].versions.map((v: any) => v.version), ['v1']);
  });
});
