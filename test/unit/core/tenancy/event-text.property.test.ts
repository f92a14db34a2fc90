// Property (session 13, a1): an Event's text is upstream text (row M). Whatever
// the host's or a member's components wrote in an Event of the caller's
// namespace (core/v1 `message`, events.k8s.io/v1 `note`), naming the caller's own
// objects, other tenants' objects (the scheduler's "Preempted by <ns>/<pod>")
// or host paths, the Event the caller reads names no other tenant's id, no host
// path, and its own objects in its own spelling. The `related` object of
// another tenant goes too. Judged on the whole translated object's JSON.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { toTenantObject } from '../../../../src/core/tenancy/object-translation.ts';
import { prefixOwner } from '../../../../src/core/tenancy/tenant-id.ts';
import type { KubeObject } from '../../../../src/core/types.ts';
import { dnsLabelArb, tenantIdArb } from './name-arbitraries.ts';

const labelArb = dnsLabelArb.filter((l) => prefixOwner(l) === undefined);

/** What kube's components write in Events, with `$` for the object they name. */
const PHRASES = [
  'Preempted by $/web-0 on node node-1', 'Successfully assigned $/web-0 to node-1', 'pod $/web-0 is in the cache, so can\'t be assumed',
  'MountVolume.SetUp failed for volume "data": mkdir /var/lib/kubelet/pods/x/volumes: permission denied', 'Created pod: $', 'Error creating: pods "$" is forbidden',
];

function textArb(own: string, others: string[]): fc.Arbitrary<{ text: string; owns: string[] }> {
  const name = fc.oneof(
    labelArb.map((l) => ({ text: `${own}-${l}`, own: l })),
    fc.tuple(fc.constantFrom(...others), labelArb).map(([o, l]) => ({ text: `${o}-${l}`, own: undefined as string | undefined })),
  );
  return fc.array(fc.tuple(name, fc.constantFrom(...PHRASES)), { minLength: 1, maxLength: 4 })
    .map((parts) => ({ text: parts.map(([n, p]) => p.replace('$', n.text)).join('; '), owns: parts.flatMap(([n, p]) => (n.own && p.includes('$') ? [n.own] : [])) }));
}

function event(api: 'core' | 'events', own: string, other: string, text: string): KubeObject {
  const ns = `${own}-app`;
  const base = { metadata: { name: 'victim.1', namespace: ns }, reason: 'Preempted', type: 'Normal' };
  const related = { apiVersion: 'v1', kind: 'Pod', name: 'web-0', namespace: `${other}-shop` };
  return api === 'core'
    ? { apiVersion: 'v1', kind: 'Event', ...base, involvedObject: { apiVersion: 'v1', kind: 'Pod', name: 'victim', namespace: ns }, related, message: text } as KubeObject
    : { apiVersion: 'events.k8s.io/v1', kind: 'Event', ...base, regarding: { apiVersion: 'v1', kind: 'Pod', name: 'victim', namespace: ns }, related, note: text } as KubeObject;
}

describe('property: Event text in tenant terms', () => {
  it('no other tenant\'s id, no host path; the caller\'s own names in its spelling', () => {
    const ids = fc.uniqueArray(tenantIdArb, { minLength: 2, maxLength: 4 });
    fc.assert(fc.property(ids.chain((all) => fc.tuple(fc.constant(all), fc.constantFrom('core' as const, 'events' as const), textArb(all[0]!, all.slice(1)))), ([all, api, msg]) => {
      const own = all[0]!;
      const out = toTenantObject({ id: own, isTenantId: (id) => all.includes(id) }, event(api, own, all[1]!, msg.text));
      assert.ok(out, 'the caller\'s own Event is shown');
      const json = JSON.stringify(out);
      for (const id of all) assert.ok(!new RegExp(`(?<![a-z0-9-])${id}-`).test(json), `${id}- in ${json}`);
      assert.ok(!json.includes('/var/lib'), `a host path in ${json}`);
      const text = String(api === 'core' ? out.message : out.note);
      for (const name of msg.owns) assert.ok(text.includes(name), `own name ${name} kept in ${text}`);
    }), { numRuns: 400 });
  });
});
