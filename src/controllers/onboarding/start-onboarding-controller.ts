// The onboarding controller, composed: an informer on Tenant objects feeding
// the generic runtime, the upstream as its only I/O, and the tenant CA read
// from the Secret the gateway keeps in warren-system (loaded once, on the first
// certificate to issue).
import type { Upstream } from '../../kube/upstream.ts';
import type { KeyPairPem } from '../../pki/certificates.ts';
import { loadGatewaySecrets } from '../../tenants/platform-secrets.ts';
import { TENANTS_PATH, type Tenant } from '../../tenants/tenant-crd.ts';
import { startController } from '../runtime/controller.ts';
import { createEventRecorder } from '../runtime/event-recorder.ts';
import { upstreamObjectClient } from '../../kube/object-client.ts';
import { CONTROLLER_NAME } from '../../tenants/tenant-conditions.ts';
import { reconcileTenant } from './reconcile-tenant.ts';
import { startInformer } from '../../kube/informer.ts';
import type { KubeObject } from '../../core/types.ts';
import { CLUSTERS_PATH } from './resolve-clusters.ts';
import { createOwnWrites } from './own-writes.ts';
import { shrinkToIdentity } from '../../tenants/tenant-info.ts';
import { createPlatformIdsSource } from './platform-ids-source.ts';
import { migrateLegacyTenantRbac } from './migrate-legacy-rbac.ts';

const BY_ID = 'id';

export interface OnboardingControllerOptions {
  upstream: Upstream;
  /** The gateway's URL as tenants reach it: the server of every kubeconfig issued. */
  gatewayUrl: string;
  /** The CA of the gateway's serving certificate, trusted by those kubeconfigs. */
  gatewayCaPem: string;
  log?: (line: string) => void;
  now?: () => Date;
  /** Called once a deleted tenant's upstream objects are all gone, before its finalizer is removed. */
  onTenantDeleted?: (id: string) => Promise<void> | void;
  workers?: number;
}

export interface RunningOnboardingController {
  /** Resolves once the Tenant informer has listed (reconciles start then). */
  synced(): Promise<void>;
  /** Resolves once tenant RBAC left in the form before ADR 0028 is rewritten, with how many objects were (failures are logged). */
  legacyRbacMigrated(): Promise<number>;
  stop(): void;
}

/**
 * The reconciler reads each Tenant fresh from the upstream; the informer's copy
 * is only for id uniqueness (tenants()), which reads what shrinkToIdentity keeps.
 * So once a Tenant has been looked at, its stored copy is cut down in place
 * (memory per idle tenant: a whole Tenant is a few KiB in a process that also
 * serves the gateway). A later event stores a whole object again, and the next
 * reconcile cuts that one.
 */
async function shrinkAfter<R>(stored: Tenant | undefined, reconcile: Promise<R>): Promise<R> {
  try {
    return await reconcile;
  } finally {
    if (stored) shrinkToIdentity(stored);
  }
}

export function startOnboardingController(options: OnboardingControllerOptions): RunningOnboardingController {
  const { upstream } = options;
  const log = options.log ?? (() => undefined);
  const now = options.now ?? (() => new Date());
  const client = upstreamObjectClient(upstream);
  const recorder = createEventRecorder({ upstream, component: CONTROLLER_NAME, log, now });
  let tenantCa: Promise<KeyPairPem> | undefined;
  const loadTenantCa = (): Promise<KeyPairPem> => {
    tenantCa ??= loadGatewaySecrets(upstream).then((s) => s.tenantCa);
    tenantCa.catch(() => { tenantCa = undefined; }); // a failed load is retried by the next reconcile
    return tenantCa;
  };
  const reserved = new Set<string>();
  const platformIds = createPlatformIdsSource(client);
  const ownWrites = createOwnWrites();
  // Member Clusters, for Tenant.spec.clusters: any change to them may change what
  // a tenant may use, so every tenant is looked at again (there are few Clusters).
  let clustersSynced = false;
  const clusterInformer = startInformer<KubeObject>({
    upstream, listPath: CLUSTERS_PATH, log,
    onEvent: () => {
      if (!clustersSynced) return;
      ownWrites.clear(); // a tenant unchanged since our write may still need new status.clusters
      for (const key of controller.informer.store.keys()) controller.queue.add(key);
    },
  });
  clusterInformer.synced().then(() => {
    clustersSynced = true;
    ownWrites.clear();
    for (const key of controller.informer.store.keys()) controller.queue.add(key);
  }, () => undefined);
  const controller = startController<Tenant>({
    name: CONTROLLER_NAME,
    upstream,
    listPath: TENANTS_PATH,
    log,
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
    reconcile: (key, informer) => shrinkAfter(informer.store.get(key), reconcileTenant({
      client,
      tenants: () => informer.store.values(),
      reserved,
      record: (tenant, type, reason, message) => recorder.record(tenant, type, reason, message),
      tenantCa: loadTenantCa,
      gatewayUrl: options.gatewayUrl,
      gatewayCaPem: options.gatewayCaPem,
      now,
      ...(options.onTenantDeleted ? { onTenantDeleted: options.onTenantDeleted } : {}),
      clusters: () => (clustersSynced ? [...clusterInformer.store.values()] : undefined),
      platformIds,
      ownWrites,
      informerResourceVersion: (name) => informer.store.get(name)?.metadata.resourceVersion,
      tenantsWithId: (id) => informer.byIndex(BY_ID, id),
    }, key)),
  });
  // Once per start, beside the reconciles: what was stored before ADR 0028 still holds host power until rewritten.
  const legacyRbac = migrateLegacyTenantRbac(client, log).catch((err: unknown) => {
    log(`onboarding: cannot list tenant RBAC to rewrite in today's form: ${err instanceof Error ? err.message : String(err)}`);
    return 0;
  });
  // Id uniqueness looks Tenants up by id, not by a scan over all of them (what shrinkToIdentity keeps includes both ids).
  controller.informer.addIndex(BY_ID, (t) => [...new Set([t.status?.id, t.spec?.id].filter((id): id is string => Boolean(id)))]);
  return {
    synced: () => controller.synced(),
    legacyRbacMigrated: () => legacyRbac,
    stop() {
      clusterInformer.stop();
      controller.stop();
    },
  };
}
