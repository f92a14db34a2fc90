// Which printer serves which resource: kube-apiserver's printers, keyed by
// "<resource>.<group>". Anything else gets the default table convertor
// (Name, Created At), as kube does for kinds without a printer (CRDs included).
import type { ResourceDef } from '../resources/resource-def.ts';
import { resourceKey } from '../resources/resource-def.ts';
import { rfc3339 } from './cell-format.ts';
import { podPrinter } from './printer-pod.ts';
import {
  controllerRevisionPrinter, cronJobPrinter, daemonSetPrinter, deploymentPrinter, jobPrinter, replicaSetPrinter, replicationControllerPrinter, statefulSetPrinter,
} from './printers-workloads.ts';
import {
  configMapPrinter, createdAtPrinter, endpointsPrinter, namespacePrinter, nodePrinter, resourceQuotaPrinter, secretPrinter,
  serviceAccountPrinter, servicePrinter,
} from './printers-core.ts';
import { pvPrinter, pvcPrinter, storageClassPrinter } from './printers-storage.ts';
import { eventPrinter } from './printers-events.ts';
import { hpaPrinter, ingressPrinter, leasePrinter, networkPolicyPrinter, pdbPrinter, priorityClassPrinter, roleBindingPrinter } from './printers-cluster.ts';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_COLUMN, col, type Printer } from './table-types.ts';

export const defaultPrinter: Printer = {
  columns: [NAME_COLUMN, col('Created At', 'date', CREATION_TIMESTAMP_DESCRIPTION)],
  cells: (o) => [o.metadata.name ?? '', rfc3339(o.metadata.creationTimestamp)],
};

const PRINTERS: Record<string, Printer> = {
  pods: podPrinter,
  services: servicePrinter,
  namespaces: namespacePrinter,
  configmaps: configMapPrinter,
  secrets: secretPrinter,
  serviceaccounts: serviceAccountPrinter,
  events: eventPrinter,
  'events.events.k8s.io': eventPrinter,
  endpoints: endpointsPrinter,
  nodes: nodePrinter,
  persistentvolumeclaims: pvcPrinter,
  persistentvolumes: pvPrinter,
  resourcequotas: resourceQuotaPrinter,
  limitranges: createdAtPrinter,
  'deployments.apps': deploymentPrinter,
  'replicasets.apps': replicaSetPrinter,
  replicationcontrollers: replicationControllerPrinter,
  'statefulsets.apps': statefulSetPrinter,
  'daemonsets.apps': daemonSetPrinter,
  'controllerrevisions.apps': controllerRevisionPrinter,
  'jobs.batch': jobPrinter,
  'cronjobs.batch': cronJobPrinter,
  'ingresses.networking.k8s.io': ingressPrinter,
  'networkpolicies.networking.k8s.io': networkPolicyPrinter,
  'leases.coordination.k8s.io': leasePrinter,
  'roles.rbac.authorization.k8s.io': createdAtPrinter,
  'clusterroles.rbac.authorization.k8s.io': createdAtPrinter,
  'rolebindings.rbac.authorization.k8s.io': roleBindingPrinter,
  'clusterrolebindings.rbac.authorization.k8s.io': roleBindingPrinter,
  'storageclasses.storage.k8s.io': storageClassPrinter,
  'priorityclasses.scheduling.k8s.io': priorityClassPrinter,
  'horizontalpodautoscalers.autoscaling': hpaPrinter,
  'poddisruptionbudgets.policy': pdbPrinter,
};

/** The resources (resourceKey form) with a printer of their own; held to the kind registry by a test. */
export const PRINTED_RESOURCES: readonly string[] = Object.keys(PRINTERS);

export function builtinPrinterFor(def: Pick<ResourceDef, 'group' | 'resource'>): Printer {
  return PRINTERS[resourceKey(def.group, def.resource)] ?? defaultPrinter;
}
