// The event recorder names an Event `<object>.<16 hex>`, the object part cut to fit 253 (session 12: a
// long-named template's ApplyPolicyFailed). The cut must leave a name the embedded apiserver takes (a DNS-1123
// subdomain): a cut that ends on `-` or `.` gave `…-.<hex>`, refused, so nothing was said about that object.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApiServer, type RunningApiServer } from '../../../src/apiserver/server.ts';
import { createUpstream } from '../../../src/kube/upstream-client.ts';
import { createEventRecorder } from '../../../src/controllers/runtime/event-recorder.ts';
import type { KubeList, KubeObject } from '../../../src/core/types.ts';

describe('event recorder: names of Events about long-named objects', { timeout: 60_000 }, () => {
  let host: RunningApiServer;
  before(async () => {
    host = await startApiServer({ port: 0 });
  });
  after(async () => {
    await host?.stop();
  });

  // 236 characters are kept of the object's name: the character there decides where the cut falls.
  for (const [what, atCut] of [['a dash', '-'], ['a dot', '.'], ['a letter', 'x']] as const) {
    it(`an object whose name has ${what} where the cut falls gets its Event`, async () => {
      const upstream = createUpstream({ yaml: host.kubeconfig });
      const lines: string[] = [];
      const recorder = createEventRecorder({ upstream, component: 'test', log: (line) => lines.push(line) });
      const name = `${'a'.repeat(235)}${atCut}b${'c'.repeat(10)}`; // a valid subdomain of 247 characters
      const obj: KubeObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'default', uid: `uid-${what}` } };
      await recorder.record(obj, 'Warning', 'ApplyPolicyFailed', `about ${what}`);
      assert.deepEqual(lines, [], 'recorded without a warning');
      const res = await upstream.request<KubeList>('GET', '/api/v1/namespaces/default/events');
      const found = res.body.items.filter((e) => (e as { message?: string }).message === `about ${what}`);
      assert.equal(found.length, 1, `one Event about ${what}`);
      assert.ok((found[0]?.metadata.name ?? '').length <= 253);
    });
  }
});
