// Event names as kube-apiserver judges them (checked on real 1.20): a core v1 Event takes any name that is
// a path segment, of any length (legacy Event validation sets no name syntax); events.k8s.io/v1 creates are
// held to a DNS subdomain, 253 characters. Both write the same Events, so a name stored through v1 is read
// through events.k8s.io/v1 too. A generateName is cut to 58 characters before the 5-character suffix.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useContractServer } from '../helpers/contract-suite.ts';

const SUBDOMAIN_SHAPE = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const coreEvent = (meta: Record<string, string>, ns: string): object => ({
  apiVersion: 'v1', kind: 'Event', metadata: meta,
  involvedObject: { kind: 'Pod', name: 'p', namespace: ns }, reason: 'Tested', message: 'm', type: 'Normal',
});
const eventsV1 = (meta: Record<string, string>, ns: string): object => ({
  apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: meta,
  regarding: { kind: 'Pod', name: 'p', namespace: ns }, eventTime: '2026-01-01T00:00:00.000000Z',
  reportingController: 'example.com/tester', reportingInstance: 'i', action: 'Test', reason: 'Tested', type: 'Normal', note: 'n',
});
const long = (n: number, c = 'e'): string => c.repeat(n);

describe('Event names (core v1 and events.k8s.io/v1)', { timeout: 120_000 }, () => {
  const ctx = useContractServer();
  const core = (ns: string): string => `/api/v1/namespaces/${ns}/events`;
  const v1 = (ns: string): string => `/apis/events.k8s.io/v1/namespaces/${ns}/events`;

  it('core v1 stores names longer than 253 characters and of any case, and both versions read them back', async () => {
    const ns = await ctx.namespaces.create('evn');
    for (const name of [long(300), long(1000), 'Upper.Case_x:1', '-dash-']) {
      const created = await ctx.http.post(core(ns), coreEvent({ name }, ns));
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.metadata.name, name);
      assert.equal((await ctx.http.get(`${core(ns)}/${encodeURIComponent(name)}`)).status, 200);
    }
    const read = await ctx.http.get(`${v1(ns)}/${long(300)}`);
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.metadata.name, long(300));
  });

  for (const [name, why] of [['.', "may not be '.'"], ['..', "may not be '..'"], ['a%b', "may not contain '%'"], ['a/b', "may not contain '/'"]] as const) {
    it(`core v1 refuses the name ${JSON.stringify(name)}: ${why}`, async () => {
      const ns = await ctx.namespaces.create('evn');
      const res = await ctx.http.post(core(ns), coreEvent({ name }, ns));
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.reason, 'Invalid');
      assert.equal(res.body.message, `Event "${name}" is invalid: metadata.name: Invalid value: "${name}": ${why}`);
      assert.deepEqual(res.body.details.causes, [{ reason: 'FieldValueInvalid', message: `Invalid value: "${name}": ${why}`, field: 'metadata.name' }]);
    });
  }

  it('core v1 cuts a long generateName to 58 characters before the suffix', async () => {
    const ns = await ctx.namespaces.create('evn');
    const res = await ctx.http.post(core(ns), coreEvent({ generateName: long(300) }, ns));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.metadata.name.length, 63);
    assert.ok(res.body.metadata.name.startsWith(long(58)), res.body.metadata.name);
  });

  it('events.k8s.io/v1 takes a 253-character name and refuses 254, as kube words it, storing nothing', async () => {
    const ns = await ctx.namespaces.create('evn');
    assert.equal((await ctx.http.post(v1(ns), eventsV1({ name: long(253, 'f') }, ns))).status, 201);
    const name = long(254, 'f');
    const res = await ctx.http.post(v1(ns), eventsV1({ name }, ns));
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.reason, 'Invalid');
    assert.equal(res.body.message, `Event "${name}" is invalid: metadata.name: Invalid value: "${name}": must be no more than 253 characters`);
    assert.deepEqual(res.body.details, { name, kind: 'Event', causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: "${name}": must be no more than 253 characters`, field: 'metadata.name' }] });
    assert.equal((await ctx.http.get(`${core(ns)}/${name}`)).status, 404);
  });

  it('events.k8s.io/v1 refuses a name core v1 takes (not a DNS subdomain)', async () => {
    const ns = await ctx.namespaces.create('evn');
    const res = await ctx.http.post(v1(ns), eventsV1({ name: 'Upper.Case' }, ns));
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.message, `Event "Upper.Case" is invalid: metadata.name: Invalid value: "Upper.Case": ${SUBDOMAIN_SHAPE}`);
  });

  it('events.k8s.io/v1 refuses a generateName over 253 characters, naming the generated (cut) name', async () => {
    const ns = await ctx.namespaces.create('evn');
    const generateName = long(300);
    const res = await ctx.http.post(v1(ns), eventsV1({ generateName }, ns));
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.details.name.length, 63);
    assert.deepEqual(res.body.details.causes, [{ reason: 'FieldValueInvalid', message: `Invalid value: "${generateName}": must be no more than 253 characters`, field: 'metadata.generateName' }]);
  });
});
