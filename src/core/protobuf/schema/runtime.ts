// Generated data: wire structure of k8s.io.apimachinery.pkg.runtime. Do not edit by hand.
// Derived from k8s.io/apimachinery/pkg/runtime/generated.proto (repo kubernetes/apimachinery, tag v0.33.1)
// as compiled into kubectl v1.33.1: its embedded FileDescriptorProto gives field numbers and
// wire types, and the Go struct tags of the same binary give the JSON name, omitempty and
// pointer-ness. Field tuple: [number, jsonName, type, flags]; see ../schema-types.ts.
import type { MessageTable } from '../schema-types.ts';

export const runtime: MessageTable = {
  "RawExtension": [],
  "TypeMeta": [[1,"apiVersion","string",2], [2,"kind","string",2]],
  "Unknown": [[1,"","TypeMeta",8], [3,"ContentEncoding","string",0], [4,"ContentType","string",0]],
};
