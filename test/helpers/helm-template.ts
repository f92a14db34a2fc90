// Renders deploy/helm/warren as `helm template` would, for the subset of Go templates the
// chart is kept to: `{{ .Values.a.b }}` (or `$.Values...`, `.field` and `.` inside a
// range), `if`/`else`/`end`, `range`/`end`, and the `{{-`/`-}}` whitespace trims. Helm
// cannot be installed where Warren is tested; anything outside the subset throws, so
// the chart cannot drift into constructs this renderer would get wrong.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

type Value = unknown;
type Node =
  | { kind: 'text'; text: string }
  | { kind: 'value'; path: string }
  | { kind: 'if'; path: string; then: Node[]; else: Node[] }
  | { kind: 'range'; path: string; body: Node[] };

const ACTION = /\{\{(-\s+|\s*)(.*?)(\s+-|\s*)\}\}/gs;

function tokenize(source: string): (string | { action: string })[] {
  const out: (string | { action: string })[] = [];
  let last = 0;
  for (const m of source.matchAll(ACTION)) {
    let text = source.slice(last, m.index);
    if (m[1]!.startsWith('-')) text = text.replace(/\s+$/, '');
    out.push(text, { action: m[2]! });
    last = m.index! + m[0].length;
    if (m[3]!.endsWith('-')) {
      const rest = source.slice(last);
      last += rest.length - rest.replace(/^\s+/, '').length;
    }
  }
  out.push(source.slice(last));
  return out;
}

const PATH = /^(\$?\.[A-Za-z0-9_.]*|\$)$/;

function parseNodes(tokens: (string | { action: string })[], at: { i: number }, file: string): { nodes: Node[]; end: string | undefined } {
  const nodes: Node[] = [];
  while (at.i < tokens.length) {
    const token = tokens[at.i++]!;
    if (typeof token === 'string') {
      if (token) nodes.push({ kind: 'text', text: token });
      continue;
    }
    const [word, ...rest] = token.action.split(/\s+/);
    const arg = rest.join(' ');
    if (word === 'end' || word === 'else') return { nodes, end: word };
    if ((word === 'if' || word === 'range') && PATH.test(arg)) {
      const body = parseNodes(tokens, at, file);
      if (word === 'range') {
        if (body.end !== 'end') throw new Error(`${file}: range ${arg} without its end`);
        nodes.push({ kind: 'range', path: arg, body: body.nodes });
        continue;
      }
      let otherwise: Node[] = [];
      if (body.end === 'else') {
        const tail = parseNodes(tokens, at, file);
        if (tail.end !== 'end') throw new Error(`${file}: if ${arg} without its end`);
        otherwise = tail.nodes;
      } else if (body.end !== 'end') throw new Error(`${file}: if ${arg} without its end`);
      nodes.push({ kind: 'if', path: arg, then: body.nodes, else: otherwise });
      continue;
    }
    if (PATH.test(token.action)) {
      nodes.push({ kind: 'value', path: token.action });
      continue;
    }
    throw new Error(`${file}: {{ ${token.action} }} is outside the chart's template subset (values, if, range)`);
  }
  return { nodes, end: undefined };
}

function lookup(path: string, dot: Value, root: Value, file: string): Value {
  const [base, rest] = path.startsWith('$') ? [root, path.slice(1)] : [dot, path];
  let value = base;
  for (const key of rest.split('.').filter((k) => k !== '')) {
    if (value === null || typeof value !== 'object' || !(key in value)) throw new Error(`${file}: ${path} has no value`);
    value = (value as Record<string, Value>)[key];
  }
  return value;
}

// Go templates' truth: false, 0, nil and empty strings, lists and maps are false.
function truthy(value: Value): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value && typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}

function evaluate(nodes: Node[], dot: Value, root: Value, file: string): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text') out += node.text;
    else if (node.kind === 'value') {
      const value = lookup(node.path, dot, root, file);
      if (value !== null && typeof value === 'object') throw new Error(`${file}: ${node.path} is not a scalar`);
      out += String(value);
    } else if (node.kind === 'if') {
      out += evaluate(truthy(lookup(node.path, dot, root, file)) ? node.then : node.else, dot, root, file);
    } else {
      const list = lookup(node.path, dot, root, file) ?? [];
      if (!Array.isArray(list)) throw new Error(`${file}: range ${node.path} is not a list`);
      for (const item of list) out += evaluate(node.body, item, root, file);
    }
  }
  return out;
}

/** Helm's merge of user values over the chart's: maps merge key by key, anything else replaces. */
function merge(base: Value, over: Value): Value {
  if (!base || typeof base !== 'object' || Array.isArray(base) || !over || typeof over !== 'object' || Array.isArray(over)) return over;
  const out: Record<string, Value> = { ...(base as Record<string, Value>) };
  for (const [k, v] of Object.entries(over)) out[k] = k in out ? merge(out[k], v) : v;
  return out;
}

export function renderTemplate(source: string, values: Value, file = 'template'): string {
  const parsed = parseNodes(tokenize(source), { i: 0 }, file);
  if (parsed.end) throw new Error(`${file}: {{ ${parsed.end} }} without its if or range`);
  const root = { Values: values };
  return evaluate(parsed.nodes, root, root, file);
}

/** The chart's manifests (crds/ as they are, then templates/ rendered), file by file, as `helm template` orders files by name. */
export function renderChart(chartDir: string, overrides: Record<string, unknown> = {}): { file: string; text: string }[] {
  const values = merge(parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8')), overrides);
  const yamls = (dir: string): string[] => readdirSync(join(chartDir, dir)).filter((f) => f.endsWith('.yaml')).sort();
  return [
    ...yamls('crds').map((f) => ({ file: `crds/${f}`, text: readFileSync(join(chartDir, 'crds', f), 'utf8') })),
    ...yamls('templates').map((f) => ({ file: `templates/${f}`, text: renderTemplate(readFileSync(join(chartDir, 'templates', f), 'utf8'), values, `templates/${f}`) })),
  ];
}
