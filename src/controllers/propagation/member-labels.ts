// Labels and annotations the engine puts on what it applies to members, with
// Karmada's keys where Karmada has one, so tools that know Karmada read them.
// MANAGED_LABEL and PERMANENT_ID_LABEL live in core: the pure ownership rules read them (core/propagation/trust).
export { MANAGED_LABEL, PERMANENT_ID_LABEL } from '../../core/propagation/marks.ts';
export const BINDING_NAME_ANNOTATION = 'resourcebinding.karmada.io/name';
export const BINDING_NAMESPACE_ANNOTATION = 'resourcebinding.karmada.io/namespace';
/** A ClusterResourceBinding's (Karmada's keys); its objects carry PERMANENT_ID_LABEL as well, which the engine routes by. */
export const CLUSTER_PERMANENT_ID_LABEL = 'clusterresourcebinding.karmada.io/permanent-id';
export const CLUSTER_BINDING_NAME_ANNOTATION = 'clusterresourcebinding.karmada.io/name';
export const WORK_NAME_ANNOTATION = 'work.karmada.io/name';
export const WORK_NAMESPACE_ANNOTATION = 'work.karmada.io/namespace';
/** On a Work: the uid of the binding the engine wrote it for. Only the engine writes Works (ADR 19), so this marks its own. */
export const WORK_CREATOR_ANNOTATION = 'propagation.warren.dev/binding-uid';
/** Holds member objects until the engine has removed them (binding deletion). */
export const BINDING_FINALIZER = 'warren.dev/propagation';
/** The policy that claimed a template, on its binding (Karmada's label keys). */
export const POLICY_NAME_LABEL = 'propagationpolicy.karmada.io/name';
export const POLICY_NAMESPACE_LABEL = 'propagationpolicy.karmada.io/namespace';
export const CLUSTER_POLICY_NAME_LABEL = 'clusterpropagationpolicy.karmada.io/name';
