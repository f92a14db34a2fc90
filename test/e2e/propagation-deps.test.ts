// propagateDeps through the gateway with real kubectl as tenant acme: a
// Deployment that mounts a ConfigMap and reads a Secret, under a
// PropagationPolicy with propagateDeps: true to member1 and member2, brings
// both along under the tenant prefix (the Secret created after the workload
// too), each through an attached ResourceBinding whose requiredBy names the
// Deployment's binding; a ConfigMap edit follows; deleting the Deployment
// removes the dependencies from the members and their bindings from the tenant.
// A dependency with a policy of its own keeps its binding and gains requiredBy;
// a reference removed, or propagateDeps turned off, takes back what it brought.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/core/types.ts';
import { eventually } from '../helpers/poll.ts';
import { usePropagationEnv } from '../helpers/propagation-env.ts';

const MEMBERS = ['member1', 'member2'];

const WORKLOAD = `
apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: default }
spec:
  replicas: 1
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
      - name: web
        image: nginx
        env:
        - name: TOKEN
          valueFrom: { secretKeyRef: { name: web-secret, key: token } }
        volumeMounts: [{ name: config, mountPath: /etc/web }]
      volumes:
      - name: config
        configMap: { name: web-config }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: web-config, namespace: default }
data: { greeting: hello }
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: { name: web-propagation, namespace: default }
spec:
  propagateDeps: true
  resourceSelectors:
  - { apiVersion: apps/v1, kind: Deployment, name: web }
  placement:
    clusterAffinity: { clusterNames: [member1, member2] }
`;
// Two ConfigMaps used by one Deployment; "shared" also has a policy of its own (member1 only).
const SHARED = `
apiVersion: apps/v1
kind: Deployment
metadata: { name: api, namespace: default }
spec:
  replicas: 1
  selector: { matchLabels: { app: api } }
  template:
    metadata: { labels: { app: api } }
    spec:
      containers:
      - name: api
        image: nginx
        envFrom: [{ configMapRef: { name: shared } }, { configMapRef: { name: extra } }]
---
apiVersion: v1
kind: ConfigMap
metadata: { name: shared, namespace: default }
data: { a: "1" }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: extra, namespace: default }
data: { b: "2" }
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: { name: shared-propagation, namespace: default }
spec:
  resourceSelectors:
  - { apiVersion: v1, kind: ConfigMap, name: shared }
  placement:
    clusterAffinity: { clusterNames: [member1] }
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: { name: api-propagation, namespace: default }
spec:
  propagateDeps: true
  resourceSelectors:
  - { apiVersion: apps/v1, kind: Deployment, name: api }
  placement:
    clusterAffinity: { clusterNames: [member1, member2] }
`;
const SECRET = `
apiVersion: v1
kind: Secret
metadata: { name: web-secret, namespace: default }
data: { token: czNjcmV0 } # s3cret; stringData is not merged into data by the embedded apiserver
`;

interface Binding extends KubeObject { spec: { resource: { kind: string; namespace: string; name: string }; placement?: unknown; requiredBy?: Array<{ namespace?: string; name: string; clusters?: Array<{ name: string }> }> } }

describe('propagateDeps: a workload\'s ConfigMaps and Secrets follow it to the members', { timeout: 150_000 }, () => {
  const env = usePropagationEnv('propagation-deps');
  const { members } = env;
  const acme = env.as('acme');
  const apply = (yaml: string, file: string): Promise<void> => env.apply('acme', yaml, file);
  let acmeId = '';
  /** The object as the member has it (in the tenant's upstream namespace), or undefined. */
  async function onMember(member: string, resource: 'configmaps' | 'secrets', name: string): Promise<KubeObject | undefined> {
    const res = await members[member]!.request<KubeObject>('GET', `/api/v1/namespaces/${acmeId}-default/${resource}/${name}`);
    return res.status === 200 ? res.body : undefined;
  }
  const onAll = async (resource: 'configmaps' | 'secrets', name: string): Promise<KubeObject[] | undefined> => {
    const found = await Promise.all(MEMBERS.map((m) => onMember(m, resource, name)));
    return found.every((o) => o !== undefined) ? found as KubeObject[] : undefined;
  };
  const goneFromAll = async (resource: 'configmaps' | 'secrets', name: string): Promise<boolean> =>
    (await Promise.all(MEMBERS.map((m) => onMember(m, resource, name)))).every((o) => o === undefined);
  const bindingNames = async (): Promise<string[]> => (await acme('get', 'resourcebindings', '-o', 'name')).trim().split('\n').filter(Boolean);

  before(() => {
    acmeId = env.idOf('acme');
  });

  it('brings the mounted ConfigMap to both members under the tenant prefix, through an attached binding', async () => {
    await apply(WORKLOAD, 'workload.yaml');
    const copies = await eventually(() => onAll('configmaps', 'web-config'), 'web-config on both members');
    for (const cm of copies) {
      assert.equal(cm.metadata.namespace, `${acmeId}-default`);
      assert.deepEqual((cm as KubeObject & { data?: unknown }).data, { greeting: 'hello' });
      assert.equal(cm.metadata.labels?.['karmada.io/managed'], 'true');
    }
    const attached = JSON.parse(await acme('get', 'resourcebinding', 'web-config-configmap', '-o', 'json')) as Binding;
    assert.deepEqual(attached.spec.resource, { ...attached.spec.resource, kind: 'ConfigMap', namespace: 'default', name: 'web-config' });
    assert.equal(attached.spec.placement, undefined, 'an attached binding has no placement of its own');
    assert.deepEqual(attached.spec.requiredBy?.map((r) => ({ namespace: r.namespace, name: r.name, clusters: r.clusters?.map((c) => c.name).sort() })),
      [{ namespace: 'default', name: 'web-deployment', clusters: MEMBERS }]);
    assert.equal(attached.metadata.ownerReferences?.[0]?.kind, 'ConfigMap');
    const parent = JSON.parse(await acme('get', 'resourcebinding', 'web-deployment', '-o', 'json')) as Binding;
    const recorded = JSON.parse(parent.metadata.annotations?.['resourcebinding.karmada.io/dependencies'] ?? '[]') as Array<{ kind: string; name: string; namespace: string }>;
    assert.deepEqual(recorded.map((d) => `${d.kind}/${d.namespace}/${d.name}`).sort(), ['ConfigMap/default/web-config', 'Secret/default/web-secret']);
  });

  it('brings a Secret created after the workload', async () => {
    assert.equal(await onMember('member1', 'secrets', 'web-secret'), undefined);
    await apply(SECRET, 'secret.yaml');
    const copies = await eventually(() => onAll('secrets', 'web-secret'), 'web-secret on both members');
    for (const s of copies) assert.equal(Buffer.from(String((s as KubeObject & { data?: Record<string, string> }).data?.token), 'base64').toString(), 's3cret');
  });

  it('a change of the ConfigMap reaches the members', async () => {
    await acme('patch', 'configmap', 'web-config', '--type=merge', '-p', '{"data":{"greeting":"bonjour"}}');
    await eventually(async () => (await onAll('configmaps', 'web-config'))?.every((c) => (c as KubeObject & { data?: Record<string, string> }).data?.greeting === 'bonjour'), 'the new greeting on both members');
  });

  it('deleting the Deployment removes its dependencies from the members and their bindings', async () => {
    await acme('delete', 'deployment', 'web');
    await eventually(async () => (await goneFromAll('configmaps', 'web-config')) && (await goneFromAll('secrets', 'web-secret')), 'web-config and web-secret gone from the members');
    await eventually(async () => (await bindingNames()).some((n) => /web-(config|secret|deployment)/.test(n)) ? undefined : true, 'the attached bindings gone');
    // The templates themselves stay in the tenant's view.
    assert.match(await acme('get', 'configmap', 'web-config', '-o', 'name'), /web-config/);
    assert.match(await acme('get', 'secret', 'web-secret', '-o', 'name'), /web-secret/);
  });

  it('a dependency with its own policy keeps its binding, which gains requiredBy and so both members', async () => {
    await apply(SHARED, 'shared.yaml');
    await eventually(() => onAll('configmaps', 'shared'), 'shared on both members (member2 only because api requires it)');
    await eventually(() => onAll('configmaps', 'extra'), 'extra on both members');
    const own = JSON.parse(await acme('get', 'resourcebinding', 'shared-configmap', '-o', 'json')) as Binding;
    assert.ok(own.spec.placement, 'still the policy-made binding');
    assert.deepEqual(own.spec.requiredBy?.map((r) => r.name), ['api-deployment']);
  });

  it('a reference removed from the pod template drops that dependency only', async () => {
    await acme('patch', 'deployment', 'api', '--type=json', '-p', '[{"op":"remove","path":"/spec/template/spec/containers/0/envFrom/1"}]');
    await eventually(() => goneFromAll('configmaps', 'extra'), 'extra gone from the members');
    await eventually(async () => (await bindingNames()).includes('resourcebinding.work.karmada.io/extra-configmap') ? undefined : true, 'extra-configmap binding gone');
    assert.ok(await onAll('configmaps', 'shared'), 'shared stays on both members');
  });

  it('turning propagateDeps off leaves a policy-made dependency where its own policy puts it', async () => {
    await acme('patch', 'propagationpolicy', 'api-propagation', '--type=merge', '-p', '{"spec":{"propagateDeps":false}}');
    await eventually(async () => (await onMember('member2', 'configmaps', 'shared')) === undefined, 'shared gone from member2');
    assert.ok(await onMember('member1', 'configmaps', 'shared'), 'shared stays on member1, by its own policy');
    const own = JSON.parse(await acme('get', 'resourcebinding', 'shared-configmap', '-o', 'json')) as Binding;
    assert.equal(own.spec.requiredBy, undefined);
  });
});
