// Networking, RBAC bindings, scheduling, autoscaling, policy and coordination kinds.
import { ageSince } from './human-duration.ts';
import { arr, formatLabelSelector, int, rec, str } from './cell-format.ts';
import { AGE_COLUMN, NAME_COLUMN, col, type Printer } from './table-types.ts';

type Obj = Record<string, unknown>;

function ingressHosts(rules: unknown): string {
  const hosts = arr(rules).map(rec).map((r) => str(r.host)).filter((h) => h !== '');
  if (hosts.length === 0) return '*';
  const max = 4;
  return hosts.length > max ? `${hosts.slice(0, max).join(',')} + ${hosts.length - max} more...` : hosts.join(',');
}

export const ingressPrinter: Printer = {
  columns: [
    NAME_COLUMN, col('Class', 'string', 'The name of the IngressClass resource that should be used for this Ingress.'),
    col('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule'),
    col('Address', 'string', 'Address is a list containing ingress points for the load-balancer'),
    col('Ports', 'string', 'Ports of TLS configurations that open'), AGE_COLUMN,
  ],
  cells(o, now) {
    const spec = rec(o.spec);
    const address = arr(rec(rec(o.status).loadBalancer).ingress).map(rec).map((i) => str(i.ip) || str(i.hostname)).filter((s) => s).join(',');
    return [o.metadata.name ?? '', str(spec.ingressClassName) || '<none>', ingressHosts(spec.rules), address, arr(spec.tls).length > 0 ? '80, 443' : '80',
      ageSince(o.metadata.creationTimestamp, now)];
  },
};

export const networkPolicyPrinter: Printer = {
  columns: [NAME_COLUMN, col('Pod-Selector', 'string', 'podSelector selects the pods to which this NetworkPolicy object applies.'), AGE_COLUMN],
  cells: (o, now) => [o.metadata.name ?? '', formatLabelSelector(rec(o.spec).podSelector), ageSince(o.metadata.creationTimestamp, now)],
};

export const leasePrinter: Printer = {
  columns: [NAME_COLUMN, col('Holder', 'string', 'holderIdentity contains the identity of the holder of a current lease.'), AGE_COLUMN],
  cells: (o, now) => [o.metadata.name ?? '', str(rec(o.spec).holderIdentity), ageSince(o.metadata.creationTimestamp, now)],
};

function subjects(list: unknown): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const sas: string[] = [];
  for (const s of arr(list).map(rec)) {
    if (s.kind === 'User') users.push(str(s.name));
    else if (s.kind === 'Group') groups.push(str(s.name));
    else if (s.kind === 'ServiceAccount') sas.push(`${str(s.namespace)}/${str(s.name)}`);
  }
  return [users.join(', '), groups.join(', '), sas.join(', ')];
}

export const roleBindingPrinter: Printer = {
  columns: [
    NAME_COLUMN, col('Role', 'string', 'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace.'), AGE_COLUMN,
    col('Users', 'string', 'Users in the roleBinding', 1), col('Groups', 'string', 'Groups in the roleBinding', 1), col('ServiceAccounts', 'string', 'ServiceAccounts in the roleBinding', 1),
  ],
  cells(o, now) {
    const ref = rec(o.roleRef);
    return [o.metadata.name ?? '', `${str(ref.kind)}/${str(ref.name)}`, ageSince(o.metadata.creationTimestamp, now), ...subjects(o.subjects)];
  },
};

export const priorityClassPrinter: Printer = {
  columns: [
    NAME_COLUMN, col('Value', 'integer', 'value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.'),
    col('Global-Default', 'boolean', 'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.'),
    AGE_COLUMN,
    col('PreemptionPolicy', 'string', 'preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.'),
  ],
  cells: (o, now) => [o.metadata.name ?? '', int(o.value), o.globalDefault === true, ageSince(o.metadata.creationTimestamp, now), str(o.preemptionPolicy) || '<unset>'],
};

/** formatHPAMetrics, for the metric kinds people use: "cpu: 40%/80%", at most two, then "+ N more...". */
function hpaTargets(spec: Obj, status: Obj): string {
  const metrics = arr(spec.metrics).map(rec);
  if (metrics.length === 0) return '<none>';
  const current = arr(status.currentMetrics).map(rec);
  const list: string[] = [];
  metrics.forEach((m, i) => {
    const cur = current[i] ?? {};
    const source = rec(m[m.type === 'Resource' ? 'resource' : m.type === 'ContainerResource' ? 'containerResource' : m.type === 'Pods' ? 'pods' : m.type === 'Object' ? 'object' : 'external']);
    const curSource = rec(cur[m.type === 'Resource' ? 'resource' : m.type === 'ContainerResource' ? 'containerResource' : m.type === 'Pods' ? 'pods' : m.type === 'Object' ? 'object' : 'external']);
    const target = rec(source.target);
    const now = rec(curSource.current);
    let text: string;
    if (target.type === 'Utilization' && typeof target.averageUtilization === 'number') {
      const c = typeof now.averageUtilization === 'number' ? `${now.averageUtilization}%` : '<unknown>';
      text = `${c}/${target.averageUtilization}%`;
    } else {
      const want = target.averageValue ?? target.value;
      const have = now.averageValue ?? now.value;
      text = `${have === undefined ? '<unknown>' : String(have)}/${want === undefined ? '<unknown>' : String(want)}`;
      if (target.type === 'AverageValue' && m.type !== 'Resource' && m.type !== 'ContainerResource') text += ' (avg)';
    }
    const name = m.type === 'Resource' || m.type === 'ContainerResource' ? `${str(source.name)}: ` : '';
    list.push(`${name}${text}`);
  });
  const max = 2;
  return list.length > max ? `${list.slice(0, max).join(', ')} + ${list.length - max} more...` : list.join(', ');
}

export const hpaPrinter: Printer = {
  columns: [
    NAME_COLUMN, col('Reference', 'string', 'reference to scaled resource; horizontal pod autoscaler will learn the current resource consumption and will set the desired number of pods by using its Scale subresource.'),
    col('Targets', 'string', 'metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).'),
    col('MinPods', 'string', 'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.'),
    col('MaxPods', 'integer', 'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas.'),
    col('Replicas', 'string', 'currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.'),
    AGE_COLUMN,
  ],
  cells(o, now) {
    const spec = rec(o.spec);
    const status = rec(o.status);
    const ref = rec(spec.scaleTargetRef);
    return [o.metadata.name ?? '', `${str(ref.kind)}/${str(ref.name)}`, hpaTargets(spec, status), typeof spec.minReplicas === 'number' ? String(spec.minReplicas) : '<unset>',
      int(spec.maxReplicas), int(status.currentReplicas), ageSince(o.metadata.creationTimestamp, now)];
  },
};

export const pdbPrinter: Printer = {
  columns: [
    NAME_COLUMN, col('Min Available', 'string', 'The minimum number of pods that must be available.'),
    col('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
    col('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'), AGE_COLUMN,
  ],
  cells(o, now) {
    const spec = rec(o.spec);
    const show = (v: unknown): string => (v === undefined || v === null ? 'N/A' : String(v));
    return [o.metadata.name ?? '', show(spec.minAvailable), show(spec.maxUnavailable), int(rec(o.status).disruptionsAllowed), ageSince(o.metadata.creationTimestamp, now)];
  },
};
