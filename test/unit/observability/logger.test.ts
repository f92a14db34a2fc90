import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger, lineLogger, type LogLevelName } from '../../../src/observability/logger.ts';
import { currentAuditID, openRequestScope, runInRequestScope } from '../../../src/observability/log-context.ts';
import { createSecurityLog } from '../../../src/gateway/security-log.ts';

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
