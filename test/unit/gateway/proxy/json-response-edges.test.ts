// The small answer path (json-response.ts: an answer under 64 KiB read with 'data' listeners and translated in
// one turn) against the edges the stepped path handled: a multi-byte character split across the upstream's
// chunks, a chunked answer cut before its last chunk, sizes on either side of the 64 KiB step. Real loopback
// HTTP on both sides; the upstream writes each piece of its answer separately, with a pause between them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendTranslatedJson } from '../../../../src/gateway/proxy/json-response.ts';
import { STEP_BODY_BYTES } from '../../../../src/http/yield-to-loop.ts';
import { plainGet } from '../../../helpers/plain-get.ts';

interface Script { headers: Record<string, string>; pieces: Buffer[]; cut?: boolean }

let script: Script;
let upstream: http.Server;
let front: http.Server;
let settled = 0;

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

before(async () => {
  upstream = http.createServer((_req, res) => {
    void (async () => {
      res.writeHead(200, script.headers);
      res.flushHeaders();
      for (const piece of script.pieces) {
        await pause();
        res.write(piece);
      }
      await pause();
      if (script.cut) res.socket?.destroy();
      else res.end();
    })();
  });
  const upstreamPort = await listen(upstream);
  front = http.createServer((_req, res) => {
    http.get({ host: '127.0.0.1', port: upstreamPort, path: '/', agent: false }, (upstreamRes) => {
      void sendTranslatedJson(upstreamRes, res, { translate: (b) => b }).then(() => { settled++; });
    }).on('error', () => undefined);
  });
  await listen(front);
});
after(() => { upstream.close(); front.close(); });

/** `{"data":{"k":"<filler>€"}}` of exactly `bytes` bytes, split in the middle of its '€' (3 bytes). */
function splitAnswer(bytes: number): { text: string; pieces: Buffer[] } {
  const shell = '{"data":{"k":"€"}}';
  const filler = 'x'.repeat(bytes - Buffer.byteLength(shell));
  const text = `{"data":{"k":"${filler}€"}}`;
  const buffer = Buffer.from(text);
  const euro = buffer.indexOf(Buffer.from('€'));
  return { text, pieces: [buffer.subarray(0, euro + 1), buffer.subarray(euro + 1)] };
}

describe('sendTranslatedJson: the small path at its edges', () => {
  for (const bytes of [1_000, STEP_BODY_BYTES - 1, STEP_BODY_BYTES, STEP_BODY_BYTES + 1]) {
    for (const framing of ['content-length', 'chunked'] as const) {
      it(`a ${bytes}-byte answer (${framing}) whose '€' is split across chunks comes back whole`, async () => {
        const { text, pieces } = splitAnswer(bytes);
        assert.equal(Buffer.byteLength(text), bytes);
        script = { headers: { 'content-type': 'application/json', ...(framing === 'content-length' ? { 'content-length': String(bytes) } : {}) }, pieces };
        const res = await plainGet((front.address() as AddressInfo).port);
        assert.equal(res.status, 200);
        assert.equal(res.text, text);
      });
    }
  }

  for (const bytes of [1_000, STEP_BODY_BYTES + 1_000]) {
    it(`a chunked answer (${bytes} bytes) cut before its last chunk is a 503 Status, not a hang`, async () => {
      const before = settled;
      const { pieces } = splitAnswer(bytes);
      script = { headers: { 'content-type': 'application/json' }, pieces: [pieces[0] ?? Buffer.alloc(0)], cut: true };
      const res = await plainGet((front.address() as AddressInfo).port);
      assert.equal(res.status, 503);
      assert.equal(JSON.parse(res.text).reason, 'ServiceUnavailable');
      assert.equal(settled, before + 1, 'the answer resolved, not a hang');
    });
  }
});
