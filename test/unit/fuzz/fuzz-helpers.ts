// Shared pieces of the fuzz suites: the one rule every entry point must keep
// (an input may be refused only with an ApiError, i.e. a Kubernetes Status)
// and generators of the nasty strings that reach the gateway from the wire.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError } from '../../../src/core/api-error.ts';

/** Runs `step`; returns its value, or undefined when it threw an ApiError; fails on anything else. */
export function refusedOnlyWithStatus<T>(step: () => T): T | undefined {
  try {
    return step();
  } catch (err) {
    assert.ok(err instanceof ApiError, `threw ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)} instead of an ApiError`);
    const status = err.toStatus();
    assert.equal(status.kind, 'Status');
    assert.ok(status.code >= 400 && status.code < 600);
    return undefined;
  }
}

/** Characters that break parsers: separators, escapes, percent signs, unicode, control characters. */
const NASTY = ['/', '%', '%2F', '%zz', '..', '.', '?', '#', '&', '=', ',', '!', '(', ')', ' ', '\\', '\u0000', '\n', 'é', '🙂', '\uD800', 'in', 'notin', 'watch', 'api', 'apis', 'v1', 'namespaces', 'status', 'aaaaaa-'];

export const nastyString: fc.Arbitrary<string> = fc.array(fc.oneof(fc.constantFrom(...NASTY), fc.string({ maxLength: 4 }), fc.string({ unit: 'grapheme', maxLength: 3 })), { maxLength: 8 }).map((parts) => parts.join(''));

/** DNS-1123 labels, as tenant namespaces and names are. */
export const dnsLabel: fc.Arbitrary<string> = fc.stringMatching(/^[a-z]([a-z0-9-]{0,14}[a-z0-9])?$/);

export const RUNS = { numRuns: 300 } as const;
