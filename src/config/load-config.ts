// `warren serve`'s configuration: defaults, then the YAML file, then WARREN_*
// environment variables, then flags; validated once with ajv at start, and
// every problem reported together, each naming the field and where its value
// came from, so an operator fixes a bad config in one round.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { Ajv, type ErrorObject } from 'ajv';
import { TENANT_ID_PATTERN } from '../core/tenancy/tenant-id.ts';
import { CONFIG_SCHEMA, defaultConfig, type WarrenConfig } from './config-schema.ts';
import { CONFIG_FILE_ENV, CONFIG_FILE_FLAG, OVERRIDES, parseOverride } from './config-overrides.ts';

export interface LoadConfigInput {
  /** Path of the YAML config file; else flags.config, else env WARREN_CONFIG; none = defaults. */
  file?: string | undefined;
  env: Record<string, string | undefined>;
  /** Flag values by flag name (parseArgs' `values`, with configFlagOptions()). */
  flags: Record<string, string | boolean | undefined>;
  /** The edge: how the file is read (default readFileSync). */
  readFile?: (path: string) => string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep merge of plain objects; arrays and scalars from `over` replace. */
function merge(base: unknown, over: unknown): unknown {
  if (!isObj(base) || !isObj(over)) return over === undefined ? base : over;
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = merge(base[k], v);
  return out;
}

function setPath(target: Obj, path: string, value: unknown): void {
  const keys = path.split('.');
  let cur = target;
  for (const k of keys.slice(0, -1)) {
    if (!isObj(cur[k])) cur[k] = {};
    cur = cur[k] as Obj;
  }
  cur[keys[keys.length - 1]!] = value;
}

/** Ajv's error as "field: message", in the config's own dotted names. */
function describe(e: ErrorObject, sourceOf: (path: string) => string): string {
  const base = e.instancePath.slice(1).split('/').filter(Boolean).join('.');
  if (e.keyword === 'additionalProperties') {
    const field = [base, String(e.params.additionalProperty)].filter(Boolean).join('.');
    return `${field}: unknown field${sourceOf(field)}`;
  }
  if (e.keyword === 'required') return `${[base, String(e.params.missingProperty)].filter(Boolean).join('.')}: required`;
  const field = base || '(root)';
  if (e.keyword === 'const') return `${field}: must be ${JSON.stringify(e.params.allowedValue)}${sourceOf(base)}`;
  if (e.keyword === 'enum') return `${field}: must be one of ${(e.params.allowedValues as unknown[]).join(', ')}${sourceOf(base)}`;
  if (e.keyword === 'propertyNames') return `${field}: keys must be tenant ids (${TENANT_ID_PATTERN}), got "${String(e.params.propertyName)}"${sourceOf(base)}`;
  return `${field}: ${e.message ?? 'invalid'}${sourceOf(base)}`;
}

/** Rules a schema cannot say: the leader-election timings as client-go checks them, and where the upstream is. */
function crossFieldProblems(c: WarrenConfig): string[] {
  const out: string[] = [];
  const le = c.leaderElection;
  if (le.enabled && le.leaseDurationSeconds <= le.renewDeadlineSeconds) out.push('leaderElection.leaseDurationSeconds: must be greater than leaderElection.renewDeadlineSeconds');
  if (le.enabled && le.renewDeadlineSeconds <= 1.2 * le.retryPeriodSeconds) out.push('leaderElection.renewDeadlineSeconds: must be greater than 1.2 × leaderElection.retryPeriodSeconds');
  if (!c.upstream.kubeconfig && !c.upstream.inCluster) out.push('upstream.kubeconfig: required unless upstream.inCluster is true (--kubeconfig, WARREN_UPSTREAM_KUBECONFIG)');
  if (c.upstream.kubeconfig && c.upstream.inCluster) out.push('upstream.inCluster: cannot be true when upstream.kubeconfig is set');
  const port = Number(/:(\d+)$/.exec(c.listen)?.[1] ?? '0');
  if (port > 65535) out.push(`listen: port out of range: ${port}`);
  return out;
}

export function loadConfig(input: LoadConfigInput): WarrenConfig {
  const problems: string[] = [];
  const sources = new Map<string, string>();
  const flagFile = input.flags[CONFIG_FILE_FLAG];
  const file = input.file ?? (typeof flagFile === 'string' ? flagFile : undefined) ?? input.env[CONFIG_FILE_ENV];

  let fromFile: unknown = {};
  if (file) {
    let text: string;
    try {
      text = (input.readFile ?? ((p) => readFileSync(p, 'utf8')))(file);
    } catch (err) {
      throw new ConfigError([`config file ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`]);
    }
    try {
      fromFile = parseYaml(text) ?? {};
    } catch (err) {
      throw new ConfigError([`config file ${file}: not valid YAML: ${(err as Error).message.split('\n')[0]}`]);
    }
    if (!isObj(fromFile)) throw new ConfigError([`config file ${file}: must be a YAML mapping`]);
    // The defaults carry apiVersion and kind; a file must say them itself, so a stray YAML is not taken for a config.
    for (const key of ['apiVersion', 'kind']) if (!(key in fromFile)) problems.push(`${key}: required (in ${file})`);
  }

  const overrides: Obj = {};
  for (const layer of ['env', 'flag'] as const) {
    for (const r of OVERRIDES) {
      const raw = layer === 'env' ? input.env[r.env] : input.flags[r.flag];
      if (raw === undefined) continue;
      const where = layer === 'env' ? `env ${r.env}` : `flag --${r.flag}`;
      const parsed = typeof raw === 'boolean' ? { value: raw } : parseOverride(r.type, raw);
      if ('error' in parsed) { problems.push(`${r.path}: ${parsed.error} (from ${where})`); continue; }
      setPath(overrides, r.path, parsed.value);
      sources.set(r.path, where);
    }
  }

  const merged = merge(merge(defaultConfig(), fromFile), overrides);
  const sourceOf = (path: string): string => {
    const s = sources.get(path);
    if (s) return ` (from ${s})`;
    return file ? ` (in ${file})` : '';
  };
  const ajv = new Ajv({ allErrors: true, strict: false, logger: false });
  const validate = ajv.compile(CONFIG_SCHEMA);
  if (!validate(merged)) problems.push(...(validate.errors ?? []).map((e) => describe(e, sourceOf)));
  if (problems.length > 0) throw new ConfigError([...new Set(problems)]);
  const config = merged as WarrenConfig;
  const cross = crossFieldProblems(config);
  if (cross.length > 0) throw new ConfigError(cross);
  return config;
}
