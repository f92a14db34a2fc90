// The shape of `warren serve`'s configuration, its defaults, and the JSON
// Schema that validates it. Every field is documented in docs/operations.md;
// a field added here must be added there (a unit test compares the two).
// Field names are camelCase, as Kubernetes component configs are.
import { TENANT_ID_PATTERN } from '../core/tenancy/tenant-id.ts';
import type { PlacementContract } from '../core/tenancy/pod-placement.ts';

/** What `memory.heapGrowingPercent` defaults to (ADR 0040; applied by src/cli/heap-growth.ts). */
export const DEFAULT_HEAP_GROWING_PERCENT = 25;

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface FairnessLimits {
  seats?: number;
  queueLength?: number;
  queueTimeoutMs?: number;
  /** Watches, log follows and proxy requests one tenant may hold open (ADR 0045). */
  longRunning?: number;
  /** Connections that may carry one tenant's requests at once (ADR 0045). */
  connections?: number;
}

export interface WarrenConfig {
  apiVersion: 'config.warren.dev/v1alpha1';
  kind: 'WarrenConfig';
  /** HOST:PORT the gateway listens on. */
  listen: string;
  /** URL tenants reach the gateway at (written into their kubeconfigs); empty = the listen address. */
  externalUrl: string;
  /** Extra DNS names / IPs for the gateway's serving certificate (the Service name, the load balancer). */
  servingNames: string[];
  upstream: {
    /** Path of the upstream kubeconfig; empty with inCluster: the pod's ServiceAccount. */
    kubeconfig: string;
    inCluster: boolean;
    /** Self-impersonation for upstream audit attribution; empty = off. */
    auditImpersonate: string;
    timeoutSeconds: number;
  };
  audit: {
    /** JSON-lines audit log; empty = off, "-" = stdout. */
    logPath: string;
  };
  fairness: {
    enabled: boolean;
    totalSeats: number;
    retryAfterSeconds: number;
    /** A gateway-wide limit that follows latency, under totalSeats. */
    adaptive: { enabled: boolean; minSeats: number; latencyTolerance: number; probeIntervalSeconds: number };
    /** Pacing of a flooding tenant while another tenant is active. */
    pacing: { enabled: boolean; targetLagMs: number; heavyOutstanding: number; slowStartHoldWindows: number; heavyConcurrency: number };
    /** TLS handshakes under way at once (new connections wait, unread, beyond); 0 = no limit. */
    concurrentHandshakes: number;
    /** A refused connection is held between (1 - holdSpread) and all of Retry-After, at random. */
    holdSpread: number;
    /** A refused connection stays unread while its tenant's queue is full (up to the queue timeout). */
    holdWhileQueueFull: boolean;
    defaults: FairnessLimits;
    tenants: Record<string, FairnessLimits>;
  };
  metrics: {
    enabled: boolean;
    /** Per-tenant label values for at most this many tenants (the rest count as "other"); 0 = no tenant label. */
    tenantLabelLimit: number;
  };
  log: { level: LogLevel };
  /**
   * Where tenants' pods may run when their Tenant's spec.placement says nothing (ADR 0043): a node
   * selector forced on every pod, and the tolerations they may use beyond kube's own.
   */
  placement: { nodeSelector: Record<string, string>; tolerations: PlacementContract['tolerations'] };
  memory: {
    /** The heap may grow this % past what the last full GC kept before the next one (ADR 0040); 0 = V8's own factor (up to 300%). */
    heapGrowingPercent: number;
  };
  leaderElection: {
    enabled: boolean;
    namespace: string;
    leaseName: string;
    /** Empty = $POD_NAME, else the hostname. */
    identity: string;
    leaseDurationSeconds: number;
    renewDeadlineSeconds: number;
    retryPeriodSeconds: number;
  };
}

export const CONFIG_API_VERSION = 'config.warren.dev/v1alpha1';

export function defaultConfig(): WarrenConfig {
  return {
    apiVersion: CONFIG_API_VERSION,
    kind: 'WarrenConfig',
    listen: '127.0.0.1:6443',
    externalUrl: '',
    servingNames: [],
    upstream: { kubeconfig: '', inCluster: false, auditImpersonate: '', timeoutSeconds: 60 },
    audit: { logPath: '' },
    fairness: {
      enabled: true, totalSeats: 600, retryAfterSeconds: 1,
      adaptive: { enabled: true, minSeats: 1, latencyTolerance: 1.5, probeIntervalSeconds: 30 },
      pacing: { enabled: true, targetLagMs: 1, heavyOutstanding: 4, slowStartHoldWindows: 10, heavyConcurrency: 1 },
      concurrentHandshakes: 16,
      holdSpread: 0.5,
      holdWhileQueueFull: true,
      defaults: { seats: 20, queueLength: 50, queueTimeoutMs: 10_000, longRunning: 1_000, connections: 1_500 }, tenants: {} },
    metrics: { enabled: true, tenantLabelLimit: 100 },
    log: { level: 'info' },
    placement: { nodeSelector: {}, tolerations: [] },
    memory: { heapGrowingPercent: DEFAULT_HEAP_GROWING_PERCENT },
    leaderElection: {
      enabled: true, namespace: 'warren-system', leaseName: 'warren-controllers', identity: '',
      leaseDurationSeconds: 15, renewDeadlineSeconds: 10, retryPeriodSeconds: 2,
    },
  };
}

const int = (minimum: number) => ({ type: 'integer', minimum });
const num = (exclusiveMinimum: number) => ({ type: 'number', exclusiveMinimum });
const limits = {
  type: 'object', additionalProperties: false,
  properties: { seats: int(1), queueLength: int(0), queueTimeoutMs: int(0), longRunning: int(1), connections: int(1) },
};
const section = (properties: Record<string, unknown>) => ({ type: 'object', additionalProperties: false, properties });

/** Unknown fields are errors: a misspelt key must not silently keep a default. */
export const CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['apiVersion', 'kind'],
  properties: {
    apiVersion: { const: CONFIG_API_VERSION },
    kind: { const: 'WarrenConfig' },
    listen: { type: 'string', pattern: '^(\\[[^\\]]+\\]|[^:\\[\\]]*):\\d{1,5}$' },
    externalUrl: { type: 'string', pattern: '^(|https://[^\\s/]+(/\\S*)?)$' },
    servingNames: { type: 'array', items: { type: 'string', minLength: 1 } },
    upstream: section({ kubeconfig: { type: 'string' }, inCluster: { type: 'boolean' }, auditImpersonate: { type: 'string' }, timeoutSeconds: num(0) }),
    audit: section({ logPath: { type: 'string' } }),
    fairness: section({
      enabled: { type: 'boolean' }, totalSeats: int(1), retryAfterSeconds: int(0), defaults: limits,
      adaptive: section({ enabled: { type: 'boolean' }, minSeats: int(1), latencyTolerance: { type: 'number', minimum: 1 }, probeIntervalSeconds: num(0) }),
      pacing: section({ enabled: { type: 'boolean' }, targetLagMs: { type: 'number', exclusiveMinimum: 0 }, heavyOutstanding: int(1), slowStartHoldWindows: int(0), heavyConcurrency: int(0) }),
      concurrentHandshakes: int(0),
      holdSpread: { type: 'number', minimum: 0, maximum: 1 },
      holdWhileQueueFull: { type: 'boolean' },
      tenants: { type: 'object', propertyNames: { pattern: `^${TENANT_ID_PATTERN}$` }, additionalProperties: limits },
    }),
    metrics: section({ enabled: { type: 'boolean' }, tenantLabelLimit: int(0) }),
    log: section({ level: { enum: ['debug', 'info', 'warn', 'error'] } }),
    placement: section({
      nodeSelector: { type: 'object', additionalProperties: { type: 'string' } },
      tolerations: {
        type: 'array',
        items: {
          type: 'object', additionalProperties: false,
          properties: {
            key: { type: 'string' }, operator: { enum: ['Exists', 'Equal'] }, value: { type: 'string' },
            effect: { enum: ['', 'NoSchedule', 'PreferNoSchedule', 'NoExecute'] }, tolerationSeconds: { type: 'integer' },
          },
        },
      },
    }),
    memory: section({ heapGrowingPercent: { type: 'integer', minimum: 0, maximum: 300 } }),
    leaderElection: section({
      enabled: { type: 'boolean' },
      namespace: { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$' },
      leaseName: { type: 'string', pattern: '^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$' },
      identity: { type: 'string' },
      leaseDurationSeconds: int(1), renewDeadlineSeconds: num(0), retryPeriodSeconds: num(0),
    }),
  },
} as const;
