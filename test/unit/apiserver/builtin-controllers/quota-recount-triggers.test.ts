// Every write that moves a counted usage triggers a recount (review of issue 18's narrowed trigger: the
// controller now recounts a namespace only for a resource one of its quotas counts). One quota per
// namespace, counting what the case writes; used must follow each write, as kube's quota controller does.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApiServer, type RunningApiServer } from '../../../../src/apiserver/server.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import type { ResourceDef } from '../../../../src/core/resources/resource-def.ts';
import { eventually } from '../../../helpers/poll.ts';
import { widgetCrd } from '../crd/fixtures.ts';

type Hard = Record<string, string>;

describe('embedded quota controller: writes that move a counted usage', () => {
  let server: RunningApiServer;
  let namespaceCount = 0;
  const def = (group: string, version: string, resource: string): ResourceDef => {
    const found = server.registry.lookup(group, version, resource);
    if (!found) throw new Error(`${group}/${version}/${resource}`);
    return found;
  };
  const core = (resource: string): ResourceDef => def('', 'v1', resource);
  const used = (namespace: string): Hard | undefined =>
    (server.registry.get(core('resourcequotas'), namespace, 'q').status as { used?: Hard } | undefined)?.used;
  const follows = async (namespace: string, key: string, value: string, what: string): Promise<void> => {
    await eventually(async () => used(namespace)?.[key] === value, `${key}=${value} after ${what}`);
  };
  const newNamespace = (): string => {
    const name = `q${namespaceCount++}`;
    server.registry.create(core('namespaces'), '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    return name;
  };
  const quotaIn = (namespace: string, hard: Hard): void => {
    server.registry.create(core('resourcequotas'), namespace, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace }, spec: { hard } });
  };
  const pod = (namespace: string, name: string, requests: Record<string, string> = {}): KubeObject => ({
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace },
    spec: { containers: [{ name: 'c', image: 'busybox', resources: { requests, limits: requests } }] },
  });

  before(async () => { server = await startApiServer({}); });
  after(async () => { await server.stop(); });

  it('a quota created after the objects counts them; a delete lowers the count', async () => {
    const ns = newNamespace();
    server.registry.create(core('secrets'), ns, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1', namespace: ns } });
    server.registry.create(core('secrets'), ns, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's2', namespace: ns } });
    quotaIn(ns, { 'count/secrets': '10' });
    await follows(ns, 'count/secrets', '2', 'the quota was created');
    server.registry.delete(core('secrets'), ns, 's1');
    await follows(ns, 'count/secrets', '1', 'a delete');
  });

  it('a pod whose status turns terminal (a status-only write) stops counting', async () => {
    const ns = newNamespace();
    quotaIn(ns, { pods: '10', 'requests.cpu': '4' });
    server.registry.create(core('pods'), ns, pod(ns, 'p', { cpu: '500m' }));
    await follows(ns, 'requests.cpu', '500m', 'a pod create');
    const current = server.registry.get(core('pods'), ns, 'p');
    server.registry.update(core('pods'), ns, 'p', { ...current, status: { phase: 'Succeeded' } }, { subresource: 'status' });
    await follows(ns, 'requests.cpu', '0', 'the pod succeeded');
    await follows(ns, 'pods', '0', 'the pod succeeded');
  });

  it('an extended resource request is counted and follows a delete', async () => {
    const ns = newNamespace();
    quotaIn(ns, { 'requests.example.com/gpu': '4' });
    server.registry.create(core('pods'), ns, pod(ns, 'g', { 'example.com/gpu': '2' }));
    await follows(ns, 'requests.example.com/gpu', '2', 'a pod create');
    server.registry.delete(core('pods'), ns, 'g');
    // A pod is deleted gracefully: it stops counting once it carries a deletionTimestamp, or once it is gone.
    await follows(ns, 'requests.example.com/gpu', '0', 'a pod delete');
  });

  it('a PVC resize moves requests.storage', async () => {
    const ns = newNamespace();
    quotaIn(ns, { 'requests.storage': '10Gi' });
    server.registry.create(core('persistentvolumeclaims'), ns, {
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c', namespace: ns },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    await follows(ns, 'requests.storage', String(2 ** 30), 'a PVC create');
    const current = server.registry.get(core('persistentvolumeclaims'), ns, 'c');
    const spec = current.spec as { resources: { requests: { storage: string } } };
    server.registry.update(core('persistentvolumeclaims'), ns, 'c', { ...current, spec: { ...spec, resources: { requests: { storage: '2Gi' } } } });
    await follows(ns, 'requests.storage', String(2 ** 31), 'a resize');
  });

  it('a Service changed to LoadBalancer moves services.loadbalancers and services.nodeports', async () => {
    const ns = newNamespace();
    quotaIn(ns, { 'services.loadbalancers': '2', 'services.nodeports': '4' });
    server.registry.create(core('services'), ns, {
      apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: ns }, spec: { type: 'ClusterIP', ports: [{ port: 80 }] },
    });
    await follows(ns, 'services.loadbalancers', '0', 'a ClusterIP service');
    const current = server.registry.get(core('services'), ns, 's');
    server.registry.update(core('services'), ns, 's', { ...current, spec: { ...(current.spec as object), type: 'LoadBalancer' } });
    await follows(ns, 'services.loadbalancers', '1', 'a change to LoadBalancer');
    await follows(ns, 'services.nodeports', '1', 'a change to LoadBalancer');
  });

  it('count/<resource>.<group> of a built-in group follows creates', async () => {
    const ns = newNamespace();
    quotaIn(ns, { 'count/deployments.apps': '3' });
    server.registry.create(def('apps', 'v1', 'deployments'), ns, {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: ns },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
    });
    await follows(ns, 'count/deployments.apps', '1', 'a Deployment create');
  });

  it("count/ of a CRD defined after the quota follows its objects", async () => {
    const ns = newNamespace();
    quotaIn(ns, { 'count/widgets.example.com': '3' });
    await follows(ns, 'count/widgets.example.com', '0', 'the quota was created');
    server.registry.create(def('apiextensions.k8s.io', 'v1', 'customresourcedefinitions'), '', widgetCrd());
    await eventually(async () => server.registry.lookup('example.com', 'v1', 'widgets') !== undefined, 'the CRD to be served');
    server.registry.create(def('example.com', 'v1', 'widgets'), ns, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: ns }, spec: {} });
    await follows(ns, 'count/widgets.example.com', '1', 'a Widget create');
  });

  it('Events of either API are neither refused nor counted, as kube\'s quota ignores them', async () => {
    const ns = newNamespace();
    quotaIn(ns, { 'count/events.events.k8s.io': '0', 'count/events': '0', 'count/secrets': '10' });
    await follows(ns, 'count/secrets', '0', 'the quota was created');
    const event = { involvedObject: { kind: 'Pod', name: 'p', namespace: ns }, reason: 'R', message: 'm', type: 'Normal' };
    server.registry.create(core('events'), ns, { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1', namespace: ns }, ...event });
    server.registry.create(def('events.k8s.io', 'v1', 'events'), ns, {
      apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e2', namespace: ns },
      eventTime: new Date().toISOString(), reportingController: 'x/y', reportingInstance: 'i', action: 'A', reason: 'R', type: 'Normal',
      regarding: { kind: 'Pod', name: 'p', namespace: ns },
    });
    // A counted write after the Events: its recount sees them too.
    server.registry.create(core('secrets'), ns, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: ns } });
    await follows(ns, 'count/secrets', '1', 'a Secret create');
    assert.equal(used(ns)?.['count/events'], undefined, 'count/events is not counted');
    assert.equal(used(ns)?.['count/events.events.k8s.io'], undefined, 'count/events.events.k8s.io is not counted');
  });
});
