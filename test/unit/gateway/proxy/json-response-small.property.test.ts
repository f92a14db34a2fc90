// Property (issue 18): an upstream answer under 64 KiB is parsed, translated and
// written in one turn (json-response.ts's small path); a larger one in steps
// (json-slices.ts, turns of the loop between them), the general path it had
// before. For arbitrary objects, hostile ones included (another tenant's
// prefixes inside values and names, lookalike label keys, the tenant label
// forged, Status answers naming other tenants, foreign objects that must come
// back 404/500), both paths give the same status and the same bytes: the same
// answer is sent once as is and once padded past 64 KiB with a member the
// translation removes first. Real loopback HTTP on both sides.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { sendTranslatedJson } from '../../../../src/gateway/proxy/json-response.ts';
import { translateBody } from '../../../../src/gateway/forward/response-pipe.ts';
import { STEP_BODY_BYTES } from '../../../../src/http/yield-to-loop.ts';
import { plainGet } from '../../../helpers/plain-get.ts';

const OWN = 'aaaaaa';
const OTHER = 'bbbbbb';
const ctx = { id: OWN, user: 'eve', isTenantId: (id: string) => id === OWN || id === OTHER };
const PAD = 'zz-pad';

let upstream: http.Server;
let front: http.Server;
let answer: { status: number; body: string };

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

before(async () => {
  upstream = http.createServer((_req, res) => {
    res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer.body) });
    res.end(answer.body);
  });
  const upstreamPort = await listen(upstream);
  front = http.createServer((_req, res) => {
    http.get({ host: '127.0.0.1', port: upstreamPort, path: '/', agent: false }, (upstreamRes) => {
      void sendTranslatedJson(upstreamRes, res, {
        translate: (body) => {
          if (typeof body === 'object' && body !== null) delete (body as Record<string, unknown>)[PAD];
          return translateBody(ctx, body);
        },
      });
    });
  });
  await listen(front);
});
after(() => { upstream.close(); front.close(); });

async function through(status: number, body: string): Promise<{ status: number; text: string }> {
  answer = { status, body };
  return await plainGet((front.address() as AddressInfo).port);
}

const word = fc.constantFrom('web', 'shop', 'x', 'kube-system', 'default', 'välue');
const hostileString = fc.oneof(
  word,
  word.map((w) => `${OWN}-${w}`),
  word.map((w) => `${OTHER}-${w}`),
  word.map((w) => `x-${OTHER}-${w}`),
  word.map((w) => `warren:${OTHER}:${w}`),
  word.map((w) => `${OWN}-${OWN}-${w}`),
  fc.string({ maxLength: 12 }),
);
const labelKey = fc.constantFrom('app', 'tenancy.warren.dev/tenant', 'tenancy.warren.dev/tenant ', 'Tenancy.warren.dev/tenant', 'tenancy.warren.dev~1tenant', `${OTHER}-app`);
const labelValue = fc.constantFrom(OWN, OTHER, 'x', `${OWN}-x`);
const configMap = fc.record({
  apiVersion: fc.constantFrom('v1', 'v2', `${OTHER}-a.com/v1`),
  kind: fc.constantFrom('ConfigMap', 'Secret', 'Namespace', 'Pod'),
  metadata: fc.record({
    name: hostileString,
    namespace: fc.oneof(word.map((w) => `${OWN}-${w}`), word.map((w) => `${OTHER}-${w}`), word),
    labels: fc.dictionary(labelKey, labelValue, { maxKeys: 3 }),
    annotations: fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
    resourceVersion: fc.constant('42'),
  }, { requiredKeys: ['name', 'namespace'] }),
  data: fc.dictionary(hostileString, hostileString, { maxKeys: 4 }),
});
const status = fc.record({
  apiVersion: fc.constant('v1'),
  kind: fc.constant('Status'),
  status: fc.constant('Failure'),
  message: hostileString.map((s) => `configmaps "${s}" not found in ${OTHER}-web`),
  reason: fc.constantFrom('NotFound', 'AlreadyExists', 'Conflict'),
  details: fc.record({ name: hostileString, kind: fc.constant('configmaps') }),
  code: fc.constantFrom(404, 409),
});
const list = fc.record({
  apiVersion: fc.constant('v1'),
  kind: fc.constant('ConfigMapList'),
  metadata: fc.record({ resourceVersion: fc.constant('7') }),
  items: fc.array(configMap, { maxLength: 3 }),
});
const answerArb = fc.oneof(
  fc.tuple(fc.constantFrom(200, 201), configMap),
  fc.tuple(fc.constantFrom(404, 409), status),
  fc.tuple(fc.constant(200), list),
);

describe('sendTranslatedJson: the small path and the stepped path answer alike', () => {
  it('same status and bytes for arbitrary (hostile) objects, Status answers and lists', async () => {
    await fc.assert(fc.asyncProperty(answerArb, async ([code, body]) => {
      const small = JSON.stringify(body);
      const large = JSON.stringify({ ...body, [PAD]: 'p'.repeat(STEP_BODY_BYTES) });
      assert.ok(Buffer.byteLength(small) < STEP_BODY_BYTES && Buffer.byteLength(large) >= STEP_BODY_BYTES);
      const a = await through(code, small);
      const b = await through(code, large);
      assert.equal(a.status, b.status);
      assert.equal(a.text, b.text);
      // Never a prefix of ours in what the tenant reads back of its own object.
      if (a.status < 300 && body.kind !== 'ConfigMapList') assert.ok(!a.text.includes(`"namespace":"${OWN}-`), a.text);
    }), { numRuns: 150 });
  });
});
