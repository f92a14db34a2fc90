// Which of a list of resources an apiserver serves, from its discovery documents
// (/api/v1, /apis/GROUP/VERSION), and a watch that asks again periodically so a
// resource that appears later (an upgrade, a CRD installed) is picked up.
//
// Only a 404 for the group-version, or a document that does not list the
// resource, means "not served". Any other failure (a timeout, a 503 while the
// apiserver starts, an aggregated API that is down) says nothing: the resource
// keeps the answer it had, and a resource never answered counts as served, so a
// flaky moment never makes Warren drop a kind it was watching.
import type { Upstream } from './upstream.ts';

export interface ServedResource {
  group: string;
  version: string;
  /** The plural, as in the URL. */
  resource: string;
}

export function groupVersionPath(r: Pick<ServedResource, 'group' | 'version'>): string {
  return r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
}

interface DiscoveryDocument {
  resources?: Array<{ name?: string }>;
}

/** For each resource: true (listed), false (its group-version is 404 or does not list it), undefined (could not tell). */
export async function checkServed(upstream: Upstream, resources: readonly ServedResource[]): Promise<Array<boolean | undefined>> {
  const documents = new Map<string, Promise<Set<string> | false | undefined>>();
  const documentOf = (path: string): Promise<Set<string> | false | undefined> => {
    let doc = documents.get(path);
    if (!doc) {
      doc = upstream.request<DiscoveryDocument>('GET', path).then(
        (res) => {
          if (res.status === 404) return false;
          if (res.status !== 200) return undefined;
          return new Set((res.body.resources ?? []).map((r) => r.name ?? ''));
        },
        () => undefined,
      );
      documents.set(path, doc);
    }
    return doc;
  };
  return await Promise.all(resources.map(async (r) => {
    const doc = await documentOf(groupVersionPath(r));
    return doc === undefined ? undefined : doc !== false && doc.has(r.resource);
  }));
}

export interface ServedResourcesWatch {
  /** Resolves after the first check (whatever it found). */
  checked(): Promise<void>;
  /** The resources not served at the last check. */
  missing(): ServedResource[];
  stop(): void;
}

export interface ServedResourcesWatchOptions<R extends ServedResource> {
  upstream: Upstream;
  resources: readonly R[];
  /** Called once for each resource when it is (or becomes) served. */
  onServed: (r: R) => void;
  /** Called once for each resource found missing (again only after it was served and went away). */
  onMissing?: (r: R) => void;
  /** How often discovery is asked again while something is missing; default 60 s. */
  intervalMs?: number;
  /** Whether a resource is still worth asking about (default: all); one no longer wanted is not asked for, nor waited for. */
  wanted?: (r: R) => boolean;
}

/**
 * Reports each resource as served (once) or missing, and asks discovery again every
 * intervalMs while any is missing. A resource once served stays reported: its own
 * informer sees a later 404 (and says so), as kube's reflectors do.
 */
export function watchServedResources<R extends ServedResource>(options: ServedResourcesWatchOptions<R>): ServedResourcesWatch {
  const intervalMs = options.intervalMs ?? 60_000;
  const served = new Set<R>();
  const missing = new Set<R>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const wanted = options.wanted ?? (() => true);
  const forgetUnwanted = (): void => { for (const r of missing) if (!wanted(r)) missing.delete(r); };
  const check = async (): Promise<void> => {
    forgetUnwanted();
    const pending = options.resources.filter((r) => !served.has(r) && wanted(r));
    if (pending.length === 0) return;
    const answers = await checkServed(options.upstream, pending);
    if (stopped) return;
    for (const [i, r] of pending.entries()) {
      const answer = answers[i];
      if (answer === false) {
        if (!missing.has(r)) options.onMissing?.(r);
        missing.add(r);
      } else {
        // Served, or unknown: an informer will tell (and retry) if it is not.
        missing.delete(r);
        served.add(r);
        options.onServed(r);
      }
    }
    forgetUnwanted(); // what this check's onServed made unwanted is not asked about again
  };
  const loop = (): void => {
    if (stopped || missing.size === 0) return;
    timer = setTimeout(() => { void check().finally(loop); }, intervalMs);
    timer.unref();
  };
  const first = check().then(loop);
  return {
    checked: () => first,
    missing: () => [...missing],
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
