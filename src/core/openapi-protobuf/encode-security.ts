// openapi.v2 security: `securityDefinitions` (each entry one member of the
// SecurityDefinitionsItem oneof, chosen by `type` and, for oauth2, by `flow`)
// and `security` requirements ([{name: [scopes]}]). Kubernetes publishes one
// apiKey definition (BearerToken) and one requirement naming it.
import { ProtoWriter } from './proto-writer.ts';
import {
  API_KEY_SECURITY, BASIC_SECURITY, MAP_ENTRIES, NAMED, OAUTH2_SECURITY, SECURITY_DEFINITIONS_ITEM, STRING_ARRAY_VALUE,
} from './openapi-v2-fields.ts';
import { writeVendorExtensions } from './yaml-any.ts';
import { isRecord, record, sortedEntries, str, type Json } from './swagger-values.ts';

function encodeScopes(scopes: Json): ProtoWriter {
  const w = new ProtoWriter();
  for (const [name, v] of sortedEntries(scopes)) {
    if (typeof v !== 'string') continue;
    const pair = new ProtoWriter();
    pair.string(NAMED.name, name);
    pair.string(NAMED.value, v);
    w.message(MAP_ENTRIES, pair);
  }
  return w;
}

/** Writes the string fields of `numbers` in field order, scopes as a message. */
function encodeFlat(def: Json, numbers: Readonly<Record<string, number>>): ProtoWriter {
  const w = new ProtoWriter();
  for (const [key, field] of Object.entries(numbers).sort((a, b) => a[1] - b[1])) {
    if (key === 'vendorExtension') writeVendorExtensions(w, field, def);
    else if (key === 'scopes') {
      const scopes = record(def, 'scopes');
      if (scopes) w.message(field, encodeScopes(scopes));
    } else w.string(field, str(def, key));
  }
  return w;
}

function encodeSecurityDefinitionsItem(def: Json): ProtoWriter | undefined {
  const w = new ProtoWriter();
  const type = str(def, 'type');
  if (type === 'basic') w.message(SECURITY_DEFINITIONS_ITEM.basic, encodeFlat(def, BASIC_SECURITY));
  else if (type === 'apiKey') w.message(SECURITY_DEFINITIONS_ITEM.apiKey, encodeFlat(def, API_KEY_SECURITY));
  else if (type === 'oauth2') {
    const flow = str(def, 'flow');
    if (flow !== 'implicit' && flow !== 'password' && flow !== 'application' && flow !== 'accessCode') return undefined;
    w.message(SECURITY_DEFINITIONS_ITEM[flow], encodeFlat(def, OAUTH2_SECURITY[flow]));
  } else return undefined;
  return w;
}

export function encodeSecurityDefinitions(defs: Json): ProtoWriter {
  const w = new ProtoWriter();
  for (const [name, def] of sortedEntries(defs)) {
    if (!isRecord(def)) continue;
    const item = encodeSecurityDefinitionsItem(def);
    if (!item) continue;
    const pair = new ProtoWriter();
    pair.string(NAMED.name, name);
    pair.message(NAMED.value, item);
    w.message(MAP_ENTRIES, pair);
  }
  return w;
}

/** `security: [{BearerToken: []}]` as repeated SecurityRequirement at `field`. */
export function writeSecurityRequirements(w: ProtoWriter, field: number, list: unknown): void {
  if (!Array.isArray(list)) return;
  for (const req of list) {
    if (!isRecord(req)) continue;
    const requirement = new ProtoWriter();
    for (const [name, scopes] of sortedEntries(req)) {
      if (!Array.isArray(scopes)) continue;
      const array = new ProtoWriter();
      array.repeatedString(STRING_ARRAY_VALUE, scopes.filter((s): s is string => typeof s === 'string'));
      const pair = new ProtoWriter();
      pair.string(NAMED.name, name);
      pair.message(NAMED.value, array);
      requirement.message(MAP_ENTRIES, pair);
    }
    w.message(field, requirement);
  }
}
