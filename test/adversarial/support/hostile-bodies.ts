// fast-check arbitraries for hostile write requests by one tenant (`self`)
// aimed at another (`other`): a well-formed object of a kind the gateway
// translates, then mangled the ways an attacker would: `kind`/`apiVersion`
// removed, metadata pointing at the other tenant's or the platform's
// namespaces, names wearing a forged prefix, the tenant label forged, RBAC
// subjects and roleRefs naming system groups or the other tenant's users and
// ServiceAccounts, a privileged Pod Security label, and keys duplicated in the
// JSON text (most decoders keep the last one; a gateway that reads the first
// would check one object and forward another). Sent with POST, PUT, merge
// patch or server-side apply. Generated names contain `fc` so the property can
// tell its own writes from the controllers'.
import fc from 'fast-check';

export interface HostileCase {
  method: 'POST' | 'PUT' | 'PATCH';
  path: string;
  contentType: string;
  /** The request body, as JSON text (duplicated keys need text). */
  body: string;
}

interface KindRow { kind: string; apiVersion: string; collection: string; extra: (h: Hostility) => Record<string, unknown> }

interface Hostility {
  subjects: Array<Record<string, string>>;
  roleRef: string;
}

const RBAC_V1 = 'rbac.authorization.k8s.io/v1';

function kinds(): KindRow[] {
  const binding = (h: Hostility) => ({ roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: h.roleRef }, subjects: h.subjects });
  return [
    { kind: 'ConfigMap', apiVersion: 'v1', collection: '/api/v1/namespaces/default/configmaps', extra: () => ({ data: { a: 'b' } }) },
    { kind: 'Secret', apiVersion: 'v1', collection: '/api/v1/namespaces/default/secrets', extra: () => ({ stringData: { a: 'b' } }) },
    { kind: 'ServiceAccount', apiVersion: 'v1', collection: '/api/v1/namespaces/default/serviceaccounts', extra: () => ({}) },
    { kind: 'Role', apiVersion: RBAC_V1, collection: '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', extra: () => ({ rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] }) },
    { kind: 'RoleBinding', apiVersion: RBAC_V1, collection: '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', extra: binding },
    { kind: 'ClusterRoleBinding', apiVersion: RBAC_V1, collection: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', extra: binding },
    { kind: 'ClusterRole', apiVersion: RBAC_V1, collection: '/apis/rbac.authorization.k8s.io/v1/clusterroles', extra: () => ({ rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }], aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }] } }) },
    { kind: 'Namespace', apiVersion: 'v1', collection: '/api/v1/namespaces', extra: () => ({}) },
  ];
}

export function hostileRequest(ids: { self: string; other: string }): fc.Arbitrary<HostileCase> {
  const { self, other } = ids;
  const subject = fc.constantFrom<Record<string, string>>(
    { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:masters' },
    { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:authenticated' },
    { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'admin' },
    { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: `warren:${other}:alice` },
    { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: `system:serviceaccounts:${other}-shop` },
    { kind: 'ServiceAccount', name: 'default', namespace: `${other}-shop` },
    { kind: 'ServiceAccount', name: 'default', namespace: 'kube-system' },
    { kind: 'ServiceAccount', name: 'default', namespace: 'default' },
  );
  const hostility = fc.record({
    subjects: fc.array(subject, { minLength: 1, maxLength: 3 }),
    roleRef: fc.constantFrom('cluster-admin', `${other}-admin`, 'view', 'system:controller:namespace-controller'),
  });
  const metadataNamespace = fc.constantFrom<string | undefined>(undefined, 'default', `${other}-shop`, 'kube-system', `${self}-default`, 'shop');
  const namePrefix = fc.constantFrom('', `${other}-`, `${self}-`);
  const forgedLabels = fc.constantFrom<Record<string, string> | undefined>(
    undefined,
    { 'tenancy.warren.dev/tenant': other },
    { 'pod-security.kubernetes.io/enforce': 'privileged' },
    { 'tenancy.warren.dev/tenant': '' },
  );
  return fc.record({
    row: fc.constantFrom(...kinds()),
    n: fc.integer({ min: 0, max: 1_000_000 }),
    namePrefix,
    metadataNamespace,
    labels: forgedLabels,
    hostility,
    drop: fc.subarray(['apiVersion', 'kind']),
    duplicate: fc.constantFrom('none', 'forged-last', 'forged-first'),
    verb: fc.constantFrom('POST', 'PUT', 'merge', 'apply'),
  }).map(({ row, n, namePrefix: prefix, metadataNamespace: ns, labels, hostility: h, drop, duplicate, verb }): HostileCase => {
    const name = `fc-${n}`;
    const metadata: Record<string, unknown> = { name: `${prefix}${name}` };
    if (ns !== undefined && row.kind !== 'Namespace' && !row.kind.startsWith('Cluster')) metadata.namespace = ns;
    if (labels) metadata.labels = labels;
    const obj: Record<string, unknown> = { apiVersion: row.apiVersion, kind: row.kind, metadata, ...row.extra(h) };
    for (const key of drop) delete obj[key];
    let text = JSON.stringify(obj);
    if (duplicate !== 'none') {
      // A second `metadata` key whose namespace/label are the other tenant's.
      const forged = JSON.stringify({ name: `${other}-${name}`, namespace: `${other}-shop`, labels: { 'tenancy.warren.dev/tenant': other } });
      const benign = JSON.stringify(metadata);
      const [first, second] = duplicate === 'forged-last' ? [benign, forged] : [forged, benign];
      text = text.replace(`"metadata":${benign}`, `"metadata":${first},"metadata":${second}`);
    }
    const item = `${row.collection}/${name}`;
    switch (verb) {
      case 'POST': return { method: 'POST', path: row.collection, contentType: 'application/json', body: text };
      case 'PUT': return { method: 'PUT', path: item, contentType: 'application/json', body: text };
      case 'merge': return { method: 'PATCH', path: item, contentType: 'application/merge-patch+json', body: text };
      default: return { method: 'PATCH', path: `${item}?fieldManager=fc&force=true`, contentType: 'application/apply-patch+yaml', body: text };
    }
  });
}
