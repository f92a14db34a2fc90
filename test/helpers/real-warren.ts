// Warren as production runs it, for the `real` test tier: a real Kubernetes 1.20
// control plane (etcd + kube-apiserver + controller-manager) as the host,
// optional real member control planes, `./bin/warren serve` on the host as a
// child process, the members registered with `warren member add` and the
// example tenants applied with `warren apply -f tenants/ --wait`, as the README
// says (the CLI commands run in this process through the CLI's main(): warrenCli). startRealWarren() tears down whatever it started when a step fails;
// stop() (call it in `after`) tears down everything, also after a failure.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectlAs, type RunResult } from '../fixtures/up/warren-up-process.ts';
import { startWarrenServe, type WarrenServeProcess } from './fault-warren-serve.ts';
import { KubeHttp } from './kube-http.ts';
import { realKubeSet, realKubeSkipReason, timed, type RealKube, type RealKubeSet } from './real-kube.ts';
import { freePort, REPO_ROOT } from './warren-process.ts';

export { realKubeSkipReason };

export interface RealWarrenOptions {
  /** Tenant manifests for `warren apply -f` (file or directory); default tenants/. Empty list: none. */
  tenants?: string[];
  /** Real member control planes (no controller-manager), registered as member1, member2, … */
  members?: number;
  /** Labels per member (index 0 = member1) for `warren member add --label`; default: tenants/'s examples (member2 region-b). */
  memberLabels?: Array<Record<string, string>>;
  /** Run the host's controller-manager (namespace deletion, garbage collection); default true. */
  controllerManager?: boolean;
  /** How long `warren apply --wait` may take, in seconds; default 120. */
  applyTimeoutSeconds?: number;
}

export interface RealWarren {
  kubes: RealKubeSet;
  host: RealKube;
  members: RealKube[];
  serve: WarrenServeProcess;
  /** https://127.0.0.1:PORT, the gateway tenants reach. */
  gatewayUrl: string;
  /** A private directory for the test's files (kubeconfigs); removed by stop(). */
  dir: string;
  /** Admin client straight to the host apiserver. */
  hostHttp: KubeHttp;
  /** kubectl (PATH's, or a versioned one: '1.27') as the host's admin. */
  hostKubectl(args: string[], version?: string): Promise<RunResult>;
  /** `./bin/warren ARGS --kubeconfig HOST` (tenant, member, apply, status). */
  warren(args: string[], timeoutMs?: number): Promise<RunResult>;
  /** The tenant's id (status.id). */
  tenantId(tenant: string): Promise<string>;
  /** Writes a tenant user's kubeconfig (`warren tenant kubeconfig`) to a private file and returns its path. */
  kubeconfigOf(tenant: string, user?: string): Promise<string>;
  /** Everything warren serve logged so far, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

const CLI_TIMEOUT_MS = 180_000;

/**
 * `warren ARGS` run in this process, through the CLI's own entry point (main(), which
 * parses the flags, runs the command and returns its exit code; commands write only
 * through the io they are given): the same code as ./bin/warren without a new node
 * process. Each new process loaded tsx and the client libraries again, about 6 s of CPU
 * (30-40 s of wall time at load 30), and a file ran five to ten of them. The process
 * itself (bin/warren) is covered by the e2e tier's `warren up` and CLI tests.
 */
export async function warrenCli(args: string[], timeoutMs = CLI_TIMEOUT_MS): Promise<RunResult> {
  const { main } = await import('../../src/cli/main.ts');
  let stdout = '';
  let stderr = '';
  const io = { out: (t: string) => { stdout += t; }, err: (t: string) => { stderr += t; }, env: process.env };
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), timeoutMs); });
  try {
    const code = await Promise.race([main(args, io), timedOut]);
    return { code, stdout, stderr: code === null ? `${stderr}\n(warren ${args.join(' ')}: no answer in ${timeoutMs} ms)` : stderr };
  } finally {
    clearTimeout(timer);
  }
}
const OPENAPI_PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

/**
 * Asks the gateway for the tenant's /openapi/v2 once, with time. kubectl apply and
 * create -f download it first and give up after 32 s, and the gateway's first answer on
 * a 1.20 host (fetch the 4 MB document, derive the tenant's, encode it) took longer than
 * that on a loaded machine; later answers come from its cache.
 */
export async function warmTenantOpenApi(kubeconfig: string): Promise<void> {
  const { res } = await new KubeHttp(kubeconfig).open('GET', '/openapi/v2', { headers: { Accept: OPENAPI_PROTOBUF }, timeoutMs: 180_000 });
  res.resume();
  await new Promise((resolve) => res.on('end', resolve));
  if (res.statusCode !== 200) throw new Error(`the gateway's /openapi/v2 answered ${String(res.statusCode)}`);
}
const DEFAULT_MEMBER_LABELS: Array<Record<string, string>> = [{ location: 'region-a' }, { location: 'region-b' }];

function must(r: RunResult, what: string): string {
  if (r.code !== 0) throw new Error(`${what} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

export async function startRealWarren(options: RealWarrenOptions = {}): Promise<RealWarren> {
  const dir = mkdtempSync(join(tmpdir(), 'warren-real-serve-'));
  const kubes = realKubeSet();
  kubes.adopt(dir); // removed with the control planes, also when this process is killed
  let serve: WarrenServeProcess | undefined;
  const teardown = async (): Promise<void> => {
    try {
      await serve?.kill();
    } finally {
      try {
        await kubes.stopAll();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  };
  // The CLI's modules load (seconds of CPU) while the control planes start, not after.
  void Promise.all([import('../../src/cli/member-command.ts'), import('../../src/cli/apply-command.ts'), import('../../src/cli/tenant-command.ts')]).catch(() => undefined);
  try {
    const memberCount = options.members ?? 0;
    // The control planes start together (each mostly waits for its apiserver), and warren
    // serve starts as soon as the host answers, while the members are still starting.
    const hostStarting = kubes.start('host', { controllerManager: options.controllerManager ?? true });
    const membersStarting = Promise.all(Array.from({ length: memberCount }, (_, i) => kubes.start(`member${i + 1}`, { controllerManager: false })));
    membersStarting.catch(() => undefined);
    const host = await hostStarting;
    const hostArgs = ['--kubeconfig', host.kubeconfigPath];
    // Generous: on a loaded 2-core machine a CLI run spends most of its time loading its modules (30 s seen).
    const run = (args: string[], timeoutMs = CLI_TIMEOUT_MS): Promise<RunResult> => warrenCli([...args, ...hostArgs], timeoutMs);
    serve = await timed('warren serve ready', startWarrenServe(host.kubeconfigPath, await freePort(), 300_000));
    const members = await membersStarting;
    // Members and tenants are independent of each other: registered and applied at once.
    const steps: Array<Promise<unknown>> = members.map(async (member, i) => {
      const labels = Object.entries(options.memberLabels?.[i] ?? DEFAULT_MEMBER_LABELS[i] ?? {}).flatMap(([k, v]) => ['--label', `${k}=${v}`]);
      must(await warrenCli(['member', 'add', member.name, '--kubeconfig', member.kubeconfigPath, '--upstream-kubeconfig', host.kubeconfigPath, ...labels], CLI_TIMEOUT_MS), `warren member add ${member.name}`);
    });
    const tenants = options.tenants ?? [join(REPO_ROOT, 'tenants')];
    if (tenants.length > 0) {
      const timeout = options.applyTimeoutSeconds ?? 120;
      steps.push(timed('warren apply --wait', run(['apply', ...tenants.flatMap((t) => ['-f', t]), '--wait', '--timeout', String(timeout)], CLI_TIMEOUT_MS + timeout * 1000)).then((r) => must(r, 'warren apply --wait')));
    }
    await Promise.all(steps);
    const hostKubectl = (args: string[], version?: string): Promise<RunResult> => kubectlAs(host.kubeconfigPath, version)(args, 120_000);
    const running = serve;
    return {
      kubes, host, members, serve: running, gatewayUrl: `https://127.0.0.1:${running.port}`, dir,
      hostHttp: new KubeHttp(host.kubeconfig),
      hostKubectl,
      warren: run,
      async tenantId(tenant) {
        return must(await hostKubectl(['get', 'tenant', tenant, '-o', 'jsonpath={.status.id}']), `id of ${tenant}`).trim();
      },
      async kubeconfigOf(tenant, user) {
        const text = must(await run(['tenant', 'kubeconfig', tenant, ...(user ? ['--user', user] : [])]), `warren tenant kubeconfig ${tenant}`);
        const path = join(dir, `${tenant}-${user ?? 'admin'}-${Date.now()}.kubeconfig`);
        writeFileSync(path, text, { mode: 0o600 });
        return path;
      },
      output: () => running.output(),
      stop: teardown,
    };
  } catch (err) {
    const out = serve?.output() ?? '';
    await teardown();
    throw new Error(`${(err as Error).message}${out ? `\n--- warren serve output (last 4000) ---\n${out.slice(-4000)}` : ''}`);
  }
}
