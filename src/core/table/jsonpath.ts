// The JSONPath subset CRD additionalPrinterColumns use (client-go jsonpath):
// fields (.a, ['a']), indexes ([0], [-1]), slices ([1:3]), wildcards ([*], .*),
// recursive descent (..a) and filters ([?(@.type=="Ready")], [?(@.x)]).

type Segment =
  | { kind: 'field'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'slice'; start?: number; end?: number }
  | { kind: 'wildcard' }
  | { kind: 'recursive'; name: string }
  | { kind: 'filter'; path: Segment[]; op?: string; literal?: unknown };

export class JsonPathError extends Error {}

const NAME = /^[A-Za-z0-9_\-$]+/;

function parseLiteral(text: string): unknown {
  const t = text.trim();
  if (/^(['"]).*\1$/.test(t)) return t.slice(1, -1);
  if (t === 'true' || t === 'false') return t === 'true';
  if (t === 'null') return null;
  const n = Number(t);
  if (t !== '' && !Number.isNaN(n)) return n;
  throw new JsonPathError(`unrecognized literal ${t}`);
}

function parseBracket(body: string): Segment {
  const b = body.trim();
  if (b === '*') return { kind: 'wildcard' };
  if (b.startsWith('?(') && b.endsWith(')')) {
    const expr = b.slice(2, -1).trim();
    const m = /^@((?:\.[A-Za-z0-9_\-$]+|\[[^\]]*\])*)\s*(==|!=|<=|>=|<|>)?\s*(.*)$/.exec(expr);
    if (!m) throw new JsonPathError(`unsupported filter ${expr}`);
    const path = parsePath(m[1] ?? '');
    return m[2] ? { kind: 'filter', path, op: m[2], literal: parseLiteral(m[3] ?? '') } : { kind: 'filter', path };
  }
  if (/^(['"]).*\1$/.test(b)) return { kind: 'field', name: b.slice(1, -1) };
  if (b.includes(':')) {
    const [s, e] = b.split(':');
    const slice: Segment = { kind: 'slice' };
    if (s?.trim()) slice.start = Number(s);
    if (e?.trim()) slice.end = Number(e);
    return slice;
  }
  if (/^-?[0-9]+$/.test(b)) return { kind: 'index', index: Number(b) };
  throw new JsonPathError(`unsupported subscript [${b}]`);
}

/** Parses ".spec.replicas" (optionally wrapped as "{...}" or starting with "$"). */
export function parsePath(path: string): Segment[] {
  let p = path.trim();
  if (p.startsWith('{') && p.endsWith('}')) p = p.slice(1, -1).trim();
  if (p.startsWith('$')) p = p.slice(1);
  const out: Segment[] = [];
  let i = 0;
  while (i < p.length) {
    const rest = p.slice(i);
    if (rest.startsWith('..')) {
      const m = NAME.exec(rest.slice(2));
      if (!m) throw new JsonPathError(`bad recursive descent at ${rest}`);
      out.push({ kind: 'recursive', name: m[0] });
      i += 2 + m[0].length;
    } else if (rest.startsWith('.*')) {
      out.push({ kind: 'wildcard' });
      i += 2;
    } else if (rest.startsWith('.')) {
      const m = NAME.exec(rest.slice(1));
      if (!m) {
        if (rest === '.') { i += 1; continue; }
        throw new JsonPathError(`bad field at ${rest}`);
      }
      out.push({ kind: 'field', name: m[0] });
      i += 1 + m[0].length;
    } else if (rest.startsWith('[')) {
      // Filters may hold brackets and quoted "]": find the matching close outside quotes.
      let depth = 0;
      let quote = '';
      let j = 0;
      for (; j < rest.length; j++) {
        const ch = rest[j] as string;
        if (quote) { if (ch === quote) quote = ''; continue; }
        if (ch === '"' || ch === "'") quote = ch;
        else if (ch === '[') depth++;
        else if (ch === ']' && --depth === 0) break;
      }
      if (j >= rest.length) throw new JsonPathError(`unclosed [ at ${rest}`);
      out.push(parseBracket(rest.slice(1, j)));
      i += j + 1;
    } else {
      throw new JsonPathError(`unexpected ${rest}`);
    }
  }
  return out;
}

function children(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (v && typeof v === 'object') return Object.values(v as Record<string, unknown>);
  return [];
}

function compare(a: unknown, op: string, b: unknown): boolean {
  switch (op) {
    case '==': return a === b;
    case '!=': return a !== b;
    case '<': return typeof a === 'number' && typeof b === 'number' && a < b;
    case '>': return typeof a === 'number' && typeof b === 'number' && a > b;
    case '<=': return typeof a === 'number' && typeof b === 'number' && a <= b;
    case '>=': return typeof a === 'number' && typeof b === 'number' && a >= b;
    default: return false;
  }
}

function step(values: unknown[], seg: Segment): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    switch (seg.kind) {
      case 'field':
        if (v && typeof v === 'object' && !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, seg.name)) out.push((v as Record<string, unknown>)[seg.name]);
        break;
      case 'index':
        if (Array.isArray(v)) {
          const i = seg.index < 0 ? v.length + seg.index : seg.index;
          if (i >= 0 && i < v.length) out.push(v[i]);
        }
        break;
      case 'slice':
        if (Array.isArray(v)) out.push(...v.slice(seg.start, seg.end));
        break;
      case 'wildcard':
        out.push(...children(v));
        break;
      case 'recursive': {
        const stack = [v];
        while (stack.length > 0) {
          const cur = stack.shift();
          if (cur && typeof cur === 'object' && !Array.isArray(cur) && Object.prototype.hasOwnProperty.call(cur, seg.name)) out.push((cur as Record<string, unknown>)[seg.name]);
          stack.push(...children(cur));
        }
        break;
      }
      case 'filter':
        for (const item of children(v)) {
          const found = evaluate(seg.path, item);
          if (seg.op === undefined ? found.length > 0 : found.some((f) => compare(f, seg.op as string, seg.literal))) out.push(item);
        }
        break;
    }
  }
  return out;
}

export function evaluate(path: Segment[], root: unknown): unknown[] {
  return path.reduce<unknown[]>((values, seg) => step(values, seg), [root]);
}

/** Every value the path selects from obj, in document order. */
export function jsonPathValues(path: string, obj: unknown): unknown[] {
  return evaluate(parsePath(path), obj);
}
