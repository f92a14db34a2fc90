// A stand-in for a real-tier test file killed mid-run (test/real/watchdog.test.ts starts
// it): a real control plane, started as the tier's files start it, and `warren serve`
// on it, started as real-warren.ts starts it (preloaded exit-with-parent, stdin a pipe
// from this process); prints the control plane's kubeconfig path once both processes
// exist, then waits to be killed. It does not wait for warren serve to be ready: the
// preload watches its stdin from its first moment, and the readiness would cost this
// stand-in a minute of a loaded machine for nothing it proves.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitWithParentArgs, exitWithParentSpawn } from '../helpers/exit-with-parent.ts';
import { realKubeSet } from '../helpers/real-kube.ts';
import { freePort, REPO_ROOT } from '../helpers/warren-process.ts';

const set = realKubeSet();
// A test's own directory, made and adopted as real-warren.ts makes its warren-real-serve-* (kubeconfigs, manifests).
const own = mkdtempSync(join(tmpdir(), 'warren-real-serve-'));
set.adopt(own);
const kube = await set.start('killed', { controllerManager: false });
const serve = spawn(process.execPath, [...exitWithParentArgs(), join(REPO_ROOT, 'bin/warren'), 'serve', '--kubeconfig', kube.kubeconfigPath, '--listen', `127.0.0.1:${await freePort()}`], exitWithParentSpawn({ cwd: REPO_ROOT }));
serve.stdout?.resume();
serve.stderr?.resume();
process.stdout.write(`${JSON.stringify({ kubeconfigPath: kube.kubeconfigPath, own })}\n`);
setInterval(() => undefined, 60_000);
