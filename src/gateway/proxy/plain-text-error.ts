// An upstream error that is not a Status. A real kube-apiserver answers some
// errors in plain text (a path in a group nobody serves: `404 page not found`,
// text/plain, from its mux rather than an API handler). The tenant gets the
// code as a Status, in client-go's generic words for it, never the upstream's
// text (which could one day name an upstream path). Used by the proxied
// answers (json-response.ts) and by the answers the gateway already holds
// (read-then-write paths, response-pipe.ts), so both say the same.
import { ApiError, REASON_CODES, type StatusReason } from '../../core/api-error.ts';
import { isObject } from '../../core/types.ts';

/** The Status for an error code answered without one, or undefined for a success code or an unknown one. */
export function plainTextError(code: number): ApiError | undefined {
  if (code < 400) return undefined;
  if (code === 404) return new ApiError('NotFound', 'the server could not find the requested resource');
  if (code === 405) return new ApiError('MethodNotAllowed', 'the server does not allow this method on the requested resource');
  const reason = (Object.keys(REASON_CODES) as StatusReason[]).find((r) => REASON_CODES[r] === code);
  return reason ? new ApiError(reason, `the server responded with the status code ${code} but did not return more information`) : undefined;
}

/** An error answer whose body is no Status object (plain text parsed as a string, or nothing JSON). */
export function isBareError(status: number, body: unknown): boolean {
  return status >= 400 && !(isObject(body) && body.kind === 'Status');
}
