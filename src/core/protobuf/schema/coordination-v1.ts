// Generated data: wire structure of k8s.io.api.coordination.v1. Do not edit by hand.
// Derived from k8s.io/api/coordination/v1/generated.proto (repo kubernetes/api, tag v0.33.1)
// as compiled into kubectl v1.33.1: its embedded FileDescriptorProto gives field numbers and
// wire types, and the Go struct tags of the same binary give the JSON name, omitempty and
// pointer-ness. Field tuple: [number, jsonName, type, flags]; see ../schema-types.ts.
import type { MessageTable } from '../schema-types.ts';

export const coordinationV1: MessageTable = {
  "Lease": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","LeaseSpec",2]],
  "LeaseList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","Lease",1]],
  "LeaseSpec": [[1,"holderIdentity","string",6], [2,"leaseDurationSeconds","int32",6], [3,"acquireTime","k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime",6], [4,"renewTime","k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime",6], [5,"leaseTransitions","int32",6], [6,"strategy","string",6], [7,"preferredHolder","string",6]],
};
