// Generated data: wire structure of k8s.io.api.flowcontrol.v1. Do not edit by hand.
// Derived from k8s.io/api/flowcontrol/v1/generated.proto (repo kubernetes/api, tag v0.33.1)
// as compiled into kubectl v1.33.1: its embedded FileDescriptorProto gives field numbers and
// wire types, and the Go struct tags of the same binary give the JSON name, omitempty and
// pointer-ness. Field tuple: [number, jsonName, type, flags]; see ../schema-types.ts.
import type { MessageTable } from '../schema-types.ts';

export const flowcontrolV1: MessageTable = {
  "ExemptPriorityLevelConfiguration": [[1,"nominalConcurrencyShares","int32",6], [2,"lendablePercent","int32",6]],
  "FlowDistinguisherMethod": [[1,"type","string",0]],
  "FlowSchema": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","FlowSchemaSpec",2], [3,"status","FlowSchemaStatus",2]],
  "FlowSchemaCondition": [[1,"type","string",2], [2,"status","string",2], [3,"lastTransitionTime","k8s.io.apimachinery.pkg.apis.meta.v1.Time",2], [4,"reason","string",2], [5,"message","string",2]],
  "FlowSchemaList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","FlowSchema",1]],
  "FlowSchemaSpec": [[1,"priorityLevelConfiguration","PriorityLevelConfigurationReference",0], [2,"matchingPrecedence","int32",0], [3,"distinguisherMethod","FlowDistinguisherMethod",6], [4,"rules","PolicyRulesWithSubjects",3]],
  "FlowSchemaStatus": [[1,"conditions","FlowSchemaCondition",3]],
  "GroupSubject": [[1,"name","string",0]],
  "LimitResponse": [[1,"type","string",0], [2,"queuing","QueuingConfiguration",6]],
  "LimitedPriorityLevelConfiguration": [[1,"nominalConcurrencyShares","int32",4], [2,"limitResponse","LimitResponse",2], [3,"lendablePercent","int32",6], [4,"borrowingLimitPercent","int32",6]],
  "NonResourcePolicyRule": [[1,"verbs","string",1], [6,"nonResourceURLs","string",1]],
  "PolicyRulesWithSubjects": [[1,"subjects","Subject",1], [2,"resourceRules","ResourcePolicyRule",3], [3,"nonResourceRules","NonResourcePolicyRule",3]],
  "PriorityLevelConfiguration": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","PriorityLevelConfigurationSpec",2], [3,"status","PriorityLevelConfigurationStatus",2]],
  "PriorityLevelConfigurationCondition": [[1,"type","string",2], [2,"status","string",2], [3,"lastTransitionTime","k8s.io.apimachinery.pkg.apis.meta.v1.Time",2], [4,"reason","string",2], [5,"message","string",2]],
  "PriorityLevelConfigurationList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","PriorityLevelConfiguration",1]],
  "PriorityLevelConfigurationReference": [[1,"name","string",0]],
  "PriorityLevelConfigurationSpec": [[1,"type","string",0], [2,"limited","LimitedPriorityLevelConfiguration",6], [3,"exempt","ExemptPriorityLevelConfiguration",6]],
  "PriorityLevelConfigurationStatus": [[1,"conditions","PriorityLevelConfigurationCondition",3]],
  "QueuingConfiguration": [[1,"queues","int32",0], [2,"handSize","int32",0], [3,"queueLengthLimit","int32",0]],
  "ResourcePolicyRule": [[1,"verbs","string",1], [2,"apiGroups","string",1], [3,"resources","string",1], [4,"clusterScope","bool",2], [5,"namespaces","string",1]],
  "ServiceAccountSubject": [[1,"namespace","string",0], [2,"name","string",0]],
  "Subject": [[1,"kind","string",0], [2,"user","UserSubject",6], [3,"group","GroupSubject",6], [4,"serviceAccount","ServiceAccountSubject",6]],
  "UserSubject": [[1,"name","string",0]],
};
