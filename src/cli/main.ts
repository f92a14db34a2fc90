// The `warren` command: the composition root, and the only place that reads
// process.env or argv. Each subcommand lives in its own file.
// Subcommands are imported when chosen: `warren apiserver` must not load the
// gateway, the controllers and client-node (about 120 MiB it would never use).

const USAGE = `Usage: warren <command> [options]

Commands:
  apiserver   Run the embedded Kubernetes-compatible API server
              --listen HOST:PORT  (default 127.0.0.1:6443)
              --data-dir DIR      (default .warren/apiserver)
              --simulate-workloads
  up          Run everything embedded: host apiserver, member clusters, gateway, controllers
              --data-dir DIR (default .warren)  --port-base P (default 6443)
              --members N (default 2)  --tenants-dir DIR (default tenants)
  serve       Run the tenant gateway and controllers against a real cluster
              --upstream-kubeconfig FILE  (required)
              --listen HOST:PORT  (default 127.0.0.1:6443)
              --external-url URL  (what tenant kubeconfigs point at)
              --audit-impersonate USER  (Warren's upstream user: requests carry the tenant and user as impersonation extras)
  admin       Platform-admin credentials for the provisioning API: token | certificate
  tenant      Manage tenants: create|list|get|delete|kubeconfig|revoke (warren tenant help)
  member      Manage member clusters: add|list|remove (warren member help)
  apply       Apply Tenant and Cluster manifests to the host (GitOps): -f FILE|DIR [--wait]
  status      Tenants, members and where each tenant's replicas run [-o json]
  help        Show this help
`;

export async function main(argv: string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (err) {
    process.stderr.write(`warren: ${(err as Error).message}\n`);
    return 1;
  }
}

/** Commands whose own parser has no --help: tenant and member have a `help` verb; the servers' flags are in USAGE. */
const HELP_VERB = new Set(['tenant', 'member']);
const HELP_IN_USAGE = new Set(['apiserver', 'serve', 'up']);

async function dispatch(argv: string[]): Promise<number> {
  const [command, ...given] = argv;
  const wantsHelp = given.includes('--help') || given.includes('-h');
  if (wantsHelp && command && HELP_IN_USAGE.has(command)) {
    process.stdout.write(USAGE);
    return 0;
  }
  const rest = wantsHelp && command && HELP_VERB.has(command) ? ['help'] : given;
  switch (command) {
    case 'apiserver':
      return (await import('./apiserver-command.ts')).runApiServerCommand(rest);
    case 'serve':
      return (await import('./serve-command.ts')).runServeCommand(rest);
    case 'up':
      return (await import('./up-command.ts')).runUpCommand(rest);
    case 'tenant':
      return (await import('./tenant-command.ts')).runTenantCommand(rest);
    case 'member':
      return (await import('./member-command.ts')).runMemberCommand(rest);
    case 'apply':
      return (await import('./apply-command.ts')).runApplyCommand(rest);
    case 'status':
      return (await import('./status-command.ts')).runStatusCommand(rest);
    case 'admin':
      return (await import('./admin-command.ts')).runAdminCommand(rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`warren: unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}
