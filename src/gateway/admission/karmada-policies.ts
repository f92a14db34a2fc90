// Karmada's validating webhooks, in the gateway: a (Cluster)PropagationPolicy or
// (Cluster)OverridePolicy that Karmada would refuse is refused here, on create
// and update of the object itself (Karmada registers its webhooks for CREATE and
// UPDATE of the main resource only, so status writes and deletes pass). The
// object is judged in the tenant's terms, as the tenant wrote it, so causes
// never show the tenant prefix. Create and update judge the body; a JSON, merge
// or strategic patch judges the final object (the gateway applies it itself,
// forward/patch-by-update.ts); a server-side apply judges the merged object
// the upstream's dry run of the apply answered (forward/apply-by-dry-run.ts),
// so a partial applied configuration is judged as the policy it makes.
//
// Where Warren differs: Karmada's webhook answers with a denial (403, one flat
// message); Warren answers 422 Invalid with one cause per field, which is what
// kube's own validation does and what kubectl prints best. Karmada's mutating
// webhook (defaults, such as the not-ready/unreachable tolerations) is not
// reproduced: the engine applies those defaults when it reads the policy
// (core/propagation/binding/failover.ts), so the stored policy stays as written.
// The permanent-id label check on update does not apply: Warren sets no such label.
import type { ApiError } from '../../core/api-error.ts';
import type { RequestInfo } from '../../core/request-info.ts';
import { validateOverridePolicy, validatePropagationPolicy } from '../../core/propagation/validation/index.ts';
import type { Admitter } from './admission-chain.ts';

const KARMADA_POLICY_GROUP = 'policy.karmada.io';

const VALIDATORS: ReadonlyMap<string, (obj: unknown) => ApiError | undefined> = new Map([
  ['propagationpolicies', validatePropagationPolicy],
  ['clusterpropagationpolicies', validatePropagationPolicy],
  ['overridepolicies', validateOverridePolicy],
  ['clusteroverridepolicies', validateOverridePolicy],
]);

const WRITES = new Set(['create', 'update', 'patch']);

/** The validator for a request that writes a Karmada policy object, or undefined when none applies. */
export function karmadaPolicyValidator(info: RequestInfo): ((obj: unknown) => ApiError | undefined) | undefined {
  if (!info.isResourceRequest || info.apiGroup !== KARMADA_POLICY_GROUP || info.subresource || !WRITES.has(info.verb)) return undefined;
  return VALIDATORS.get(info.resource);
}


/** Karmada's validating webhooks as the chain's third admitter (admission-chain.ts). */
export function karmadaPolicyAdmitter(): Admitter {
  return {
    name: 'karmada-policies',
    start({ info }) {
      const validate = karmadaPolicyValidator(info);
      if (!validate) return undefined;
      return {
        admit(final) {
          const error = validate(final.tenant);
          if (error) throw error;
        },
      };
    },
  };
}
