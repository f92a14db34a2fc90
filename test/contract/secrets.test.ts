// Secret.stringData is write-only: merged into data (base64) by the server.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useContractServer } from '../helpers/contract-suite.ts';

describe('secrets', { timeout: 30_000 }, () => {
  const ctx = useContractServer();

  it('merges stringData into data on create and update, stringData winning, and never returns it', async () => {
    const ns = await ctx.namespaces.create('sec');
    const path = `/api/v1/namespaces/${ns}/secrets`;
    const b64 = (s: string): string => Buffer.from(s).toString('base64');
    const created = await ctx.http.post(path, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { a: b64('old'), b: b64('kept') }, stringData: { a: 'new', c: 'plain' } });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.data, { a: b64('new'), b: b64('kept'), c: b64('plain') });
    assert.equal(created.body.stringData, undefined);
    const got = (await ctx.http.get(`${path}/s`)).body;
    assert.equal(got.stringData, undefined);
    const updated = await ctx.http.put(`${path}/s`, { ...got, stringData: { b: 'changed' } });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.data.b, b64('changed'));
    assert.equal(updated.body.stringData, undefined);
  });
});
