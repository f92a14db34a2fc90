// A real Kubernetes control plane (kube-apiserver 1.20 + etcd, and optionally its
// controller-manager) for the `real` test tier, through ../shared/kube/start-kube.sh.
// Every control plane a test starts lives under its own WARREN_KUBE_DIR and is
// stopped by stop(), which the test must call in an `after` hook; stopAll() is
// the last resort for a process that exits early, and a watchdog (below) stops
// the set when the test process dies without calling it (a runner timeout, SIGKILL).
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { freePort, REPO_ROOT } from './warren-process.ts';

const run = promisify(execFile);

/** Where start-kube.sh is: $WARREN_SHARED_KUBE, else ../shared/kube beside the checkout. */
export function realKubeScript(): string | undefined {
  const dir = process.env.WARREN_SHARED_KUBE ?? resolve(REPO_ROOT, '..', 'shared', 'kube');
  const script = join(dir, 'start-kube.sh');
  return existsSync(script) ? script : undefined;
}

/** The reason to skip the real tier, or undefined when a real control plane can be started. */
export function realKubeSkipReason(): string | undefined {
  return realKubeScript() ? undefined : 'no ../shared/kube/start-kube.sh (set WARREN_SHARED_KUBE)';
}

export interface RealKube {
  name: string;
  port: number;
  kubeconfigPath: string;
  kubeconfig: string;
  /** The apiserver's base URL, https://127.0.0.1:PORT (token in the kubeconfig: admintoken). */
  server: string;
  restartApiserver(): Promise<void>;
  restartEtcd(): Promise<void>;
  /** Stops its processes and removes its data. */
  stop(): Promise<void>;
}

export interface RealKubeStartOptions {
  /** Run the controller-manager (default true). */
  controllerManager?: boolean;
  /**
   * Run the controller-manager with only these controllers (its --controllers), as
   * Karmada's control plane does (namespace, garbagecollector, ...: no deployment or
   * replicaset controller, so templates are not run on it). Overrides controllerManager.
   */
  controllers?: string[];
  /** More lines for the apiserver's static token file (`token,user,uid,groups`), besides the admin's. */
  tokens?: string[];
}

export interface RealKubeSet {
  start(name: string, opts?: RealKubeStartOptions): Promise<RealKube>;
  /**
   * Removes `path` (a test's own temporary directory) with the set: in stopAll(), and by the watchdog when
   * the process dies without it (a file killed at the runner's cap left its warren-real-serve-* behind).
   */
  adopt(path: string): void;
  /** Stops every control plane of this set and removes the set's directory. */
  stopAll(): Promise<void>;
}

const TIMEOUT_MS = 180_000;
/** A start or restart waits its turn for the machine's start lock (below), then up to the script's own readiness wait. */
const QUEUED_TIMEOUT_MS = 540_000;

/** A line on stderr with the time a step took, so a slow run says where it waited. */
export function timed<T>(what: string, step: Promise<T>): Promise<T> {
  const t0 = Date.now();
  return step.then((value) => {
    process.stderr.write(`[real] ${what}: ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    return value;
  });
}

/**
 * The binaries unpacked once per machine (not once per set): xz takes seconds of CPU per
 * binary, and two sets starting at once would otherwise unpack into the same file. The
 * cache is keyed by the archives' size and mtime; each set links to it.
 */
function unpackedBins(kubeDir: string): string {
  const key = ['kube-apiserver', 'kube-controller-manager'].map((b) => {
    const s = statSync(join(kubeDir, `${b}.xz`));
    return `${s.size}-${Math.floor(s.mtimeMs)}`;
  }).join('-');
  const cache = join(tmpdir(), `warren-kube-bin-${key}`);
  mkdirSync(cache, { recursive: true });
  for (const b of ['kube-apiserver', 'kube-controller-manager']) {
    const target = join(cache, b);
    if (existsSync(target)) continue;
    // Unpack to a private name, then rename: a concurrent unpacker never sees half a binary.
    const part = `${target}.${process.pid}.part`;
    execFileSyncSh(`xz -dc '${join(kubeDir, `${b}.xz`)}' > '${part}' && chmod +x '${part}'`);
    renameSync(part, target);
  }
  return cache;
}

function execFileSyncSh(command: string): void {
  // Synchronous on purpose: it runs once per machine, before any control plane starts.
  const status = spawnSync('bash', ['-c', command], { stdio: 'inherit' }).status;
  if (status !== 0) throw new Error(`failed (${String(status)}): ${command}`);
}

/**
 * The files start-kube.sh writes on a control plane's first start (it skips them when
 * sa.key exists), written here with more tokens in the token file: the apiserver reads
 * that file only when it starts, so adding a token afterwards costs a restart.
 */
function seedCredentials(planeDir: string, name: string, tokens: string[]): void {
  mkdirSync(planeDir, { recursive: true });
  const at = (f: string): string => `'${join(planeDir, f)}'`;
  execFileSyncSh([
    `openssl genrsa -out ${at('sa.key.tmp')} 2048 2>/dev/null`,
    `openssl rsa -in ${at('sa.key.tmp')} -pubout -out ${at('sa.pub')} 2>/dev/null`,
    `openssl req -x509 -newkey rsa:2048 -nodes -keyout ${at('ca.key')} -out ${at('ca.crt')} -days 3650 -subj '/CN=${name}-ca' 2>/dev/null`,
  ].join(' && '));
  writeFileSync(join(planeDir, 'tokens.csv'), ['admintoken,admin,admin-uid,system:masters', ...tokens].join('\n') + '\n');
  renameSync(join(planeDir, 'sa.key.tmp'), join(planeDir, 'sa.key'));
}

/**
 * kube-controller-manager with the given controllers, started as start-kube.sh starts
 * it (same flags, its pid in kcm.pid, so the script's stop and stop-all stop it too).
 */
function startControllers(planeDir: string, controllers: string[]): void {
  const I = planeDir;
  execFileSyncSh([
    `setsid '${I}/../bin/kube-controller-manager' --kubeconfig='${I}/kubeconfig' --service-account-private-key-file='${I}/sa.key'`,
    `--root-ca-file='${I}/ca.crt' --use-service-account-credentials=false --leader-elect=false`,
    `--controllers='${controllers.join(',')}' --port=0 --secure-port=0 > '${I}/kcm.log' 2>&1 < /dev/null & echo $! > '${I}/kcm.pid'`,
  ].join(' '));
}

/**
 * A detached process that stops the set when this process dies: its stdin is a pipe from
 * us, so it reads end-of-file however we end (a SIGKILL included), then runs stop-all and
 * removes the directory. The control planes are started with setsid, so nothing else
 * would stop them. stopAll() ends the pipe itself after cleaning up.
 */
function startWatchdog(script: string, dir: string): ChildProcess {
  const dog = spawn('bash', ['-c', `cat > /dev/null; bash "$0" stop-all > /dev/null 2>&1; [ -f "$WARREN_KUBE_DIR/${ADOPTED}" ] && xargs -d '\\n' rm -rf < "$WARREN_KUBE_DIR/${ADOPTED}"; rm -rf "$WARREN_KUBE_DIR"`, script], {
    detached: true, stdio: ['pipe', 'ignore', 'ignore'], env: { ...process.env, WARREN_KUBE_DIR: dir },
  });
  dog.unref();
  // The pipe must not keep the test process alive either.
  (dog.stdin as unknown as { _handle?: { unref?: () => void } } | null)?._handle?.unref?.();
  return dog;
}

/** Stops a control-plane daemon by its pid file as start-kube.sh's stop_pid does (TERM, up to 5 s, then KILL); the script's restart then finds it stopped. */
async function stopDaemon(pidFile: string): Promise<void> {
  const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : NaN;
  if (!Number.isInteger(pid) || pid <= 0) return;
  const alive = (): boolean => { try { process.kill(pid, 0); return true; } catch { return false; } };
  try { process.kill(pid, 'SIGTERM'); } catch { return; }
  for (let i = 0; i < 50 && alive(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  if (alive()) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
}

/**
 * The tier's accounting (scripts/real-tier.mjs sets WARREN_REAL_STATS to a file per test file): one JSON line per
 * control-plane start, and one per daemon with the CPU seconds it used, read from /proc just before it is
 * stopped. The control planes run under setsid, outside the test process's tree, so the runner's own CPU figure
 * for a file does not include them; this does.
 */
function account(line: Record<string, unknown>): void {
  const file = process.env.WARREN_REAL_STATS;
  if (file) try { appendFileSync(file, `${JSON.stringify(line)}\n`); } catch { /* accounting never fails a test */ }
}

/** Clock ticks per second of /proc/PID/stat's utime and stime (USER_HZ: 100 on Linux). */
const USER_HZ = 100;

function accountDaemons(planeDir: string, daemons: string[] = ['etcd', 'apiserver', 'kcm']): void {
  if (!process.env.WARREN_REAL_STATS) return;
  for (const daemon of daemons) {
    try {
      const pid = readFileSync(join(planeDir, `${daemon}.pid`), 'utf8').trim();
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The fields after the command name (in parentheses, may hold spaces): utime and stime are the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      account({ cpu: daemon, plane: planeDir, seconds: (Number(fields[11]) + Number(fields[12])) / USER_HZ });
    } catch { /* not running */ }
  }
}

function accountSet(dir: string): void {
  if (!process.env.WARREN_REAL_STATS) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory() && entry.name !== 'bin') accountDaemons(join(dir, entry.name));
}

/** The file in a set's directory listing the paths it removes with itself (adopt()), one a line. */
const ADOPTED = 'adopted-paths';

/** A set of control planes sharing one private state directory; start() may run concurrently. */
export function realKubeSet(): RealKubeSet {
  const script = realKubeScript();
  if (!script) throw new Error(realKubeSkipReason());
  const dir = mkdtempSync(join(tmpdir(), 'warren-real-'));
  symlinkSync(unpackedBins(resolve(script, '..')), join(dir, 'bin'));
  const watchdog = startWatchdog(script, dir);
  const env = { ...process.env, WARREN_KUBE_DIR: dir };
  const sh = async (...args: string[]): Promise<string> => {
    const { stdout } = await run('bash', [script, ...args], { env, timeout: TIMEOUT_MS, maxBuffer: 1 << 20 });
    return stdout.trim();
  };
  // Starting an apiserver (its bootstrap: RBAC defaults, priority classes, its caches) is
  // seconds of CPU; six at once (the tier runs files two at a time, three planes each) on
  // two cores starved each other past every timeout (load 50: none ready in 180 s). One
  // start or restart at a time on the machine, then: a lock in the temp directory every
  // set shares. It also serializes the script's first start, which installs etcd with apt
  // when missing (two at once would fight over dpkg's lock). The queue may wait long.
  // flock -o: the daemons the script leaves running must not inherit the lock's descriptor.
  const startLock = join(tmpdir(), 'warren-kube-start.lock');
  const locked = async (...args: string[]): Promise<string> => {
    const { stdout } = await run('flock', ['-o', startLock, 'bash', script, ...args], { env, timeout: QUEUED_TIMEOUT_MS, maxBuffer: 1 << 20 });
    return stdout.trim();
  };
  return {
    async start(name, opts = {}) {
      const port = await freePort();
      const args = ['start', name, String(port)];
      if (opts.controllerManager === false || opts.controllers) args.push('--no-controller-manager');
      if (opts.tokens) seedCredentials(join(dir, name), name, opts.tokens);
      account({ start: name });
      const starting = timed(`control plane ${name} started (with its wait for the machine's start lock)`, locked(...args));
      const kubeconfigPath = (await starting).split('\n').pop() ?? '';
      if (opts.controllers) startControllers(join(dir, name), opts.controllers);
      return {
        name, port, kubeconfigPath, kubeconfig: readFileSync(kubeconfigPath, 'utf8'), server: `https://127.0.0.1:${port}`,
        // The fault (the stop) happens at once; only the start waits its turn for the lock. Stopped inside the
        // lock, the stop itself waited behind other files' starts (220 s at load 40), and a test timing what
        // follows the stop (watches ending) timed the queue instead.
        restartApiserver: async () => { accountDaemons(join(dir, name), ['apiserver']); account({ start: `${name} apiserver` }); await stopDaemon(join(dir, name, 'apiserver.pid')); await timed(`${name} apiserver restarted`, locked('restart-apiserver', name)); },
        restartEtcd: async () => { accountDaemons(join(dir, name), ['etcd']); account({ start: `${name} etcd` }); await stopDaemon(join(dir, name, 'etcd.pid')); await timed(`${name} etcd restarted`, locked('restart-etcd', name)); },
        stop: async () => { accountDaemons(join(dir, name)); await sh('wipe', name); },
      };
    },
    adopt(path) {
      appendFileSync(join(dir, ADOPTED), `${path}\n`);
    },
    async stopAll() {
      try {
        accountSet(dir);
        await sh('stop-all');
      } finally {
        const adopted = existsSync(join(dir, ADOPTED)) ? readFileSync(join(dir, ADOPTED), 'utf8').split('\n').filter(Boolean) : [];
        for (const path of adopted) rmSync(path, { recursive: true, force: true });
        rmSync(dir, { recursive: true, force: true });
        watchdog.stdin?.end();
      }
    },
  };
}
