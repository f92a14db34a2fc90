// openapi.v2.Any as kube-apiserver fills it: gnostic parses the swagger JSON
// into YAML nodes and stores every free-form value (vendor extensions,
// default, example, enum members) as the YAML text of that node, leaving the
// google.protobuf.Any empty. Readers (kube-openapi's proto models, kubectl)
// yaml.Unmarshal that text, so any YAML that parses back to the same value is
// correct; we still mimic Go's output where it is cheap: map keys sorted (Go's
// json.Marshal sorts maps), no line folding, and no block scalars, whose
// top-level form some YAML parsers read differently.
import { stringify } from 'yaml';
import { ProtoWriter } from './proto-writer.ts';
import { ANY, NAMED } from './openapi-v2-fields.ts';

const OPTIONS = { lineWidth: 0, sortMapEntries: true, blockQuote: false } as const;

// Documents repeat the same few values thousands of times ("merge", "atomic",
// true, the same GVK); stringify is the slow part, so memoize by JSON text.
const MAX_CACHE = 20_000;
const cache = new Map<string, string>();

export function yamlOf(value: unknown): string {
  const key = JSON.stringify(value) ?? 'null';
  let text = cache.get(key);
  if (text === undefined) {
    text = stringify(value ?? null, OPTIONS);
    if (cache.size >= MAX_CACHE) cache.clear();
    cache.set(key, text);
  }
  return text;
}

/** An openapi.v2.Any message holding `value` as YAML. */
export function anyMessage(value: unknown): ProtoWriter {
  const w = new ProtoWriter();
  w.string(ANY.yaml, yamlOf(value));
  return w;
}

export function isVendorExtension(key: string): boolean {
  return key.startsWith('x-');
}

/**
 * Writes every `x-` key of `obj` as a repeated NamedAny at `field`, names
 * sorted (kube's JSON has them sorted, and gnostic keeps document order).
 */
export function writeVendorExtensions(w: ProtoWriter, field: number, obj: Record<string, unknown>): void {
  const names = Object.keys(obj).filter(isVendorExtension).sort();
  for (const name of names) {
    const pair = new ProtoWriter();
    pair.string(NAMED.name, name);
    pair.message(NAMED.value, anyMessage(obj[name]));
    w.message(field, pair);
  }
}
