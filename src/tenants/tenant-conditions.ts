// Event and condition reasons of the onboarding controller: constants, so
// tests, docs and dashboards can name them.
export const Reason = {
  IdAssigned: 'IdAssigned',
  IdConflict: 'IdConflict',
  InvalidSpec: 'InvalidSpec',
  NamespacesReady: 'NamespacesReady',
  RbacReady: 'RbacReady',
  CredentialsIssued: 'CredentialsIssued',
  CredentialsRotated: 'CredentialsRotated',
  CredentialsRevoked: 'CredentialsRevoked',
  Onboarding: 'Onboarding',
  Ready: 'Ready',
  Suspended: 'Suspended',
  Resumed: 'Resumed',
  Terminating: 'Terminating',
  CleanupWaiting: 'CleanupWaiting',
  ReconcileFailed: 'ReconcileFailed',
} as const;

export type ReasonName = (typeof Reason)[keyof typeof Reason];

export const ConditionType = {
  Ready: 'Ready',
  IdAssigned: 'IdAssigned',
  NamespacesReady: 'NamespacesReady',
  RbacReady: 'RbacReady',
  CredentialsReady: 'CredentialsReady',
} as const;

export const CLEANUP_FINALIZER = 'tenancy.warren.dev/cleanup';
export const CONTROLLER_NAME = 'warren-onboarding';
