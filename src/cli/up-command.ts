// `warren up [--data-dir DIR] [--port-base P] [--members N] [--tenants-dir tenants]`:
// everything embedded, until Ctrl-C. A second `up` on the same DIR keeps every tenant and object.
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { startUp } from '../up/start-up.ts';
import { jsonLogger } from './log.ts';
import { untilSignal } from './signals.ts';
import { upSummary } from './up-summary.ts';

export async function runUpCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string', default: '.warren' },
      'port-base': { type: 'string', default: '6443' },
      members: { type: 'string', default: '2' },
      'tenants-dir': { type: 'string', default: 'tenants' },
      verbose: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const portBase = Number(values['port-base']);
  const members = Number(values.members);
  if (!Number.isInteger(portBase) || portBase < 1 || portBase + 1 + members > 65535) {
    process.stderr.write(`warren up: --port-base must be a port with room for ${members + 2} ports after it\n`);
    return 2;
  }
  if (!Number.isInteger(members) || members < 0 || members > 20) {
    process.stderr.write('warren up: --members must be a whole number from 0 to 20\n');
    return 2;
  }
  const tenantsDir = values['tenants-dir'];
  const logger = jsonLogger('warren');
  const up = await startUp({
    dataDir: values['data-dir'],
    portBase,
    members,
    tenantsDir: existsSync(tenantsDir) ? tenantsDir : undefined,
    log: values.verbose ? logger : () => undefined,
    progress: (line) => process.stdout.write(`  ${line}\n`),
  });
  process.stdout.write(upSummary(up, values['data-dir']));
  await untilSignal();
  process.stdout.write('stopping...\n');
  await up.stop();
  return 0;
}
