// Generated data: wire structure of k8s.io.api.node.v1. Do not edit by hand.
// Derived from k8s.io/api/node/v1/generated.proto (repo kubernetes/api, tag v0.33.1)
// as compiled into kubectl v1.33.1: its embedded FileDescriptorProto gives field numbers and
// wire types, and the Go struct tags of the same binary give the JSON name, omitempty and
// pointer-ness. Field tuple: [number, jsonName, type, flags]; see ../schema-types.ts.
import type { MessageTable } from '../schema-types.ts';

export const nodeV1: MessageTable = {
  "Overhead": [[1,"podFixed","map<string,k8s.io.apimachinery.pkg.api.resource.Quantity>",2]],
  "RuntimeClass": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"handler","string",0], [3,"overhead","Overhead",6], [4,"scheduling","Scheduling",6]],
  "RuntimeClassList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","RuntimeClass",1]],
  "Scheduling": [[1,"nodeSelector","map<string,string>",2], [2,"tolerations","k8s.io.api.core.v1.Toleration",3]],
};
