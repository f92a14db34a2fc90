// Generated data: wire structure of k8s.io.api.networking.v1. Do not edit by hand.
// Derived from k8s.io/api/networking/v1/generated.proto (repo kubernetes/api, tag v0.33.1)
// as compiled into kubectl v1.33.1: its embedded FileDescriptorProto gives field numbers and
// wire types, and the Go struct tags of the same binary give the JSON name, omitempty and
// pointer-ness. Field tuple: [number, jsonName, type, flags]; see ../schema-types.ts.
import type { MessageTable } from '../schema-types.ts';

export const networkingV1: MessageTable = {
  "HTTPIngressPath": [[1,"path","string",2], [2,"backend","IngressBackend",0], [3,"pathType","string",4]],
  "HTTPIngressRuleValue": [[1,"paths","HTTPIngressPath",1]],
  "IPAddress": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","IPAddressSpec",2]],
  "IPAddressList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","IPAddress",1]],
  "IPAddressSpec": [[1,"parentRef","ParentReference",6]],
  "IPBlock": [[1,"cidr","string",0], [2,"except","string",3]],
  "Ingress": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","IngressSpec",2], [3,"status","IngressStatus",2]],
  "IngressBackend": [[3,"resource","k8s.io.api.core.v1.TypedLocalObjectReference",6], [4,"service","IngressServiceBackend",6]],
  "IngressClass": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","IngressClassSpec",2]],
  "IngressClassList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","IngressClass",1]],
  "IngressClassParametersReference": [[1,"apiGroup","string",6], [2,"kind","string",0], [3,"name","string",0], [4,"scope","string",4], [5,"namespace","string",6]],
  "IngressClassSpec": [[1,"controller","string",2], [2,"parameters","IngressClassParametersReference",6]],
  "IngressList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","Ingress",1]],
  "IngressLoadBalancerIngress": [[1,"ip","string",2], [2,"hostname","string",2], [4,"ports","IngressPortStatus",3]],
  "IngressLoadBalancerStatus": [[1,"ingress","IngressLoadBalancerIngress",3]],
  "IngressPortStatus": [[1,"port","int32",0], [2,"protocol","string",0], [3,"error","string",6]],
  "IngressRule": [[1,"host","string",2], [2,"","IngressRuleValue",8]],
  "IngressRuleValue": [[1,"http","HTTPIngressRuleValue",6]],
  "IngressServiceBackend": [[1,"name","string",0], [2,"port","ServiceBackendPort",2]],
  "IngressSpec": [[1,"defaultBackend","IngressBackend",6], [2,"tls","IngressTLS",3], [3,"rules","IngressRule",3], [4,"ingressClassName","string",6]],
  "IngressStatus": [[1,"loadBalancer","IngressLoadBalancerStatus",2]],
  "IngressTLS": [[1,"hosts","string",3], [2,"secretName","string",2]],
  "NetworkPolicy": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","NetworkPolicySpec",2]],
  "NetworkPolicyEgressRule": [[1,"ports","NetworkPolicyPort",3], [2,"to","NetworkPolicyPeer",3]],
  "NetworkPolicyIngressRule": [[1,"ports","NetworkPolicyPort",3], [2,"from","NetworkPolicyPeer",3]],
  "NetworkPolicyList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","NetworkPolicy",1]],
  "NetworkPolicyPeer": [[1,"podSelector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",6], [2,"namespaceSelector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",6], [3,"ipBlock","IPBlock",6]],
  "NetworkPolicyPort": [[1,"protocol","string",6], [2,"port","k8s.io.apimachinery.pkg.util.intstr.IntOrString",6], [3,"endPort","int32",6]],
  "NetworkPolicySpec": [[1,"podSelector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",0], [2,"ingress","NetworkPolicyIngressRule",3], [3,"egress","NetworkPolicyEgressRule",3], [4,"policyTypes","string",3]],
  "ParentReference": [[1,"group","string",2], [2,"resource","string",2], [3,"namespace","string",2], [4,"name","string",2]],
  "ServiceBackendPort": [[1,"name","string",2], [2,"number","int32",2]],
  "ServiceCIDR": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","ServiceCIDRSpec",2], [3,"status","ServiceCIDRStatus",2]],
  "ServiceCIDRList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","ServiceCIDR",1]],
  "ServiceCIDRSpec": [[1,"cidrs","string",3]],
  "ServiceCIDRStatus": [[1,"conditions","k8s.io.apimachinery.pkg.apis.meta.v1.Condition",3]],
};
