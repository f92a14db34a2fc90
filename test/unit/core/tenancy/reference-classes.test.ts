// Issue 13's reference classes, as pure units: a selector over Namespaces
// (NetworkPolicy peers, pod affinity) and a cluster DNS name (ExternalName,
// pod DNS searches) are translated as forward/inverse pairs, and the guard's
// reference table refuses any that reach beyond the tenant. The properties
// judge what a translated selector actually selects, with an independent
// label-selector evaluator over a host holding two tenants' namespaces and
// the platform's: whatever the tenant writes, only its own namespaces match.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { KubeObject } from '../../../../src/core/types.ts';
import { toTenantObject, toUpstreamObject } from '../../../../src/core/tenancy/object-translation.ts';
import { guardUpstreamRequest } from '../../../../src/core/tenancy/isolation-guard.ts';
import { toTenantDnsName, toTenantNamespaceSelector, toUpstreamDnsName, toUpstreamNamespaceSelector } from '../../../../src/core/tenancy/namespace-references.ts';

const A = 'aaaaaa';
const B = 'bbbbbb';
const ctx = { id: A };
const LABEL = 'tenancy.warren.dev/tenant';
const NAME = 'kubernetes.io/metadata.name';
const LABELS = { [LABEL]: A };
const guard = (path: string, body: unknown) => guardUpstreamRequest(A, { method: 'POST', path, query: new URLSearchParams(), body });
const NP_PATH = '/apis/networking.k8s.io/v1/namespaces/aaaaaa-web/networkpolicies';
const SVC_PATH = '/api/v1/namespaces/aaaaaa-web/services';
const POD_PATH = '/api/v1/namespaces/aaaaaa-web/pods';

const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
type Selector = { matchLabels?: Record<string, string>; matchExpressions?: Array<{ key: string; operator: string; values?: string[] }> };

/** kube's label selector semantics, written here independently of the code under test. */
function matches(selector: Selector, labels: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    const value = labels[e.key];
    if (e.operator === 'In' && !(has && (e.values ?? []).includes(value!))) return false;
    if (e.operator === 'NotIn' && has && (e.values ?? []).includes(value!)) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

/** The host's namespaces: tenant A's, tenant B's (with the same user labels), and the platform's. */
const HOST_NAMESPACES: Array<{ name: string; labels: Record<string, string> }> = [
  ...['web', 'db'].map((n) => ({ name: `${A}-${n}`, labels: { [NAME]: `${A}-${n}`, [LABEL]: A, team: 'x' } })),
  ...['web', 'db'].map((n) => ({ name: `${B}-${n}`, labels: { [NAME]: `${B}-${n}`, [LABEL]: B, team: 'x' } })),
  ...['kube-system', 'default', 'warren-system'].map((n) => ({ name: n, labels: { [NAME]: n, team: 'x' } })),
];

const labelKey = fc.constantFrom('team', 'env', NAME);
const labelValue = fc.constantFrom('x', 'y', 'web', 'db', 'kube-system', `${B}-web`, `${A}-web`);
const selectorArb: fc.Arbitrary<Selector> = fc.record({
  matchLabels: fc.dictionary(labelKey, labelValue, { maxKeys: 2 }),
  matchExpressions: fc.array(fc.oneof(
    fc.record({ key: labelKey, operator: fc.constantFrom('In', 'NotIn'), values: fc.array(labelValue, { minLength: 1, maxLength: 3 }) }),
    fc.record({ key: labelKey, operator: fc.constantFrom('Exists', 'DoesNotExist') }),
  ), { maxLength: 2 }),
}, { requiredKeys: [] });

const netpol = (peers: unknown[]): KubeObject => ({
  apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'np', namespace: 'web' },
  // JSON copies: a parsed body never shares objects between fields (structuredClone would keep the aliasing).
  spec: { podSelector: {}, ingress: [{ from: json(peers) }], egress: [{ to: json(peers) }] },
} as KubeObject);

const npSelectors = (up: KubeObject): Selector[] => {
  const spec = up.spec as { ingress: Array<{ from: Array<{ namespaceSelector?: Selector }> }>; egress: Array<{ to: Array<{ namespaceSelector?: Selector }> }> };
  return [...spec.ingress.flatMap((r) => r.from), ...spec.egress.flatMap((r) => r.to)].map((p) => p.namespaceSelector).filter((s) => s !== undefined);
};

describe('namespace selectors select only the tenant\'s own namespaces', () => {
  it('an empty selector, a label selector and a name selector are narrowed; podSelector-only and ipBlock peers are kept', () => {
    const body = netpol([{ namespaceSelector: {} }, { namespaceSelector: { matchLabels: { team: 'x' } }, podSelector: {} }, { namespaceSelector: { matchLabels: { [NAME]: 'db' } } }, { podSelector: { matchLabels: { a: 'b' } } }, { ipBlock: { cidr: '10.0.0.0/8' } }]);
    const up = toUpstreamObject(ctx, structuredClone(body), { namespaced: true, type: { group: 'networking.k8s.io', kind: 'NetworkPolicy' } });
    const from = (up.spec as any).ingress[0].from;
    assert.deepEqual(from[0].namespaceSelector, { matchLabels: { [LABEL]: A } });
    assert.deepEqual(from[1].namespaceSelector, { matchLabels: { team: 'x', [LABEL]: A } });
    assert.deepEqual(from[2].namespaceSelector, { matchLabels: { [NAME]: `${A}-db`, [LABEL]: A } });
    assert.deepEqual(from[3], { podSelector: { matchLabels: { a: 'b' } } });
    assert.deepEqual(from[4], { ipBlock: { cidr: '10.0.0.0/8' } });
    assert.equal(guard(NP_PATH, { ...up, metadata: { ...up.metadata, labels: LABELS } }), null);
    assert.deepEqual((toTenantObject(ctx, structuredClone(up))?.spec as any).ingress, (body.spec as any).ingress, 'read back as written');
  });

  it('the guard refuses a NetworkPolicy peer or affinity term whose selector lacks the tenant label (or names another tenant)', () => {
    const np = (selector: unknown) => ({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'np', namespace: `${A}-web`, labels: LABELS }, spec: { podSelector: {}, egress: [{ to: [{ namespaceSelector: selector }] }] } });
    for (const selector of [{}, { matchLabels: { team: 'x' } }, { matchLabels: { [LABEL]: B } }, { matchExpressions: [{ key: LABEL, operator: 'Exists' }] }]) {
      assert.match(guard(NP_PATH, np(selector))?.message ?? '', /NetworkPolicy peer namespaceSelector/, JSON.stringify(selector));
    }
    assert.equal(guard(NP_PATH, np({ matchLabels: { [LABEL]: A } })), null);
  });

  it('property: whatever selectors a tenant writes, upstream they select only its own namespaces, pass the guard and read back as written', () => {
    fc.assert(fc.property(fc.array(selectorArb, { minLength: 1, maxLength: 3 }), (generated) => {
      const selectors = json(generated);
      const body = netpol(selectors.map((s) => ({ namespaceSelector: s })));
      const up = toUpstreamObject(ctx, structuredClone(body), { namespaced: true, type: { group: 'networking.k8s.io', kind: 'NetworkPolicy' } });
      for (const s of npSelectors(up)) {
        const selected = HOST_NAMESPACES.filter((n) => matches(s, n.labels)).map((n) => n.name);
        assert.deepEqual(selected.filter((n) => !n.startsWith(`${A}-`)), [], `${JSON.stringify(s)} selects ${selected}`);
      }
      assert.equal(guard(NP_PATH, { ...up, metadata: { ...up.metadata, labels: LABELS } }), null);
      const back = toTenantObject(ctx, structuredClone(up));
      const normal = (s: Selector) => Object.fromEntries(Object.entries(s).filter(([k, v]) => !(k === 'matchLabels' && Object.keys(v as object).length === 0)));
      assert.deepEqual(npSelectors(back!), [...selectors, ...selectors].map(normal), 'ingress and egress read back as written');
    }), { numRuns: 300 });
  });

  it('property: a translated selector over the tenant\'s own namespaces selects exactly what it would in the tenant\'s view', () => {
    const own = HOST_NAMESPACES.filter((n) => n.name.startsWith(`${A}-`));
    fc.assert(fc.property(selectorArb, (generated) => {
      const s = json(generated);
      const up = toUpstreamNamespaceSelector(A, s as Record<string, unknown>) as Selector;
      const tenantView = own.map((n) => ({ name: n.name.slice(A.length + 1), labels: { ...n.labels, [NAME]: n.name.slice(A.length + 1) } }));
      const wanted = tenantView.filter((n) => matches(s, Object.fromEntries(Object.entries(n.labels).filter(([k]) => k !== LABEL)))).map((n) => `${A}-${n.name}`);
      assert.deepEqual(HOST_NAMESPACES.filter((n) => matches(up, n.labels)).map((n) => n.name), wanted);
      assert.deepEqual(toTenantNamespaceSelector(A, up as Record<string, unknown>), Object.keys(s.matchLabels ?? {}).length === 0 ? (({ matchLabels: _m, ...rest }) => rest)(s) : s);
    }), { numRuns: 300 });
  });

  it('an upstream selector that is not narrowed to the tenant does not read back (the object is hidden, not widened)', () => {
    assert.equal(toTenantNamespaceSelector(A, { matchLabels: { team: 'x' } }), undefined);
    assert.equal(toTenantNamespaceSelector(A, { matchLabels: { [LABEL]: B } }), undefined);
    assert.equal(toTenantNamespaceSelector(A, { matchLabels: { [LABEL]: A, [NAME]: `${B}-web` } }), undefined);
    const up = toUpstreamObject(ctx, netpol([{ namespaceSelector: {} }]), { namespaced: true, type: { group: 'networking.k8s.io', kind: 'NetworkPolicy' } });
    (up.spec as any).egress[0].to[0].namespaceSelector = {};
    assert.equal(toTenantObject(ctx, up), undefined);
  });
});

describe('cluster DNS names point only into the tenant\'s namespaces', () => {
  const svc = (externalName: string) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: `${A}-web`, labels: LABELS }, spec: { type: 'ExternalName', externalName } });
  it('the guard refuses Service, pod and host names in another namespace, in any case', () => {
    for (const name of [`web.${B}-shop.svc.cluster.local`, `10-0-0-7.${B}-shop.pod.cluster.local`, `db-0.db.${B}-shop.svc.cluster.local`, `_http._tcp.web.${B}-shop.svc.cluster.local`, `web.${B.toUpperCase()}-SHOP.SVC.cluster.local`, 'kube-dns.kube-system.svc.cluster.local.', `web.${B}-shop.svc`]) {
      assert.match(guard(SVC_PATH, svc(name))?.message ?? '', /externalName/, name);
    }
    for (const name of [`web.${A}-shop.svc.cluster.local`, `db-0.db.${A}-shop.svc.cluster.local`, 'example.com', 'svc.example.com']) assert.equal(guard(SVC_PATH, svc(name)), null, name);
  });

  it('a pod\'s DNS search domains are translated and guarded; hostAliases and nameservers are the pod\'s own', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'web' }, spec: { containers: [], dnsConfig: { searches: ['db.svc.cluster.local', 'example.com'], nameservers: ['10.0.0.10'] }, hostAliases: [{ ip: '10.1.1.1', hostnames: ['x.y'] }] } } as KubeObject;
    const up = toUpstreamObject(ctx, structuredClone(pod));
    assert.deepEqual((up.spec as any).dnsConfig.searches, [`${A}-db.svc.cluster.local`, 'example.com']);
    assert.deepEqual((up.spec as any).hostAliases, [{ ip: '10.1.1.1', hostnames: ['x.y'] }]);
    assert.equal(guard(POD_PATH, { ...up, metadata: { ...up.metadata, labels: LABELS } }), null);
    assert.deepEqual(toTenantObject(ctx, structuredClone(up))?.spec, pod.spec);
    const foreign = { ...up, metadata: { ...up.metadata, labels: LABELS }, spec: { ...(up.spec as object), dnsConfig: { searches: [`${B}-db.svc.cluster.local`] } } };
    assert.match(guard(POD_PATH, foreign)?.message ?? '', /pod DNS search domain/);
  });

  it('a name with a svc or pod label under another domain is an outside name: written as is, and accepted', () => {
    for (const name of ['api.svc.example.com', 'web.shop.svc.cluster.local.example.com', 'x.pod.internal', 'a.svc.cluster', `web.${B}-shop.svc.example.com`]) {
      const up = toUpstreamObject(ctx, { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'web' }, spec: { type: 'ExternalName', externalName: name } } as KubeObject);
      assert.equal((up.spec as any).externalName, name);
      assert.equal(guard(SVC_PATH, svc(name)), null, name);
    }
  });

  it('the namespace is the label before the svc or pod label that the cluster domain (or nothing) follows', () => {
    assert.equal(toUpstreamDnsName(A, 'svc.pod.shop.svc.cluster.local'), `svc.pod.${A}-shop.svc.cluster.local`);
    assert.equal(toUpstreamDnsName(A, 'web.SHOP.SVC.CLUSTER.LOCAL.'), `web.${A}-shop.SVC.CLUSTER.LOCAL.`);
    assert.equal(toUpstreamDnsName(A, 'shop.svc'), `${A}-shop.svc`);
    assert.match(guard(SVC_PATH, svc(`svc.pod.${B}-shop.svc.cluster.local`))?.message ?? '', /externalName/);
  });

  const dnsLabel = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/);
  const clusterName = fc.tuple(fc.array(dnsLabel, { minLength: 0, maxLength: 3 }), dnsLabel, fc.constantFrom('svc', 'pod'), fc.constantFrom([], ['cluster', 'local'], ['CLUSTER', 'local'], ['cluster', 'local', ''], ['example'], ['svc', 'example', 'com'])).map(([host, ns, kind, domain]) => [...host, ns, kind, ...domain].join('.'));
  const anyName = fc.oneof(clusterName, fc.array(dnsLabel, { minLength: 1, maxLength: 4 }).map((l) => l.join('.')));

  it('property: a DNS name round-trips, and upstream its namespace (if any) is the tenant\'s, as the guard agrees', () => {
    fc.assert(fc.property(anyName, (name) => {
      const up = toUpstreamDnsName(A, name);
      assert.equal(toTenantDnsName(A, up), name);
      assert.equal(guard(SVC_PATH, svc(up)), null, up);
      assert.equal(toTenantDnsName(B, up) === undefined || up === name, true, `${up} reads back for another tenant`);
    }), { numRuns: 400 });
  });

  it('property: an ExternalName a tenant writes, translated, never reaches another tenant\'s or the platform\'s namespace', () => {
    const hostile = fc.tuple(fc.array(dnsLabel, { maxLength: 2 }), fc.constantFrom(`${B}-shop`, 'kube-system', 'default', `${A}-web`, 'web'), fc.constantFrom('svc', 'pod', 'SVC')).map(([h, ns, k]) => [...h, ns, k, 'cluster', 'local'].join('.'));
    fc.assert(fc.property(hostile, (name) => {
      const body = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'web' }, spec: { type: 'ExternalName', externalName: name } } as KubeObject;
      const up = toUpstreamObject(ctx, body);
      const labels = String((up.spec as any).externalName).toLowerCase().split('.');
      const i = labels.findIndex((l, n) => n >= 1 && (l === 'svc' || l === 'pod'));
      assert.ok(labels[i - 1]!.startsWith(`${A}-`), `${name} → ${String((up.spec as any).externalName)}`);
      assert.equal(guard(SVC_PATH, { ...up, metadata: { ...up.metadata, labels: LABELS } }), null);
    }), { numRuns: 200 });
  });
});
