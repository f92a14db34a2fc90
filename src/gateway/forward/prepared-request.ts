// The exact upstream request the gateway is about to send: what the guard judges.
import type { KubeObject } from '../../core/types.ts';
import type { WriteTarget } from './write-object.ts';
export interface PreparedRequest {
  method: string;
  /** Upstream path, percent-encoded, without query. */
  path: string;
  query: URLSearchParams;
  /** JSON body to send upstream, if any. */
  body?: KubeObject | unknown;
  contentType?: string;
  /** What the guard looks at: the object a create or update names. */
  guardBody?: unknown;
  mode: 'json' | 'watch' | 'stream' | 'patch' | 'upgrade';
  patchType?: string;
  /** The client's body was read (and translated): send `body`, even if empty. */
  bodyConsumed?: boolean;
  /** A create, update or server-side apply: the final object in both spellings, for the guard and admission. */
  final?: { tenant: KubeObject; upstream: KubeObject; apply: boolean };
  /** A patch the gateway applies itself: what the patched object must be. */
  write?: WriteTarget;
}

/** An upstream path with its query, as sent. */
export function withQuery(path: string, query: URLSearchParams): string {
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
