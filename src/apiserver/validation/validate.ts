// Entry points: validateCreate / validateUpdate return kube-apiserver's field
// causes for an object (after defaulting); the caller wraps them in invalid().
// One row per kind; kinds without a row get the ObjectMeta checks only.
import { jsonEqual } from '../../core/json-equal.ts';
import type { KubeObject, StatusCause } from '../../core/types.ts';
import type { ResourceDef } from '../../core/resources/resource-def.ts';
import { resourceKey } from '../../core/resources/resource-def.ts';
import { BUILTIN_RESOURCES } from '../../core/resources/builtin-resources.ts';
import { forbidden } from './field-errors.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from './metadata.ts';
import { nameRuleForObject } from './object-name.ts';
import { validatePodSpec } from './pod-spec.ts';
import {
  validateCronJob, validateDaemonSet, validateDeployment, validateJob, validateJobUpdate, validateReplicaSet,
  validateSelectorUpdate, validateStatefulSet, validateStatefulSetUpdate,
} from './workloads.ts';
import { validateService } from './service.ts';
import { validateConfigMap, validateImmutableDataUpdate, validateSecret, validateSecretUpdate } from './config-data.ts';
import { validateBinding, validateBindingUpdate, validateRole } from './rbac.ts';
import { validateIngress } from './ingress.ts';
import { validatePersistentVolumeClaim, validateStorageClass, validateStorageClassUpdate } from './storage.ts';
import { validateHorizontalPodAutoscaler, validatePodDisruptionBudget, validatePriorityClass, validatePriorityClassUpdate } from './scheduling.ts';
import { validateEvent, validateLease } from './lease-event.ts';

type Obj = Record<string, unknown>;
type CreateCheck = (obj: Obj) => StatusCause[];
type UpdateCheck = (obj: Obj, old: Obj) => StatusCause[];

const CREATE: Record<string, CreateCheck> = {
  pods: (o) => validatePodSpec(o.spec, 'spec'),
  services: validateService,
  configmaps: validateConfigMap,
  secrets: validateSecret,
  persistentvolumeclaims: validatePersistentVolumeClaim,
  events: validateEvent,
  'deployments.apps': validateDeployment,
  'replicasets.apps': validateReplicaSet,
  'statefulsets.apps': validateStatefulSet,
  'daemonsets.apps': validateDaemonSet,
  'jobs.batch': validateJob,
  'cronjobs.batch': validateCronJob,
  'roles.rbac.authorization.k8s.io': (o) => validateRole(o, true),
  'clusterroles.rbac.authorization.k8s.io': (o) => (o.aggregationRule ? [] : validateRole(o, false)),
  'rolebindings.rbac.authorization.k8s.io': (o) => validateBinding(o, true),
  'clusterrolebindings.rbac.authorization.k8s.io': (o) => validateBinding(o, false),
  'ingresses.networking.k8s.io': validateIngress,
  'storageclasses.storage.k8s.io': validateStorageClass,
  'priorityclasses.scheduling.k8s.io': validatePriorityClass,
  'poddisruptionbudgets.policy': validatePodDisruptionBudget,
  'horizontalpodautoscalers.autoscaling': validateHorizontalPodAutoscaler,
  'leases.coordination.k8s.io': validateLease,
};

/** Pod specs are immutable apart from images, deadlines, tolerations and grace period. */
function validatePodUpdate(obj: Obj, old: Obj): StatusCause[] {
  const strip = (spec: unknown, bound: unknown): Obj => {
    const s = { ...((spec ?? {}) as Obj) };
    for (const f of ['activeDeadlineSeconds', 'tolerations', 'terminationGracePeriodSeconds']) delete s[f];
    // Binding an unbound pod: kube-scheduler does it through pods/binding, which this server does not
    // serve; the workload simulator sets spec.nodeName by update instead. Only from unset, never moved.
    if (!bound) delete s.nodeName;
    for (const list of ['containers', 'initContainers']) {
      if (Array.isArray(s[list])) s[list] = (s[list] as Obj[]).map((c) => ({ ...c, image: undefined }));
    }
    return s;
  };
  const oldNode = (old.spec as Obj | undefined)?.nodeName;
  // Compared in depth, key order ignored (a JSON.stringify key allow-list compared only the top level's names).
  if (jsonEqual(strip(obj.spec, oldNode), strip(old.spec, oldNode))) return [];
  return [forbidden('spec', 'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)')];
}

const UPDATE: Record<string, UpdateCheck> = {
  pods: validatePodUpdate,
  configmaps: (o, old) => validateImmutableDataUpdate(o, old, ['data', 'binaryData']),
  secrets: validateSecretUpdate,
  'deployments.apps': validateSelectorUpdate,
  'replicasets.apps': validateSelectorUpdate,
  'daemonsets.apps': validateSelectorUpdate,
  'statefulsets.apps': validateStatefulSetUpdate,
  'jobs.batch': validateJobUpdate,
  'rolebindings.rbac.authorization.k8s.io': validateBindingUpdate,
  'clusterrolebindings.rbac.authorization.k8s.io': validateBindingUpdate,
  'storageclasses.storage.k8s.io': validateStorageClassUpdate,
  'priorityclasses.scheduling.k8s.io': validatePriorityClassUpdate,
};

// Kinds validated by kube's core ObjectMeta rules (standard or qualified finalizer names). apiextensions
// objects go through apimachinery's generic rules instead, which accept any qualified name
// (the CRD cleanup finalizer "customresourcecleanup.apiextensions.k8s.io" among them).
const BUILTIN_KEYS = new Set(BUILTIN_RESOURCES.filter((d) => d.group !== 'apiextensions.k8s.io').map((d) => resourceKey(d.group, d.resource)));

function keyOf(def: ResourceDef): string {
  return resourceKey(def.group, def.resource);
}

// CRD names are checked by crd/validate-crd.ts alongside the rest of the CRD
// spec; checking them here too would report every name error twice.
const CRD_KEY = 'customresourcedefinitions.apiextensions.k8s.io';
const noNameRule = (): string[] => [];

/** The resources (resourceKey form) with kind-specific validation; held to the kind registry by a test. */
export const VALIDATED_RESOURCES: readonly string[] = [...new Set([...Object.keys(CREATE), ...Object.keys(UPDATE)])];

export function validateCreate(def: ResourceDef, obj: KubeObject): StatusCause[] {
  const key = keyOf(def);
  const builtin = BUILTIN_KEYS.has(key);
  const nameRule = key === CRD_KEY ? noNameRule : nameRuleForObject(def, obj);
  const meta = validateObjectMeta(obj.metadata, { namespaced: def.namespaced, nameRule, builtin });
  return [...meta, ...(CREATE[key]?.(obj) ?? [])];
}

export function validateUpdate(def: ResourceDef, obj: KubeObject, old: KubeObject): StatusCause[] {
  const key = keyOf(def);
  const builtin = BUILTIN_KEYS.has(key);
  const causes = validateObjectMetaUpdate(obj.metadata, old.metadata, builtin);
  causes.push(...(CREATE[key]?.(obj) ?? []));
  causes.push(...(UPDATE[key]?.(obj, old) ?? []));
  return causes;
}
