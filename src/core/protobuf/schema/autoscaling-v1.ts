// Generated data: wire structure of k8s.io.api.autoscaling.v1. Do not edit by hand.
// Derived from k8s.io/api/autoscaling/v1/generated.proto (repo kubernetes/api, tag v0.33.1)
// as compiled into kubectl v1.33.1: its embedded FileDescriptorProto gives field numbers and
// wire types, and the Go struct tags of the same binary give the JSON name, omitempty and
// pointer-ness. Field tuple: [number, jsonName, type, flags]; see ../schema-types.ts.
import type { MessageTable } from '../schema-types.ts';

export const autoscalingV1: MessageTable = {
  "ContainerResourceMetricSource": [[1,"name","string",0], [2,"targetAverageUtilization","int32",6], [3,"targetAverageValue","k8s.io.apimachinery.pkg.api.resource.Quantity",6], [5,"container","string",0]],
  "ContainerResourceMetricStatus": [[1,"name","string",0], [2,"currentAverageUtilization","int32",6], [3,"currentAverageValue","k8s.io.apimachinery.pkg.api.resource.Quantity",0], [4,"container","string",0]],
  "CrossVersionObjectReference": [[1,"kind","string",0], [2,"name","string",0], [3,"apiVersion","string",2]],
  "ExternalMetricSource": [[1,"metricName","string",0], [2,"metricSelector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",6], [3,"targetValue","k8s.io.apimachinery.pkg.api.resource.Quantity",6], [4,"targetAverageValue","k8s.io.apimachinery.pkg.api.resource.Quantity",6]],
  "ExternalMetricStatus": [[1,"metricName","string",0], [2,"metricSelector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",6], [3,"currentValue","k8s.io.apimachinery.pkg.api.resource.Quantity",0], [4,"currentAverageValue","k8s.io.apimachinery.pkg.api.resource.Quantity",6]],
  "HorizontalPodAutoscaler": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","HorizontalPodAutoscalerSpec",2], [3,"status","HorizontalPodAutoscalerStatus",2]],
  "HorizontalPodAutoscalerCondition": [[1,"type","string",0], [2,"status","string",0], [3,"lastTransitionTime","k8s.io.apimachinery.pkg.apis.meta.v1.Time",2], [4,"reason","string",2], [5,"message","string",2]],
  "HorizontalPodAutoscalerList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","HorizontalPodAutoscaler",1]],
  "HorizontalPodAutoscalerSpec": [[1,"scaleTargetRef","CrossVersionObjectReference",0], [2,"minReplicas","int32",6], [3,"maxReplicas","int32",0], [4,"targetCPUUtilizationPercentage","int32",6]],
  "HorizontalPodAutoscalerStatus": [[1,"observedGeneration","int64",6], [2,"lastScaleTime","k8s.io.apimachinery.pkg.apis.meta.v1.Time",6], [3,"currentReplicas","int32",0], [4,"desiredReplicas","int32",0], [5,"currentCPUUtilizationPercentage","int32",6]],
  "MetricSpec": [[1,"type","string",0], [2,"object","ObjectMetricSource",6], [3,"pods","PodsMetricSource",6], [4,"resource","ResourceMetricSource",6], [5,"external","ExternalMetricSource",6], [7,"containerResource","ContainerResourceMetricSource",6]],
  "MetricStatus": [[1,"type","string",0], [2,"object","ObjectMetricStatus",6], [3,"pods","PodsMetricStatus",6], [4,"resource","ResourceMetricStatus",6], [5,"external","ExternalMetricStatus",6], [7,"containerResource","ContainerResourceMetricStatus",6]],
  "ObjectMetricSource": [[1,"target","CrossVersionObjectReference",0], [2,"metricName","string",0], [3,"targetValue","k8s.io.apimachinery.pkg.api.resource.Quantity",0], [4,"selector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",6], [5,"averageValue","k8s.io.apimachinery.pkg.api.resource.Quantity",6]],
  "ObjectMetricStatus": [[1,"target","CrossVersionObjectReference",0], [2,"metricName","string",0], [3,"currentValue","k8s.io.apimachinery.pkg.api.resource.Quantity",0], [4,"selector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",6], [5,"averageValue","k8s.io.apimachinery.pkg.api.resource.Quantity",6]],
  "PodsMetricSource": [[1,"metricName","string",0], [2,"targetAverageValue","k8s.io.apimachinery.pkg.api.resource.Quantity",0], [3,"selector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",6]],
  "PodsMetricStatus": [[1,"metricName","string",0], [2,"currentAverageValue","k8s.io.apimachinery.pkg.api.resource.Quantity",0], [3,"selector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",6]],
  "ResourceMetricSource": [[1,"name","string",0], [2,"targetAverageUtilization","int32",6], [3,"targetAverageValue","k8s.io.apimachinery.pkg.api.resource.Quantity",6]],
  "ResourceMetricStatus": [[1,"name","string",0], [2,"currentAverageUtilization","int32",6], [3,"currentAverageValue","k8s.io.apimachinery.pkg.api.resource.Quantity",0]],
  "Scale": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","ScaleSpec",2], [3,"status","ScaleStatus",2]],
  "ScaleSpec": [[1,"replicas","int32",2]],
  "ScaleStatus": [[1,"replicas","int32",0], [2,"selector","string",2]],
};
