// Strict decoding for the provisioning API: every field a portal sends must be
// one the Tenant schema knows. kube-apiserver's fieldValidation=Strict refuses
// unknown fields with 400 "strict decoding error: unknown field ..."; an
// upstream older than 1.25 would silently drop them, so the portal checks
// itself, from the CRD's own openAPIV3Schema (crds/ is the one source). Pure.
type Schema = Record<string, unknown>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Paths (as kube prints them: spec.users[0].bogus) of fields the schema does not define. */
export function unknownFields(schema: Schema, value: unknown, path = ''): string[] {
  if (schema['x-kubernetes-preserve-unknown-fields'] === true) return [];
  if (Array.isArray(value)) {
    const items = schema.items;
    return isObject(items) ? value.flatMap((v, i) => unknownFields(items, v, `${path}[${i}]`)) : [];
  }
  if (!isObject(value)) return [];
  const properties = isObject(schema.properties) ? schema.properties : undefined;
  const additional = schema.additionalProperties;
  const out: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    const where = path ? `${path}.${key}` : key;
    const known = properties?.[key];
    if (isObject(known)) out.push(...unknownFields(known, child, where));
    else if (isObject(additional)) out.push(...unknownFields(additional, child, where));
    else if (additional !== true) out.push(where);
  }
  return out;
}
