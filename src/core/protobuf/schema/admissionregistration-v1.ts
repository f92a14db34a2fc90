// Generated data: wire structure of k8s.io.api.admissionregistration.v1. Do not edit by hand.
// Derived from k8s.io/api/admissionregistration/v1/generated.proto (repo kubernetes/api, tag v0.33.1)
// as compiled into kubectl v1.33.1: its embedded FileDescriptorProto gives field numbers and
// wire types, and the Go struct tags of the same binary give the JSON name, omitempty and
// pointer-ness. Field tuple: [number, jsonName, type, flags]; see ../schema-types.ts.
import type { MessageTable } from '../schema-types.ts';

export const admissionregistrationV1: MessageTable = {
  "AuditAnnotation": [[1,"key","string",0], [2,"valueExpression","string",0]],
  "ExpressionWarning": [[2,"fieldRef","string",0], [3,"warning","string",0]],
  "MatchCondition": [[1,"name","string",0], [2,"expression","string",0]],
  "MatchResources": [[1,"namespaceSelector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",6], [2,"objectSelector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",6], [3,"resourceRules","NamedRuleWithOperations",3], [4,"excludeResourceRules","NamedRuleWithOperations",3], [7,"matchPolicy","string",6]],
  "MutatingWebhook": [[1,"name","string",0], [2,"clientConfig","WebhookClientConfig",0], [3,"rules","RuleWithOperations",3], [4,"failurePolicy","string",6], [5,"namespaceSelector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",6], [6,"sideEffects","string",4], [7,"timeoutSeconds","int32",6], [8,"admissionReviewVersions","string",1], [9,"matchPolicy","string",6], [10,"reinvocationPolicy","string",6], [11,"objectSelector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",6], [12,"matchConditions","MatchCondition",3]],
  "MutatingWebhookConfiguration": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"webhooks","MutatingWebhook",3]],
  "MutatingWebhookConfigurationList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","MutatingWebhookConfiguration",1]],
  "NamedRuleWithOperations": [[1,"resourceNames","string",3], [2,"","RuleWithOperations",8]],
  "ParamKind": [[1,"apiVersion","string",2], [2,"kind","string",2]],
  "ParamRef": [[1,"name","string",2], [2,"namespace","string",2], [3,"selector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",6], [4,"parameterNotFoundAction","string",6]],
  "Rule": [[1,"apiGroups","string",3], [2,"apiVersions","string",3], [3,"resources","string",3], [4,"scope","string",6]],
  "RuleWithOperations": [[1,"operations","string",3], [2,"","Rule",8]],
  "ServiceReference": [[1,"namespace","string",0], [2,"name","string",0], [3,"path","string",6], [4,"port","int32",6]],
  "TypeChecking": [[1,"expressionWarnings","ExpressionWarning",3]],
  "ValidatingAdmissionPolicy": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","ValidatingAdmissionPolicySpec",2], [3,"status","ValidatingAdmissionPolicyStatus",2]],
  "ValidatingAdmissionPolicyBinding": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","ValidatingAdmissionPolicyBindingSpec",2]],
  "ValidatingAdmissionPolicyBindingList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","ValidatingAdmissionPolicyBinding",1]],
  "ValidatingAdmissionPolicyBindingSpec": [[1,"policyName","string",2], [2,"paramRef","ParamRef",6], [3,"matchResources","MatchResources",6], [4,"validationActions","string",3]],
  "ValidatingAdmissionPolicyList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","ValidatingAdmissionPolicy",1]],
  "ValidatingAdmissionPolicySpec": [[1,"paramKind","ParamKind",6], [2,"matchConstraints","MatchResources",6], [3,"validations","Validation",3], [4,"failurePolicy","string",6], [5,"auditAnnotations","AuditAnnotation",3], [6,"matchConditions","MatchCondition",3], [7,"variables","Variable",3]],
  "ValidatingAdmissionPolicyStatus": [[1,"observedGeneration","int64",2], [2,"typeChecking","TypeChecking",6], [3,"conditions","k8s.io.apimachinery.pkg.apis.meta.v1.Condition",3]],
  "ValidatingWebhook": [[1,"name","string",0], [2,"clientConfig","WebhookClientConfig",0], [3,"rules","RuleWithOperations",3], [4,"failurePolicy","string",6], [5,"namespaceSelector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",6], [6,"sideEffects","string",4], [7,"timeoutSeconds","int32",6], [8,"admissionReviewVersions","string",1], [9,"matchPolicy","string",6], [10,"objectSelector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",6], [11,"matchConditions","MatchCondition",3]],
  "ValidatingWebhookConfiguration": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"webhooks","ValidatingWebhook",3]],
  "ValidatingWebhookConfigurationList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","ValidatingWebhookConfiguration",1]],
  "Validation": [[1,"expression","string",0], [2,"message","string",2], [3,"reason","string",6], [4,"messageExpression","string",2]],
  "Variable": [[1,"name","string",0], [2,"expression","string",0]],
  "WebhookClientConfig": [[1,"service","ServiceReference",6], [2,"caBundle","bytes",2], [3,"url","string",6]],
};
