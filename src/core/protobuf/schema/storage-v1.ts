// Generated data: wire structure of k8s.io.api.storage.v1. Do not edit by hand.
// Derived from k8s.io/api/storage/v1/generated.proto (repo kubernetes/api, tag v0.33.1)
// as compiled into kubectl v1.33.1: its embedded FileDescriptorProto gives field numbers and
// wire types, and the Go struct tags of the same binary give the JSON name, omitempty and
// pointer-ness. Field tuple: [number, jsonName, type, flags]; see ../schema-types.ts.
import type { MessageTable } from '../schema-types.ts';

export const storageV1: MessageTable = {
  "CSIDriver": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","CSIDriverSpec",0]],
  "CSIDriverList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","CSIDriver",1]],
  "CSIDriverSpec": [[1,"attachRequired","bool",6], [2,"podInfoOnMount","bool",6], [3,"volumeLifecycleModes","string",3], [4,"storageCapacity","bool",6], [5,"fsGroupPolicy","string",6], [6,"tokenRequests","TokenRequest",3], [7,"requiresRepublish","bool",6], [8,"seLinuxMount","bool",6], [9,"nodeAllocatableUpdatePeriodSeconds","int64",6]],
  "CSINode": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","CSINodeSpec",0]],
  "CSINodeDriver": [[1,"name","string",0], [2,"nodeID","string",0], [3,"topologyKeys","string",1], [4,"allocatable","VolumeNodeResources",6]],
  "CSINodeList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","CSINode",1]],
  "CSINodeSpec": [[1,"drivers","CSINodeDriver",1]],
  "CSIStorageCapacity": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"nodeTopology","k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector",6], [3,"storageClassName","string",0], [4,"capacity","k8s.io.apimachinery.pkg.api.resource.Quantity",6], [5,"maximumVolumeSize","k8s.io.apimachinery.pkg.api.resource.Quantity",6]],
  "CSIStorageCapacityList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","CSIStorageCapacity",1]],
  "StorageClass": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"provisioner","string",0], [3,"parameters","map<string,string>",2], [4,"reclaimPolicy","string",6], [5,"mountOptions","string",3], [6,"allowVolumeExpansion","bool",6], [7,"volumeBindingMode","string",6], [8,"allowedTopologies","k8s.io.api.core.v1.TopologySelectorTerm",3]],
  "StorageClassList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","StorageClass",1]],
  "TokenRequest": [[1,"audience","string",0], [2,"expirationSeconds","int64",6]],
  "VolumeAttachment": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta",2], [2,"spec","VolumeAttachmentSpec",0], [3,"status","VolumeAttachmentStatus",2]],
  "VolumeAttachmentList": [[1,"metadata","k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",2], [2,"items","VolumeAttachment",1]],
  "VolumeAttachmentSource": [[1,"persistentVolumeName","string",6], [2,"inlineVolumeSpec","k8s.io.api.core.v1.PersistentVolumeSpec",6]],
  "VolumeAttachmentSpec": [[1,"attacher","string",0], [2,"source","VolumeAttachmentSource",0], [3,"nodeName","string",0]],
  "VolumeAttachmentStatus": [[1,"attached","bool",0], [2,"attachmentMetadata","map<string,string>",2], [3,"attachError","VolumeError",6], [4,"detachError","VolumeError",6]],
  "VolumeError": [[1,"time","k8s.io.apimachinery.pkg.apis.meta.v1.Time",2], [2,"message","string",2], [3,"errorCode","int32",6]],
  "VolumeNodeResources": [[1,"count","int32",6]],
};
