// Printers for the workload controllers: deployments, replicasets,
// statefulsets, daemonsets, jobs, cronjobs, controllerrevisions.
import { ageSince, humanDuration } from './human-duration.ts';
import { arr, containerCells, int, printBool, rec, selectorString, str, templateSpec, formatLabels } from './cell-format.ts';
import { AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN, col, type Printer } from './table-types.ts';

const selectorColumn = (description: string) => col('Selector', 'string', description, 1);
const LABEL_QUERY = 'Label query over pods that should match the replica count. It must match the pod template\'s labels.';

export const deploymentPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Ready', 'string', 'Number of the pod with ready state'),
    col('Up-to-date', 'string', 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.'),
    col('Available', 'string', 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.'),
    AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN,
    selectorColumn('Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.'),
  ],
  cells(o, now) {
    const spec = rec(o.spec);
    const status = rec(o.status);
    const [names, images] = containerCells(templateSpec(o));
    return [o.metadata.name ?? '', `${int(status.readyReplicas)}/${int(spec.replicas)}`, int(status.updatedReplicas), int(status.availableReplicas),
      ageSince(o.metadata.creationTimestamp, now), names, images, selectorString(spec.selector)];
  },
};

/**
 * ReplicaSets' and ReplicationControllers' columns (kube's replicaSetColumnDefinitions and
 * replicationControllerColumnDefinitions): the same cells, each with kube's own descriptions;
 * a ReplicaSet's selector is a LabelSelector, an RC's a plain label map.
 */
function replicaPrinter(describe: { desired: string; current: string; ready: string }, selector: (spec: Record<string, unknown>) => string): Printer {
  return {
    columns: [
      NAME_COLUMN, col('Desired', 'integer', describe.desired), col('Current', 'integer', describe.current), col('Ready', 'integer', describe.ready),
      AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, selectorColumn(LABEL_QUERY),
    ],
    cells(o, now) {
      const spec = rec(o.spec);
      const status = rec(o.status);
      const [names, images] = containerCells(templateSpec(o));
      return [o.metadata.name ?? '', int(spec.replicas), int(status.replicas), int(status.readyReplicas), ageSince(o.metadata.creationTimestamp, now), names, images, selector(spec)];
    },
  };
}

export const replicaSetPrinter: Printer = replicaPrinter({
  desired: 'Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset',
  current: 'Replicas is the most recently observed number of non-terminating pods. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset',
  ready: 'The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.',
}, (spec) => selectorString(spec.selector));

export const replicationControllerPrinter: Printer = replicaPrinter({
  desired: 'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller',
  current: 'Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller',
  ready: 'The number of ready replicas for this replication controller.',
}, (spec) => formatLabels(spec.selector));

export const statefulSetPrinter: Printer = {
  columns: [NAME_COLUMN, col('Ready', 'string', 'Number of the pod with ready state'), AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN],
  cells(o, now) {
    const [names, images] = containerCells(templateSpec(o));
    return [o.metadata.name ?? '', `${int(rec(o.status).readyReplicas)}/${int(rec(o.spec).replicas)}`, ageSince(o.metadata.creationTimestamp, now), names, images];
  },
};

export const daemonSetPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Desired', 'integer', 'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/'),
    col('Current', 'integer', 'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/'),
    col('Ready', 'integer', 'numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.'),
    col('Up-to-date', 'integer', 'The total number of nodes that are running updated daemon pod'),
    col('Available', 'integer', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)'),
    col('Node Selector', 'string', "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/"),
    AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN,
    selectorColumn('A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template\'s labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors'),
  ],
  cells(o, now) {
    const s = rec(o.status);
    const [names, images] = containerCells(templateSpec(o));
    return [o.metadata.name ?? '', int(s.desiredNumberScheduled), int(s.currentNumberScheduled), int(s.numberReady), int(s.updatedNumberScheduled), int(s.numberAvailable),
      formatLabels(templateSpec(o).nodeSelector), ageSince(o.metadata.creationTimestamp, now), names, images, selectorString(rec(o.spec).selector)];
  },
};

const hasCondition = (conditions: unknown, type: string): boolean => arr(conditions).map(rec).some((c) => c.type === type && c.status === 'True');

export function jobStatus(o: { metadata: { deletionTimestamp?: string }; status?: unknown }): string {
  const conditions = rec(o.status).conditions;
  if (hasCondition(conditions, 'Complete')) return 'Complete';
  if (hasCondition(conditions, 'Failed')) return 'Failed';
  if (o.metadata.deletionTimestamp) return 'Terminating';
  if (hasCondition(conditions, 'Suspended')) return 'Suspended';
  if (hasCondition(conditions, 'FailureTarget')) return 'FailureTarget';
  if (hasCondition(conditions, 'SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

export const jobPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Status', 'string', 'Status of the job.'),
    col('Completions', 'string', 'The completion status of the job.'),
    col('Duration', 'string', 'Time required to complete the job.'),
    AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN,
    selectorColumn('A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors'),
  ],
  cells(o, now) {
    const spec = rec(o.spec);
    const status = rec(o.status);
    const succeeded = int(status.succeeded);
    let completions: string;
    if (typeof spec.completions === 'number') completions = `${succeeded}/${spec.completions}`;
    else completions = int(spec.parallelism) > 1 ? `${succeeded}/1 of ${int(spec.parallelism)}` : `${succeeded}/1`;
    const start = Date.parse(str(status.startTime));
    const end = Date.parse(str(status.completionTime));
    const duration = Number.isNaN(start) ? '' : humanDuration((Number.isNaN(end) ? now.getTime() : end) - start);
    const [names, images] = containerCells(templateSpec(o));
    return [o.metadata.name ?? '', jobStatus(o), completions, duration, ageSince(o.metadata.creationTimestamp, now), names, images, selectorString(spec.selector)];
  },
};

export const cronJobPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Schedule', 'string', 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.'),
    col('Timezone', 'string', 'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones'),
    col('Suspend', 'boolean', 'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.'),
    col('Active', 'integer', 'A list of pointers to currently running jobs.'),
    col('Last Schedule', 'string', 'Information when was the last time the job was successfully scheduled.'),
    AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN,
    selectorColumn('A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors'),
  ],
  cells(o, now) {
    const spec = rec(o.spec);
    const status = rec(o.status);
    const jobSpec = rec(rec(spec.jobTemplate).spec);
    const [names, images] = containerCells(rec(rec(jobSpec.template).spec));
    const suspend = typeof spec.suspend === 'boolean' ? printBool(spec.suspend) : '<unset>';
    const last = status.lastScheduleTime ? ageSince(status.lastScheduleTime, now) : '<none>';
    return [o.metadata.name ?? '', str(spec.schedule), str(spec.timeZone) || '<none>', suspend, arr(status.active).length, last,
      ageSince(o.metadata.creationTimestamp, now), names, images, selectorString(jobSpec.selector)];
  },
};

export const controllerRevisionPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Controller', 'string', 'Controller of the object'),
    col('Revision', 'integer', 'Revision indicates the revision of the state represented by Data.'),
    AGE_COLUMN,
  ],
  cells(o, now) {
    const owner = (o.metadata.ownerReferences ?? []).find((r) => r.controller === true);
    let controller = '<none>';
    if (owner) {
      const group = owner.apiVersion.includes('/') ? owner.apiVersion.slice(0, owner.apiVersion.indexOf('/')) : '';
      controller = `${(group ? `${owner.kind}.${group}` : owner.kind).toLowerCase()}/${owner.name}`;
    }
    return [o.metadata.name ?? '', controller, int(o.revision), ageSince(o.metadata.creationTimestamp, now)];
  },
};
