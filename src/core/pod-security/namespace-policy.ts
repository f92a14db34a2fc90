// A namespace's Pod Security policy from its labels
// (pod-security.kubernetes.io/<mode> and <mode>-version), as kube's PSA reads
// them. Unlabelled modes are privileged (kube's default configuration). A bad
// label value is an error: kube refuses it on the namespace, and an object that
// still carries one (written before this check existed) is evaluated as
// restricted:latest for enforce, the safe side.
export type Level = 'privileged' | 'baseline' | 'restricted';
export const MODES = ['enforce', 'audit', 'warn'] as const;
export type Mode = (typeof MODES)[number];

export interface LevelVersion {
  level: Level;
  /** "latest" or "v1.N". */
  version: string;
}

export type NamespacePolicy = Record<Mode, LevelVersion>;

export interface PolicyLabelError {
  field: string;
  value: string;
  message: string;
}

export const LABEL_PREFIX = 'pod-security.kubernetes.io/';
const LEVELS: readonly Level[] = ['privileged', 'baseline', 'restricted'];
const VERSION = /^(latest|v1\.(0|[1-9]\d{0,3}))$/;

const PRIVILEGED: LevelVersion = { level: 'privileged', version: 'latest' };
const RESTRICTED: LevelVersion = { level: 'restricted', version: 'latest' };

export function readNamespacePolicy(labels: Record<string, string> | undefined): { policy: NamespacePolicy; errors: PolicyLabelError[] } {
  const errors: PolicyLabelError[] = [];
  const policy = {} as NamespacePolicy;
  for (const mode of MODES) {
    const levelKey = `${LABEL_PREFIX}${mode}`;
    const versionKey = `${levelKey}-version`;
    const rawLevel = labels?.[levelKey];
    const rawVersion = labels?.[versionKey];
    let entry: LevelVersion = PRIVILEGED;
    let bad = false;
    if (rawLevel !== undefined) {
      if ((LEVELS as readonly string[]).includes(rawLevel)) entry = { level: rawLevel as Level, version: 'latest' };
      else {
        errors.push({ field: `metadata.labels[${levelKey}]`, value: rawLevel, message: `must be one of ${LEVELS.join(', ')}` });
        bad = true;
      }
    }
    if (rawVersion !== undefined) {
      if (VERSION.test(rawVersion)) entry = { ...entry, version: rawVersion };
      else {
        errors.push({ field: `metadata.labels[${versionKey}]`, value: rawVersion, message: 'must be "latest" or "v1.x"' });
        bad = true;
      }
    }
    // Only enforce fails closed; a bad warn or audit label must not block anything.
    policy[mode] = bad && mode === 'enforce' ? RESTRICTED : entry;
  }
  return { policy, errors };
}

export function formatLevelVersion(lv: LevelVersion): string {
  return `${lv.level}:${lv.version}`;
}
