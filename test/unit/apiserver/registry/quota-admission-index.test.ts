// Quota admission from the quota index (quota-index.ts, session 13): a create no longer lists its
// namespace's ResourceQuotas, and the quota stays exact: a quota created, changed or deleted between two
// creates decides the very next one (once its status says so: admission enforces status.hard, which the
// quota controller writes; here the test writes it at once, as the controller would); a write made inside a store watch listener (the index not yet told)
// still sees the quota; and parallel creates at the limit, small or large (a large body is written in turns,
// other requests running between its phases), never store past it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApiServer, type RunningApiServer } from '../../../../src/apiserver/server.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import type { ResourceDef } from '../../../../src/core/resources/resource-def.ts';
import { ApiError } from '../../../../src/core/api-error.ts';
import { KubeHttp } from '../../../helpers/kube-http.ts';
import { eventually } from '../../../helpers/poll.ts';

describe('embedded quota admission from the quota index', { timeout: 120_000 }, () => {
  let server: RunningApiServer;
  let http: KubeHttp;
  let count = 0;
  const core = (resource: string): ResourceDef => {
    const found = server.registry.lookup('', 'v1', resource);
    if (!found) throw new Error(resource);
    return found;
  };
  const newNamespace = (): string => {
    const name = `qi${count++}`;
    server.registry.create(core('namespaces'), '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    return name;
  };
  const quota = (namespace: string, hard: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace }, spec: { hard } });
  const configMap = (namespace: string, name: string, bytes = 0): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { a: 'x'.repeat(bytes) } });
  const create = (namespace: string, name: string): KubeObject => server.registry.create(core('configmaps'), namespace, configMap(namespace, name));
  const refused = (namespace: string, name: string): void => {
    assert.throws(() => create(namespace, name), (err) => err instanceof ApiError && err.code === 403 && /exceeded quota: q/.test(err.message));
  };
  const stored = (namespace: string): number => server.registry.list(core('configmaps'), { namespace }).items.length;
  /** What the quota controller writes (status.hard from spec.hard, used counted), written now rather than on a later turn. */
  const counted = (namespace: string): void => {
    const current = server.registry.get(core('resourcequotas'), namespace, 'q');
    const hard = (current.spec as { hard: Record<string, string> }).hard;
    const used = Object.fromEntries(Object.keys(hard).map((k) => [k, String(stored(namespace))]));
    server.registry.update(core('resourcequotas'), namespace, 'q', { ...current, status: { hard, used } }, { subresource: 'status' });
  };
  /** A quota its controller has counted. */
  const countedQuota = (namespace: string, hard: Record<string, string>): void => {
    server.registry.create(core('resourcequotas'), namespace, quota(namespace, hard));
    counted(namespace);
  };

  before(async () => {
    server = await startApiServer({ port: 0 });
    http = new KubeHttp(server.kubeconfig);
  });
  after(async () => { await server?.stop(); });

  it('a create does not list the namespace\'s quotas', () => {
    const ns = newNamespace();
    server.registry.create(core('resourcequotas'), ns, quota(ns, { 'count/configmaps': '100', 'tenancy.warren.dev/x': '5' }));
    const store = server.registry.store;
    const list = store.list.bind(store);
    const quotaLists: string[] = [];
    store.list = (resource, options) => {
      if (resource === 'resourcequotas') quotaLists.push(options?.namespace ?? '');
      return list(resource, options);
    };
    try {
      for (let i = 0; i < 10; i++) create(ns, `c${i}`);
    } finally {
      store.list = list;
    }
    assert.equal(stored(ns), 10);
    assert.deepEqual(quotaLists.filter((n) => n === ns), [], 'admission listed the quotas');
  });

  it('a quota created between two creates decides the next one', () => {
    const ns = newNamespace();
    create(ns, 'a');
    server.registry.create(core('resourcequotas'), ns, quota(ns, { configmaps: '1' }));
    create(ns, 'uncounted');
    counted(ns);
    refused(ns, 'b');
  });

  it('a quota changed between two creates decides the next one (raised, then lowered)', () => {
    const ns = newNamespace();
    countedQuota(ns, { configmaps: '1' });
    create(ns, 'a');
    refused(ns, 'b');
    const current = server.registry.get(core('resourcequotas'), ns, 'q');
    server.registry.update(core('resourcequotas'), ns, 'q', { ...current, spec: { hard: { configmaps: '2' } } });
    counted(ns);
    create(ns, 'b');
    const raised = server.registry.get(core('resourcequotas'), ns, 'q');
    server.registry.update(core('resourcequotas'), ns, 'q', { ...raised, spec: { hard: { configmaps: '1' } } });
    counted(ns);
    refused(ns, 'c');
  });

  it('a quota deleted between two creates no longer refuses the next one', () => {
    const ns = newNamespace();
    countedQuota(ns, { configmaps: '0' });
    refused(ns, 'a');
    server.registry.delete(core('resourcequotas'), ns, 'q');
    create(ns, 'a');
  });

  it('a create made inside a store watch listener, right after a quota\'s status, is refused by it', () => {
    const ns = newNamespace();
    const outcomes: string[] = [];
    server.registry.create(core('resourcequotas'), ns, quota(ns, { configmaps: '0' }));
    const stop = server.registry.store.watch('resourcequotas', server.registry.store.revision(), (event) => {
      if (event.namespace !== ns || event.type !== 'MODIFIED' || !(event.object.status as { hard?: object } | undefined)?.hard) return;
      try {
        create(ns, 'nested');
        outcomes.push('created');
      } catch (err) {
        outcomes.push(err instanceof ApiError ? `${err.code}` : String(err));
      }
    });
    try {
      counted(ns);
    } finally {
      stop();
    }
    assert.deepEqual(outcomes, ['403']);
    assert.equal(stored(ns), 0);
  });

  it('a create written in turns counts a create committed in its last turn', async () => {
    // A large write takes turns between its phases (write-turns.ts); a neighbour's create committed in the
    // last of them, after this write's quota check had it fit, must still count.
    const turnsOf = async (ns: string, name: string, between: (turn: number) => void): Promise<number> => {
      let turns = 0;
      await server.registry.createInTurns(core('configmaps'), ns, configMap(ns, name, 10), {}, async () => { between(++turns); });
      return turns;
    };
    const free = newNamespace();
    const turns = await turnsOf(free, 'probe', () => undefined);
    const ns = newNamespace();
    const before = await eventually(async () => stored(ns) > 0 && stored(ns), 'the namespace\'s root CA ConfigMap');
    countedQuota(ns, { configmaps: String(before + 1) });
    await assert.rejects(turnsOf(ns, 'slow', (turn) => { if (turn === turns) create(ns, 'quick'); }),
      (err) => err instanceof ApiError && err.code === 403);
    assert.equal(stored(ns), before + 1);
  });

  for (const [label, bytes] of [['small', 10], ['large (written in turns)', 80 * 1024]] as const) {
    it(`64 parallel ${label} creates with room for 5 store exactly 5 more; the rest are kube's 403`, async () => {
      const ns = newNamespace();
      // The namespace gets its kube-root-ca.crt ConfigMap on a later turn: room is counted past it.
      const before = await eventually(async () => stored(ns) > 0 && stored(ns), 'the namespace\'s root CA ConfigMap');
      const limit = before + 5;
      countedQuota(ns, { configmaps: String(limit) });
      const answers = await Promise.all(Array.from({ length: 64 }, (_, i) => http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap(ns, `p${i}`, bytes))));
      const codes = answers.map((a) => a.status);
      assert.equal(codes.filter((c) => c === 201).length, 5, codes.join(','));
      for (const a of answers.filter((x) => x.status !== 201)) {
        assert.equal(a.status, 403, a.text);
        assert.match(a.body.message, new RegExp(`^configmaps "p\\d+" is forbidden: exceeded quota: q, requested: configmaps=1, used: configmaps=${limit}, limited: configmaps=${limit}$`));
      }
      assert.equal(stored(ns), limit);
    });
  }
});
