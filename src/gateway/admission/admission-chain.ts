// Admission: one ordered step of the write path, run once per write on the
// final object (the create or update body; the patched object for JSON, merge
// and strategic patches, which the gateway applies itself; for server-side
// apply, the merged object the upstream's dry run of the apply answered,
// forward/apply-by-dry-run.ts). The order is fixed and written once:
//  1. RBAC escalation and bind (kube's registry checks): who may grant what
//     comes first, before anything looks at the object's contents;
//  2. Pod Security labels: a Namespace edit that would weaken the tenant's
//     level is refused (the level itself is forced by translation);
//  3. Karmada policy validation (Karmada's validating webhooks);
//  4. owner references: each new one names an object the tenant owns, by
//     uid (read upstream: the host's garbage collector follows uids);
//  5. PVC volumeName: a claim binds only to a volume offered to it (read
//     upstream: PersistentVolumes are the platform's);
//  6. reserved references: a `system-*` priority class or a nodeName in a
//     pod spec, a volume in a StatefulSet's claim templates, a Service's
//     external IPs (the host's components follow them, not the gateway:
//     reserved-references-admitter.ts); with them, the tenant's placement
//     contract (ADR 0043): tolerations it may use, its forced node selector;
//  7. quota (cpu, memory, storage), then 8. object counts (namespaces, objects
//     per resource): last, because they are the admitters with state (the
//     tenant's lock and usage snapshot; a reserved object) and an object
//     refused above must not take it.
// Each admitter may start per-write work before the write (quota takes its
// lock, so the upstream write happens under it) and end it after the upstream
// answered; ends run in reverse order, also when the write failed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestInfo } from '../../core/request-info.ts';
import type { KubeObject } from '../../core/types.ts';
import type { ForwardedRequest } from '../../core/tenancy/request-translation.ts';
import type { TenantContext } from '../../core/tenancy/tenant-context.ts';

/** One write, as admission sees it. */
export interface WriteScope {
  req: IncomingMessage;
  res: ServerResponse;
  ctx: TenantContext;
  info: RequestInfo;
  fwd: ForwardedRequest;
}

/** The object a write stores, in both spellings. */
export interface FinalObject {
  /** Tenant terms: what the tenant asked for, after kind, namespace and name were settled. */
  tenant: KubeObject;
  /** Upstream terms: the exact object sent (translated, platform labels forced). */
  upstream: KubeObject;
  /**
   * A server-side apply: the applied configuration as the tenant sent it (tenant terms, settled), beside
   * the merged `tenant`. An admitter that refuses edits which cannot apply looks at what was asked here.
   */
  applied?: KubeObject;
  /** The stored object before the write, tenant terms, when the gateway read it (patches). */
  stored?: KubeObject;
  /**
   * `tenant` and `upstream` are an applied configuration, not the whole object. The write path
   * judges a server-side apply on the upstream's merged dry-run result instead (apply: false).
   */
  apply: boolean;
}

export interface AdmitterRun {
  /** Throws the ApiError that refuses the write. May run more than once (a patch retried on conflict). */
  admit?(final: FinalObject): void | Promise<void>;
  /** After the upstream answered, or the write failed (`failed`). */
  end?(failed: boolean): void | Promise<void>;
}

export interface Admitter {
  readonly name: string;
  /** This admitter's part in one write; undefined when it has no say in it. */
  start(scope: WriteScope): AdmitterRun | undefined | Promise<AdmitterRun | undefined>;
}

export interface AdmissionChain {
  /** Admitter names in the order they run (for docs and tests). */
  readonly order: readonly string[];
  /**
   * Runs `work` as one admitted write: `work` calls `admit` on the final
   * object right before sending it (after the isolation guard), and resolves
   * once the answer is on its way.
   */
  write(scope: WriteScope, work: (admit: (final: FinalObject) => Promise<void>) => Promise<void>): Promise<void>;
}

export function createAdmissionChain(admitters: readonly Admitter[]): AdmissionChain {
  return {
    order: admitters.map((a) => a.name),
    async write(scope, work) {
      const runs: AdmitterRun[] = [];
      let failed = true;
      try {
        for (const admitter of admitters) {
          const run = await admitter.start(scope);
          if (run) runs.push(run);
        }
        await work(async (final) => {
          for (const run of runs) await run.admit?.(final);
        });
        failed = false;
      } finally {
        for (const run of runs.reverse()) await run.end?.(failed);
      }
    },
  };
}

/** Only the verbs that change something are admitted. */
const WRITES = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

export function isAdmittedVerb(info: RequestInfo): boolean {
  return info.isResourceRequest && WRITES.has(info.verb);
}
