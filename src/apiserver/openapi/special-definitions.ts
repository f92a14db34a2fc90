// Definitions kube-apiserver publishes for apimachinery types that have a
// custom JSON form (so the client generator turned them into plain strings or
// Date), and the fields that use resource.Quantity, which the generated models
// only show as strings.
import { INTSTR, MICRO_TIME, QUANTITY, RAW_EXTENSION, TIME, META_PKG } from './definition-names.ts';
import type { Schema } from './type-schema.ts';

export const SPECIAL_DEFINITIONS: Record<string, Schema> = {
  [TIME]: {
    description: 'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.  Wrappers are provided for many of the factory methods that the time package offers.',
    type: 'string',
    format: 'date-time',
  },
  [MICRO_TIME]: {
    description: 'MicroTime is version of Time with microsecond level precision.',
    type: 'string',
    format: 'date-time',
  },
  [INTSTR]: {
    description: 'IntOrString is a type that can hold an int32 or a string.  When used in JSON or YAML marshalling and unmarshalling, it produces or consumes the inner type.  This allows you to have, for example, a JSON field that can accept a name or number.',
    type: 'string',
    format: 'int-or-string',
  },
  [QUANTITY]: {
    description: 'Quantity is a fixed-point representation of a number. It provides convenient marshaling/unmarshaling in JSON and YAML, in addition to String() and AsInt64() accessors.\n\nThe serialization format is:\n\n``` <quantity>        ::= <signedNumber><suffix>\n\n\t(Note that <suffix> may be empty, from the "" case in <decimalSI>.)\n\n<digit>           ::= 0 | 1 | ... | 9 <digits>          ::= <digit> | <digit><digits> <number>          ::= <digits> | <digits>.<digits> | <digits>. | .<digits> <sign>            ::= "+" | "-" <signedNumber>    ::= <number> | <sign><number> <suffix>          ::= <binarySI> | <decimalExponent> | <decimalSI> <binarySI>        ::= Ki | Mi | Gi | Ti | Pi | Ei\n\n\t(International System of units; See: http://physics.nist.gov/cuu/Units/binary.html)\n\n<decimalSI>       ::= m | "" | k | M | G | T | P | E\n\n\t(Note that 1024 = 1Ki but 1000 = 1k; I didn\'t choose the capitalization.)\n\n<decimalExponent> ::= "e" <signedNumber> | "E" <signedNumber> ```',
    type: 'string',
  },
  [RAW_EXTENSION]: {
    description: 'RawExtension is used to hold extensions in external versions.',
    type: 'object',
  },
  [`${META_PKG}.FieldsV1`]: {
    description: "FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.\n\nEach key is either a '.' representing the field itself, and will always map to an empty set, or a string representing a sub-field or item. The string will follow one of these four formats: 'f:<name>', where <name> is the name of a field in a struct, or key in a map 'v:<value>', where <value> is the exact json formatted value of a list item 'i:<index>', where <index> is integer index of a list item 'k:<keys>', where <keys> is a map of  a list item's key fields to their unique values If a key maps to an empty Fields value, the field that represents is not a path itself, but a set of subpaths.\n\nThe exact format is defined in sigs.k8s.io/structured-merge-diff",
    type: 'object',
  },
};

const CORE = 'io.k8s.api.core.v1';

/** Fields (by definition) whose value, or map values, are resource.Quantity. */
export const QUANTITY_FIELDS: Record<string, readonly string[]> = {
  [`${CORE}.ResourceRequirements`]: ['limits', 'requests'],
  [`${CORE}.VolumeResourceRequirements`]: ['limits', 'requests'],
  [`${CORE}.PodSpec`]: ['overhead'],
  [`${CORE}.PersistentVolumeSpec`]: ['capacity'],
  [`${CORE}.PersistentVolumeClaimStatus`]: ['capacity', 'allocatedResources'],
  [`${CORE}.NodeStatus`]: ['capacity', 'allocatable'],
  [`${CORE}.LimitRangeItem`]: ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'],
  [`${CORE}.ResourceQuotaSpec`]: ['hard'],
  [`${CORE}.ResourceQuotaStatus`]: ['hard', 'used'],
  [`${CORE}.EmptyDirVolumeSource`]: ['sizeLimit'],
  [`${CORE}.ContainerStatus`]: ['allocatedResources'],
  ['io.k8s.api.storage.v1.CSIStorageCapacity']: ['capacity', 'maximumVolumeSize'],
  ['io.k8s.api.node.v1.Overhead']: ['podFixed'],
  ['io.k8s.api.autoscaling.v2.MetricTarget']: ['averageValue', 'value'],
  ['io.k8s.api.autoscaling.v2.MetricValueStatus']: ['averageValue', 'value'],
};
