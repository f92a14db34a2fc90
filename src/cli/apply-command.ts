// `warren apply -f FILE|DIR [...] [--wait]`: onboarding the GitOps way. The
// manifests (Tenants, and Karmada Clusters that register members) are
// server-side applied to the host with field manager `warren` and kubectl's
// last-applied annotation (src/up/apply-tenants.ts), so applying the same
// folder twice changes nothing and `kubectl apply -f tenants/` is an
// equivalent path, not a different one.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../core/types.ts';
import type { Upstream } from '../kube/upstream.ts';
import { TENANTS_PATH, TENANT_API_VERSION, type Tenant } from '../tenants/tenant-crd.ts';
import { applyManifest } from '../up/apply-tenants.ts';
import { CLUSTERS_PATH } from '../up/register-members.ts';
import { bool, list, str, type CommandInput } from './cli-io.ts';
import { hostFlags, hostUpstream } from './host-upstream.ts';
import { createProgress, describeTenant, tenantVerdict, whyNotReady, type Progress } from './progress.ts';

export interface Manifest { source: string; object: KubeObject }
export interface ApplyTarget { path: string; ref: string; kind: 'Tenant' | 'Cluster' }
export type ApplyOutcome = 'created' | 'configured' | 'unchanged';

/** Every object in one YAML/JSON text; a `kind: List` gives its items, empty documents are dropped. */
export function parseManifests(text: string, source: string): Manifest[] {
  const out: Manifest[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new Error(`${source}: ${doc.errors[0]?.message ?? 'invalid YAML'}`);
    const value = doc.toJS() as unknown;
    if (value === null || value === undefined) continue;
    if (typeof value !== 'object' || Array.isArray(value)) throw new Error(`${source}: a document is not an object`);
    const object = value as KubeObject;
    if (object.kind === 'List' || (typeof object.kind === 'string' && object.kind.endsWith('List') && Array.isArray(object.items))) {
      for (const item of (object.items ?? []) as KubeObject[]) out.push({ source, object: item });
    } else {
      out.push({ source, object });
    }
  }
  return out;
}

/** Where an object is applied, or why warren apply does not take it (pure: checked for every manifest before anything is sent). */
export function targetOf(object: KubeObject): ApplyTarget | string {
  const name = object.metadata?.name;
  const what = `${object.kind ?? '(no kind)'} ${object.apiVersion ?? '(no apiVersion)'}`;
  if (object.apiVersion === TENANT_API_VERSION && object.kind === 'Tenant') {
    if (!name) return 'a Tenant has no metadata.name';
    return { path: `${TENANTS_PATH}/${name}`, ref: `tenant/${name}`, kind: 'Tenant' };
  }
  if (object.apiVersion === 'cluster.karmada.io/v1alpha1' && object.kind === 'Cluster') {
    if (!name) return 'a Cluster has no metadata.name';
    return { path: `${CLUSTERS_PATH}/${name}`, ref: `cluster/${name}`, kind: 'Cluster' };
  }
  return `${what}${name ? ` "${name}"` : ''}: warren apply takes Tenants and Karmada Clusters; use kubectl apply for anything else`;
}

/** kubectl's words: the object was absent, its resourceVersion moved, or the apply was a no-op. */
export function applyOutcome(before: string | undefined, after: string | undefined): ApplyOutcome {
  if (before === undefined) return 'created';
  return before === after ? 'unchanged' : 'configured';
}

/** The files behind each -f: a file itself, or a folder's manifest files in name order (not recursive, as kubectl without -R). */
export function manifestFiles(paths: string[]): string[] {
  const missing = paths.find((p) => !existsSync(p));
  if (missing !== undefined) throw new Error(`the path "${missing}" does not exist`);
  return paths.flatMap((p) => (statSync(p).isDirectory()
    ? readdirSync(p, { withFileTypes: true }).filter((e) => e.isFile() && /\.(ya?ml|json)$/.test(e.name)).map((e) => join(p, e.name)).sort()
    : [p]));
}

async function applyOne(upstream: Upstream, target: ApplyTarget, object: KubeObject): Promise<{ outcome: ApplyOutcome; applied: KubeObject }> {
  const before = await upstream.request<KubeObject>('GET', target.path);
  if (before.status !== 200 && before.status !== 404) throw new Error(`${target.ref}: cannot read it: ${messageOf(before.body, before.status)}`);
  // force: the manifests in the repository own the fields they name, as Flux and Argo CD apply them.
  const answer = await applyManifest(upstream, target.path, object);
  if (answer.status !== 200 && answer.status !== 201) throw new Error(`${target.ref}: ${messageOf(answer.body, answer.status)}`);
  const beforeVersion = before.status === 200 ? before.body.metadata.resourceVersion ?? '' : undefined;
  const applied = answer.body as KubeObject;
  return { outcome: applyOutcome(beforeVersion, applied.metadata?.resourceVersion), applied };
}

function messageOf(body: unknown, status: number): string {
  const message = (body as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : `HTTP ${status}`;
}

/** Polls one Tenant until ready, failed or the deadline; a progress line each time its state changes. */
async function waitReady(upstream: Upstream, name: string, deadline: number, progress: Progress): Promise<boolean> {
  let last: Tenant | undefined;
  for (;;) {
    const answer = await upstream.request<Tenant>('GET', `${TENANTS_PATH}/${name}`);
    if (answer.status === 200) {
      last = answer.body;
      progress.update(`tenant/${name}`, describeTenant(last));
      const verdict = tenantVerdict(last);
      if (verdict === 'ready') return true;
      if (verdict === 'failed') break;
    }
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  progress.line(`tenant/${name} is not Ready:`);
  for (const why of whyNotReady(last)) progress.line(`  ${why}`);
  return false;
}

export async function runApplyCommand({ io, values }: CommandInput): Promise<number> {
  const filenames = list(values, 'filename');
  if (filenames.length === 0) {
    io.err('error: must specify one of -f and --filename\nSee \'warren apply --help\' for usage.\n');
    return 1;
  }
  const timeout = str(values, 'timeout') ?? '120';
  const timeoutMs = Number(timeout) * 1000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new Error('--timeout must be a positive number of seconds');
  // Read and check everything first: a typo in the last file must not leave the first half applied.
  const manifests = manifestFiles(filenames).flatMap((file) => parseManifests(readFileSync(file, 'utf8'), file));
  if (manifests.length === 0) throw new Error(`no objects found in ${filenames.join(', ')}`);
  const planned = manifests.map((m) => ({ ...m, target: targetOf(m.object) }));
  const refused = planned.filter((p) => typeof p.target === 'string');
  if (refused.length > 0) throw new Error(refused.map((p) => `${p.source}: ${p.target as string}`).join('\n'));

  const upstream = hostUpstream(hostFlags(values), io.env);
  try {
    const tenants: string[] = [];
    let failed = 0;
    // Like kubectl: one object refused by the server does not stop the others.
    for (const { object, target } of planned as Array<Manifest & { target: ApplyTarget }>) {
      try {
        const { outcome } = await applyOne(upstream, target, object);
        io.out(`${target.ref} ${outcome}\n`);
        if (target.kind === 'Tenant') tenants.push(object.metadata.name ?? '');
      } catch (err) {
        failed++;
        io.err(`error: ${(err as Error).message}\n`);
      }
    }
    if (!bool(values, 'wait') || tenants.length === 0) return failed > 0 ? 1 : 0;
    const progress = createProgress(io.out);
    progress.line(`waiting for ${tenants.length} tenant${tenants.length === 1 ? '' : 's'} to be Ready (timeout ${timeout}s)`);
    const deadline = Date.now() + timeoutMs;
    // In parallel: the controller onboards them side by side, so a slow one must not hide the others' progress.
    const results = await Promise.all(tenants.map((name) => waitReady(upstream, name, deadline, progress)));
    const notReady = tenants.filter((_, i) => !results[i]);
    if (notReady.length > 0) {
      io.err(`error: not Ready: ${notReady.map((n) => `tenant/${n}`).join(', ')}\n`);
      return 1;
    }
    progress.line(tenants.length === 1 ? `tenant/${tenants[0] ?? ''} Ready` : `all ${tenants.length} tenants Ready`);
    return failed > 0 ? 1 : 0;
  } finally {
    upstream.close();
  }
}
