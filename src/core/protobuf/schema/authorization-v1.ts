// Generated data: wire structure of k8s.io.api.authorization.v1. Do not edit by hand.
// Derived from k8s.io/api/authorization/v1/generated.proto (repo kubernetes/api, tag v0.33.1)
// as compiled into kubectl v1.33.1: its embedded FileDescriptorProto gives field numbers and
// wire types, and the Go struct tags of the same binary give the JSON name, omitempty and
// pointer-ness. Field tuple: [number, jsonName, type, flags]; see ../schema-types.ts.
import type { MessageTable } from '../schema-types.ts';

export const authorizationV1: MessageTable = {
  "ExtraValue": [[1,"items","string",17]],
  "FieldSelectorAttributes": [[1,"rawSelector","string",2], [2,"requirements","k8s.io.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement",3]],
  "LabelSelectorAttributes": [[1,"rawSelector","string",2], [2,"requirements","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement",3]],
  "LocalSubjectAccessReview": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","SubjectAccessReviewSpec",0], [3,"status","SubjectAccessReviewStatus",2]],
  "NonResourceAttributes": [[1,"path","string",2], [2,"verb","string",2]],
  "NonResourceRule": [[1,"verbs","string",1], [2,"nonResourceURLs","string",3]],
  "ResourceAttributes": [[1,"namespace","string",2], [2,"verb","string",2], [3,"group","string",2], [4,"version","string",2], [5,"resource","string",2], [6,"subresource","string",2], [7,"name","string",2], [8,"fieldSelector","FieldSelectorAttributes",6], [9,"labelSelector","LabelSelectorAttributes",6]],
  "ResourceRule": [[1,"verbs","string",1], [2,"apiGroups","string",3], [3,"resources","string",3], [4,"resourceNames","string",3]],
  "SelfSubjectAccessReview": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","SelfSubjectAccessReviewSpec",0], [3,"status","SubjectAccessReviewStatus",2]],
  "SelfSubjectAccessReviewSpec": [[1,"resourceAttributes","ResourceAttributes",6], [2,"nonResourceAttributes","NonResourceAttributes",6]],
  "SelfSubjectRulesReview": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","SelfSubjectRulesReviewSpec",0], [3,"status","SubjectRulesReviewStatus",2]],
  "SelfSubjectRulesReviewSpec": [[1,"namespace","string",2]],
  "SubjectAccessReview": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","SubjectAccessReviewSpec",0], [3,"status","SubjectAccessReviewStatus",2]],
  "SubjectAccessReviewSpec": [[1,"resourceAttributes","ResourceAttributes",6], [2,"nonResourceAttributes","NonResourceAttributes",6], [3,"user","string",2], [4,"groups","string",3], [5,"extra","map<string,ExtraValue>",2], [6,"uid","string",2]],
  "SubjectAccessReviewStatus": [[1,"allowed","bool",0], [2,"reason","string",2], [3,"evaluationError","string",2], [4,"denied","bool",2]],
  "SubjectRulesReviewStatus": [[1,"resourceRules","ResourceRule",1], [2,"nonResourceRules","NonResourceRule",1], [3,"incomplete","bool",0], [4,"evaluationError","string",2]],
};
