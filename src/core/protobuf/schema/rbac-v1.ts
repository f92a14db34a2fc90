// Generated data: wire structure of k8s.io.api.rbac.v1. Do not edit by hand.
// Derived from k8s.io/api/rbac/v1/generated.proto (repo kubernetes/api, tag v0.33.1)
// as compiled into kubectl v1.33.1: its embedded FileDescriptorProto gives field numbers and
// wire types, and the Go struct tags of the same binary give the JSON name, omitempty and
// pointer-ness. Field tuple: [number, jsonName, type, flags]; see ../schema-types.ts.
import type { MessageTable } from '../schema-types.ts';

export const rbacV1: MessageTable = {
  "AggregationRule": [[1,"clusterRoleSelectors","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",3]],
  "ClusterRole": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"rules","PolicyRule",1], [3,"aggregationRule","AggregationRule",6]],
  "ClusterRoleBinding": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"subjects","Subject",3], [3,"roleRef","RoleRef",0]],
  "ClusterRoleBindingList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","ClusterRoleBinding",1]],
  "ClusterRoleList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","ClusterRole",1]],
  "PolicyRule": [[1,"verbs","string",1], [2,"apiGroups","string",3], [3,"resources","string",3], [4,"resourceNames","string",3], [5,"nonResourceURLs","string",3]],
  "Role": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"rules","PolicyRule",1]],
  "RoleBinding": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"subjects","Subject",3], [3,"roleRef","RoleRef",0]],
  "RoleBindingList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","RoleBinding",1]],
  "RoleList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","Role",1]],
  "RoleRef": [[1,"apiGroup","string",0], [2,"kind","string",0], [3,"name","string",0]],
  "Subject": [[1,"kind","string",0], [2,"apiGroup","string",2], [3,"name","string",0], [4,"namespace","string",2]],
};
