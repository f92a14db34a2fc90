// The marks the engine puts on what it applies to members (Karmada's keys), in
// core so the pure ownership rules (trust/) and the engine read the same ones.
export const MANAGED_LABEL = 'karmada.io/managed';
/** The binding's uid: survives renames of nothing, and fits a label value (names may not). */
export const PERMANENT_ID_LABEL = 'resourcebinding.karmada.io/permanent-id';
