// Every `warren` command's verbs and flags, as data: the parser, each
// command's --help, the global help and shell completion are all made from this
// table, so a flag cannot be accepted without being listed, or listed without
// being accepted (issue 19: `--leader-elect` and `up --verbose` were missing).
// Data only: main.ts reads it before loading any command's heavy imports.
import { OVERRIDES } from '../config/config-overrides.ts';
import { TENANT_ID_LENGTH, TENANT_ID_PATTERN } from '../core/tenancy/tenant-id.ts';
import type { FlagSpec } from './flag-parser.ts';

export interface VerbSpec { name: string; args?: string; help: string }

export interface CommandSpec {
  name: string;
  summary: string;
  /** Positional synopsis after `warren <name>`. */
  synopsis: string;
  verbs?: VerbSpec[];
  flags: FlagSpec[];
  /** Free text after the flags. */
  notes?: string;
}

/** A flag for some verbs only; its help says which. */
function only(verbs: string[], flag: Omit<FlagSpec, 'verbs'>): FlagSpec {
  return { ...flag, verbs, help: `${verbs.join(', ')}: ${flag.help}` };
}

const HELP: FlagSpec = { name: 'help', short: 'h', type: 'boolean', help: 'Show this help' };
/** kube-apiserver 1.31+'s flag name for the same idea (ADR 0035); the releases are src/apiserver/emulation.ts's table. */
const EMULATED_VERSION: FlagSpec = { name: 'emulated-version', type: 'string', value: 'RELEASE', help: 'Show clients this Kubernetes release instead of 1.33 (1.20: its /version, discovery, no OpenAPI v3)' };

/** How the platform-admin commands find the host: like kubectl, plus a `warren up` data dir. */
export const HOST_FLAGS: FlagSpec[] = [
  { name: 'kubeconfig', type: 'string', value: 'FILE', help: 'Host cluster kubeconfig (else: --data-dir, then $KUBECONFIG, then .warren/admin.kubeconfig)' },
  { name: 'context', type: 'string', value: 'NAME', help: 'The kubeconfig context to use' },
  { name: 'data-dir', type: 'string', value: 'DIR', help: 'Data dir of a `warren up` system (default .warren)' },
  { name: 'upstream-kubeconfig', type: 'string', value: 'FILE', help: 'Deprecated: use --kubeconfig', aliasOf: 'kubeconfig', hidden: true },
];

const OUTPUT = (formats: string): FlagSpec => ({ name: 'output', short: 'o', type: 'string', value: 'FORMAT', help: `Output format: ${formats}` });
const TIMEOUT: FlagSpec = { name: 'timeout', type: 'string', value: 'SECONDS', help: 'how long --wait waits (default 120)' };

/** `warren serve`'s flags: one per configuration field (docs/operations.md), booleans take --flag or --flag=false. */
function serveFlags(): FlagSpec[] {
  const flags: FlagSpec[] = [{ name: 'config', type: 'string', value: 'FILE', help: 'Configuration file (WARREN_CONFIG)' }];
  for (const row of OVERRIDES) {
    if (row.path === 'upstream.kubeconfig') continue;
    flags.push({
      name: row.flag,
      type: row.type === 'boolean' ? 'boolean' : 'string',
      ...(row.type === 'boolean' ? {} : { value: row.type === 'list' ? 'A,B' : row.type === 'string' ? 'VALUE' : 'N' }),
      help: `${row.path} (${row.env})`,
    });
  }
  return [
    { name: 'kubeconfig', type: 'string', value: 'FILE', help: 'Upstream (host) cluster kubeconfig (upstream.kubeconfig, WARREN_UPSTREAM_KUBECONFIG)' },
    { name: 'context', type: 'string', value: 'NAME', help: 'The kubeconfig context to use' },
    { name: 'upstream-kubeconfig', type: 'string', value: 'FILE', help: 'Deprecated: use --kubeconfig', aliasOf: 'kubeconfig', hidden: true },
    ...flags,
    HELP,
  ];
}

export const COMMANDS: CommandSpec[] = [
  {
    name: 'apiserver', summary: 'Run the embedded Kubernetes-compatible API server', synopsis: '[options]',
    flags: [
      { name: 'listen', type: 'string', value: 'HOST:PORT', help: 'Address to serve on (default 127.0.0.1:6443)' },
      { name: 'data-dir', type: 'string', value: 'DIR', help: 'Where objects are stored (default .warren/apiserver)' },
      { name: 'simulate-workloads', type: 'boolean', help: 'Pretend Deployments and Pods run (status only)' },
      { name: 'bookmark-interval', type: 'string', value: 'SECONDS', help: 'Watch BOOKMARK interval' },
      EMULATED_VERSION,
      HELP,
    ],
  },
  {
    name: 'up', summary: 'Run everything embedded: host apiserver, member clusters, gateway, controllers', synopsis: '[options]',
    flags: [
      { name: 'data-dir', type: 'string', value: 'DIR', help: 'State of the whole system (default .warren); a second `up` keeps it' },
      { name: 'port-base', type: 'string', value: 'P', help: 'Gateway port; the host and members take the next ones (default 6443)' },
      { name: 'members', type: 'string', value: 'N', help: 'Member clusters to run (default 2)' },
      { name: 'tenants-dir', type: 'string', value: 'DIR', help: 'Tenant manifests applied at start (default tenants)' },
      { name: 'verbose', short: 'v', type: 'boolean', help: 'Also write the JSON logs on stderr (they always go to DIR/warren.log)' },
      { name: 'audit-log-path', type: 'string', value: 'FILE', help: 'Write the gateway\'s audit events (audit.k8s.io/v1, one per line) here, as serve does' },
      EMULATED_VERSION,
      HELP,
    ],
  },
  {
    name: 'serve', summary: 'Run the tenant gateway and controllers against a real cluster', synopsis: '--kubeconfig FILE [options]',
    flags: serveFlags(),
    notes: 'Precedence: defaults < --config file < WARREN_* environment < flags (docs/operations.md).',
  },
  {
    name: 'tenant', summary: 'Manage tenants', synopsis: '<verb> [NAME] [options]',
    verbs: [
      { name: 'create', args: 'NAME --admin USER', help: 'Create a tenant (error if it exists)' },
      { name: 'list', help: 'List tenants' },
      { name: 'get', args: 'NAME', help: 'Show one tenant' },
      { name: 'delete', args: 'NAME', help: 'Delete a tenant and everything it has' },
      { name: 'kubeconfig', args: 'NAME', help: 'Print a user\'s kubeconfig (default: the first admin)' },
      { name: 'revoke', args: 'NAME', help: 'Every credential issued before now stops working' },
    ],
    flags: [
      only(['create'], { name: 'admin', type: 'string', multiple: true, value: 'USER', help: 'an admin user (at least one; repeatable)' }),
      only(['create', 'kubeconfig'], { name: 'user', type: 'string', multiple: true, value: 'USER', help: 'a non-admin user to create (repeatable); whose kubeconfig' }),
      only(['create'], { name: 'id', type: 'string', value: 'ID', help: `the tenant id (${TENANT_ID_LENGTH} chars ${TENANT_ID_PATTERN}; default: assigned)` }),
      only(['create'], { name: 'pod-security', type: 'string', value: 'LEVEL', help: 'privileged|baseline|restricted (default baseline)' }),
      only(['create'], { name: 'cluster', type: 'string', multiple: true, value: 'NAME', help: 'a member cluster the tenant may use (repeatable)' }),
      only(['create'], { name: 'cluster-selector', type: 'string', value: 'k=v,...', help: 'member clusters the tenant may use, by label' }),
      only(['create'], { name: 'quota', type: 'string', multiple: true, value: 'KEY=VALUE,...', help: 'limits: namespaces, objectsPerResource, cpu, memory, storage (e.g. namespaces=10,cpu=4)' }),
      only(['create', 'delete'], { name: 'wait', type: 'boolean', help: 'wait until Ready / gone, showing progress' }),
      only(['create', 'delete'], TIMEOUT),
      only(['create'], { name: 'kubeconfig-out', type: 'string', value: 'FILE', help: 'write the admin kubeconfig here (implies --wait)' }),
      only(['list', 'get'], OUTPUT('wide|json|yaml|name')),
      only(['list', 'get'], { name: 'no-headers', type: 'boolean', help: 'no header row' }),
      ...HOST_FLAGS, HELP,
    ],
  },
  {
    name: 'member', summary: 'Manage member clusters (like karmadactl join|unjoin)', synopsis: '<verb> [NAME] [options]',
    verbs: [
      { name: 'add', args: 'NAME --cluster-kubeconfig FILE', help: 'Register a member cluster (push mode)' },
      { name: 'list', help: 'List member clusters' },
      { name: 'get', args: 'NAME...', help: 'Show member clusters by name' },
      { name: 'remove', args: 'NAME', help: 'Unregister a member cluster' },
    ],
    flags: [
      only(['list', 'get'], OUTPUT('wide|json|yaml|name')),
      only(['list', 'get'], { name: 'no-headers', type: 'boolean', help: 'no header row' }),
      only(['add'], { name: 'cluster-kubeconfig', type: 'string', value: 'FILE', help: 'the member cluster\'s kubeconfig' }),
      only(['add'], { name: 'provider', type: 'string', value: 'P', help: 'spec.provider' }),
      only(['add'], { name: 'region', type: 'string', value: 'R', help: 'spec.region' }),
      only(['add'], { name: 'zone', type: 'string', value: 'Z', help: 'spec.zone' }),
      only(['add'], { name: 'label', type: 'string', multiple: true, value: 'k=v', help: 'a label (repeatable)' }),
      only(['add'], { name: 'taint', type: 'string', multiple: true, value: 'k=v:Effect', help: 'a taint (repeatable); the given set replaces the member\'s, none keeps it, --taint= clears it' }),
      ...HOST_FLAGS.filter((f) => f.name !== 'upstream-kubeconfig'),
      // Before --cluster-kubeconfig, `member add` took the member's as --kubeconfig and the host's as this.
      { name: 'upstream-kubeconfig', type: 'string', value: 'FILE', help: 'Deprecated: the host kubeconfig (then --kubeconfig is the member\'s)', hidden: true },
      HELP,
    ],
  },
  {
    name: 'apply', summary: 'Apply Tenant and Cluster manifests to the host (GitOps)', synopsis: '-f FILE|DIR [-f ...] [options]',
    flags: [
      { name: 'filename', short: 'f', type: 'string', multiple: true, value: 'FILE|DIR', help: 'Manifests: a file, or a folder\'s *.yaml, *.yml and *.json' },
      { name: 'wait', type: 'boolean', help: 'Show each Tenant\'s onboarding until it is Ready, or say why it is not' },
      TIMEOUT, ...HOST_FLAGS, HELP,
    ],
    notes: 'Server-side applies Tenant (tenancy.warren.dev/v1alpha1) and Cluster (cluster.karmada.io/v1alpha1) with field manager "warren".',
  },
  {
    name: 'status', summary: 'Tenants, members and where each tenant\'s replicas run', synopsis: '[options]',
    flags: [OUTPUT('text|json'), ...HOST_FLAGS, HELP],
  },
  {
    name: 'admin', summary: 'Platform-admin credentials for the provisioning API', synopsis: '<verb> [options]',
    verbs: [
      { name: 'token', help: 'Print a bearer token' },
      { name: 'certificate', args: '--out-dir DIR', help: 'Write a client certificate, its key and the gateway CA' },
    ],
    flags: [
      { name: 'name', type: 'string', value: 'NAME', help: 'The admin\'s name (default platform-admin)' },
      only(['token'], { name: 'ttl', type: 'string', value: 'SECONDS', help: 'lifetime (default 3600)' }),
      only(['certificate'], { name: 'days', type: 'string', value: 'N', help: 'lifetime (default 30)' }),
      only(['certificate'], { name: 'out-dir', type: 'string', value: 'DIR', help: 'where to write the files' }),
      ...HOST_FLAGS, HELP,
    ],
  },
  {
    name: 'version', summary: 'Print the version', synopsis: '[options]',
    flags: [OUTPUT('json|yaml (default: one line)'), HELP],
  },
  {
    name: 'completion', summary: 'Print a shell completion script', synopsis: 'bash|zsh',
    verbs: [{ name: 'bash', help: 'source <(warren completion bash)' }, { name: 'zsh', help: 'source <(warren completion zsh)' }],
    flags: [HELP],
  },
];

export function commandSpec(name: string): CommandSpec | undefined {
  return COMMANDS.find((c) => c.name === name);
}
