// judgeWrite's refusals of pods the quota could not bound (session 14, q1): table cases the property
// (quota-escapes.property.test.ts) does not aim at.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/core/types.ts';
import { judgeWrite } from '../../../../src/gateway/admission/quota-write.ts';
import type { ResourceLimits } from '../../../../src/core/tenancy/quota/quota-decision.ts';
import type { TenantObjects } from '../../../../src/gateway/admission/quota-usage-cache.ts';

const template = (resources?: object) => ({ metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx', ...(resources ? { resources } : {}) }] } });
const daemonSet: KubeObject = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' }, spec: { template: template({ requests: { cpu: '1m', memory: '1Mi' } }) } };
const deployment = (replicas: number): KubeObject => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'old', namespace: 'a-shop' }, spec: { replicas, template: template() } });
const DS = { group: 'apps', resource: 'daemonsets', scale: false };
const DEPLOY = { group: 'apps', resource: 'deployments', scale: false };
const judge = (limits: ResourceLimits, written: KubeObject, target = DS, snapshot: TenantObjects = { objects: new Map() }) =>
  judgeWrite({ limits, snapshot, target, namespace: 'a-shop', name: written.metadata.name ?? '', written });

describe('quota: writes whose pods the quota could not bound', () => {
  it('a new DaemonSet is refused under a pods, cpu or memory limit, with or without defaultRequest; storage alone does not bound pods', () => {
    for (const limits of [{ cpu: '8' }, { memory: '1Gi' }, { objectsPerResource: 10 }, { cpu: '8', defaultRequest: { cpu: '100m' } }] as ResourceLimits[]) {
      assert.match(judge(limits, daemonSet)?.refusal?.message ?? '', /^daemonsets\.apps "agent" is forbidden: failed quota: tenant-quota: a DaemonSet runs one pod on every node/, JSON.stringify(limits));
    }
    assert.equal(judge({ storage: '10Gi' }, daemonSet)?.refusal, undefined);
  });

  it('an object stored before the quota may be scaled down or edited as it is, not grown', () => {
    const snapshot: TenantObjects = { objects: new Map([['apps/deployments/a-shop/old', { group: 'apps', resource: 'deployments', obj: deployment(3) }]]) };
    const limits = { cpu: '8' };
    assert.equal(judge(limits, deployment(2), DEPLOY, snapshot)?.refusal, undefined, 'scaled down');
    assert.equal(judge(limits, deployment(3), DEPLOY, snapshot)?.refusal, undefined, 'edited as it is');
    assert.match(judge(limits, deployment(4), DEPLOY, snapshot)?.refusal?.message ?? '', /must specify requests\.cpu \(container "c": requests\.cpu\)$/, 'grown');
    assert.match(judge(limits, deployment(1), DEPLOY)?.refusal?.message ?? '', /must specify requests\.cpu/, 'a new one');
  });
});
