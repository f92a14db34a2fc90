// Starts test/helpers/gateway-up.ts (embedded upstream + gateway + two tenants)
// as a child process for kubectl e2e tests, and reads its READY line.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './warren-process.ts';
import { exitWithParentArgs, exitWithParentSpawn } from './exit-with-parent.ts';
import { tsLoaderArgs } from './ts-loader.ts';

export interface GatewayUp { upstream: string; kubeconfigs: Record<string, string> }

export async function startGatewayProcess(): Promise<{ child: ChildProcess; up: GatewayUp }> {
  const child = spawn(process.execPath, [...exitWithParentArgs(), ...tsLoaderArgs(), join(REPO_ROOT, 'test/helpers/gateway-up.ts')], exitWithParentSpawn({ cwd: REPO_ROOT }));
  let out = '';
  // A start that fails must not leave its child behind: the caller gets no handle to stop it,
  // and a live child (its pipes) keeps the test process itself from exiting.
  const up = await new Promise<GatewayUp>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start in 180 s:\n${out}`)), 180_000);
    child.stdout!.on('data', (d) => {
      out += String(d);
      const m = /^READY (.*)$/m.exec(out);
      if (m) { clearTimeout(timer); resolve(JSON.parse(m[1]!) as GatewayUp); }
    });
    child.stderr!.on('data', (d) => { out += String(d); });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`gateway exited ${code}:\n${out}`)); });
  }).catch((err: unknown) => {
    if (child.exitCode === null) child.kill('SIGKILL');
    throw err;
  });
  return { child, up };
}
