// The status kube's CRD controllers (naming, establishing) write: names are
// accepted unless another CRD of the same group already uses them, and the CRD
// is Established once its initial names are accepted. Pure: the caller passes
// the other CRDs and the clock.
import type { CrdCondition, CustomResourceDefinition, CustomResourceDefinitionNames, CustomResourceDefinitionStatus } from './crd-types.ts';
import { applyCrdDefaults } from './crd-defaults.ts';

export const NAMES_ACCEPTED = 'NamesAccepted';
export const ESTABLISHED = 'Established';

export function crdStatus(input: CustomResourceDefinition, now: Date, others: CustomResourceDefinition[] = []): CustomResourceDefinitionStatus {
  const crd = applyCrdDefaults(input);
  const requested = crd.spec.names ?? {};
  const previous = crd.status?.acceptedNames ?? {};
  const { accepted, conflict } = acceptNames(crd, requested, previous, others);
  const time = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const old = crd.status?.conditions ?? [];
  const namesAccepted: CrdCondition = conflict
    ? { type: NAMES_ACCEPTED, status: 'False', reason: conflict.reason, message: conflict.message }
    : { type: NAMES_ACCEPTED, status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };
  const wasEstablished = old.some((c) => c.type === ESTABLISHED && c.status === 'True');
  const established: CrdCondition = !conflict || wasEstablished
    ? (old.find((c) => c.type === ESTABLISHED && c.status === 'True') ?? { type: ESTABLISHED, status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' })
    : { type: ESTABLISHED, status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
  const storage = (crd.spec.versions ?? []).find((v) => v.storage)?.name;
  const stored = [...(crd.status?.storedVersions ?? [])];
  if (storage && !stored.includes(storage)) stored.push(storage);
  return {
    conditions: [keepTransition(namesAccepted, old, time), keepTransition(established, old, time)],
    acceptedNames: accepted,
    storedVersions: stored,
  };
}

/** lastTransitionTime only moves when the status flips. */
function keepTransition(cond: CrdCondition, old: CrdCondition[], time: string): CrdCondition {
  const prev = old.find((c) => c.type === cond.type);
  const lastTransitionTime = prev && prev.status === cond.status && prev.lastTransitionTime ? prev.lastTransitionTime : time;
  return { type: cond.type, status: cond.status, lastTransitionTime, reason: cond.reason, message: cond.message };
}

interface Conflict {
  reason: string;
  message: string;
}

function acceptNames(crd: CustomResourceDefinition, requested: CustomResourceDefinitionNames, previous: CustomResourceDefinitionNames, others: CustomResourceDefinition[]): { accepted: CustomResourceDefinitionNames; conflict?: Conflict } {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const other of others) {
    if (other.spec?.group !== crd.spec.group || other.metadata?.name === crd.metadata?.name) continue;
    const n = other.status?.acceptedNames ?? {};
    for (const r of [n.plural, n.singular, ...(n.shortNames ?? [])]) if (r) resources.add(r);
    for (const k of [n.kind, n.listKind]) if (k) kinds.add(k);
  }
  const accepted: CustomResourceDefinitionNames = { ...previous };
  let conflict: Conflict | undefined;
  // Each name is accepted if it is already ours or still free; the last conflict found is reported, as in kube.
  const take = (field: 'plural' | 'singular' | 'kind' | 'listKind', used: Set<string>, reason: string): void => {
    const want = requested[field];
    if (want === undefined) return;
    if (want === previous[field] || !used.has(want)) accepted[field] = want;
    else conflict = { reason, message: `"${want}" is already in use` };
  };
  take('plural', resources, 'PluralConflict');
  take('singular', resources, 'SingularConflict');
  const shortConflict = (requested.shortNames ?? []).find((s) => !(previous.shortNames ?? []).includes(s) && resources.has(s));
  if (shortConflict) conflict = { reason: 'ShortNamesConflict', message: `"${shortConflict}" is already in use` };
  else if (requested.shortNames) accepted.shortNames = [...requested.shortNames];
  take('kind', kinds, 'KindConflict');
  take('listKind', kinds, 'ListKindConflict');
  if (requested.categories) accepted.categories = [...requested.categories];
  return conflict ? { accepted, conflict } : { accepted };
}
