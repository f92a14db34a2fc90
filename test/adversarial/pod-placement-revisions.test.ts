// Boundary: where a tenant's pods may run, through a StatefulSet's history
// (session 14, v1's review of p1, ADR 0043 amendment). kube's StatefulSet
// controller builds the pods below a rolling update's partition from the
// ControllerRevision its status names as current (ApplyRevision: the
// revision's data, a patch holding the whole pod template, over the set).
// A tenant may write ControllerRevisions: ControllerRevision data is
// immutable, but a tenant deletes the current one and creates its own under
// the same name (the controller lists revisions by the set's selector and
// adopts orphans), then deletes a pod below the partition: the host's
// controller re-creates it from the forged template, which no pod-spec rule
// had judged. So a revision's template is a pod spec like any workload's:
//  - globex (the safe default) is refused a revision whose template tolerates
//    a platform taint, names a node or a `system-*` priority class, in its
//    terms, on create, PUT and apply; nothing is stored on the host;
//  - initech (a forced node selector) gets its selector merged into a
//    revision's template, and is refused another value;
//  - a revision without a pod template (a tenant's own bookkeeping) and
//    reading the revisions a controller made (`kubectl rollout history`)
//    keep working.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/core/types.ts';
import { PATCH } from '../helpers/kube-http.ts';
import { eventually } from '../helpers/poll.ts';
import { useAdversaryEnv } from './support/adversary-env.ts';
import { assertRefused } from './support/verdicts.ts';
import { dedicateNodeTo } from './support/dedicated-tenant.ts';
import { storedAt } from './support/host-snapshot.ts';

type Obj = Record<string, unknown>;
const RESTRICTED = { allowPrivilegeEscalation: false, runAsNonRoot: true, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } };
const podSpec = (extra: Obj = {}): Obj => ({ ...extra, containers: [{ name: 'c', image: 'nginx', securityContext: RESTRICTED }] });
/** A revision as kube's StatefulSet controller writes one: the template as a patch over the set. */
const revision = (name: string, extra: Obj, revisionNumber = 1): Obj => ({
  apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name, namespace: 'app', labels: { app: 'web' } }, revision: revisionNumber,
  data: { spec: { template: { $patch: 'replace', metadata: { labels: { app: 'web' } }, spec: podSpec(extra) } } },
});
const revisionSpecOf = (obj: KubeObject | undefined): Obj | undefined =>
  (((obj as unknown as { data?: { spec?: { template?: { spec?: Obj } } } } | undefined)?.data?.spec?.template?.spec));

describe('adversarial: a StatefulSet\'s history is a pod template: a tenant cannot forge one past its placement contract', { timeout: 400_000 }, () => {
  const env = useAdversaryEnv('pod-placement-revisions');
  let acmeId = '';
  let globexId = '';
  let initechId = '';
  let node = '';
  let initechKubeconfig = '';
  const globex = () => env.http('globex');
  const onHost = (path: string): Promise<KubeObject | undefined> => storedAt(env.host(), path);

  before(async () => {
    acmeId = env.idOf('acme');
    globexId = env.idOf('globex');
    await env.as('globex')('create', 'namespace', 'app');
    // initech: the platform dedicates the host's first node to it.
    ({ node, id: initechId, kubeconfig: initechKubeconfig } = await dedicateNodeTo(env, 'initech', 'ian'));
  });

  it('a revision whose template tolerates a platform taint, names a node or a system priority class is refused, and nothing is stored', async () => {
    const ids = [acmeId, globexId];
    const base = '/apis/apps/v1/namespaces/app/controllerrevisions';
    const attacks: Array<[string, Obj, RegExp]> = [
      ['everything', { tolerations: [{ operator: 'Exists' }], nodeSelector: { 'kubernetes.io/hostname': node } }, /tolerations: .* is not allowed: this tenant may tolerate only/],
      ['master', { tolerations: [{ key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' }], nodeSelector: { 'node-role.kubernetes.io/master': '' } }, /tolerations: .* is not allowed/],
      ['pinned', { nodeName: node }, /nodeName: .* may not be set/],
      ['critical', { priorityClassName: 'system-node-critical' }, /priorityClassName: "system-node-critical" is reserved/],
    ];
    for (const [name, extra, why] of attacks) {
      const res = await globex().post(base, revision(`web-${name}`, extra));
      assertRefused(res, 403, `revision ${name}`, ids);
      assert.match(String(res.body?.message), why, `revision ${name}: says why`);
      assert.equal(await onHost(`/apis/apps/v1/namespaces/${globexId}-app/controllerrevisions/web-${name}`), undefined, `revision ${name} not stored`);
    }
    // Go's encoding/json (kube's ApplyRevision decodes the patched set with it) reads field names in any case,
    // `ſ` as s and the Kelvin sign as k: every spelling of a steering field is refused.
    const everything = [{ operator: 'Exists' }];
    const spellings: Array<[string, Obj]> = [
      ['upper-spec', { Spec: { template: { $patch: 'replace', metadata: { labels: { app: 'web' } }, spec: podSpec({ tolerations: everything }) } } }],
      ['long-s-spec', { '\u017fpec': { template: { $patch: 'replace', metadata: { labels: { app: 'web' } }, spec: podSpec({ tolerations: everything }) } } }],
      ['upper-template', { spec: { TEMPLATE: { metadata: { labels: { app: 'web' } }, spec: podSpec({ tolerations: everything }) } } }],
      ['inner-fields', { spec: { template: { $patch: 'replace', metadata: { labels: { app: 'web' } }, spec: podSpec({ Tolerations: everything, nodeselector: { 'kubernetes.io/hostname': node }, NodeName: node }) } } }],
    ];
    for (const [name, data] of spellings) {
      const res = await globex().post(base, { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: `web-${name}`, namespace: 'app', labels: { app: 'web' } }, revision: 1, data });
      assertRefused(res, 403, `revision ${name}`, ids);
      assert.match(String(res.body?.message), /is a spelling of a pod template field/, `revision ${name}: says why`);
      assert.equal(await onHost(`/apis/apps/v1/namespaces/${globexId}-app/controllerrevisions/web-${name}`), undefined, `revision ${name} not stored`);
    }
    // The same by server-side apply, the way a `kubectl apply --server-side` of a dumped revision sends it.
    const applied = await globex().patch(`${base}/web-applied?fieldManager=hank`, PATCH.apply, JSON.stringify(revision('web-applied', { tolerations: [{ operator: 'Exists' }] })));
    assertRefused(applied, 403, 'revision by server-side apply', ids);
    assert.equal(await onHost(`/apis/apps/v1/namespaces/${globexId}-app/controllerrevisions/web-applied`), undefined, 'applied revision not stored');
    // kubectl, from a file.
    const file = env.file('revision.json', JSON.stringify(revision('web-kubectl', { tolerations: [{ operator: 'Exists' }] })));
    const created = await env.run('globex', 'create', '-f', file);
    assert.notEqual(created.code, 0, `kubectl create of a forged revision: ${created.stdout}`);
    assert.match(created.stderr, /is not allowed: this tenant may tolerate only/, created.stderr);
  });

  it('a revision\'s template names namespaces in the tenant\'s terms: its pods cannot be steered next to another tenant\'s', async () => {
    const beside = (namespaces: string[]): Obj => ({ podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'kubernetes.io/hostname', namespaces }] } });
    const res = await globex().post('/apis/apps/v1/namespaces/app/controllerrevisions', revision('web-beside', { affinity: beside(['app', `${acmeId}-app`]), dnsConfig: { searches: ['app.svc.cluster.local'] } }));
    assert.equal(res.status, 201, res.text.slice(0, 300));
    const stored = revisionSpecOf(await onHost(`/apis/apps/v1/namespaces/${globexId}-app/controllerrevisions/web-beside`));
    const terms = (spec: Obj | undefined): unknown => (spec?.affinity as { podAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: Array<{ namespaces?: string[] }> } } | undefined)?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.[0]?.namespaces;
    assert.deepEqual(terms(stored), [`${globexId}-app`, `${globexId}-${acmeId}-app`], 'affinity namespaces are globex\'s upstream');
    assert.deepEqual((stored?.dnsConfig as { searches?: string[] } | undefined)?.searches, [`${globexId}-app.svc.cluster.local`]);
    const labels = (await onHost(`/apis/apps/v1/namespaces/${globexId}-app/controllerrevisions/web-beside`) as unknown as { data: { spec: { template: { metadata: { labels: Obj } } } } }).data.spec.template.metadata.labels;
    assert.equal(labels['tenancy.warren.dev/tenant'], globexId, 'the pods it makes carry globex\'s label');
    const read = (await globex().get('/apis/apps/v1/namespaces/app/controllerrevisions/web-beside')).body as KubeObject;
    assert.deepEqual(terms(revisionSpecOf(read)), ['app', `${acmeId}-app`], 'read back in globex\'s terms');
  });

  it('ordinary revisions keep working: one with a plain template is stored, and the history a controller made is readable', async () => {
    assert.equal((await globex().post('/apis/apps/v1/namespaces/app/controllerrevisions', revision('web-plain', {}))).status, 201);
    const bookkeeping = { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'notes', namespace: 'app' }, revision: 1, data: { note: 'no template here' } };
    assert.equal((await globex().post('/apis/apps/v1/namespaces/app/controllerrevisions', bookkeeping)).status, 201);
    const sts = {
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db', namespace: 'app' },
      spec: { serviceName: 'db', replicas: 1, selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db' } }, spec: podSpec() } },
    };
    assert.equal((await globex().post('/apis/apps/v1/namespaces/app/statefulsets', sts)).status, 201);
    const history = await eventually(async () => {
      const r = await env.run('globex', 'rollout', 'history', 'statefulset/db', '-n', 'app');
      return r.code === 0 && /\b1\b/.test(r.stdout) ? r.stdout : undefined;
    }, 'kubectl rollout history');
    assert.match(history, /REVISION/);
  });

  it('a tenant can neither widen its own contract nor read another\'s: Tenants are the platform\'s', async () => {
    const initech = env.http('initech', initechKubeconfig);
    const tenants = '/apis/tenancy.warren.dev/v1alpha1/tenants';
    const widen = { spec: { placement: { tolerations: [{ operator: 'Exists' }] } } };
    for (const [what, res] of [
      ['read its own Tenant', await initech.get(`${tenants}/initech`)],
      ['read acme\'s Tenant', await globex().get(`${tenants}/acme`)],
      ['list Tenants', await globex().get(tenants)],
      ['merge-patch its own contract', await initech.patch(`${tenants}/initech`, PATCH.merge, widen)],
      ['create a Tenant', await globex().post(tenants, { apiVersion: 'tenancy.warren.dev/v1alpha1', kind: 'Tenant', metadata: { name: 'globex2' }, spec: widen.spec })],
    ] as const) {
      assert.ok(res.status === 403 || res.status === 404, `${what}: ${res.status} ${res.text.slice(0, 200)}`);
      assert.ok(!res.text.includes('"placement"'), `${what}: shows no contract`);
    }
    const stored = await env.host().request<{ spec?: { placement?: unknown } }>('GET', `${tenants}/initech`);
    assert.deepEqual(stored.body.spec?.placement, { nodeSelector: { 'kubernetes.io/hostname': node } }, 'initech\'s contract as the platform wrote it');
    assert.equal((await env.host().request('GET', `${tenants}/globex2`)).status, 404, 'no Tenant created');
  });

  it('a Tenant\'s forced node selector is merged into a revision\'s template, and another value is refused', async () => {
    const initech = env.http('initech', initechKubeconfig);
    const res = await initech.post('/apis/apps/v1/namespaces/app/controllerrevisions', revision('web-1', {}));
    assert.equal(res.status, 201, res.text.slice(0, 300));
    const stored = await onHost(`/apis/apps/v1/namespaces/${initechId}-app/controllerrevisions/web-1`);
    assert.deepEqual(revisionSpecOf(stored)?.nodeSelector, { 'kubernetes.io/hostname': node }, 'the forced selector is in the stored template');
    const elsewhere = await initech.post('/apis/apps/v1/namespaces/app/controllerrevisions', revision('web-2', { nodeSelector: { 'kubernetes.io/hostname': 'another-node' } }));
    assertRefused(elsewhere, 403, 'a revision selecting another node', [initechId]);
    assert.match(String(elsewhere.body?.message), /conflicts with the node selector the platform sets/);
  });
});
