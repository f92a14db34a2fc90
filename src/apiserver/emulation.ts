// The Kubernetes release the embedded apiserver shows its clients. By default
// its own (1.33: /version, aggregated discovery, /openapi/v3, fieldValidation,
// ADR 0032). `--emulated-version 1.20` (ADR 0035) shows what a 1.20
// kube-apiserver shows instead, for the conformance specs taken on 1.20 and for
// users whose real host is 1.20. Only what a client can see differs, and every
// difference is a row of one table here: the registry, storage and validation
// are the same in both modes.
import { BUILTIN_RESOURCES } from '../core/resources/builtin-resources.ts';
import type { ResourceDef } from '../core/resources/resource-def.ts';
import { KUBE_VERSION } from './openapi/index.ts';

export interface Emulation {
  /** "1.33" (this build's own) or an emulated "1.20". */
  release: string;
  /** What GET /version answers. */
  version: Readonly<Record<string, string>>;
  /** GET /openapi/v3 and its group documents answer (1.27+ kubectl then renders explain from them). */
  openApiV3: boolean;
  /** The OpenAPI write operations list the fieldValidation parameter (kubectl 1.25+ then leaves validation to the server). */
  fieldValidation: boolean;
  /** /api and /apis answer the apidiscovery.k8s.io form when asked for it (1.26+). */
  aggregatedDiscovery: boolean;
  /** The built-in resources discovery lists and the server serves. */
  builtins: readonly ResourceDef[];
}

const PLATFORM = `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`;

function versionOf(gitVersion: string, goVersion: string, withEmulationFields: boolean): Record<string, string> {
  const [major = '1', minor = '0'] = gitVersion.replace(/^v/, '').split('.');
  return {
    major,
    minor,
    // 1.31+ says which version it emulates and which it stays compatible with; 1.20 had no such fields.
    ...(withEmulationFields ? { emulationMajor: major, emulationMinor: minor, minCompatibilityMajor: major, minCompatibilityMinor: String(Number(minor) - 1) } : {}),
    gitVersion,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2026-01-01T00:00:00Z',
    goVersion,
    compiler: 'gc',
    platform: PLATFORM,
  };
}

/** A resource served at another version than 1.33's, or not at all (version undefined). */
interface ServedAs { group: string; resource: string; version: string | undefined }

interface Differences {
  gitVersion: string;
  goVersion: string;
  openApiV3: boolean;
  fieldValidation: boolean;
  aggregatedDiscovery: boolean;
  served: readonly ServedAs[];
}

/**
 * What each emulated release shows differently from this build's own, as a real
 * kube-apiserver of that release answers (checked against 1.20.2 in ../shared/kube).
 * Resources 1.20 serves at a version this server has no schema for (policy/v1beta1,
 * autoscaling/v2beta2) stay at 1.33's: the engine and the gateway watch those there.
 */
const RELEASES: Readonly<Record<string, Differences>> = {
  '1.20': {
    gitVersion: 'v1.20.2',
    goVersion: 'go1.15.5',
    openApiV3: false,
    fieldValidation: false,
    aggregatedDiscovery: false,
    served: [
      // batch/v1 CronJob came in 1.21; the propagation engine reads a 1.20 host's CronJobs at v1beta1 (template-resources.ts).
      { group: 'batch', resource: 'cronjobs', version: 'v1beta1' },
      // admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy came in 1.30.
      { group: 'admissionregistration.k8s.io', resource: 'validatingadmissionpolicies', version: undefined },
      { group: 'admissionregistration.k8s.io', resource: 'validatingadmissionpolicybindings', version: undefined },
    ],
  },
};

const OWN_RELEASE = KUBE_VERSION.replace(/^v/, '').split('.').slice(0, 2).join('.');

/** The releases `--emulated-version` accepts, this build's own first. */
export const EMULATED_RELEASES: readonly string[] = [OWN_RELEASE, ...Object.keys(RELEASES)];

function builtinsAs(served: readonly ServedAs[]): ResourceDef[] {
  const out: ResourceDef[] = [];
  for (const def of BUILTIN_RESOURCES) {
    const row = served.find((s) => s.group === def.group && s.resource === def.resource);
    if (!row) out.push(def);
    else if (row.version !== undefined) out.push({ ...def, version: row.version });
  }
  return out;
}

/** The emulation for a release ("1.20"), or this build's own for undefined; throws on a release not in the table. */
export function emulationOf(release?: string): Emulation {
  const wanted = release?.replace(/^v/, '');
  if (wanted === undefined || wanted === OWN_RELEASE) {
    return { release: OWN_RELEASE, version: versionOf(KUBE_VERSION, 'go1.24.0', true), openApiV3: true, fieldValidation: true, aggregatedDiscovery: true, builtins: BUILTIN_RESOURCES };
  }
  const d = RELEASES[wanted];
  if (!d) throw new Error(`cannot emulate Kubernetes ${release}: one of ${EMULATED_RELEASES.join(', ')}`);
  return { release: wanted, version: versionOf(d.gitVersion, d.goVersion, false), openApiV3: d.openApiV3, fieldValidation: d.fieldValidation, aggregatedDiscovery: d.aggregatedDiscovery, builtins: builtinsAs(d.served) };
}
