// `warren up [--data-dir DIR] [--port-base P] [--members N] [--tenants-dir tenants] [--emulated-version 1.20]`:
// everything embedded, until Ctrl-C. A second `up` on the same DIR keeps every tenant and object.
// Its JSON logs always go to DIR/warren.log (and to stderr with --verbose); --audit-log-path
// writes the gateway's audit events, as `warren serve` does.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startUp } from '../up/start-up.ts';
import { bool, str, type CommandInput } from './cli-io.ts';
import { fileLogger } from './log.ts';
import { untilSignal } from './signals.ts';
import { upSummary } from './up-summary.ts';
import { limitHeapGrowth } from './heap-growth.ts';
import { DEFAULT_HEAP_GROWING_PERCENT } from '../config/config-schema.ts';

export async function runUpCommand({ io, values }: CommandInput): Promise<number> {
  const dataDir = str(values, 'data-dir') ?? '.warren';
  const portBase = Number(str(values, 'port-base') ?? '6443');
  const members = Number(str(values, 'members') ?? '2');
  if (!Number.isInteger(portBase) || portBase < 1 || portBase + 1 + members > 65535) {
    io.err(`error: --port-base must be a port with room for ${members + 2} ports after it\n`);
    return 2;
  }
  if (!Number.isInteger(members) || members < 0 || members > 20) {
    io.err('error: --members must be a whole number from 0 to 20\n');
    return 2;
  }
  const tenantsDir = str(values, 'tenants-dir') ?? 'tenants';
  const logPath = join(dataDir, 'warren.log');
  // The engine, the gateway and the embedded servers share this process: its heap stays near its live data (ADR 0040).
  limitHeapGrowth(DEFAULT_HEAP_GROWING_PERCENT);
  const auditLogPath = str(values, 'audit-log-path');
  const up = await startUp({
    dataDir,
    portBase,
    members,
    tenantsDir: existsSync(tenantsDir) ? tenantsDir : undefined,
    log: fileLogger('warren', logPath, bool(values, 'verbose')),
    ...(auditLogPath ? { auditLogPath } : {}),
    emulatedVersion: str(values, 'emulated-version'),
    progress: (line) => io.out(`  ${line}\n`),
  });
  io.out(upSummary(up, { dataDir, logPath, auditLogPath }));
  await untilSignal();
  io.out('stopping...\n');
  await up.stop();
  return 0;
}
