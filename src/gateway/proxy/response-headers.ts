// Which upstream response headers a translated response keeps. Everything
// else (Content-Length of a body we rewrite, upstream's flow-control UIDs,
// Set-Cookie, anything we do not know) stays behind.
import type { IncomingMessage } from 'node:http';

export type ResponseHeaders = Record<string, string | string[] | number>;

/** Rewrites one Warning value (`299 - "text"`) into tenant terms, or drops it (undefined). */
export type WarningScrubber = (warning: string) => string | undefined;

/** Without a scrubber, warnings are dropped: their text may name upstream objects with the tenant prefix. */
const dropWarnings: WarningScrubber = () => undefined;

const KEPT = ['content-type', 'audit-id', 'cache-control'] as const;

export function safeResponseHeaders(upstreamRes: IncomingMessage, scrubWarning: WarningScrubber = dropWarnings): ResponseHeaders {
  const out: ResponseHeaders = {};
  for (const name of KEPT) {
    const value = upstreamRes.headers[name];
    if (value !== undefined) out[name] = value;
  }
  // rawHeaders, not headers: Node joins repeated Warning fields with ", ", and a warning's own text may hold commas.
  const warnings: string[] = [];
  const raw = upstreamRes.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]?.toLowerCase() !== 'warning') continue;
    const scrubbed = scrubWarning(raw[i + 1] ?? '');
    if (scrubbed !== undefined) warnings.push(scrubbed);
  }
  if (warnings.length > 0) out.warning = warnings;
  return out;
}
