// The exact upstream request the gateway is about to send: what the guard judges.
import type { KubeObject } from '../../core/types.ts';
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
}
