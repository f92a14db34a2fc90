// events.k8s.io/v1 creates are held to kube's strict Event checks (ValidateEventCreate for that version;
// checked on real 1.20, which has no strict update checks yet), core v1 writes to the legacy ones: an Event with eventTime needs its
// reporting controller and instance, action and reason through either API. Each refusal is one 422 with every
// cause, in kube's order and words (fields named as kube's Go fields: `reportingController`, `message`,
// `count`), and nothing stored.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useContractServer } from '../helpers/contract-suite.ts';

type Cause = { reason: string; message: string; field: string };
const REQUIRED = (field: string): Cause => ({ reason: 'FieldValueRequired', message: 'Required value', field });
const INVALID = (field: string, message: string): Cause => ({ reason: 'FieldValueInvalid', message, field });
const QUALIFIED_SHAPE = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const TIME = '2026-01-01T00:00:00.000000Z';
const good = (ns: string, name: string): Record<string, unknown> => ({
  apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name },
  regarding: { kind: 'Pod', name: 'p', namespace: ns }, eventTime: TIME,
  reportingController: 'example.com/tester', reportingInstance: 'i', action: 'Test', reason: 'Tested', type: 'Normal', note: 'n',
});

describe('events.k8s.io/v1 strict Event checks', { timeout: 120_000 }, () => {
  const ctx = useContractServer();
  const core = (ns: string): string => `/api/v1/namespaces/${ns}/events`;
  const v1 = (ns: string): string => `/apis/events.k8s.io/v1/namespaces/${ns}/events`;

  const assertInvalid = (res: { status: number; text: string; body: any }, name: string, causes: Cause[]): void => {
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.reason, 'Invalid');
    assert.deepEqual(res.body.details, { name, kind: 'Event', causes });
    // kube's message lists each distinct cause once (field.ErrorList.ToAggregate); details keep them all.
    const lines = [...new Set(causes.map((c) => `${c.field}: ${c.message}`))];
    assert.equal(res.body.message, `Event "${name}" is invalid: ${lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`}`);
  };

  it('a create without reporting fields, action, reason, eventTime or a known type is refused with every cause', async () => {
    const ns = await ctx.namespaces.create('evs');
    const { reportingController: _c, reportingInstance: _i, action: _a, reason: _r, eventTime: _t, ...bare } = good(ns, 'bare');
    const res = await ctx.http.post(v1(ns), { ...bare, type: 'Odd' });
    // Without eventTime the legacy checks pass (an old-style Event); the strict ones name what is missing.
    assertInvalid(res, 'bare', [REQUIRED('eventTime'), INVALID('type', 'Invalid value: "": has invalid value: Odd')]);
    const noReporter = good(ns, 'no-reporter');
    delete noReporter.reportingController;
    delete noReporter.action;
    assertInvalid(await ctx.http.post(v1(ns), noReporter), 'no-reporter', [
      REQUIRED('reportingController'), INVALID('reportingController', 'Invalid value: "": name part must be non-empty'),
      INVALID('reportingController', `Invalid value: "": ${QUALIFIED_SHAPE}`), REQUIRED('action'),
    ]);
    assert.equal((await ctx.http.get(`${core(ns)}/no-reporter`)).status, 404, 'nothing stored');
  });

  it('series, the deprecated fields and a long reason are refused', async () => {
    const ns = await ctx.namespaces.create('evs');
    const res = await ctx.http.post(v1(ns), { ...good(ns, 'series'), reason: 'r'.repeat(129), series: { count: 1 }, deprecatedCount: 3, deprecatedSource: { component: 'x' } });
    assertInvalid(res, 'series', [
      INVALID('reason', 'Invalid value: "": can have at most 128 characters'),
      INVALID('series.count', 'Invalid value: "": should be at least 2'), REQUIRED('series.lastObservedTime'),
      INVALID('count', 'Invalid value: "": needs to be unset'), INVALID('source', 'Invalid value: "": needs to be unset'),
    ]);
  });

  it('core v1 holds an Event with eventTime to the reporting fields too, and takes it without eventTime', async () => {
    const ns = await ctx.namespaces.create('evs');
    const base = { apiVersion: 'v1', kind: 'Event', involvedObject: { kind: 'Pod', name: 'p', namespace: ns }, reason: 'Tested', message: 'm', type: 'Normal' };
    assert.equal((await ctx.http.post(core(ns), { ...base, metadata: { name: 'old-style' } })).status, 201);
    const res = await ctx.http.post(core(ns), { ...base, metadata: { name: 'new-style' }, eventTime: TIME, action: 'Test' });
    assertInvalid(res, 'new-style', [
      REQUIRED('reportingController'), INVALID('reportingController', 'Invalid value: "": name part must be non-empty'),
      INVALID('reportingController', `Invalid value: "": ${QUALIFIED_SHAPE}`), REQUIRED('reportingInstance'),
    ]);
  });

  it('a PUT that creates is held to the create checks, name included', async () => {
    const ns = await ctx.namespaces.create('evs');
    const created = await ctx.http.put(`${v1(ns)}/put-made`, good(ns, 'put-made'));
    assert.equal(created.status, 201, created.text);
    const bad = { ...good(ns, 'Upper.Case'), reportingInstance: '' };
    const res = await ctx.http.put(`${v1(ns)}/Upper.Case`, bad);
    assertInvalid(res, 'Upper.Case', [
      REQUIRED('reportingInstance'),
      INVALID('metadata.name', `Invalid value: "Upper.Case": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`),
    ]);
    assert.equal((await ctx.http.get(`${core(ns)}/Upper.Case`)).status, 404, 'nothing stored');
  });

  it('an update through events.k8s.io/v1 gets the legacy checks only (1.20: reason and note may change)', async () => {
    const ns = await ctx.namespaces.create('evs');
    const created = await ctx.http.post(v1(ns), good(ns, 'changes'));
    assert.equal(created.status, 201, created.text);
    const changed = await ctx.http.put(`${v1(ns)}/changes`, { ...created.body, reason: 'Other', note: 'changed' });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.reason, 'Other');
    const { reportingInstance: _i, ...withoutInstance } = changed.body;
    assertInvalid(await ctx.http.put(`${v1(ns)}/changes`, withoutInstance), 'changes', [REQUIRED('reportingInstance')]);
  });
});
