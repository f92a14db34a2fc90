// Which keys a change wakes up. Templates are reconciled by the detector and
// scheduler; bindings by the executor. Cluster heartbeats (resource summaries)
// wake nothing: only a change of spec, taints or readiness can move replicas
// or unblock a member.
import type { KubeObject } from '../../core/types.ts';
import type { Cluster, ResourceBinding, Work } from '../../core/propagation/karmada-types.ts';
import { TENANT_LABEL } from '../../core/tenancy/tenant-id.ts';
import type { Tenant } from '../../tenants/tenant-crd.ts';
import { jsonEqual } from '../../core/json-equal.ts';
import { bindingByUid, bindingsOfTenant, ofTenant, type ChangeEvent, type EngineInformers } from './engine-informers.ts';
import { bindingKey, templateKey } from './engine-keys.ts';
import { rescheduleRequired } from '../../core/propagation/scheduler/reschedule.ts';
import { bindingsDependingOn, bindingsRequiring } from './dependencies.ts';
import { PERMANENT_ID_LABEL } from './member-labels.ts';
import { bindingStatusEchoKey, templateStatusEchoKey, workEchoKey } from './echo-record.ts';

export function keysForChange(informers: EngineInformers, event: ChangeEvent): string[] {
  const { obj } = event;
  const tenant = obj.metadata.labels?.[TENANT_LABEL] ?? '';
  switch (event.kind) {
    case 'template':
      if (!event.resource) return [];
      // A ConfigMap, Secret, ServiceAccount or PVC also wakes the bindings that propagate it as a dependency.
      return [templateKey(tenant, event.resource, obj.metadata.namespace ?? '', obj.metadata.name ?? ''), ...bindingsDependingOn(informers, obj).map(keyOfBinding)];
    case 'policy':
    case 'clusterPolicy':
      return templatesOf(informers, tenant);
    case 'override':
    case 'clusterOverride':
      return bindingsOfTenant(informers, tenant).map(keyOfBinding);
    case 'binding': {
      const binding = obj as ResourceBinding;
      const keys = [keyOfBinding(binding)];
      // A binding removed while its template lives (deleted by hand) is made again.
      if (event.type === 'DELETED') keys.push(...templateOfBinding(informers, binding), ...bindingsRequiring(informers, binding).map(keyOfBinding));
      // spec.rescheduleTriggeredAt set (WorkloadRebalancer, or by hand): the detector reschedules Fresh.
      else if (rescheduleRequired(binding.spec.rescheduleTriggeredAt, binding.status?.lastScheduledTime)) keys.push(...templateOfBinding(informers, binding));
      return keys;
    }
    case 'work': {
      const uid = (obj as Work).metadata.labels?.[PERMANENT_ID_LABEL];
      const binding = uid ? bindingByUid(informers, uid) : undefined;
      return binding ? [keyOfBinding(binding)] : [];
    }
    case 'cluster': {
      if (event.type === 'MODIFIED' && !clusterChangeMatters(event.old as Cluster | undefined, obj as Cluster)) return [];
      const name = obj.metadata.name ?? '';
      const keys: string[] = [];
      for (const binding of [...informers.bindings.store.values(), ...informers.clusterBindings.store.values()]) {
        const involved = (binding.spec.clusters ?? []).some((c) => c.name === name) || (binding.spec.gracefulEvictionTasks ?? []).some((t) => t.fromCluster === name);
        if (involved || event.type === 'ADDED') keys.push(keyOfBinding(binding), ...templateOfBinding(informers, binding));
      }
      return keys;
    }
    case 'crd':
      return []; // the tenant's on-demand kinds are refreshed (start-propagation.ts); new informers report their objects
    case 'tenant': {
      const t = obj as Tenant;
      const id = t.status?.id || t.spec?.id;
      if (!id) return [];
      if (event.type === 'MODIFIED' && jsonEqual((event.old as Tenant | undefined)?.spec ?? {}, t.spec ?? {})) return [];
      return [...templatesOf(informers, id), ...bindingsOfTenant(informers, id).map(keyOfBinding)];
    }
  }
}

/**
 * The key under which an event may be the echo of the engine's own write (echo-record.ts), or
 * undefined. Bindings and templates: only a MODIFIED can echo the status the engine wrote; their
 * ADDED (and the detector's spec writes) always wake.
 */
export function echoKeyOf(event: ChangeEvent): string | undefined {
  const ns = event.obj.metadata.namespace ?? '';
  const name = event.obj.metadata.name ?? '';
  switch (event.kind) {
    case 'work':
      return workEchoKey(ns, name);
    case 'binding':
      return event.type === 'MODIFIED' ? bindingStatusEchoKey(ns, name) : undefined;
    case 'template':
      return event.type === 'MODIFIED' && event.resource ? templateStatusEchoKey(event.resource, ns, name) : undefined;
    default:
      return undefined;
  }
}

export function keyOfBinding(binding: ResourceBinding): string {
  return bindingKey(binding.metadata.labels?.[TENANT_LABEL] ?? '', binding.metadata.namespace ?? '', binding.metadata.name ?? '');
}

function templateOfBinding(informers: EngineInformers, binding: ResourceBinding): string[] {
  const resource = informers.resourceOf(binding.spec.resource.apiVersion, binding.spec.resource.kind);
  const tenant = binding.metadata.labels?.[TENANT_LABEL] ?? '';
  return resource ? [templateKey(tenant, resource, binding.metadata.namespace ?? '', binding.spec.resource.name)] : [];
}

function templatesOf(informers: EngineInformers, tenant: string): string[] {
  const keys: string[] = [];
  for (const [resource, informer] of informers.templates) {
    for (const obj of ofTenant<KubeObject>(informer, tenant)) keys.push(templateKey(tenant, resource, obj.metadata.namespace ?? '', obj.metadata.name ?? ''));
  }
  for (const [resource, informer] of informers.tenantTemplates.get(tenant) ?? []) {
    for (const obj of informer.store.values()) keys.push(templateKey(tenant, resource, obj.metadata.namespace ?? '', obj.metadata.name ?? ''));
  }
  return keys;
}

function clusterChangeMatters(old: Cluster | undefined, next: Cluster): boolean {
  if (!old) return true;
  const ready = (c: Cluster): string | undefined => c.status?.conditions?.find((x) => x.type === 'Ready')?.status;
  return !jsonEqual(old.spec, next.spec) || ready(old) !== ready(next) || !jsonEqual(old.metadata.labels ?? {}, next.metadata.labels ?? {});
}
