// How the platform-admin commands find the host cluster, as kubectl finds its
// cluster: --kubeconfig FILE, else --data-dir DIR of a `warren up` system
// (DIR/admin.kubeconfig), else $KUBECONFIG (a list of files, merged as kubectl
// merges them: the first to set a value wins), else .warren/admin.kubeconfig;
// --context picks a context. An unreachable host is named in the error: the
// upstream client's generic "unavailable" is worded for tenants, who must not
// learn the address; the platform admin needs it.
import { statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ApiError } from '../core/api-error.ts';
import { currentCluster, type KubeconfigView } from '../kube/kubeconfig-view.ts';
import { createUpstream } from '../kube/upstream-client.ts';
import { exportKubeconfig, mergeKubeconfigs, readKubeconfigFile } from './kubeconfig-merge.ts';
import type { Upstream } from '../kube/upstream.ts';

/** A readable kubeconfig is a file (a directory named in $KUBECONFIG is skipped, as kubectl skips missing ones). */
function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}

export interface HostFlags {
  kubeconfig?: string | undefined;
  context?: string | undefined;
  dataDir?: string | undefined;
}

export interface HostSource {
  /** The files read, in order. */
  paths: string[];
  /** Where they came from, for messages: "--kubeconfig", "$KUBECONFIG", ... */
  from: string;
}

/** Which kubeconfig files the host comes from (pure but for `exists`). */
export function hostSource(flags: HostFlags, env: Readonly<Record<string, string | undefined>>, exists: (p: string) => boolean = isFile): HostSource {
  if (flags.kubeconfig) return { paths: [flags.kubeconfig], from: '--kubeconfig' };
  if (flags.dataDir) return { paths: [join(flags.dataDir, 'admin.kubeconfig')], from: '--data-dir' };
  const listed = (env.KUBECONFIG ?? '').split(delimiter).filter((p) => p !== '');
  if (listed.length > 0) return { paths: listed.filter(exists), from: `$KUBECONFIG=${env.KUBECONFIG ?? ''}` };
  return { paths: [join('.warren', 'admin.kubeconfig')], from: 'the default .warren' };
}

/** The merged kubeconfig, with the chosen context current. */
export function loadHostKubeconfig(source: HostSource, context: string | undefined, exists: (p: string) => boolean = isFile): KubeconfigView {
  const missing = source.paths.find((p) => !exists(p));
  if (source.paths.length === 0 || missing) {
    throw new Error(`no host kubeconfig${missing ? ` at ${missing}` : ''} (from ${source.from}): pass --kubeconfig FILE, set $KUBECONFIG, or --data-dir DIR of a running \`warren up\``);
  }
  const merged = mergeKubeconfigs(source.paths.map(readKubeconfigFile));
  if (context !== undefined) {
    if (!merged.contexts.some((c) => c.name === context)) throw new Error(`context "${context}" does not exist in ${source.paths.join(', ')}`);
    merged.currentContext = context;
  }
  if (!currentCluster(merged)) throw new Error(`the kubeconfig ${source.paths.join(', ')} has no current context (pass --context NAME)`);
  return merged;
}

function named(err: unknown, server: string, source: HostSource): unknown {
  if (err instanceof ApiError && (err.reason === 'ServiceUnavailable' || err.reason === 'Timeout')) {
    return new Error(`${err.message}: tried ${server} (kubeconfig ${source.paths.join(', ')} from ${source.from}; is it running?)`);
  }
  return err;
}

/** The Upstream to the host; failures to reach it name the address tried. */
export function hostUpstream(flags: HostFlags, env: Readonly<Record<string, string | undefined>>): Upstream {
  const source = hostSource(flags, env);
  const upstream = createUpstream({ yaml: exportKubeconfig(loadHostKubeconfig(source, flags.context)) });
  const server = upstream.server;
  const rethrow = (err: unknown): never => {
    throw named(err, server, source);
  };
  return {
    server,
    requestOptions: () => upstream.requestOptions(),
    request<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
      return upstream.request<T>(method, path, body, headers).catch(rethrow);
    },
    stream: (path, headers) => upstream.stream(path, headers).catch(rethrow),
    close: () => upstream.close(),
  };
}

/** The host flags out of a command's parsed values. */
export function hostFlags(values: Record<string, unknown>): HostFlags {
  const s = (k: string): string | undefined => (typeof values[k] === 'string' ? values[k] : undefined);
  return { kubeconfig: s('kubeconfig'), context: s('context'), dataDir: s('data-dir') };
}
