// Upstream text in tenant terms, totally (issue 13): whatever an upstream
// message says about the caller's own objects, other tenants' objects, user
// names, storage keys or host files, what leaves names the caller's objects as
// the caller wrote them and nothing else: no `<id>-` of any tenant, no
// `warren:<id>:`, no storage key, no host path.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { HIDDEN, scrubText, toTenantStatus } from '../../../../src/core/tenancy/status-translation.ts';
import { prefixOwner } from '../../../../src/core/tenancy/tenant-id.ts';
import type { Status } from '../../../../src/core/types.ts';
import { dnsLabelArb, tenantIdArb } from './name-arbitraries.ts';

const OWN = 'acme01';
const OTHER = 'glob3x';
const known = (id: string): boolean => id === OWN || id === OTHER;

/** A tenant-written label that is not itself shaped like a prefixed name (so every `<id>-` left would be a leak). */
const labelArb = dnsLabelArb.filter((l) => prefixOwner(l) === undefined);

interface Fragment { text: string; own?: string }

function fragmentArb(own: string, others: string[]): fc.Arbitrary<Fragment> {
  const other = fc.constantFrom(...others);
  return fc.oneof(
    labelArb.map((l) => ({ text: `${own}-${l}`, own: l })),
    fc.tuple(other, labelArb).map(([o, l]) => ({ text: `${o}-${l}` })),
    fc.tuple(other, labelArb).map(([o, l]) => ({ text: `${o}-${l}.example.com` })),
    // Another tenant's prefixed name inside a word (nothing upstream is known to write one: hidden all the same).
    fc.tuple(labelArb, other, labelArb).map(([w, o, l]) => ({ text: `${w}-${o}-${l}` })),
    fc.tuple(fc.constantFrom(own, ...others), labelArb, labelArb).map(([o, ns, n]) => ({ text: `/registry/configmaps/${o}-${ns}/${n}` })),
    fc.tuple(fc.constantFrom(own, ...others), labelArb).map(([o, n]) => ({ text: `/registry/${o}-foo.example.com/widgets/${n}` })),
    labelArb.map((l) => ({ text: `/var/lib/warren/${l}/store.log` })),
    labelArb.map((l) => ({ text: `file:///var/lib/warren/${l}/store.ts` })),
    fc.tuple(fc.constantFrom(own, ...others), labelArb).map(([o, u]) => ({ text: `warren:${o}:${u}` })),
  );
}

const joiners = ['configmaps "$"', 'namespace $ is terminating', 'Key: $, ResourceVersion: 0', 'Invalid value: "$"', "open '$': no such file", '($)', '[$]', '$: not found', 'cannot use $/x'];

function messageArb(own: string, others: string[]): fc.Arbitrary<{ text: string; owns: string[] }> {
  return fc.array(fc.tuple(fragmentArb(own, others), fc.constantFrom(...joiners)), { minLength: 1, maxLength: 6 })
    .map((parts) => ({ text: parts.map(([f, j]) => j.replace('$', f.text)).join(' '), owns: parts.flatMap(([f]) => (f.own ? [f.own] : [])) }));
}

function leaks(out: string, ids: string[]): string[] {
  const found: string[] = [];
  for (const id of ids) if (new RegExp(`(?<![a-z0-9-])${id}-|warren:${id}:`).test(out)) found.push(id);
  // Inside a word: another tenant's only (the caller's own id there is not a leak).
  for (const id of ids.slice(1)) if (out.includes(`-${id}-`)) found.push(`${id} inside a word`);
  if (/\/registry|\/var\//.test(out)) found.push('host path or storage key');
  return found;
}

describe('upstream text in tenant terms', () => {
  it('property: no tenant prefix, user space, storage key or host path leaves; the caller\'s names stay', () => {
    const ids = fc.uniqueArray(tenantIdArb, { minLength: 2, maxLength: 4 });
    fc.assert(fc.property(ids.chain((all) => fc.tuple(fc.constant(all), messageArb(all[0]!, all.slice(1)))), ([all, msg]) => {
      const own = all[0]!;
      const isKnown = (id: string): boolean => all.includes(id);
      const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 409, reason: 'Conflict', message: msg.text,
        details: { name: msg.text, causes: [{ message: msg.text, field: msg.text }] } };
      const out = toTenantStatus(own, status, isKnown);
      for (const text of [out.message!, out.details!.name!, out.details!.causes![0]!.message!, out.details!.causes![0]!.field!]) {
        assert.deepEqual(leaks(text, all), [], `${JSON.stringify(msg.text)} → ${JSON.stringify(text)}`);
        for (const name of msg.owns) assert.ok(text.includes(name), `own name ${name} kept in ${text}`);
      }
    }), { numRuns: 400 });
  });

  const cases: Array<{ name: string; upstream: string; want: string }> = [
    { name: 'real 1.20 uid-precondition 409 (storage key with the upstream namespace)',
      upstream: `Operation cannot be fulfilled on configmaps "x": StorageError: invalid object, Code: 4, Key: /registry/configmaps/${OWN}-shop/x, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: 1f, UID in object meta: 2e`,
      want: `Operation cannot be fulfilled on configmaps "x": StorageError: invalid object, Code: 4, Key: ${HIDDEN}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: 1f, UID in object meta: 2e` },
    { name: 'embedded store file error',
      upstream: "Internal error occurred: writing the store log: EACCES: permission denied, open '/tmp/warren-x/host/store.log'",
      want: `Internal error occurred: writing the store log: EACCES: permission denied, open '${HIDDEN}'` },
    { name: 'another tenant\'s namespace and user', upstream: `namespaces "${OTHER}-shop" is forbidden: User "warren:${OTHER}:hank" cannot get`, want: `namespaces "${HIDDEN}" is forbidden: User "${HIDDEN}" cannot get` },
    { name: 'own names shortened, own user too', upstream: `rolebindings "b" in ${OWN}-shop: User "warren:${OWN}:bob"`, want: 'rolebindings "b" in shop: User "bob"' },
    { name: 'what the tenant wrote that looks like another id is kept when prefixed by its own', upstream: `Invalid value: "${OWN}-${OTHER}-x"`, want: `Invalid value: "${OTHER}-x"` },
    { name: 'another tenant\'s prefixed name inside a word is hidden whole', upstream: `namespaces "x-${OTHER}-shop" and x.${OTHER}-shop, ${OTHER}-a-${OTHER}-b`, want: `namespaces "${HIDDEN}" and x.${HIDDEN}, ${HIDDEN}` },
    { name: 'the caller\'s own id inside a word is its own text', upstream: `Invalid value: "x-${OWN}-shop"`, want: `Invalid value: "x-${OWN}-shop"` },
    { name: 'a word that only contains an id-shaped part (not a known tenant) passes', upstream: 'image-abcdef-v2 and my-app-shop1-x', want: 'image-abcdef-v2 and my-app-shop1-x' },
    { name: 'ordinary words pass', upstream: 'server-side apply failed: object-meta is invalid; see /apis/apps/v1', want: 'server-side apply failed: object-meta is invalid; see /apis/apps/v1' },
    { name: 'a file URL is a host path (a stack line of native ESM)',
      upstream: 'Internal error occurred: at open (file:///work/main/src/apiserver/store/log.ts:10:5), at file:///var/lib/warren/x.js',
      want: `Internal error occurred: at open (${HIDDEN}:10:5), at ${HIDDEN}` },
    { name: 'URLs keep their path', upstream: `Post "https://hook.${OWN}-shop.svc:443/validate?timeout=10s": EOF`, want: 'Post "https://hook.shop.svc:443/validate?timeout=10s": EOF' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(scrubText(OWN, c.upstream, known), c.want));

  it('without the directory, the caller\'s own prefix, host paths and other user spaces still go', () => {
    assert.equal(scrubText(OWN, `Key: /registry/pods/${OWN}-a/p user warren:${OTHER}:x in ${OWN}-a`), `Key: ${HIDDEN} user ${HIDDEN} in a`);
  });
});
