// Generated data: wire structure of k8s.io.api.authentication.v1. Do not edit by hand.
// Derived from k8s.io/api/authentication/v1/generated.proto (repo kubernetes/api, tag v0.33.1)
// as compiled into kubectl v1.33.1: its embedded FileDescriptorProto gives field numbers and
// wire types, and the Go struct tags of the same binary give the JSON name, omitempty and
// pointer-ness. Field tuple: [number, jsonName, type, flags]; see ../schema-types.ts.
import type { MessageTable } from '../schema-types.ts';

export const authenticationV1: MessageTable = {
  "BoundObjectReference": [[1,"kind","string",2], [2,"apiVersion","string",2], [3,"name","string",2], [4,"uid","string",2]],
  "ExtraValue": [[1,"items","string",17]],
  "SelfSubjectReview": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"status","SelfSubjectReviewStatus",2]],
  "SelfSubjectReviewStatus": [[1,"userInfo","UserInfo",2]],
  "TokenRequest": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","TokenRequestSpec",0], [3,"status","TokenRequestStatus",2]],
  "TokenRequestSpec": [[1,"audiences","string",1], [3,"boundObjectRef","BoundObjectReference",4], [4,"expirationSeconds","int64",4]],
  "TokenRequestStatus": [[1,"token","string",0], [2,"expirationTimestamp","k8s.io.apimachinery.pkg.apis.meta.v1.Time",0]],
  "TokenReview": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","TokenReviewSpec",0], [3,"status","TokenReviewStatus",2]],
  "TokenReviewSpec": [[1,"token","string",2], [2,"audiences","string",3]],
  "TokenReviewStatus": [[1,"authenticated","bool",2], [2,"user","UserInfo",2], [3,"error","string",2], [4,"audiences","string",3]],
  "UserInfo": [[1,"username","string",2], [2,"uid","string",2], [3,"groups","string",3], [4,"extra","map<string,ExtraValue>",2]],
};
