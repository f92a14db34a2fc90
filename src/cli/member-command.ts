// `warren member add|list|remove`: platform-admin registration of member
// clusters in the host (Karmada push mode: a Secret with the member's
// kubeconfig and a cluster.karmada.io Cluster), like `karmadactl join|unjoin`.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Cluster, Taint, TaintEffect } from '../core/propagation/karmada-types.ts';
import { ageSince } from '../core/table/human-duration.ts';
import { formatObjects, parseOutput, printObjects, type Columns, type PrintOptions } from './object-printer.ts';
import { CLUSTERS_PATH, ensureMemberCluster, removeMemberCluster } from '../up/register-members.ts';
import { bool, list, str, type CliIo, type CommandInput } from './cli-io.ts';
import type { Upstream } from '../kube/upstream.ts';
import { hostFlags, hostUpstream } from './host-upstream.ts';

const EFFECTS = new Set<TaintEffect>(['NoSchedule', 'PreferNoSchedule', 'NoExecute']);

function fail(message: string): never {
  throw new Error(message);
}

export function parseLabel(text: string): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0) fail(`invalid label "${text}": want key=value`);
  return [text.slice(0, at), text.slice(at + 1)];
}

/**
 * Why a member name cannot name a Cluster, in the admin's terms, or undefined.
 * Karmada's rule (ValidateClusterName): a DNS-1123 label of at most 48
 * characters; it also names the Secret holding the member's kubeconfig.
 */
export function memberNameProblem(name: string): string | undefined {
  if (name.length > 48) return `invalid member cluster name "${name}": at most 48 characters`;
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name)) {
    return `invalid member cluster name "${name}": use lower case letters, digits and '-', starting and ending with a letter or digit (e.g. "member-1")`;
  }
  return undefined;
}

/**
 * The platform taints `member add` sets: undefined when no --taint was given (a re-add keeps the member's
 * taints, as it keeps its provider, region and zone), [] for `--taint=` (clear them), else exactly those given.
 */
export function memberTaints(given: string[]): Taint[] | undefined {
  if (given.length === 0) return undefined;
  if (given.length === 1 && given[0] === '') return [];
  return given.map(parseTaint);
}

/** kubectl taint syntax: key=value:Effect or key:Effect. */
export function parseTaint(text: string): Taint {
  const colon = text.lastIndexOf(':');
  const effect = text.slice(colon + 1) as TaintEffect;
  if (colon <= 0 || !EFFECTS.has(effect)) fail(`invalid taint "${text}": want key[=value]:NoSchedule|PreferNoSchedule|NoExecute`);
  const [key, value] = text.slice(0, colon).split('=', 2) as [string, string | undefined];
  if (!key) fail(`invalid taint "${text}": the key is empty`);
  return value === undefined || value === '' ? { key, effect } : { key, value, effect };
}

/**
 * `kubectl get clusters` on Karmada: NAME VERSION MODE READY AGE (its printer
 * columns); -o wide adds where the member is (provider, region, zone) and its taints.
 */
const CLUSTER_COLUMNS: Columns<Cluster> = {
  header: ['NAME', 'VERSION', 'MODE', 'READY', 'AGE'],
  wideHeader: ['PROVIDER', 'REGION', 'ZONE', 'TAINTS'],
  cells: (c, now) => [
    c.metadata.name ?? '',
    c.status?.kubernetesVersion ?? '',
    c.spec.syncMode ?? '',
    c.status?.conditions?.find((x) => x.type === 'Ready')?.status ?? 'Unknown',
    ageSince(c.metadata.creationTimestamp, now),
  ],
  wideCells: (c) => [
    c.spec.provider || '<none>',
    c.spec.region || '<none>',
    c.spec.zone || '<none>',
    (c.spec.taints ?? []).map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`).join(',') || '<none>',
  ],
  nameOf: (c) => `cluster.cluster.karmada.io/${c.metadata.name ?? ''}`,
};

export function formatClusters(clusters: Cluster[], options: PrintOptions): string {
  return formatObjects(clusters, CLUSTER_COLUMNS, options);
}

/**
 * Which kubeconfig is the host's and which the member's. As karmadactl join:
 * --kubeconfig is the control plane's (here the host's), --cluster-kubeconfig
 * the member's. The old spelling (host as --upstream-kubeconfig, member as
 * --kubeconfig) still works, with a deprecation warning.
 */
export function memberKubeconfigs(values: Record<string, unknown>): { host: string | undefined; member: string | undefined; warning?: string } {
  const s = (k: string): string | undefined => (typeof values[k] === 'string' ? values[k] : undefined);
  if (s('upstream-kubeconfig') !== undefined) {
    if (s('cluster-kubeconfig') !== undefined && s('kubeconfig') !== undefined) fail('--upstream-kubeconfig (deprecated) and --kubeconfig --cluster-kubeconfig: use the last two only');
    return {
      host: s('upstream-kubeconfig'),
      member: s('cluster-kubeconfig') ?? s('kubeconfig'),
      warning: 'Flag --upstream-kubeconfig has been deprecated: use --kubeconfig HOST --cluster-kubeconfig MEMBER, as karmadactl join',
    };
  }
  return { host: s('kubeconfig'), member: s('cluster-kubeconfig') };
}

async function getCluster(upstream: Upstream, name: string): Promise<Cluster> {
  const answer = await upstream.request<Cluster>('GET', `${CLUSTERS_PATH}/${name}`);
  if (answer.status === 404) fail(`member cluster "${name}" not found`);
  if (answer.status !== 200) fail(`cannot read member cluster "${name}": HTTP ${answer.status}`);
  return answer.body;
}

/** `member list` (every Cluster) and `member get NAME...`, printed as kubectl prints. */
async function showClusters(upstream: Upstream, io: CliIo, names: string[], values: CommandInput['values']): Promise<number> {
  const output = parseOutput(str(values, 'output'));
  let clusters: Cluster[];
  if (names.length > 0) {
    clusters = await Promise.all(names.map((n) => getCluster(upstream, n)));
  } else {
    const answer = await upstream.request<{ items?: Cluster[] }>('GET', CLUSTERS_PATH);
    if (answer.status !== 200) fail(`cannot list clusters: HTTP ${answer.status}`);
    clusters = answer.body.items ?? [];
  }
  return printObjects(io, clusters, CLUSTER_COLUMNS, { output, noHeaders: bool(values, 'no-headers'), now: new Date(), single: names.length === 1, empty: 'No member clusters registered.' });
}

async function readMemberKubeconfig(path: string | undefined): Promise<string> {
  if (!path) fail('member add needs --cluster-kubeconfig FILE (the member cluster\'s kubeconfig; --kubeconfig is the host\'s, as in karmadactl join)');
  if (!existsSync(path)) fail(`the member kubeconfig "${path}" does not exist`);
  return readFile(path, 'utf8');
}

export async function runMemberCommand({ io, values, positionals }: CommandInput): Promise<number> {
  const [verb, ...names] = positionals;
  const name = names[0];
  const kubeconfigs = memberKubeconfigs(values);
  if (kubeconfigs.warning) io.err(`${kubeconfigs.warning}\n`);
  if (verb === 'list' && names.length > 0) fail('member list takes no NAME (use member get NAME)');
  if (verb !== 'list') {
    if (!name) fail(`member ${verb ?? ''} needs a NAME`);
    if (verb !== 'get' && names.length > 1) fail(`member ${verb ?? ''} takes one NAME`);
    for (const n of names) {
      const problem = memberNameProblem(n);
      if (problem) fail(problem);
    }
  }
  // Flags are checked before the host is contacted: a typo in -o must not cost a round trip.
  if (verb === 'list' || verb === 'get') parseOutput(str(values, 'output'));
  // Everything the admin typed is checked before the host is contacted.
  const memberKubeconfig = verb === 'add' ? await readMemberKubeconfig(kubeconfigs.member) : '';
  const labels = Object.fromEntries(list(values, 'label').map(parseLabel));
  const taints = memberTaints(list(values, 'taint'));
  const upstream = hostUpstream({ ...hostFlags(values), kubeconfig: kubeconfigs.host }, io.env);
  try {
    switch (verb) {
      case 'add': {
        const outcome = await ensureMemberCluster(upstream, {
          name: name!,
          kubeconfig: memberKubeconfig,
          provider: str(values, 'provider'),
          region: str(values, 'region'),
          zone: str(values, 'zone'),
          labels,
          taints,
        });
        io.out(`cluster.cluster.karmada.io/${name} ${outcome === 'created' ? 'created' : 'configured'}\n`);
        return 0;
      }
      case 'list':
      case 'get':
        return await showClusters(upstream, io, verb === 'get' ? names : [], values);
      default: {
        if (!(await removeMemberCluster(upstream, name!))) fail(`member cluster "${name!}" not found`);
        io.out(`cluster.cluster.karmada.io/${name} deleted\n`);
        return 0;
      }
    }
  } finally {
    upstream.close();
  }
}
