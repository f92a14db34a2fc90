// fast-check arbitraries for tenant ids and DNS labels, shared by the tenancy property tests. Not in a
// .test.ts file: a test file that imported another ran that file's tests again in its own process (and
// once only where files share a process: scripts/test-batch.mjs).
import fc from 'fast-check';

export const tenantIdArb = fc.stringMatching(/^[a-z][a-z0-9]{5}$/);
export const dnsLabelArb = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?$/);
