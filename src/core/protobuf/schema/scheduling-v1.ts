// Generated data: wire structure of k8s.io.api.scheduling.v1. Do not edit by hand.
// Derived from k8s.io/api/scheduling/v1/generated.proto (repo kubernetes/api, tag v0.33.1)
// as compiled into kubectl v1.33.1: its embedded FileDescriptorProto gives field numbers and
// wire types, and the Go struct tags of the same binary give the JSON name, omitempty and
// pointer-ness. Field tuple: [number, jsonName, type, flags]; see ../schema-types.ts.
import type { MessageTable } from '../schema-types.ts';

export const schedulingV1: MessageTable = {
  "PriorityClass": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"value","int32",0], [3,"globalDefault","bool",2], [4,"description","string",2], [5,"preemptionPolicy","string",6]],
  "PriorityClassList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","PriorityClass",1]],
};
