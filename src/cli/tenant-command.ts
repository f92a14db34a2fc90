// `warren tenant create|list|get|delete|kubeconfig|revoke`: platform-admin
// operations on Tenant objects in the host cluster.
import { parseArgs } from 'node:util';
import { writeFile } from 'node:fs/promises';
import type { Upstream } from '../kube/upstream.ts';
import { TENANTS_PATH, TENANT_API_VERSION, type Tenant } from '../gateway/tenants/tenant-crd.ts';
import { readAdminKubeconfig, waitForTenant } from '../up/wait-for-tenants.ts';
import { hostUpstream } from './host-upstream.ts';
import { createProgress, describeTenant } from './progress.ts';

const USAGE = `Usage: warren tenant <create|list|get|delete|kubeconfig|revoke> [NAME] [options]
  create NAME [--admin USER]... [--user USER]... [--id ID] [--pod-security LEVEL] [--wait] [--kubeconfig-out FILE]
  list
  get NAME
  delete NAME [--wait]
  kubeconfig NAME [--user USER]        (default: the first admin)
  revoke NAME                          (every credential issued before now stops working)
Host: --kubeconfig FILE, or --data-dir DIR of a \`warren up\` system (default .warren)
`;

function fail(message: string): never {
  throw new Error(message);
}

async function getTenant(upstream: Upstream, name: string): Promise<Tenant> {
  const answer = await upstream.request<Tenant>('GET', `${TENANTS_PATH}/${name}`);
  if (answer.status === 404) fail(`tenant "${name}" not found`);
  if (answer.status !== 200) fail(`cannot read tenant "${name}": ${JSON.stringify(answer.body)}`);
  return answer.body;
}

function row(t: Tenant): string {
  const ready = (t.status?.conditions ?? []).find((c) => c.type === 'Ready');
  return [t.metadata.name ?? '', t.status?.id ?? '-', t.status?.phase ?? 'Pending', ready?.message ?? ''].join('\t');
}

export async function runTenantCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      kubeconfig: { type: 'string' },
      'data-dir': { type: 'string' },
      admin: { type: 'string', multiple: true },
      user: { type: 'string', multiple: true },
      id: { type: 'string' },
      'pod-security': { type: 'string' },
      wait: { type: 'boolean', default: false },
      'kubeconfig-out': { type: 'string' },
      timeout: { type: 'string', default: '120' },
    },
    strict: true,
  });
  const [verb, name] = positionals;
  if (!verb || verb === 'help') {
    process.stdout.write(USAGE);
    return verb ? 0 : 2;
  }
  const upstream = hostUpstream(values);
  const timeoutMs = Number(values.timeout) * 1000;
  try {
    switch (verb) {
      case 'create': {
        if (!name) fail('tenant create needs a NAME');
        const users = [...(values.admin ?? []).map((u) => ({ name: u, admin: true })), ...(values.user ?? []).map((u) => ({ name: u }))];
        const spec: Record<string, unknown> = { users: users.length > 0 ? users : [{ name: 'admin', admin: true }] };
        if (values.id) spec.id = values.id;
        if (values['pod-security']) spec.podSecurity = values['pod-security'];
        const created = await upstream.request('POST', TENANTS_PATH, { apiVersion: TENANT_API_VERSION, kind: 'Tenant', metadata: { name }, spec });
        if (created.status === 409) process.stdout.write(`tenant/${name} already exists\n`);
        else if (created.status !== 201) fail(`cannot create tenant "${name}": ${(created.body as { message?: string }).message ?? created.status}`);
        else process.stdout.write(`tenant/${name} created\n`);
        if (values.wait || values['kubeconfig-out']) {
          process.stdout.write(`waiting for tenant/${name} to be Ready...\n`);
          const progress = createProgress((text) => process.stdout.write(text));
          const ready = await waitForTenant(upstream, name, timeoutMs, (t) => progress.update(`tenant/${name}`, describeTenant(t)));
          process.stdout.write(`tenant/${name} Ready (id ${ready.id})\n`);
          if (values['kubeconfig-out']) {
            await writeFile(values['kubeconfig-out'], ready.adminKubeconfig, { mode: 0o600 });
            process.stdout.write(`admin kubeconfig for ${ready.adminUser} written to ${values['kubeconfig-out']}\n`);
          }
        }
        return 0;
      }
      case 'list': {
        const answer = await upstream.request<{ items: Tenant[] }>('GET', TENANTS_PATH);
        process.stdout.write(['NAME\tID\tPHASE\tMESSAGE', ...answer.body.items.map(row)].join('\n') + '\n');
        return 0;
      }
      case 'get':
        if (!name) fail('tenant get needs a NAME');
        process.stdout.write(`${JSON.stringify(await getTenant(upstream, name), null, 2)}\n`);
        return 0;
      case 'delete': {
        if (!name) fail('tenant delete needs a NAME');
        const answer = await upstream.request('DELETE', `${TENANTS_PATH}/${name}`);
        if (answer.status === 404) fail(`tenant "${name}" not found`);
        process.stdout.write(`tenant/${name} deleted\n`);
        if (values.wait) {
          const deadline = Date.now() + timeoutMs;
          while ((await upstream.request('GET', `${TENANTS_PATH}/${name}`)).status !== 404) {
            if (Date.now() > deadline) fail(`tenant "${name}" is still terminating`);
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
          process.stdout.write(`tenant/${name} is gone, with everything it had\n`);
        }
        return 0;
      }
      case 'kubeconfig': {
        if (!name) fail('tenant kubeconfig needs a NAME');
        const tenant = await getTenant(upstream, name);
        const wanted = values.user?.[0];
        const chosen = wanted ? { ...tenant, spec: { ...tenant.spec, users: (tenant.spec?.users ?? []).filter((u) => u.name === wanted).map((u) => ({ ...u, admin: true })) } } as Tenant : tenant;
        const found = await readAdminKubeconfig(upstream, chosen);
        if (!found) fail(`no kubeconfig for ${wanted ? `user "${wanted}"` : 'an admin'} of tenant "${name}" (is it Ready?)`);
        process.stdout.write(found.kubeconfig);
        return 0;
      }
      case 'revoke': {
        if (!name) fail('tenant revoke needs a NAME');
        // Credentials carry whole seconds: revoke up to the next second, so nothing issued before now survives.
        const at = new Date(Math.ceil((Date.now() + 1) / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
        const answer = await upstream.request('PATCH', `${TENANTS_PATH}/${name}`, { spec: { credentials: { revokeBefore: at } } }, { 'Content-Type': 'application/merge-patch+json' });
        if (answer.status !== 200) fail(`cannot revoke tenant "${name}": ${JSON.stringify(answer.body)}`);
        process.stdout.write(`tenant/${name}: every credential issued before ${at} is revoked; new ones are being issued\n`);
        return 0;
      }
      default:
        process.stderr.write(USAGE);
        return 2;
    }
  } finally {
    upstream.close();
  }
}
