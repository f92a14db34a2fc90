import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger, lineLogger, type LogLevelName } from '../../../src/observability/logger.ts';
import { currentAuditID, openRequestScope, runInRequestScope } from '../../../src/observability/log-context.ts';
import { createSecurityLog } from '../../../src/gateway/security-log.ts';
import { levelled } from '../../../src/observability/log-line.ts';
import { startInformer } from '../../../src/kube/informer.ts';
import type { Upstream } from '../../../src/kube/upstream.ts';
import { eventually } from '../../helpers/poll.ts';

function capture(level: LogLevelName = 'debug'): { log: (line: string) => void; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const destination = new Writable({ write(chunk: Buffer, _enc, done) { chunks.push(chunk.toString()); done(); } });
  const log = lineLogger(createLogger({ level, destination }).child({ component: 'gateway' }));
  return { log, lines: () => chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1));

describe('structured logs', () => {
  it('a plain line is an info message with level name, ISO time and component', () => {
    const { log, lines } = capture();
    log('shared cache /api/v1/pods: idle, stopping');
    const [line] = lines();
    assert.equal(line?.level, 'info');
    assert.equal(line?.component, 'gateway');
    assert.equal(line?.msg, 'shared cache /api/v1/pods: idle, stopping');
    assert.match(String(line?.time), /^\d{4}-\d\d-\d\dT/);
  });

  it('a JSON line keeps its fields; its level picks the level; its own time gives way', () => {
    const { log, lines } = capture();
    log(JSON.stringify({ level: 'error', event: 'isolation-guard-refusal', tenant: 'abcdef', time: 'stale', msg: 'refused' }));
    const [line] = lines();
    assert.equal(line?.level, 'error');
    assert.equal(line?.event, 'isolation-guard-refusal');
    assert.equal(line?.tenant, 'abcdef');
    assert.equal(line?.msg, 'refused');
    assert.notEqual(line?.time, 'stale');
  });

  it('the configured level filters', () => {
    const { log, lines } = capture('warn');
    log(JSON.stringify({ level: 'info', event: 'a' }));
    log(JSON.stringify({ level: 'debug', event: 'b' }));
    log(JSON.stringify({ level: 'warn', event: 'c' }));
    assert.deepEqual(lines().map((l) => l.event), ['c']);
  });

  it('every line written inside a request scope carries its auditID, across awaits; none outside or after close', async () => {
    const { log, lines } = capture();
    const security = createSecurityLog(log);
    const scope = openRequestScope('5f0c6e1a-0000-4000-8000-000000000001');
    await runInRequestScope(scope, async () => {
      await tick();
      security.guardRefusal({ tenant: 'abcdef', user: 'alice', method: 'GET', path: '/api/v1/namespaces/zzzzzz-x/pods', reason: 'crosses tenants' });
      setTimeout(() => log('later, from a timer the request started'), 5);
    });
    log('not about any request');
    scope.closed = true;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const [refusal, outside, later] = lines();
    assert.equal(refusal?.event, 'isolation-guard-refusal');
    assert.equal(refusal?.auditID, '5f0c6e1a-0000-4000-8000-000000000001');
    assert.equal(outside?.auditID, undefined);
    assert.equal(later?.msg, 'later, from a timer the request started');
    assert.equal(later?.auditID, undefined);
    assert.equal(currentAuditID(), undefined);
  });

  it('concurrent requests keep their own ids', async () => {
    const { log, lines } = capture();
    await Promise.all(['a', 'b', 'c'].map((id) => runInRequestScope(openRequestScope(id), async () => {
      for (let i = 0; i < 3; i++) {
        await tick();
        log(JSON.stringify({ event: 'step', id }));
      }
    })));
    for (const line of lines()) assert.equal(line.auditID, line.id);
  });
});

describe('levelled lines: what an operator must see is not info', () => {
  it('levelled() carries its level and message through lineLogger, and fields beside them', () => {
    const { log, lines } = capture();
    log(levelled('warn', 'informer /api/v1/secrets: connect ECONNREFUSED 127.0.0.1:6444', { attempt: 3 }));
    log(levelled('error', 'leader election: warren-0 failed to renew lease warren-system/warren within 10000 ms'));
    assert.deepEqual(lines().map((l) => [l.level, l.msg, l.attempt]), [
      ['warn', 'informer /api/v1/secrets: connect ECONNREFUSED 127.0.0.1:6444', 3],
      ['error', 'leader election: warren-0 failed to renew lease warren-system/warren within 10000 ms', undefined],
    ]);
  });

  it('an informer whose upstream is unreachable says so at warn, not info', async () => {
    const logged: string[] = [];
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const upstream = { request: () => Promise.reject(refused), stream: () => Promise.reject(refused) } as unknown as Upstream;
    const informer = startInformer({ upstream, listPath: '/api/v1/secrets', log: (line) => logged.push(line), backoff: { initialMs: 5, maxMs: 10 } });
    try {
      await eventually(async () => (logged.length > 0 ? true : undefined), 'a log line about the refused list', { timeoutMs: 30_000, intervalMs: 5 });
    } finally {
      informer.stop();
    }
    const first = JSON.parse(logged[0]!) as { level: string; msg: string };
    assert.equal(first.level, 'warn');
    assert.match(first.msg, /^informer \/api\/v1\/secrets: .*ECONNREFUSED/);
  });
});
