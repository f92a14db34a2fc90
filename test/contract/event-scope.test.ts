// An Event about a cluster-scoped object (its reference without a namespace) outside "default": kube 1.20's
// legacyValidateEvent, which every Event write passes through either API, refuses it (422, the reference's
// namespace "does not match event.namespace"); in "default", or naming its own namespace as the object's, it is
// taken. The engine's Events about a tenant's ClusterResourceBindings live in `<id>-default` upstream, so they
// name that namespace (src/core/tenancy/event-scope.ts); this pins the rule they rely on, on both servers.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useContractServer } from '../helpers/contract-suite.ts';

const TIME = '2026-01-01T00:00:00.000000Z';
const ABOUT_ROLE = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: 'reader' };

describe('Events about cluster-scoped objects', { timeout: 120_000 }, () => {
  const ctx = useContractServer();
  const core = (ns: string): string => `/api/v1/namespaces/${ns}/events`;
  const event = (name: string, involvedObject: Record<string, unknown>): Record<string, unknown> => ({
    apiVersion: 'v1', kind: 'Event', metadata: { name }, involvedObject, reason: 'Tested', message: 'm', type: 'Normal',
  });

  it('core v1: refused outside default with an empty reference namespace, nothing stored; taken naming its own namespace', async () => {
    const ns = await ctx.namespaces.create('evscope');
    const res = await ctx.http.post(core(ns), event('bare', ABOUT_ROLE));
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.reason, 'Invalid');
    assert.deepEqual(res.body.details, {
      name: 'bare', kind: 'Event',
      causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "": does not match event.namespace', field: 'involvedObject.namespace' }],
    });
    assert.equal(res.body.message, 'Event "bare" is invalid: involvedObject.namespace: Invalid value: "": does not match event.namespace');
    assert.equal((await ctx.http.get(`${core(ns)}/bare`)).status, 404, 'nothing stored');
    const named = await ctx.http.post(core(ns), event('named', { ...ABOUT_ROLE, namespace: ns }));
    assert.equal(named.status, 201, named.text);
    assert.equal(named.body.involvedObject.namespace, ns);
  });

  it('core v1: taken in default with an empty reference namespace', async () => {
    const name = `f1-scope-${Date.now().toString(36)}`;
    const res = await ctx.http.post(core('default'), event(name, ABOUT_ROLE));
    try {
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.involvedObject.namespace, undefined);
    } finally {
      await ctx.http.delete(`${core('default')}/${name}`);
    }
  });

  it('events.k8s.io/v1: the same rule for `regarding` (eventTime set: "default" or "kube-system" only)', async () => {
    const ns = await ctx.namespaces.create('evscope');
    const body = (name: string, regarding: Record<string, unknown>): Record<string, unknown> => ({
      apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name }, regarding, eventTime: TIME,
      reportingController: 'example.com/tester', reportingInstance: 'i', action: 'Test', reason: 'Tested', type: 'Normal', note: 'n',
    });
    const v1 = `/apis/events.k8s.io/v1/namespaces/${ns}/events`;
    const res = await ctx.http.post(v1, body('bare', ABOUT_ROLE));
    assert.equal(res.status, 422, res.text);
    assert.deepEqual(res.body.details?.causes?.map((c: { field: string }) => c.field), ['involvedObject.namespace']);
    assert.equal((await ctx.http.get(`${v1}/bare`)).status, 404, 'nothing stored');
    const named = await ctx.http.post(v1, body('named', { ...ABOUT_ROLE, namespace: ns }));
    assert.equal(named.status, 201, named.text);
  });
});
