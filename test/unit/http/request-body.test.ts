import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYaml } from 'yaml';
import { decodeBody } from '../../../src/http/request-body.ts';

const APPLY = 'application/apply-patch+yaml';

describe('decodeBody: apply patches and YAML', () => {
  it('an apply patch written as JSON decodes to what the YAML parser gives', () => {
    const text = JSON.stringify({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { 'a/b': 'c' }, annotations: { note: 'line\nnext "quoted" \\ \u00e9' } },
      spec: { replicas: 3, paused: false, template: { spec: { containers: [{ name: 'app', image: 'nginx:1.27', args: ['-x', '1e3', 'null'] }] } }, extra: null, ratio: 0.5 },
    }, null, 1);
    assert.deepEqual(decodeBody(Buffer.from(text), APPLY), parseYaml(text));
  });

  it('block-style YAML and YAML flow style that is not JSON still go through the YAML parser', () => {
    assert.deepEqual(decodeBody(Buffer.from('kind: ConfigMap\ndata:\n  a: "1"\n'), APPLY), { kind: 'ConfigMap', data: { a: '1' } });
    assert.deepEqual(decodeBody(Buffer.from('{kind: ConfigMap, data: {a: "1"}} # a comment'), APPLY), { kind: 'ConfigMap', data: { a: '1' } });
    assert.deepEqual(decodeBody(Buffer.from('  {"kind": "ConfigMap"}\n'), 'application/yaml'), { kind: 'ConfigMap' });
  });

  it('broken YAML is still a 400 in kube words', () => {
    assert.throws(() => decodeBody(Buffer.from('{"kind": "ConfigMap", data: [}'), APPLY), (err: Error & { code?: number }) => /error converting YAML to JSON/.test(err.message));
  });
});
