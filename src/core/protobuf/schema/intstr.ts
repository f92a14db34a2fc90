// Generated data: wire structure of k8s.io.apimachinery.pkg.util.intstr. Do not edit by hand.
// Derived from k8s.io/apimachinery/pkg/util/intstr/generated.proto (repo kubernetes/apimachinery, tag v0.33.1)
// as compiled into kubectl v1.33.1: its embedded FileDescriptorProto gives field numbers and
// wire types, and the Go struct tags of the same binary give the JSON name, omitempty and
// pointer-ness. Field tuple: [number, jsonName, type, flags]; see ../schema-types.ts.
import type { MessageTable } from '../schema-types.ts';

export const intstr: MessageTable = {
  "IntOrString": [[1,"Type","int64",0], [2,"IntVal","int32",0], [3,"StrVal","string",0]],
};
