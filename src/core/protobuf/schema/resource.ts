// Generated data: wire structure of k8s.io.apimachinery.pkg.api.resource. Do not edit by hand.
// Derived from k8s.io/apimachinery/pkg/api/resource/generated.proto (repo kubernetes/apimachinery, tag v0.33.1)
// as compiled into kubectl v1.33.1: its embedded FileDescriptorProto gives field numbers and
// wire types, and the Go struct tags of the same binary give the JSON name, omitempty and
// pointer-ness. Field tuple: [number, jsonName, type, flags]; see ../schema-types.ts.
import type { MessageTable } from '../schema-types.ts';

export const resource: MessageTable = {
  "Quantity": [[1,"string","string",16]],
  "QuantityValue": [[1,"string","string",16]],
};
