import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/core/types.ts';
import type { EngineContext } from '../../../../src/controllers/propagation/engine-context.ts';
import { noteNotPropagated, REASON_NOT_PROPAGATED } from '../../../../src/controllers/propagation/not-propagated.ts';
import { TEMPLATE_RESOURCES } from '../../../../src/controllers/propagation/template-resources.ts';

function ctxWith(hostRunsWorkloads: boolean, recorded: string[][]): EngineContext {
  return {
    settings: { defaultTolerationSeconds: 300, gracefulEvictionTimeoutMs: 1, hostRunsWorkloads },
    events: { record: async (_o: KubeObject, type: string, reason: string, message: string) => { recorded.push([type, reason, message]); } },
  } as unknown as EngineContext;
}
const template: KubeObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'abcdef-default' } };
const row = (kind: string) => TEMPLATE_RESOURCES.find((r) => r.kind === kind)!;

describe('not-propagated: why an unclaimed workload does not run (issue 14 item 8)', () => {
  it('on a host without workload controllers, a workload gets a NotPropagated Warning naming PropagationPolicy', async () => {
    for (const kind of ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob']) {
      const recorded: string[][] = [];
      await noteNotPropagated(ctxWith(false, recorded), row(kind), template);
      assert.equal(recorded.length, 1, kind);
      assert.equal(recorded[0]![0], 'Warning');
      assert.equal(recorded[0]![1], REASON_NOT_PROPAGATED);
      assert.match(recorded[0]![2]!, new RegExp(`this ${kind}.*PropagationPolicy`));
    }
  });

  it('says nothing of what is not a workload, nor on a host that runs workloads itself', async () => {
    const recorded: string[][] = [];
    for (const kind of ['ConfigMap', 'Service', 'Secret']) await noteNotPropagated(ctxWith(false, recorded), row(kind), template);
    await noteNotPropagated(ctxWith(true, recorded), row('Deployment'), template);
    assert.deepEqual(recorded, []);
  });
});
