// `warren member add|list|remove`: platform-admin registration of member
// clusters in the host (Karmada push mode: a Secret with the member's
// kubeconfig and a cluster.karmada.io Cluster), like `karmadactl join|unjoin`.
import { parseArgs } from 'node:util';
import { readFile } from 'node:fs/promises';
import type { Cluster, Taint, TaintEffect } from '../core/propagation/karmada-types.ts';
import { ageSince } from '../core/table/human-duration.ts';
import { CLUSTERS_PATH, ensureMemberCluster, removeMemberCluster } from '../up/register-members.ts';
import { hostUpstream } from './host-upstream.ts';

const USAGE = `Usage: warren member <add|list|remove> [NAME] [options]
  add NAME --kubeconfig FILE [--provider P] [--region R] [--zone Z] [--label k=v]... [--taint k=v:Effect]...
  list
  remove NAME
Host: --upstream-kubeconfig FILE, or --data-dir DIR of a \`warren up\` system (default .warren)
`;

const EFFECTS = new Set<TaintEffect>(['NoSchedule', 'PreferNoSchedule', 'NoExecute']);

function fail(message: string): never {
  throw new Error(message);
}

export function parseLabel(text: string): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0) fail(`invalid label "${text}": want key=value`);
  return [text.slice(0, at), text.slice(at + 1)];
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

/** The rows of `kubectl get clusters` on Karmada: NAME VERSION MODE READY AGE, padded like kubectl. */
export function formatClusterTable(clusters: Cluster[], now: Date): string {
  const rows = [['NAME', 'VERSION', 'MODE', 'READY', 'AGE'], ...clusters.map((c) => [
    c.metadata.name ?? '',
    c.status?.kubernetesVersion ?? '',
    c.spec.syncMode ?? '',
    c.status?.conditions?.find((x) => x.type === 'Ready')?.status ?? 'Unknown',
    ageSince(c.metadata.creationTimestamp, now),
  ])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd((widths[i] ?? 0) + 3))).join('')).join('\n') + '\n';
}

export async function runMemberCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'upstream-kubeconfig': { type: 'string' },
      'data-dir': { type: 'string' },
      kubeconfig: { type: 'string' },
      provider: { type: 'string' },
      region: { type: 'string' },
      zone: { type: 'string' },
      label: { type: 'string', multiple: true },
      taint: { type: 'string', multiple: true },
    },
    strict: true,
  });
  const [verb, name] = positionals;
  if (!verb || verb === 'help') {
    process.stdout.write(USAGE);
    return verb ? 0 : 2;
  }
  if (!['add', 'list', 'remove'].includes(verb)) {
    process.stderr.write(USAGE);
    return 2;
  }
  // --kubeconfig is the member's here (as karmadactl join --kubeconfig... is not); the host is --upstream-kubeconfig.
  const upstream = hostUpstream({ kubeconfig: values['upstream-kubeconfig'], 'data-dir': values['data-dir'] });
  try {
    switch (verb) {
      case 'add': {
        if (!name) fail('member add needs a NAME');
        if (!values.kubeconfig) fail('member add needs --kubeconfig FILE (the member cluster\'s)');
        const outcome = await ensureMemberCluster(upstream, {
          name,
          kubeconfig: await readFile(values.kubeconfig, 'utf8'),
          provider: values.provider,
          region: values.region,
          zone: values.zone,
          labels: Object.fromEntries((values.label ?? []).map(parseLabel)),
          taints: (values.taint ?? []).map(parseTaint),
        });
        process.stdout.write(`cluster.cluster.karmada.io/${name} ${outcome === 'created' ? 'created' : 'configured'}\n`);
        return 0;
      }
      case 'list': {
        const answer = await upstream.request<{ items?: Cluster[] }>('GET', CLUSTERS_PATH);
        if (answer.status !== 200) fail(`cannot list clusters: HTTP ${answer.status}`);
        const items = answer.body.items ?? [];
        if (items.length === 0) {
          process.stdout.write('No member clusters registered.\n');
          return 0;
        }
        process.stdout.write(formatClusterTable(items, new Date()));
        return 0;
      }
      default: {
        if (!name) fail('member remove needs a NAME');
        if (!(await removeMemberCluster(upstream, name))) fail(`member cluster "${name}" not found`);
        process.stdout.write(`cluster.cluster.karmada.io/${name} deleted\n`);
        return 0;
      }
    }
  } finally {
    upstream.close();
  }
}
