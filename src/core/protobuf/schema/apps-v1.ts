// Generated data: wire structure of k8s.io.api.apps.v1. Do not edit by hand.
// Derived from k8s.io/api/apps/v1/generated.proto (repo kubernetes/api, tag v0.33.1)
// as compiled into kubectl v1.33.1: its embedded FileDescriptorProto gives field numbers and
// wire types, and the Go struct tags of the same binary give the JSON name, omitempty and
// pointer-ness. Field tuple: [number, jsonName, type, flags]; see ../schema-types.ts.
import type { MessageTable } from '../schema-types.ts';

export const appsV1: MessageTable = {
  "ControllerRevision": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"data","k8s.io.apimachinery.pkg.runtime.RawExtension",2], [3,"revision","int64",0]],
  "ControllerRevisionList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","ControllerRevision",1]],
  "DaemonSet": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","DaemonSetSpec",2], [3,"status","DaemonSetStatus",2]],
  "DaemonSetCondition": [[1,"type","string",0], [2,"status","string",0], [3,"lastTransitionTime","k8s.io.apimachinery.pkg.apis.meta.v1.Time",2], [4,"reason","string",2], [5,"message","string",2]],
  "DaemonSetList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","DaemonSet",1]],
  "DaemonSetSpec": [[1,"selector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",4], [2,"template","k8s.io.api.core.v1.PodTemplateSpec",0], [3,"updateStrategy","DaemonSetUpdateStrategy",2], [4,"minReadySeconds","int32",2], [6,"revisionHistoryLimit","int32",6]],
  "DaemonSetStatus": [[1,"currentNumberScheduled","int32",0], [2,"numberMisscheduled","int32",0], [3,"desiredNumberScheduled","int32",0], [4,"numberReady","int32",0], [5,"observedGeneration","int64",2], [6,"updatedNumberScheduled","int32",2], [7,"numberAvailable","int32",2], [8,"numberUnavailable","int32",2], [9,"collisionCount","int32",6], [10,"conditions","DaemonSetCondition",3]],
  "DaemonSetUpdateStrategy": [[1,"type","string",2], [2,"rollingUpdate","RollingUpdateDaemonSet",6]],
  "Deployment": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","DeploymentSpec",2], [3,"status","DeploymentStatus",2]],
  "DeploymentCondition": [[1,"type","string",0], [2,"status","string",0], [4,"reason","string",2], [5,"message","string",2], [6,"lastUpdateTime","k8s.io.apimachinery.pkg.apis.meta.v1.Time",2], [7,"lastTransitionTime","k8s.io.apimachinery.pkg.apis.meta.v1.Time",2]],
  "DeploymentList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","Deployment",1]],
  "DeploymentSpec": [[1,"replicas","int32",6], [2,"selector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",4], [3,"template","k8s.io.api.core.v1.PodTemplateSpec",0], [4,"strategy","DeploymentStrategy",2], [5,"minReadySeconds","int32",2], [6,"revisionHistoryLimit","int32",6], [7,"paused","bool",2], [9,"progressDeadlineSeconds","int32",6]],
  "DeploymentStatus": [[1,"observedGeneration","int64",2], [2,"replicas","int32",2], [3,"updatedReplicas","int32",2], [4,"availableReplicas","int32",2], [5,"unavailableReplicas","int32",2], [6,"conditions","DeploymentCondition",3], [7,"readyReplicas","int32",2], [8,"collisionCount","int32",6], [9,"terminatingReplicas","int32",6]],
  "DeploymentStrategy": [[1,"type","string",2], [2,"rollingUpdate","RollingUpdateDeployment",6]],
  "ReplicaSet": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","ReplicaSetSpec",2], [3,"status","ReplicaSetStatus",2]],
  "ReplicaSetCondition": [[1,"type","string",0], [2,"status","string",0], [3,"lastTransitionTime","k8s.io.apimachinery.pkg.apis.meta.v1.Time",2], [4,"reason","string",2], [5,"message","string",2]],
  "ReplicaSetList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","ReplicaSet",1]],
  "ReplicaSetSpec": [[1,"replicas","int32",6], [2,"selector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",4], [3,"template","k8s.io.api.core.v1.PodTemplateSpec",2], [4,"minReadySeconds","int32",2]],
  "ReplicaSetStatus": [[1,"replicas","int32",0], [2,"fullyLabeledReplicas","int32",2], [3,"observedGeneration","int64",2], [4,"readyReplicas","int32",2], [5,"availableReplicas","int32",2], [6,"conditions","ReplicaSetCondition",3], [7,"terminatingReplicas","int32",6]],
  "RollingUpdateDaemonSet": [[1,"maxUnavailable","k8s.io.apimachinery.pkg.util.intstr.IntOrString",6], [2,"maxSurge","k8s.io.apimachinery.pkg.util.intstr.IntOrString",6]],
  "RollingUpdateDeployment": [[1,"maxUnavailable","k8s.io.apimachinery.pkg.util.intstr.IntOrString",6], [2,"maxSurge","k8s.io.apimachinery.pkg.util.intstr.IntOrString",6]],
  "RollingUpdateStatefulSetStrategy": [[1,"partition","int32",6], [2,"maxUnavailable","k8s.io.apimachinery.pkg.util.intstr.IntOrString",6]],
  "StatefulSet": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","StatefulSetSpec",2], [3,"status","StatefulSetStatus",2]],
  "StatefulSetCondition": [[1,"type","string",0], [2,"status","string",0], [3,"lastTransitionTime","k8s.io.apimachinery.pkg.apis.meta.v1.Time",2], [4,"reason","string",2], [5,"message","string",2]],
  "StatefulSetList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","StatefulSet",1]],
  "StatefulSetOrdinals": [[1,"start","int32",0]],
  "StatefulSetPersistentVolumeClaimRetentionPolicy": [[1,"whenDeleted","string",2], [2,"whenScaled","string",2]],
  "StatefulSetSpec": [[1,"replicas","int32",6], [2,"selector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",4], [3,"template","k8s.io.api.core.v1.PodTemplateSpec",0], [4,"volumeClaimTemplates","k8s.io.api.core.v1.PersistentVolumeClaim",3], [5,"serviceName","string",0], [6,"podManagementPolicy","string",2], [7,"updateStrategy","StatefulSetUpdateStrategy",2], [8,"revisionHistoryLimit","int32",6], [9,"minReadySeconds","int32",2], [10,"persistentVolumeClaimRetentionPolicy","StatefulSetPersistentVolumeClaimRetentionPolicy",6], [11,"ordinals","StatefulSetOrdinals",6]],
  "StatefulSetStatus": [[1,"observedGeneration","int64",2], [2,"replicas","int32",0], [3,"readyReplicas","int32",2], [4,"currentReplicas","int32",2], [5,"updatedReplicas","int32",2], [6,"currentRevision","string",2], [7,"updateRevision","string",2], [9,"collisionCount","int32",6], [10,"conditions","StatefulSetCondition",3], [11,"availableReplicas","int32",0]],
  "StatefulSetUpdateStrategy": [[1,"type","string",2], [2,"rollingUpdate","RollingUpdateStatefulSetStrategy",6]],
};
