// Generated data: wire structure of k8s.io.api.autoscaling.v2. Do not edit by hand.
// Derived from k8s.io/api/autoscaling/v2/generated.proto (repo kubernetes/api, tag v0.33.1)
// as compiled into kubectl v1.33.1: its embedded FileDescriptorProto gives field numbers and
// wire types, and the Go struct tags of the same binary give the JSON name, omitempty and
// pointer-ness. Field tuple: [number, jsonName, type, flags]; see ../schema-types.ts.
import type { MessageTable } from '../schema-types.ts';

export const autoscalingV2: MessageTable = {
  "ContainerResourceMetricSource": [[1,"name","string",0], [2,"target","MetricTarget",0], [3,"container","string",0]],
  "ContainerResourceMetricStatus": [[1,"name","string",0], [2,"current","MetricValueStatus",0], [3,"container","string",0]],
  "CrossVersionObjectReference": [[1,"kind","string",0], [2,"name","string",0], [3,"apiVersion","string",2]],
  "ExternalMetricSource": [[1,"metric","MetricIdentifier",0], [2,"target","MetricTarget",0]],
  "ExternalMetricStatus": [[1,"metric","MetricIdentifier",0], [2,"current","MetricValueStatus",0]],
  "HPAScalingPolicy": [[1,"type","string",0], [2,"value","int32",0], [3,"periodSeconds","int32",0]],
  "HPAScalingRules": [[1,"selectPolicy","string",6], [2,"policies","HPAScalingPolicy",3], [3,"stabilizationWindowSeconds","int32",6], [4,"tolerance","k8s.io.apimachinery.pkg.api.resource.Quantity",6]],
  "HorizontalPodAutoscaler": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","HorizontalPodAutoscalerSpec",2], [3,"status","HorizontalPodAutoscalerStatus",2]],
  "HorizontalPodAutoscalerBehavior": [[1,"scaleUp","HPAScalingRules",6], [2,"scaleDown","HPAScalingRules",6]],
  "HorizontalPodAutoscalerCondition": [[1,"type","string",0], [2,"status","string",0], [3,"lastTransitionTime","k8s.io.apimachinery.pkg.apis.meta.v1.Time",2], [4,"reason","string",2], [5,"message","string",2]],
  "HorizontalPodAutoscalerList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","HorizontalPodAutoscaler",1]],
  "HorizontalPodAutoscalerSpec": [[1,"scaleTargetRef","CrossVersionObjectReference",0], [2,"minReplicas","int32",6], [3,"maxReplicas","int32",0], [4,"metrics","MetricSpec",3], [5,"behavior","HorizontalPodAutoscalerBehavior",6]],
  "HorizontalPodAutoscalerStatus": [[1,"observedGeneration","int64",6], [2,"lastScaleTime","k8s.io.apimachinery.pkg.apis.meta.v1.Time",6], [3,"currentReplicas","int32",2], [4,"desiredReplicas","int32",0], [5,"currentMetrics","MetricStatus",1], [6,"conditions","HorizontalPodAutoscalerCondition",3]],
  "MetricIdentifier": [[1,"name","string",0], [2,"selector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",6]],
  "MetricSpec": [[1,"type","string",0], [2,"object","ObjectMetricSource",6], [3,"pods","PodsMetricSource",6], [4,"resource","ResourceMetricSource",6], [5,"external","ExternalMetricSource",6], [7,"containerResource","ContainerResourceMetricSource",6]],
  "MetricStatus": [[1,"type","string",0], [2,"object","ObjectMetricStatus",6], [3,"pods","PodsMetricStatus",6], [4,"resource","ResourceMetricStatus",6], [5,"external","ExternalMetricStatus",6], [7,"containerResource","ContainerResourceMetricStatus",6]],
  "MetricTarget": [[1,"type","string",0], [2,"value","k8s.io.apimachinery.pkg.api.resource.Quantity",6], [3,"averageValue","k8s.io.apimachinery.pkg.api.resource.Quantity",6], [4,"averageUtilization","int32",6]],
  "MetricValueStatus": [[1,"value","k8s.io.apimachinery.pkg.api.resource.Quantity",6], [2,"averageValue","k8s.io.apimachinery.pkg.api.resource.Quantity",6], [3,"averageUtilization","int32",6]],
  "ObjectMetricSource": [[1,"describedObject","CrossVersionObjectReference",0], [2,"target","MetricTarget",0], [3,"metric","MetricIdentifier",0]],
  "ObjectMetricStatus": [[1,"metric","MetricIdentifier",0], [2,"current","MetricValueStatus",0], [3,"describedObject","CrossVersionObjectReference",0]],
  "PodsMetricSource": [[1,"metric","MetricIdentifier",0], [2,"target","MetricTarget",0]],
  "PodsMetricStatus": [[1,"metric","MetricIdentifier",0], [2,"current","MetricValueStatus",0]],
  "ResourceMetricSource": [[1,"name","string",0], [2,"target","MetricTarget",0]],
  "ResourceMetricStatus": [[1,"name","string",0], [2,"current","MetricValueStatus",0]],
};
