// Printers for core/v1 kinds other than pods.
import { ageSince } from './human-duration.ts';
import { arr, formatLabels, int, joinHostPort, rec, rfc3339, str } from './cell-format.ts';
import { AGE_COLUMN, CREATION_TIMESTAMP_DESCRIPTION, NAME_COLUMN, col, type Printer } from './table-types.ts';

type Obj = Record<string, unknown>;

function loadBalancerIngress(status: unknown): string {
  return arr(rec(rec(status).loadBalancer).ingress).map(rec).map((i) => str(i.ip) || str(i.hostname)).filter((s) => s !== '').join(',');
}

function serviceExternalIP(spec: Obj, status: unknown): string {
  const external = arr(spec.externalIPs).map(String);
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return external.length > 0 ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerIngress(status);
      if (external.length > 0) return [...(lb ? lb.split(',') : []), ...external].join(',');
      return lb || '<pending>';
    }
    case 'ExternalName':
      return str(spec.externalName);
    default:
      return '<unknown>';
  }
}

function servicePorts(ports: unknown): string {
  return arr(ports).map(rec).map((p) => (int(p.nodePort) > 0 ? `${int(p.port)}:${int(p.nodePort)}/${str(p.protocol)}` : `${int(p.port)}/${str(p.protocol)}`)).join(',');
}

export const servicePrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Type', 'string', 'type determines how the Service is exposed. Defaults to ClusterIP.'),
    col('Cluster-IP', 'string', 'clusterIP is the IP address of the service and is usually assigned randomly.'),
    col('External-IP', 'string', 'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.'),
    col('Port(s)', 'string', 'The list of ports that are exposed by this service.'),
    AGE_COLUMN,
    col('Selector', 'string', 'Route service traffic to pods with label keys and values matching this selector.', 1),
  ],
  cells(o, now) {
    const spec = rec(o.spec);
    return [o.metadata.name ?? '', str(spec.type), str(arr(spec.clusterIPs)[0]) || '<none>', serviceExternalIP(spec, o.status),
      servicePorts(spec.ports) || '<none>', ageSince(o.metadata.creationTimestamp, now), formatLabels(spec.selector)];
  },
};

export const namespacePrinter: Printer = {
  columns: [NAME_COLUMN, col('Status', 'string', 'The status of the namespace'), AGE_COLUMN],
  cells: (o, now) => [o.metadata.name ?? '', str(rec(o.status).phase), ageSince(o.metadata.creationTimestamp, now)],
};

export const configMapPrinter: Printer = {
  columns: [NAME_COLUMN, col('Data', 'string', 'Number of data in the configmap'), AGE_COLUMN],
  cells: (o, now) => [o.metadata.name ?? '', Object.keys(rec(o.data)).length + Object.keys(rec(o.binaryData)).length, ageSince(o.metadata.creationTimestamp, now)],
};

export const secretPrinter: Printer = {
  columns: [NAME_COLUMN, col('Type', 'string', 'The type of the secret'), col('Data', 'string', 'The number of entries in the secret'), AGE_COLUMN],
  cells: (o, now) => [o.metadata.name ?? '', str(o.type), Object.keys(rec(o.data)).length, ageSince(o.metadata.creationTimestamp, now)],
};

export const serviceAccountPrinter: Printer = {
  columns: [NAME_COLUMN, col('Secrets', 'string', 'The number of secrets in the service account'), AGE_COLUMN],
  cells: (o, now) => [o.metadata.name ?? '', arr(o.secrets).length, ageSince(o.metadata.creationTimestamp, now)],
};

/** formatEndpoints: at most three "ip:port", then "+ N more...". */
export function formatEndpoints(subsets: unknown): string {
  const sets = arr(subsets).map(rec);
  if (sets.length === 0) return '<none>';
  const max = 3;
  const list: string[] = [];
  let more = false;
  let count = 0;
  for (const ss of sets) {
    const addresses = arr(ss.addresses).map(rec);
    const ports = arr(ss.ports).map(rec);
    if (ports.length === 0) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) { more = true; break; }
        list.push(str(a.ip));
      }
      continue;
    }
    for (const p of ports) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) { more = true; break; }
        list.push(joinHostPort(str(a.ip), int(p.port)));
      }
    }
  }
  return more ? `${list.join(',')} + ${count - max} more...` : list.join(',');
}

export const endpointsPrinter: Printer = {
  columns: [NAME_COLUMN, col('Endpoints', 'string', 'The set of all endpoints is the union of all subsets.'), AGE_COLUMN],
  cells: (o, now) => [o.metadata.name ?? '', formatEndpoints(o.subsets), ageSince(o.metadata.creationTimestamp, now)],
};

function nodeStatus(o: Obj): string {
  const conditions = arr(rec(o.status).conditions).map(rec);
  const ready = conditions.find((c) => c.type === 'Ready');
  const parts = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (rec(o.spec).unschedulable === true) parts.push('SchedulingDisabled');
  return parts.join(',');
}

function nodeRoles(labels: Record<string, string> | undefined): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/') && k.length > 'node-role.kubernetes.io/'.length) roles.add(k.slice('node-role.kubernetes.io/'.length));
    else if (k === 'kubernetes.io/role' && v !== '') roles.add(v);
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

const address = (o: Obj, type: string): string => str(arr(rec(o.status).addresses).map(rec).find((a) => a.type === type)?.address) || '<none>';

export const nodePrinter: Printer = {
  columns: [
    NAME_COLUMN, col('Status', 'string', 'The status of the node'), col('Roles', 'string', 'The roles of the node'), AGE_COLUMN,
    col('Version', 'string', 'Kubelet Version reported by the node.'),
    col('Internal-IP', 'string', 'List of addresses reachable to the node.', 1),
    col('External-IP', 'string', 'List of addresses reachable to the node.', 1),
    col('OS-Image', 'string', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', 1),
    col('Kernel-Version', 'string', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
    col('Container-Runtime', 'string', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', 1),
  ],
  cells(o, now) {
    const info = rec(rec(o.status).nodeInfo);
    return [o.metadata.name ?? '', nodeStatus(o), nodeRoles(o.metadata.labels), ageSince(o.metadata.creationTimestamp, now), str(info.kubeletVersion),
      address(o, 'InternalIP'), address(o, 'ExternalIP'), str(info.osImage) || '<unknown>', str(info.kernelVersion) || '<unknown>', str(info.containerRuntimeVersion) || '<unknown>'];
  },
};

export const resourceQuotaPrinter: Printer = {
  columns: [NAME_COLUMN, AGE_COLUMN, col('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    col('Limit', 'string', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.')],
  cells(o, now) {
    const hard = rec(rec(o.status).hard);
    const used = rec(rec(o.status).used);
    const request: string[] = [];
    const limit: string[] = [];
    for (const name of Object.keys(hard).sort()) {
      const line = `${name}: ${String(used[name] ?? '0')}/${String(hard[name])}`;
      (name.split('.')[0] === 'limits' && name.includes('.') ? limit : request).push(line);
    }
    return [o.metadata.name ?? '', ageSince(o.metadata.creationTimestamp, now), request.join(', '), limit.join(', ')];
  },
};

/** Roles, ClusterRoles and LimitRanges show the creation time itself. */
export const createdAtPrinter: Printer = {
  columns: [NAME_COLUMN, col('Created At', 'string', CREATION_TIMESTAMP_DESCRIPTION)],
  cells: (o) => [o.metadata.name ?? '', rfc3339(o.metadata.creationTimestamp)],
};
