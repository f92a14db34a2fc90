// applyDefaults: the server-side defaults of the common kinds, applied before
// validation, in place. Values from k8s.io/kubernetes/pkg/apis/*/v1/defaults.go.
// Service cluster IPs are allocated by the registry (the `allocateClusterIP` hook).
import type { KubeObject } from '../../core/types.ts';
import { isObject } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import { resourceKey } from '../../core/resources/resource-def.ts';
import { defaultPod, defaultPodTemplate } from './defaults-pod.ts';
import { RBAC_GROUP } from './rbac.ts';

type Obj = Record<string, unknown>;

function set(o: Obj, field: string, value: unknown): void {
  if (o[field] === undefined || o[field] === null) o[field] = value;
}

function spec(o: Obj): Obj {
  if (!isObject(o.spec)) o.spec = {};
  return o.spec as Obj;
}

function deployment(o: Obj): void {
  const s = spec(o);
  set(s, 'replicas', 1);
  if (!isObject(s.strategy)) s.strategy = {};
  const strategy = s.strategy as Obj;
  set(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') {
    if (!isObject(strategy.rollingUpdate)) strategy.rollingUpdate = {};
    set(strategy.rollingUpdate as Obj, 'maxUnavailable', '25%');
    set(strategy.rollingUpdate as Obj, 'maxSurge', '25%');
  }
  set(s, 'revisionHistoryLimit', 10);
  set(s, 'progressDeadlineSeconds', 600);
  defaultPodTemplate(s.template);
}

function replicaSet(o: Obj): void {
  const s = spec(o);
  set(s, 'replicas', 1);
  defaultPodTemplate(s.template);
}

function statefulSet(o: Obj): void {
  const s = spec(o);
  set(s, 'replicas', 1);
  set(s, 'podManagementPolicy', 'OrderedReady');
  if (!isObject(s.updateStrategy)) s.updateStrategy = {};
  const strategy = s.updateStrategy as Obj;
  set(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') {
    if (!isObject(strategy.rollingUpdate)) strategy.rollingUpdate = {};
    set(strategy.rollingUpdate as Obj, 'partition', 0);
  }
  set(s, 'revisionHistoryLimit', 10);
  if (!isObject(s.persistentVolumeClaimRetentionPolicy)) s.persistentVolumeClaimRetentionPolicy = {};
  set(s.persistentVolumeClaimRetentionPolicy as Obj, 'whenDeleted', 'Retain');
  set(s.persistentVolumeClaimRetentionPolicy as Obj, 'whenScaled', 'Retain');
  if (Array.isArray(s.volumeClaimTemplates)) {
    for (const t of s.volumeClaimTemplates) if (isObject(t)) set(spec(t), 'volumeMode', 'Filesystem');
  }
  defaultPodTemplate(s.template);
}

function daemonSet(o: Obj): void {
  const s = spec(o);
  if (!isObject(s.updateStrategy)) s.updateStrategy = {};
  const strategy = s.updateStrategy as Obj;
  set(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') {
    if (!isObject(strategy.rollingUpdate)) strategy.rollingUpdate = {};
    set(strategy.rollingUpdate as Obj, 'maxUnavailable', 1);
    set(strategy.rollingUpdate as Obj, 'maxSurge', 0);
  }
  set(s, 'revisionHistoryLimit', 10);
  defaultPodTemplate(s.template);
}

/** Job: completions/parallelism default together; the selector and its labels need the uid (registry). */
function job(o: Obj): void {
  const s = spec(o);
  if (s.completions === undefined && s.parallelism === undefined) {
    s.completions = 1;
    s.parallelism = 1;
  }
  set(s, 'parallelism', 1);
  set(s, 'backoffLimit', 6);
  set(s, 'completionMode', 'NonIndexed');
  set(s, 'suspend', false);
  if (!isObject(s.podFailurePolicy)) set(s, 'podReplacementPolicy', 'TerminatingOrFailed');
  defaultPodTemplate(s.template);
}

function cronJob(o: Obj): void {
  const s = spec(o);
  set(s, 'concurrencyPolicy', 'Allow');
  set(s, 'suspend', false);
  set(s, 'successfulJobsHistoryLimit', 3);
  set(s, 'failedJobsHistoryLimit', 1);
  const jt = isObject(s.jobTemplate) ? s.jobTemplate : undefined;
  if (jt && isObject(jt.spec)) defaultPodTemplate(jt.spec.template);
}

function service(o: Obj): void {
  const s = spec(o);
  set(s, 'type', 'ClusterIP');
  set(s, 'sessionAffinity', 'None');
  if (s.type !== 'ExternalName') set(s, 'internalTrafficPolicy', 'Cluster');
  if (s.type === 'NodePort' || s.type === 'LoadBalancer') set(s, 'externalTrafficPolicy', 'Cluster');
  if (s.type === 'LoadBalancer') set(s, 'allocateLoadBalancerNodePorts', true);
  if (Array.isArray(s.ports)) {
    for (const p of s.ports) {
      if (!isObject(p)) continue;
      set(p, 'protocol', 'TCP');
      set(p, 'targetPort', p.port);
    }
  }
}

function namespace(o: Obj): void {
  const s = spec(o);
  set(s, 'finalizers', ['kubernetes']);
  if (!isObject(o.status)) o.status = {};
  set(o.status as Obj, 'phase', 'Active');
  const meta = o.metadata as Obj;
  // The NamespaceDefaultLabelName feature: always equal to the name, even if the client set something else.
  if (typeof meta.name === 'string' && meta.name) {
    meta.labels = { ...(isObject(meta.labels) ? meta.labels : {}), 'kubernetes.io/metadata.name': meta.name };
  }
}

function binding(o: Obj): void {
  if (isObject(o.roleRef)) set(o.roleRef, 'apiGroup', RBAC_GROUP);
  if (Array.isArray(o.subjects)) {
    for (const s of o.subjects) if (isObject(s) && (s.kind === 'User' || s.kind === 'Group')) set(s, 'apiGroup', RBAC_GROUP);
  }
}

function hpa(o: Obj): void {
  const s = spec(o);
  set(s, 'minReplicas', 1);
  if (!Array.isArray(s.metrics) || s.metrics.length === 0) {
    s.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  }
}

const DEFAULTERS: Record<string, (o: Obj) => void> = {
  pods: defaultPod,
  podtemplates: (o) => defaultPodTemplate(o.template),
  replicationcontrollers: replicaSet,
  services: service,
  namespaces: namespace,
  secrets: (o) => set(o, 'type', 'Opaque'),
  persistentvolumeclaims: (o) => set(spec(o), 'volumeMode', 'Filesystem'),
  persistentvolumes: (o) => {
    set(spec(o), 'persistentVolumeReclaimPolicy', 'Retain');
    set(spec(o), 'volumeMode', 'Filesystem');
  },
  'deployments.apps': deployment,
  'replicasets.apps': replicaSet,
  'statefulsets.apps': statefulSet,
  'daemonsets.apps': daemonSet,
  'jobs.batch': job,
  'cronjobs.batch': cronJob,
  'rolebindings.rbac.authorization.k8s.io': binding,
  'clusterrolebindings.rbac.authorization.k8s.io': binding,
  'storageclasses.storage.k8s.io': (o) => {
    set(o, 'reclaimPolicy', 'Delete');
    set(o, 'volumeBindingMode', 'Immediate');
  },
  'priorityclasses.scheduling.k8s.io': (o) => set(o, 'preemptionPolicy', 'PreemptLowerPriority'),
  'horizontalpodautoscalers.autoscaling': hpa,
};

export interface DefaultHooks {
  /** Called for Services without spec.clusterIP (type != ExternalName); return the IP to set. */
  allocateClusterIP?: (service: KubeObject) => string | undefined;
}

/** Whether applyDefaults changes anything below the top level of this resource's objects. */
export function hasDefaults(def: Pick<ResourceDef, 'group' | 'resource'>): boolean {
  return DEFAULTERS[resourceKey(def.group, def.resource)] !== undefined || (def.group === '' && def.resource === 'services');
}

/** Fills in server defaults in place and returns the same object. */
export function applyDefaults<T extends KubeObject>(def: Pick<ResourceDef, 'group' | 'resource'>, obj: T, hooks: DefaultHooks = {}): T {
  if (!isObject(obj.metadata)) (obj as KubeObject).metadata = {};
  DEFAULTERS[resourceKey(def.group, def.resource)]?.(obj);
  if (hooks.allocateClusterIP && def.group === '' && def.resource === 'services') {
    const s = obj.spec as Obj;
    if (s.type !== 'ExternalName' && !s.clusterIP) {
      const ip = hooks.allocateClusterIP(obj);
      if (ip) {
        s.clusterIP = ip;
        s.clusterIPs = [ip];
        set(s, 'ipFamilies', [ip.includes(':') ? 'IPv6' : 'IPv4']);
        set(s, 'ipFamilyPolicy', 'SingleStack');
      }
    }
  }
  return obj;
}
