// core/v1 Events about the objects a controller reconciles, so progress and
// failures show in `kubectl describe` and `kubectl get events`, not only in logs.
// Best effort, as client-go's recorder: a failed write is logged, never thrown.
// The same reason and message for the same object again only bumps the count
// of the Event already written (client-go's correlator does the same), so a
// reconcile loop that keeps failing the same way does not flood the namespace.
import { randomBytes } from 'node:crypto';
import type { KubeObject } from '../../core/types.ts';
import type { Upstream } from '../../kube/upstream.ts';
import { rfc3339 } from './conditions.ts';
import { levelled } from '../../observability/log-line.ts';

export type EventType = 'Normal' | 'Warning';

export interface EventRecorder {
  record(obj: KubeObject, type: EventType, reason: string, message: string): Promise<void>;
}

export interface EventRecorderOptions {
  upstream: Upstream;
  component: string;
  /**
   * Where Events about cluster-scoped objects go; kube uses "default". Anywhere else (a tenant's `<id>-default`),
   * the Event's involvedObject names that namespace too, the only way kube 1.20 takes it there.
   */
  clusterScopedNamespace?: string;
  log?: (line: string) => void;
  now?: () => Date;
}

interface Written {
  name: string;
  namespace: string;
  count: number;
  key: string;
}

export function createEventRecorder(options: EventRecorderOptions): EventRecorder {
  const { upstream, component } = options;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => undefined);
  const last = new Map<string, Written>(); // by object uid

  return {
    async record(obj, type, reason, message) {
      const uid = obj.metadata.uid ?? obj.metadata.name ?? '';
      const namespace = obj.metadata.namespace ?? options.clusterScopedNamespace ?? 'default';
      const key = `${type}\n${reason}\n${message}`;
      const at = rfc3339(now());
      const previous = last.get(uid);
      try {
        if (previous && previous.key === key) {
          previous.count++;
          const res = await upstream.request('PATCH', `/api/v1/namespaces/${previous.namespace}/events/${previous.name}`,
            { count: previous.count, lastTimestamp: at }, { 'Content-Type': 'application/merge-patch+json' });
          if (res.status === 200) return;
        }
        // `<object>.<16 hex>`, the object part cut to fit 253: real 1.20 takes any Event name (checked: 300
        // characters, an underscore), but the embedded apiserver refuses one past 253, so nothing was said there
        // about an object named past 236 characters (a long-named template's ApplyPolicyFailed). A cut that ends
        // on `-` or `.` would make `…-.<hex>`, no subdomain: those are dropped (the name starts alphanumeric).
        const name = `${(obj.metadata.name ?? 'object').slice(0, 253 - 17).replace(/[-.]+$/, '')}.${randomBytes(8).toString('hex')}`;
        const res = await upstream.request('POST', `/api/v1/namespaces/${namespace}/events`, {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name, namespace },
          involvedObject: {
            apiVersion: obj.apiVersion,
            kind: obj.kind,
            name: obj.metadata.name,
            // kube's rule for an Event about a cluster-scoped object: in "default", or naming its own namespace
            // as the object's (legacyValidateEvent); a tenant's Events go to `<id>-default`, so they name it.
            ...(obj.metadata.namespace || namespace !== 'default' ? { namespace: obj.metadata.namespace || namespace } : {}),
            uid: obj.metadata.uid,
            resourceVersion: obj.metadata.resourceVersion,
          },
          reason,
          message,
          type,
          count: 1,
          firstTimestamp: at,
          lastTimestamp: at,
          source: { component },
          reportingComponent: component,
          reportingInstance: component,
        });
        if (res.status !== 201) throw new Error(`HTTP ${res.status}`);
        last.set(uid, { name, namespace, count: 1, key });
      } catch (err) {
        log(levelled('warn', `event ${reason} on ${obj.kind ?? ''} ${obj.metadata.name ?? ''} not recorded: ${String(err)}`));
      }
    },
  };
}
