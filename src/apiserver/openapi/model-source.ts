// Reads the built-in API models that @kubernetes/client-node ships, so our
// OpenAPI follows the installed client's spec instead of a copied file.
// Each model is a pair: Foo.js (static attributeTypeMap: names, types, formats)
// and Foo.d.ts (JSDoc descriptions; properties without `?` are required).
// The API classes (apis/AppsV1Api.js ...) name the models each group serves,
// which is how definitions get their Go package (see definition-names.ts).
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface ModelAttribute {
  name: string; // JSON name (baseName in the generator)
  type: string; // e.g. 'string', 'Array<V1Container>', '{ [key: string]: string; }'
  format: string;
}

export interface ModelProperty extends ModelAttribute {
  description?: string;
  required: boolean;
}

export interface Model {
  className: string;
  description?: string;
  properties: ModelProperty[];
}

let genDir: string | undefined;

function generatedDir(): string {
  if (genDir === undefined) {
    // The package's "exports" hides dist/gen, so locate it from the main entry.
    const main = createRequire(import.meta.url).resolve('@kubernetes/client-node');
    genDir = join(dirname(main), 'gen');
  }
  return genDir;
}

/** Model class names each API class refers to, keyed by API class prefix ("AppsV1"). */
export function readApiModelNames(): Map<string, Set<string>> {
  const dir = join(generatedDir(), 'apis');
  const out = new Map<string, Set<string>>();
  for (const file of readdirSync(dir)) {
    const m = /^([A-Za-z]+?V\d+(?:alpha\d+|beta\d+)?)Api\.js$/.exec(file);
    if (!m?.[1]) continue;
    const text = readFileSync(join(dir, file), 'utf8');
    // Deserialisation calls name the model as a string literal: "V1Deployment".
    const names = new Set<string>();
    for (const hit of text.matchAll(/"((?:[A-Z][a-z]+)*V\d+(?:alpha\d+|beta\d+)?[A-Z][A-Za-z0-9]*)"/g)) {
      if (hit[1]) names.add(hit[1]);
    }
    out.set(m[1], names);
  }
  return out;
}

export function modelExists(className: string): boolean {
  return existsSync(join(generatedDir(), 'models', `${className}.js`));
}

/** Reads and parses one model; undefined when the client has no such file. */
export function readModel(className: string): Model | undefined {
  const base = join(generatedDir(), 'models', className);
  if (!existsSync(`${base}.js`)) return undefined;
  const js = readFileSync(`${base}.js`, 'utf8');
  const dts = existsSync(`${base}.d.ts`) ? readFileSync(`${base}.d.ts`, 'utf8') : '';
  return parseModel(className, js, dts);
}

/** Pure parser over the two generated files; exported for tests. */
export function parseModel(className: string, js: string, dts: string): Model {
  const attributes = parseAttributeTypeMap(js);
  const docs = parseDeclaration(dts);
  const properties = attributes.map((a): ModelProperty => {
    const doc = docs.properties.get(a.name);
    const p: ModelProperty = { ...a, required: doc?.required ?? false };
    if (doc?.description) p.description = doc.description;
    return p;
  });
  const model: Model = { className, properties };
  if (docs.classDescription) model.description = docs.classDescription;
  return model;
}

function parseAttributeTypeMap(js: string): ModelAttribute[] {
  const m = /\.attributeTypeMap = (\[[\s\S]*?\]);/.exec(js);
  if (!m?.[1]) return [];
  // The generator writes this array as strict JSON.
  const raw = JSON.parse(m[1]) as Array<{ baseName: string; type: string; format: string }>;
  return raw.map((r) => ({ name: r.baseName, type: r.type, format: r.format ?? '' }));
}

function cleanDoc(block: string): string {
  return block
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, '').trimEnd())
    .join('\n')
    .trim()
    // The generator escapes quotes inside JSDoc: \"Always\" means "Always".
    .replace(/\\(["'])/g, '$1');
}

function parseDeclaration(dts: string): { classDescription?: string; properties: Map<string, { description?: string; required: boolean }> } {
  const properties = new Map<string, { description?: string; required: boolean }>();
  const classMatch = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*export declare class/.exec(dts);
  const classDescription = classMatch?.[1] ? cleanDoc(classMatch[1]) : undefined;
  const body = dts.slice(dts.indexOf('export declare class'));
  for (const m of body.matchAll(/(?:\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*)?'([^']+)'(\?)?:/g)) {
    const name = m[2];
    if (!name) continue;
    const entry: { description?: string; required: boolean } = { required: m[3] !== '?' };
    if (m[1]) entry.description = cleanDoc(m[1]);
    properties.set(name, entry);
  }
  const out: { classDescription?: string; properties: typeof properties } = { properties };
  if (classDescription) out.classDescription = classDescription;
  return out;
}
