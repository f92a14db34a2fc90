// Generated data: wire structure of k8s.io.api.batch.v1. Do not edit by hand.
// Derived from k8s.io/api/batch/v1/generated.proto (repo kubernetes/api, tag v0.33.1)
// as compiled into kubectl v1.33.1: its embedded FileDescriptorProto gives field numbers and
// wire types, and the Go struct tags of the same binary give the JSON name, omitempty and
// pointer-ness. Field tuple: [number, jsonName, type, flags]; see ../schema-types.ts.
import type { MessageTable } from '../schema-types.ts';

export const batchV1: MessageTable = {
  "CronJob": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","CronJobSpec",2], [3,"status","CronJobStatus",2]],
  "CronJobList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","CronJob",1]],
  "CronJobSpec": [[1,"schedule","string",0], [2,"startingDeadlineSeconds","int64",6], [3,"concurrencyPolicy","string",2], [4,"suspend","bool",6], [5,"jobTemplate","JobTemplateSpec",0], [6,"successfulJobsHistoryLimit","int32",6], [7,"failedJobsHistoryLimit","int32",6], [8,"timeZone","string",6]],
  "CronJobStatus": [[1,"active","k8s.io.api.core.v1.ObjectReference",3], [4,"lastScheduleTime","k8s.io.apimachinery.pkg.apis.meta.v1.Time",6], [5,"lastSuccessfulTime","k8s.io.apimachinery.pkg.apis.meta.v1.Time",6]],
  "Job": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","JobSpec",2], [3,"status","JobStatus",2]],
  "JobCondition": [[1,"type","string",0], [2,"status","string",0], [3,"lastProbeTime","k8s.io.apimachinery.pkg.apis.meta.v1.Time",2], [4,"lastTransitionTime","k8s.io.apimachinery.pkg.apis.meta.v1.Time",2], [5,"reason","string",2], [6,"message","string",2]],
  "JobList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","Job",1]],
  "JobSpec": [[1,"parallelism","int32",6], [2,"completions","int32",6], [3,"activeDeadlineSeconds","int64",6], [4,"selector","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",6], [5,"manualSelector","bool",6], [6,"template","k8s.io.api.core.v1.PodTemplateSpec",0], [7,"backoffLimit","int32",6], [8,"ttlSecondsAfterFinished","int32",6], [9,"completionMode","string",6], [10,"suspend","bool",6], [11,"podFailurePolicy","PodFailurePolicy",6], [12,"backoffLimitPerIndex","int32",6], [13,"maxFailedIndexes","int32",6], [14,"podReplacementPolicy","string",6], [15,"managedBy","string",6], [16,"successPolicy","SuccessPolicy",6]],
  "JobStatus": [[1,"conditions","JobCondition",3], [2,"startTime","k8s.io.apimachinery.pkg.apis.meta.v1.Time",6], [3,"completionTime","k8s.io.apimachinery.pkg.apis.meta.v1.Time",6], [4,"active","int32",2], [5,"succeeded","int32",2], [6,"failed","int32",2], [7,"completedIndexes","string",2], [8,"uncountedTerminatedPods","UncountedTerminatedPods",6], [9,"ready","int32",6], [10,"failedIndexes","string",6], [11,"terminating","int32",6]],
  "JobTemplateSpec": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","JobSpec",2]],
  "PodFailurePolicy": [[1,"rules","PodFailurePolicyRule",1]],
  "PodFailurePolicyOnExitCodesRequirement": [[1,"containerName","string",6], [2,"operator","string",0], [3,"values","int32",1]],
  "PodFailurePolicyOnPodConditionsPattern": [[1,"type","string",0], [2,"status","string",0]],
  "PodFailurePolicyRule": [[1,"action","string",0], [2,"onExitCodes","PodFailurePolicyOnExitCodesRequirement",6], [3,"onPodConditions","PodFailurePolicyOnPodConditionsPattern",3]],
  "SuccessPolicy": [[1,"rules","SuccessPolicyRule",1]],
  "SuccessPolicyRule": [[1,"succeededIndexes","string",6], [2,"succeededCount","int32",6]],
  "UncountedTerminatedPods": [[1,"succeeded","string",3], [2,"failed","string",3]],
};
