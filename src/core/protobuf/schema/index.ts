// Every proto package Warren can decode, keyed by its proto package name.
import type { MessageTable } from '../schema-types.ts';
import { admissionregistrationV1 } from './admissionregistration-v1.ts';
import { appsV1 } from './apps-v1.ts';
import { authenticationV1 } from './authentication-v1.ts';
import { authorizationV1 } from './authorization-v1.ts';
import { autoscalingV1 } from './autoscaling-v1.ts';
import { autoscalingV2 } from './autoscaling-v2.ts';
import { batchV1 } from './batch-v1.ts';
import { certificatesV1 } from './certificates-v1.ts';
import { coordinationV1 } from './coordination-v1.ts';
import { coreV1 } from './core-v1.ts';
import { discoveryV1 } from './discovery-v1.ts';
import { eventsV1 } from './events-v1.ts';
import { flowcontrolV1 } from './flowcontrol-v1.ts';
import { networkingV1 } from './networking-v1.ts';
import { nodeV1 } from './node-v1.ts';
import { policyV1 } from './policy-v1.ts';
import { rbacV1 } from './rbac-v1.ts';
import { schedulingV1 } from './scheduling-v1.ts';
import { storageV1 } from './storage-v1.ts';
import { resource } from './resource.ts';
import { metaV1 } from './meta-v1.ts';
import { runtime } from './runtime.ts';
import { intstr } from './intstr.ts';

export const PACKAGES: Readonly<Record<string, MessageTable>> = {
  'k8s.io.api.admissionregistration.v1': admissionregistrationV1,
  'k8s.io.api.apps.v1': appsV1,
  'k8s.io.api.authentication.v1': authenticationV1,
  'k8s.io.api.authorization.v1': authorizationV1,
  'k8s.io.api.autoscaling.v1': autoscalingV1,
  'k8s.io.api.autoscaling.v2': autoscalingV2,
  'k8s.io.api.batch.v1': batchV1,
  'k8s.io.api.certificates.v1': certificatesV1,
  'k8s.io.api.coordination.v1': coordinationV1,
  'k8s.io.api.core.v1': coreV1,
  'k8s.io.api.discovery.v1': discoveryV1,
  'k8s.io.api.events.v1': eventsV1,
  'k8s.io.api.flowcontrol.v1': flowcontrolV1,
  'k8s.io.api.networking.v1': networkingV1,
  'k8s.io.api.node.v1': nodeV1,
  'k8s.io.api.policy.v1': policyV1,
  'k8s.io.api.rbac.v1': rbacV1,
  'k8s.io.api.scheduling.v1': schedulingV1,
  'k8s.io.api.storage.v1': storageV1,
  'k8s.io.apimachinery.pkg.api.resource': resource,
  'k8s.io.apimachinery.pkg.apis.meta.v1': metaV1,
  'k8s.io.apimachinery.pkg.runtime': runtime,
  'k8s.io.apimachinery.pkg.util.intstr': intstr,
};
