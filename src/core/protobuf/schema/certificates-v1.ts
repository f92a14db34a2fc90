// Generated data: wire structure of k8s.io.api.certificates.v1. Do not edit by hand.
// Derived from k8s.io/api/certificates/v1/generated.proto (repo kubernetes/api, tag v0.33.1)
// as compiled into kubectl v1.33.1: its embedded FileDescriptorProto gives field numbers and
// wire types, and the Go struct tags of the same binary give the JSON name, omitempty and
// pointer-ness. Field tuple: [number, jsonName, type, flags]; see ../schema-types.ts.
import type { MessageTable } from '../schema-types.ts';

export const certificatesV1: MessageTable = {
  "CertificateSigningRequest": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","CertificateSigningRequestSpec",0], [3,"status","CertificateSigningRequestStatus",2]],
  "CertificateSigningRequestCondition": [[1,"type","string",0], [2,"reason","string",2], [3,"message","string",2], [4,"lastUpdateTime","k8s.io.apimachinery.pkg.apis.meta.v1.Time",2], [5,"lastTransitionTime","k8s.io.apimachinery.pkg.apis.meta.v1.Time",2], [6,"status","string",0]],
  "CertificateSigningRequestList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","CertificateSigningRequest",1]],
  "CertificateSigningRequestSpec": [[1,"request","bytes",0], [2,"username","string",2], [3,"uid","string",2], [4,"groups","string",3], [5,"usages","string",3], [6,"extra","map<string,ExtraValue>",2], [7,"signerName","string",0], [8,"expirationSeconds","int32",6]],
  "CertificateSigningRequestStatus": [[1,"conditions","CertificateSigningRequestCondition",3], [2,"certificate","bytes",2]],
  "ExtraValue": [[1,"items","string",17]],
};
