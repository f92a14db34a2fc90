// A PersistentVolumeClaim's spec.volumeName binds it to a PersistentVolume by
// name. PersistentVolumes are the platform's (denied to tenants): one named by
// a tenant may hold another tenant's released data. kube lets volumeName be
// set once on an unbound claim by update, so the guard's create-only check
// (guard-references.ts) left update, patch and apply open (issue 13). A
// volumeName is admitted when it is what the claim already had (the platform's
// binder set it), or when the volume is the platform's own offer to this very
// claim: its claimRef names the claim (namespace, name, and uid when both are
// known). Anything else is refused in the tenant's terms.
import { forbidden } from '../../core/api-error.ts';
import { isObject, type KubeObject } from '../../core/types.ts';
import type { Upstream } from '../../kube/upstream.ts';
import type { Admitter } from './admission-chain.ts';

const WRITES = new Set(['create', 'update', 'patch']);

const volumeNameOf = (obj: KubeObject | undefined): string => {
  const spec = obj?.spec;
  return isObject(spec) && typeof spec.volumeName === 'string' ? spec.volumeName : '';
};

/** Does the PV's claimRef name this claim (upstream namespace and name, uid when both sides know it)? */
export function volumeOffersClaim(pv: KubeObject, claim: { namespace: string; name: string; uid?: string }): boolean {
  const ref = isObject(pv.spec) ? pv.spec.claimRef : undefined;
  if (!isObject(ref) || ref.namespace !== claim.namespace || ref.name !== claim.name) return false;
  return !(typeof ref.uid === 'string' && ref.uid !== '' && claim.uid !== undefined && ref.uid !== claim.uid);
}

export function pvcVolumeAdmitter(upstream: Upstream): Admitter {
  return {
    name: 'pvc-volume',
    start({ ctx, info, fwd }) {
      if (info.apiGroup !== '' || info.resource !== 'persistentvolumeclaims' || info.subresource || !WRITES.has(info.verb)) return undefined;
      return {
        async admit(final) {
          const wanted = volumeNameOf(final.upstream);
          if (wanted === '') return;
          let before = final.stored ? volumeNameOf(final.stored) : '';
          if (!final.stored && info.verb !== 'create') {
            const current = await upstream.request<KubeObject>('GET', fwd.path);
            if (current.status === 200) before = volumeNameOf(current.body);
          }
          if (wanted === before) return;
          const name = info.name || final.upstream.metadata?.name || '';
          const pv = await upstream.request<KubeObject>('GET', `/api/v1/persistentvolumes/${encodeURIComponent(wanted)}`);
          const uid = final.upstream.metadata?.uid;
          if (pv.status === 200 && volumeOffersClaim(pv.body, { namespace: fwd.namespace, name, ...(uid ? { uid } : {}) })) return;
          throw forbidden({ resource: 'persistentvolumeclaims', verb: info.verb, name, namespace: info.namespace, ...(ctx.user !== undefined ? { user: ctx.user } : {}) },
            `spec.volumeName: the volume "${wanted}" is not offered to this claim (a claim binds only to a volume provisioned or reserved for it)`);
        },
      };
    },
  };
}
