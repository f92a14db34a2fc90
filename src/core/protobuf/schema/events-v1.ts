// Generated data: wire structure of k8s.io.api.events.v1. Do not edit by hand.
// Derived from k8s.io/api/events/v1/generated.proto (repo kubernetes/api, tag v0.33.1)
// as compiled into kubectl v1.33.1: its embedded FileDescriptorProto gives field numbers and
// wire types, and the Go struct tags of the same binary give the JSON name, omitempty and
// pointer-ness. Field tuple: [number, jsonName, type, flags]; see ../schema-types.ts.
import type { MessageTable } from '../schema-types.ts';

export const eventsV1: MessageTable = {
  "Event": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",0], [2,"eventTime","k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime",0], [3,"series","EventSeries",6], [4,"reportingController","string",2], [5,"reportingInstance","string",2], [6,"action","string",2], [7,"reason","string",2], [8,"regarding","k8s.io.api.core.v1.ObjectReference",2], [9,"related","k8s.io.api.core.v1.ObjectReference",6], [10,"note","string",2], [11,"type","string",2], [12,"deprecatedSource","k8s.io.api.core.v1.EventSource",2], [13,"deprecatedFirstTimestamp","k8s.io.apimachinery.pkg.apis.meta.v1.Time",2], [14,"deprecatedLastTimestamp","k8s.io.apimachinery.pkg.apis.meta.v1.Time",2], [15,"deprecatedCount","int32",2]],
  "EventList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","Event",1]],
  "EventSeries": [[1,"count","int32",0], [2,"lastObservedTime","k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime",0]],
};
