// The Tenant CRD for code: the YAML in crds/ is the one source of truth (what
// `kubectl apply -f crds/` installs), read at runtime so the two never drift.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { Condition, KubeObject } from '../core/types.ts';
import type { PlacementSpec } from '../core/tenancy/pod-placement.ts';

export const TENANT_GROUP = 'tenancy.warren.dev';
export const TENANT_VERSION = 'v1alpha1';
export const TENANT_API_VERSION = `${TENANT_GROUP}/${TENANT_VERSION}`;
export const TENANT_CRD_NAME = `tenants.${TENANT_GROUP}`;
/** The upstream collection path of Tenant objects (cluster-scoped). */
export const TENANTS_PATH = `/apis/${TENANT_GROUP}/${TENANT_VERSION}/tenants`;
/** One Tenant's upstream path. */
export function tenantPath(name: string): string {
  return `${TENANTS_PATH}/${name}`;
}

export const TENANT_CRD_FILE = fileURLToPath(new URL('../../crds/tenancy.warren.dev_tenants.yaml', import.meta.url));

export type TenantPodSecurity = 'privileged' | 'baseline' | 'restricted';
export type Quantity = number | string;

export interface TenantUser {
  name: string;
  groups?: string[];
  admin?: boolean;
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface TenantSpec {
  /** 6 characters [a-z][a-z0-9]{5}; assigned by the onboarding controller when omitted. */
  id?: string;
  displayName?: string;
  users?: TenantUser[];
  quota?: { namespaces?: number; objectsPerResource?: number; cpu?: Quantity; memory?: Quantity; storage?: Quantity };
  podSecurity?: TenantPodSecurity;
  clusters?: { names?: string[]; labelSelector?: LabelSelector };
  /** Where the tenant's pods may run (ADR 0043): forced node selector, allowed tolerations. */
  placement?: PlacementSpec;
  suspended?: boolean;
  credentials?: { certificateLifetime?: string; revokeBefore?: string };
  defaultPlacement?: Record<string, unknown>;
}

/** Tenant status conditions are plain metav1.Conditions. */
export type TenantCondition = Condition;

export interface TenantStatus {
  id?: string;
  phase?: 'Pending' | 'Ready' | 'Suspended' | 'Terminating';
  observedGeneration?: number;
  conditions?: TenantCondition[];
  usage?: { namespaces?: number; cpu?: Quantity; memory?: Quantity; storage?: Quantity; objects?: Record<string, number> };
  /** Member clusters resolved from spec.clusters by the onboarding controller. */
  clusters?: string[];
  kubeconfigSecretRef?: { namespace: string; name: string };
  credentialsNotBefore?: string;
}

export interface Tenant extends KubeObject {
  apiVersion?: typeof TENANT_API_VERSION;
  kind?: 'Tenant';
  spec?: TenantSpec;
  status?: TenantStatus;
}

let cached: KubeObject | undefined;

/** The CustomResourceDefinition object, as parsed from crds/ (a fresh copy each call: callers may mutate it). */
export function tenantCrd(): KubeObject {
  cached ??= parse(readFileSync(TENANT_CRD_FILE, 'utf8')) as KubeObject;
  return structuredClone(cached);
}

/** The openAPIV3Schema of the served version, for validating Tenants read elsewhere (ajv). */
export function tenantSchema(): Record<string, unknown> {
  const spec = tenantCrd().spec as { versions: { name: string; schema: { openAPIV3Schema: Record<string, unknown> } }[] };
  const version = spec.versions.find((v) => v.name === TENANT_VERSION);
  if (!version) throw new Error(`${TENANT_CRD_FILE} has no version ${TENANT_VERSION}`);
  return version.schema.openAPIV3Schema;
}
