// Generated data: wire structure of k8s.io.api.policy.v1. Do not edit by hand.
// Derived from k8s.io/api/policy/v1/generated.proto (repo kubernetes/api, tag v0.33.1)
// as compiled into kubectl v1.33.1: its embedded FileDescriptorProto gives field numbers and
// wire types, and the Go struct tags of the same binary give the JSON name, omitempty and
// pointer-ness. Field tuple: [number, jsonName, type, flags]; see ../schema-types.ts.
import type { MessageTable } from '../schema-types.ts';

export const policyV1: MessageTable = {
  "Eviction": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"deleteOptions","k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions",6]],
  "PodDisruptionBudget": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","PodDisruptionBudgetSpec",2], [3,"status","PodDisruptionBudgetStatus",2]],
  "PodDisruptionBudgetList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","PodDisruptionBudget",1]],
  "PodDisruptionBudgetSpec": [[1,"minAvailable","k8s.io.apimachinery.pkg.util.intstr.IntOrString",6], [2,"selector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",6], [3,"maxUnavailable","k8s.io.apimachinery.pkg.util.intstr.IntOrString",6], [4,"unhealthyPodEvictionPolicy","string",6]],
  "PodDisruptionBudgetStatus": [[1,"observedGeneration","int64",2], [2,"disruptedPods","map<string,k8s.io.apimachinery.pkg.apis.meta.v1.Time>",2], [3,"disruptionsAllowed","int32",0], [4,"currentHealthy","int32",0], [5,"desiredHealthy","int32",0], [6,"expectedPods","int32",0], [7,"conditions","k8s.io.apimachinery.pkg.apis.meta.v1.Condition",3]],
};
