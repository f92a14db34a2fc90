// How an adversarial test judges an answer: a refusal is a Kubernetes Status
// with the expected code and reason, worded in the caller's terms (no upstream
// `<id>-` prefix of any tenant in the message); a negative ("nothing landed")
// is watched over a window rather than sampled once, because the engine and
// the gateway's caches act after the answer.
import assert from 'node:assert/strict';
import type { HttpResult } from '../../helpers/kube-http.ts';

const REASONS: Record<number, string> = {
  400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 409: 'AlreadyExists', 413: 'RequestEntityTooLarge', 422: 'Invalid', 429: 'TooManyRequests',
};

/** Asserts a refusal: this code, a Status body with the code's reason, and no upstream prefix of these ids in it. */
export function assertRefused(res: HttpResult, code: number, what: string, ids: readonly string[] = []): void {
  assert.equal(res.status, code, `${what}: want ${code}, got ${res.status}: ${res.text.slice(0, 300)}`);
  if (code === 401) return; // kube answers 401 with a Status too, but the TLS layer may answer first
  assert.equal(res.body?.kind, 'Status', `${what}: a Status body: ${res.text.slice(0, 300)}`);
  const reason = REASONS[code];
  if (reason && code !== 409 && code !== 422) assert.equal(res.body.reason, reason, `${what}: reason`);
  for (const id of ids) assert.ok(!res.text.includes(`${id}-`) && !res.text.includes(`warren:${id}:`), `${what}: the message names the upstream prefix of ${id}: ${res.text.slice(0, 300)}`);
}

/** Asserts a kubectl failure whose stderr says Forbidden. */
export function assertKubectlForbidden(r: { code: number | null; stderr: string; stdout: string }, what: string): void {
  assert.notEqual(r.code, 0, `${what}: kubectl succeeded: ${r.stdout}`);
  assert.match(r.stderr, /Forbidden|forbidden/, `${what}: ${r.stderr}`);
}

/**
 * Polls `violation` for `windowMs`: it returns a description of what went wrong,
 * or undefined while all is well. A window (not a single sample) lets a slow
 * engine show a late write; all is well only if it never does in the window.
 */
export async function consistently(violation: () => Promise<string | undefined>, what: string, { windowMs = 6_000, intervalMs = 300 } = {}): Promise<void> {
  const deadline = Date.now() + windowMs;
  for (;;) {
    const found = await violation();
    assert.equal(found, undefined, `${what}: ${found}`);
    if (Date.now() >= deadline) return;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Like eventually(), but gives up quietly: for a step an attack may or may not get to (a refused create has nothing to wait for). */
export async function waitAtMost(probe: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}
