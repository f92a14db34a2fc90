import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toTenantAggregatedDiscovery, toTenantGroupList, toTenantResourceList } from '../../../../src/core/tenancy/discovery-translation.ts';

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
    const out = toTenantResourceList(A, { kind: 'APIResourceList', groupVersion: 'v1', resources: ['pods', 'pods/log', 'pods/binding', 'nodes', 'serviceaccounts/token', 'secrets', 'componentstatuses'].map((name) => ({ name })) });
    // serviceaccounts/token is answered by the gateway (ADR 0028), so it stays in discovery.
    assert.deepEqual((out?.resources as any[]).map((r) => r.name), ['pods', 'pods/log', 'serviceaccounts/token', 'secrets']);
  });
  it("APIResourceList of another tenant's group is hidden", () => {
    assert.equal(toTenantResourceList(A, { groupVersion: 'bbbbbb-a.com/v1', resources: [{ name: 'foos' }] }), undefined);
    assert.equal(toTenantResourceList(A, { groupVersion: 'aaaaaa-a.com/v1', resources: [{ name: 'foos' }] })?.groupVersion, 'a.com/v1');
  });
  it('aggregated discovery: own groups renamed, foreign and denied removed', () => {
    const item = (name: string, resources: string[]) => ({ metadata: { name }, versions: [{ version: 'v1', resources: resources.map((r) => ({ resource: r, responseKind: { group: name, version: 'v1', kind: 'K' } })) }] });
    const out = toTenantAggregatedDiscovery(A, { kind: 'APIGroupDiscoveryList', items: [item('', ['pods', 'nodes']), item('aaaaaa-a.com', ['foos']), item('bbbbbb-a.com', ['foos']), item('apiregistration.k8s.io', ['apiservices'])] });
    const items = out.items as any[];
    assert.deepEqual(items.map((i) => i.metadata.name), ['', 'a.com']);
    assert.deepEqual(items[0].versions[0].resources.map((r: any) => r.resource), ['pods']);
    assert.equal(items[1].versions[0].resources[0].responseKind.group, 'a.com');
  });
});
