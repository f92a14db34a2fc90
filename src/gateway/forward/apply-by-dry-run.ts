// Server-side apply, judged on what the upstream would store. The applied
// configuration is only part of the object: the merge with fields other
// managers own happens upstream, so a label-only apply to a ClusterRole whose
// rules the caller does not hold passed RBAC escalation admission, which saw
// no rules (issue 13). Computing the merge here would be a second SSA
// implementation an attacker could play against the real one; instead the
// upstream computes it: the same apply with dryRun=All answers the exact
// merged object, which the isolation guard and admission judge (as for any
// other write), and the real apply is then sent pinned to the resourceVersion
// the dry run merged over, so a concurrent writer cannot slip something in
// between (a conflict re-reads: retry-stale-write.ts).
//
// An apply that creates its object is pinned too, to "absent": it carries
// resourceVersion "1", which kube ignores when the object does not exist (the
// apply creates, 201) and which no object that appears in the tenant's
// namespace meanwhile can have (revision 1 is the store's first write ever), so
// such an object makes the apply a 409 "the object has been modified" and the
// loop re-reads, instead of merging over it unjudged. Checked on 1.20.
import { forbidden } from '../../core/api-error.ts';
import type { KubeObject } from '../../core/types.ts';
import { toTenantObject } from '../../core/tenancy/object-translation.ts';
import type { Upstream, UpstreamResponse } from '../../kube/upstream.ts';
import type { FinalObject } from '../admission/admission-chain.ts';
import { type PreparedRequest, withQuery } from './prepared-request.ts';
import type { WriteTarget } from './write-object.ts';
import { retryStaleWrite } from './retry-stale-write.ts';

/** A resourceVersion no object created after the store's first write has: "only if still absent". */
const ABSENT = '1';
const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };

export interface ApplyInput {
  upstream: Upstream;
  target: WriteTarget;
  prepared: PreparedRequest;
  /** The applied configuration, translated (prepared.final). */
  applied: FinalObject;
  vet: (final: FinalObject) => Promise<void>;
  /** What is sent for the applied configuration over the live object (a held object stays held, held-writes.ts). */
  rewrite?: (applied: KubeObject, live: KubeObject | undefined) => KubeObject | Promise<KubeObject>;
}

export async function applyByDryRun(input: ApplyInput): Promise<UpstreamResponse> {
  const { upstream, target, prepared, applied } = input;
  const { ctx, info } = target;
  const pinnedByCaller = Boolean(applied.upstream.metadata?.resourceVersion);
  const dryQuery = new URLSearchParams(prepared.query);
  dryQuery.set('dryRun', 'All');
  return retryStaleWrite<UpstreamResponse>(async () => {
    const current = await upstream.request<KubeObject>('GET', prepared.path);
    if (current.status !== 200 && current.status !== 404) return { result: current, pinnedHere: false };
    const live = current.status === 200 ? current.body : undefined;
    const body = structuredClone(input.rewrite ? await input.rewrite(applied.upstream, live) : applied.upstream);
    if (!pinnedByCaller) body.metadata.resourceVersion = live ? live.metadata.resourceVersion : ABSENT;
    const dry = await upstream.request<KubeObject>('PATCH', withQuery(prepared.path, dryQuery), body, APPLY);
    // The upstream's own refusal (field conflicts, validation) is the answer.
    if (dry.status < 200 || dry.status >= 300) return { result: dry, pinnedHere: false };
    const merged = dry.body;
    const view = toTenantObject(ctx, structuredClone(merged));
    if (!view) throw forbidden({ group: info.apiGroup, resource: info.resource, verb: info.verb, name: info.name }, 'the applied object would refer to something outside the tenant');
    const stored = live ? toTenantObject(ctx, structuredClone(live)) : undefined;
    await input.vet({ tenant: view, upstream: merged, applied: applied.tenant, ...(stored ? { stored } : {}), apply: false });
    const written = await upstream.request('PATCH', withQuery(prepared.path, prepared.query), body, APPLY);
    return { result: written, written, pinnedHere: !pinnedByCaller };
  });
}
