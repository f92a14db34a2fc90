// Generated data: wire structure of k8s.io.api.discovery.v1. Do not edit by hand.
// Derived from k8s.io/api/discovery/v1/generated.proto (repo kubernetes/api, tag v0.33.1)
// as compiled into kubectl v1.33.1: its embedded FileDescriptorProto gives field numbers and
// wire types, and the Go struct tags of the same binary give the JSON name, omitempty and
// pointer-ness. Field tuple: [number, jsonName, type, flags]; see ../schema-types.ts.
import type { MessageTable } from '../schema-types.ts';

export const discoveryV1: MessageTable = {
  "Endpoint": [[1,"addresses","string",1], [2,"conditions","EndpointConditions",2], [3,"hostname","string",6], [4,"targetRef","k8s.io.api.core.v1.ObjectReference",6], [5,"deprecatedTopology","map<string,string>",2], [6,"nodeName","string",6], [7,"zone","string",6], [8,"hints","EndpointHints",6]],
  "EndpointConditions": [[1,"ready","bool",6], [2,"serving","bool",6], [3,"terminating","bool",6]],
  "EndpointHints": [[1,"forZones","ForZone",3], [2,"forNodes","ForNode",3]],
  "EndpointPort": [[1,"name","string",6], [2,"protocol","string",6], [3,"port","int32",6], [4,"appProtocol","string",6]],
  "EndpointSlice": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"endpoints","Endpoint",1], [3,"ports","EndpointPort",1], [4,"addressType","string",0]],
  "EndpointSliceList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","EndpointSlice",1]],
  "ForNode": [[1,"name","string",0]],
  "ForZone": [[1,"name","string",0]],
};
