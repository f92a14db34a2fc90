// deploy/helm/warren (issue 19): with its default values the chart gives exactly the
// objects of `kubectl kustomize deploy/`; each value (replicas, image, upstream,
// members, metrics, audit) changes what it says and nothing else, and the config
// it renders passes Warren's own loader. Rendered by test/helpers/helm-template.ts,
// which refuses any template construct outside plain substitutions, if and range.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { renderChart, renderTemplate } from '../../helpers/helm-template.ts';
import { REPO_ROOT } from '../../helpers/warren-process.ts';
import { loadConfig } from '../../../src/config/load-config.ts';

type Obj = Record<string, any>;
const CHART = join(REPO_ROOT, 'deploy/helm/warren');

function objects(text: string): Obj[] {
  return parseAllDocuments(text).map((d) => d.toJS() as Obj).filter((o) => o !== null && o !== undefined);
}
const key = (o: Obj): string => `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
const sorted = (list: Obj[]): Obj[] => [...list].sort((a, b) => key(a).localeCompare(key(b)));
const chartObjects = (values: Record<string, unknown> = {}): Obj[] => sorted(renderChart(CHART, values).flatMap((f) => objects(f.text)));
const find = (list: Obj[], kind: string, name: string): Obj => {
  const found = list.find((o) => o.kind === kind && o.metadata?.name === name);
  assert.ok(found, `${kind}/${name}`);
  return found;
};
const configOf = (list: Obj[]) => loadConfig({ file: 'config.yaml', env: {}, flags: {}, readFile: () => find(list, 'ConfigMap', 'warren-config').data['config.yaml'] });

describe('Helm chart deploy/helm/warren', () => {
  it('with default values gives exactly the objects of kubectl kustomize deploy/', async () => {
    const { stdout } = await promisify(execFile)('kubectl', ['kustomize', join(REPO_ROOT, 'deploy')], { maxBuffer: 64 * 1024 * 1024 });
    const kustomized = sorted(objects(stdout));
    const charted = chartObjects();
    assert.deepEqual(charted.map(key), kustomized.map(key));
    for (let i = 0; i < charted.length; i++) assert.deepEqual(charted[i], kustomized[i], key(charted[i]!));
  });

  it('each value changes what it names, and the config still loads', () => {
    const base = chartObjects();
    const changed = chartObjects({
      replicas: 3,
      image: { repository: 'registry.example.com/warren', tag: '0.2.0', pullPolicy: 'Always' },
      externalUrl: 'https://warren.example.com',
      servingNames: ['warren.example.com'],
      upstream: { inCluster: false, kubeconfigSecret: 'upstream-kubeconfig', auditImpersonate: 'warren' },
      members: [{ name: 'eu1', apiEndpoint: 'https://eu1.example.com:6443' }, { name: 'us1', apiEndpoint: 'https://us1.example.com:6443' }],
      metrics: { enabled: false, serviceMonitor: true },
      audit: { logPath: '' },
    });
    const deployment = find(changed, 'Deployment', 'warren');
    assert.equal(deployment.spec.replicas, 3);
    const container = deployment.spec.template.spec.containers[0];
    assert.equal(container.image, 'registry.example.com/warren:0.2.0');
    assert.equal(container.imagePullPolicy, 'Always');
    assert.deepEqual(container.volumeMounts.at(-1), { name: 'upstream', mountPath: '/etc/warren/upstream', readOnly: true });
    assert.deepEqual(deployment.spec.template.spec.volumes.at(-1), { name: 'upstream', secret: { secretName: 'upstream-kubeconfig' } });

    const config = configOf(changed);
    assert.equal(config.upstream.inCluster, false);
    assert.equal(config.upstream.kubeconfig, '/etc/warren/upstream/kubeconfig');
    assert.equal(config.upstream.auditImpersonate, 'warren');
    assert.equal(config.externalUrl, 'https://warren.example.com');
    assert.deepEqual(config.servingNames, ['warren.example.com']);
    assert.equal(config.metrics.enabled, false);
    assert.equal(config.audit.logPath, '');

    assert.deepEqual(changed.filter((o) => o.kind === 'Cluster').map((c) => [c.metadata.name, c.spec.apiEndpoint, c.spec.secretRef.name]),
      [['eu1', 'https://eu1.example.com:6443', 'cluster-eu1'], ['us1', 'https://us1.example.com:6443', 'cluster-us1']]);
    assert.equal(find(changed, 'ServiceMonitor', 'warren').spec.endpoints[0].path, '/metrics');

    // Nothing else moved: the same objects but for the Deployment, the ConfigMap and the additions.
    const untouched = (list: Obj[]) => list.filter((o) => !['Deployment', 'ConfigMap', 'Cluster', 'ServiceMonitor'].includes(o.kind));
    assert.deepEqual(untouched(changed), untouched(base));
    const defaults = configOf(base);
    assert.equal(defaults.upstream.inCluster, true);
    assert.equal(defaults.metrics.enabled, true);
    assert.equal(defaults.audit.logPath, '-');
  });

  it('the renderer follows Go templates for the subset, and refuses anything else', () => {
    const values = { a: { b: 'x', off: false, empty: [] }, list: [{ n: 1 }, { n: 2 }] };
    assert.equal(renderTemplate('v: {{ .Values.a.b }}\n{{- if .Values.a.off }}\nno{{- else }}\nyes{{- end }}', values), 'v: x\nyes');
    assert.equal(renderTemplate('{{- range .Values.list }}\n- {{ .n }}/{{ $.Values.a.b }}\n{{- end }}\n', values), '\n- 1/x\n- 2/x\n');
    assert.equal(renderTemplate('[{{- if .Values.a.empty }}y{{ end -}} ]', values), '[]');
    assert.throws(() => renderTemplate('{{ .Values.a.b | quote }}', values), /outside the chart's template subset/);
    assert.throws(() => renderTemplate('{{ include "x" . }}', values), /outside the chart's template subset/);
    assert.throws(() => renderTemplate('{{ .Values.missing }}', values), /has no value/);
    assert.throws(() => renderTemplate('{{ if .Values.a.b }}open', values), /without its end/);
  });
});
