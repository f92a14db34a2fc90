// `warren tenant create|list|get|delete|kubeconfig|revoke`: platform-admin
// operations on Tenant objects in the host cluster. Output and errors follow
// kubectl: aligned tables and -o formats (tenant-table.ts), an existing tenant
// is an AlreadyExists error, every failure exits non-zero.
import { writeFile } from 'node:fs/promises';
import type { Upstream } from '../kube/upstream.ts';
import { TENANTS_PATH, TENANT_API_VERSION, type Tenant, type TenantSpec } from '../tenants/tenant-crd.ts';
import { readTenantKubeconfig } from '../tenants/tenant-kubeconfig.ts';
import { revokeInstant } from '../tenants/revoke-instant.ts';
import { bool, list, str, type CliIo, type CommandInput } from './cli-io.ts';
import { hostFlags, hostUpstream } from './host-upstream.ts';
import { createProgress, describeTenant } from './progress.ts';
import { buildTenantSpec } from './tenant-spec-flags.ts';
import { parseOutput, printObjects } from './object-printer.ts';
import { TENANT_COLUMNS } from './tenant-table.ts';

function fail(message: string): never {
  throw new Error(message);
}

function messageOf(body: unknown, status: number): string {
  const message = (body as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : `HTTP ${status}`;
}

async function getTenant(upstream: Upstream, name: string): Promise<Tenant> {
  const answer = await upstream.request<Tenant>('GET', `${TENANTS_PATH}/${encodeURIComponent(name)}`);
  if (answer.status === 404) fail(`tenant "${name}" not found`);
  if (answer.status !== 200) fail(`cannot read tenant "${name}": ${messageOf(answer.body, answer.status)}`);
  return answer.body;
}

function timeoutOf(values: CommandInput['values']): number {
  const text = str(values, 'timeout') ?? '120';
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0) fail(`--timeout must be a positive number of seconds, not "${text}"`);
  return seconds * 1000;
}

// Imported by the verbs that wait or read a kubeconfig Secret only: its Secret naming pulls in the
// platform secrets module, and with it the PKI and JOSE libraries (~0.7 s of CPU per command).
const waitForTenants = () => import('../up/wait-for-tenants.ts');

function specOf(values: CommandInput['values']): TenantSpec {
  return buildTenantSpec({
    admins: list(values, 'admin'), users: list(values, 'user'), id: str(values, 'id'), podSecurity: str(values, 'pod-security'),
    clusters: list(values, 'cluster'), clusterSelector: str(values, 'cluster-selector'), quota: list(values, 'quota'),
  });
}

async function create(upstream: Upstream, io: CliIo, name: string, spec: TenantSpec, values: CommandInput['values']): Promise<number> {
  const created = await upstream.request('POST', TENANTS_PATH, { apiVersion: TENANT_API_VERSION, kind: 'Tenant', metadata: { name }, spec });
  // As kubectl create: an existing object is an error, and none of the flags are applied to it.
  if (created.status === 409) fail(`${messageOf(created.body, 409)} (use \`warren apply\` or \`kubectl edit\` to change it)`);
  if (created.status !== 201) fail(`cannot create tenant "${name}": ${messageOf(created.body, created.status)}`);
  io.out(`tenant/${name} created\n`);
  const out = str(values, 'kubeconfig-out');
  if (!bool(values, 'wait') && !out) return 0;
  io.out(`waiting for tenant/${name} to be Ready...\n`);
  const progress = createProgress(io.out);
  const { waitForTenant } = await waitForTenants();
  const ready = await waitForTenant(upstream, name, timeoutOf(values), (t) => progress.update(`tenant/${name}`, describeTenant(t)));
  io.out(`tenant/${name} Ready (id ${ready.id})\n`);
  if (out) {
    await writeFile(out, ready.adminKubeconfig, { mode: 0o600 });
    io.out(`admin kubeconfig for ${ready.adminUser} written to ${out}\n`);
  }
  return 0;
}

async function show(upstream: Upstream, io: CliIo, names: string[], values: CommandInput['values']): Promise<number> {
  const output = parseOutput(str(values, 'output'));
  let tenants: Tenant[];
  if (names.length > 0) {
    tenants = await Promise.all(names.map((n) => getTenant(upstream, n)));
  } else {
    const answer = await upstream.request<{ items?: Tenant[] }>('GET', TENANTS_PATH);
    if (answer.status !== 200) fail(`cannot list tenants: ${messageOf(answer.body, answer.status)}`);
    tenants = answer.body.items ?? [];
  }
  return printObjects(io, tenants, TENANT_COLUMNS, { output, noHeaders: bool(values, 'no-headers'), now: new Date(), single: names.length === 1, empty: 'No tenants found.' });
}

async function remove(upstream: Upstream, io: CliIo, name: string, values: CommandInput['values']): Promise<number> {
  const path = `${TENANTS_PATH}/${encodeURIComponent(name)}`;
  const answer = await upstream.request('DELETE', path);
  if (answer.status === 404) fail(`tenant "${name}" not found`);
  if (answer.status !== 200 && answer.status !== 202) fail(`cannot delete tenant "${name}": ${messageOf(answer.body, answer.status)}`);
  io.out(`tenant/${name} deleted\n`);
  if (!bool(values, 'wait')) return 0;
  const progress = createProgress(io.out);
  const deadline = Date.now() + timeoutOf(values);
  for (;;) {
    const now = await upstream.request<Tenant>('GET', path);
    if (now.status === 404) break;
    if (now.status === 200) progress.update(`tenant/${name}`, now.body.status?.phase ?? 'Terminating');
    if (Date.now() > deadline) fail(`tenant "${name}" is still terminating`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  io.out(`tenant/${name} is gone, with everything it had\n`);
  return 0;
}

async function kubeconfig(upstream: Upstream, io: CliIo, name: string, wanted: string | undefined): Promise<number> {
  const tenant = await getTenant(upstream, name);
  const users = tenant.spec?.users ?? [];
  if (wanted && !users.some((u) => u.name === wanted)) {
    fail(`user "${wanted}" does not exist in tenant "${name}" (its users: ${users.map((u) => u.name).join(', ') || 'none'})`);
  }
  const found = await readTenantKubeconfig(upstream, tenant, wanted);
  if (!found) {
    const who = wanted ? `user "${wanted}"` : 'an admin';
    fail(tenant.status?.phase === 'Ready' ? `no kubeconfig issued yet for ${who} of tenant "${name}"; try again in a moment` : `no kubeconfig for ${who} of tenant "${name}": it is ${tenant.status?.phase ?? 'Pending'}, not Ready`);
  }
  io.out(found.kubeconfig);
  return 0;
}

async function revoke(upstream: Upstream, io: CliIo, name: string): Promise<number> {
  const at = revokeInstant(Date.now());
  const answer = await upstream.request('PATCH', `${TENANTS_PATH}/${encodeURIComponent(name)}`, { spec: { credentials: { revokeBefore: at } } }, { 'Content-Type': 'application/merge-patch+json' });
  if (answer.status === 404) fail(`tenant "${name}" not found`);
  if (answer.status !== 200) fail(`cannot revoke tenant "${name}": ${messageOf(answer.body, answer.status)}`);
  io.out(`tenant/${name}: every credential issued before ${at} is revoked; new ones are being issued\n`);
  return 0;
}

export async function runTenantCommand({ io, values, positionals }: CommandInput): Promise<number> {
  const [verb, ...names] = positionals;
  const name = names[0];
  if (verb !== 'list' && verb !== 'get' && !name) fail(`tenant ${verb ?? ''} needs a NAME`);
  if (verb === 'list' && names.length > 0) fail('tenant list takes no NAME (use tenant get NAME)');
  if (verb !== 'get' && verb !== 'list' && names.length > 1) fail(`tenant ${verb ?? ''} takes one NAME`);
  // Flags are checked before the host is contacted: a typo in -o must not cost a round trip.
  if (verb === 'list' || verb === 'get') parseOutput(str(values, 'output'));
  if (verb === 'create' || verb === 'delete') timeoutOf(values);
  const spec = verb === 'create' ? specOf(values) : undefined;
  const upstream = hostUpstream(hostFlags(values), io.env);
  try {
    switch (verb) {
      case 'create': return await create(upstream, io, name!, spec!, values);
      case 'list':
      case 'get': return await show(upstream, io, names, values);
      case 'delete': return await remove(upstream, io, name!, values);
      case 'kubeconfig': return await kubeconfig(upstream, io, name!, list(values, 'user')[0]);
      default: return await revoke(upstream, io, name!);
    }
  } finally {
    upstream.close();
  }
}
