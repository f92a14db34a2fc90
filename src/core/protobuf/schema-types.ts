// Shape of the generated wire-structure tables in ./schema/.

/**
 * Field flags, taken from the Go struct behind each message: Go's JSON encoder
 * (what kube-apiserver speaks) drops a zero scalar only when the field is tagged
 * omitempty and is not a pointer, so both facts travel with the field.
 */
export const FLAG = {
  /** `repeated` on the wire, a JSON array. */
  repeated: 1,
  /** json tag has omitempty. */
  omitempty: 2,
  /** Go field is a pointer: present on the wire means present in JSON, even when zero. */
  pointer: 4,
  /** json:",inline": the sub-message's fields sit in the parent JSON object. */
  inline: 8,
  /** No Go struct known (wrapper types): keep exactly what is on the wire. */
  noGo: 16,
} as const;

/**
 * [number, jsonName, type, flags]. type is a scalar ("string", "int32", "int64",
 * "uint32", "uint64", "bool", "double", "float", "bytes"), "map<K,V>", or a message
 * name: bare for the same proto package, fully qualified otherwise.
 */
export type FieldTuple = readonly [number, string, string, number];

export type MessageTable = Readonly<Record<string, readonly FieldTuple[]>>;
