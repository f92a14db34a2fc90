// Label selectors: the string syntax of `?labelSelector=` (k8s.io/apimachinery/pkg/labels)
// and the `spec.selector` struct form. Parsing follows kube's lexer and parser
// closely so that the same inputs are accepted or refused, with the same messages.
import { badRequest } from '../api-error.ts';
import { invalidValue, labelValueErrors, qualifiedNameErrors } from './label-syntax.ts';

/** kube's selection.Operator strings: '!' is DoesNotExist, 'exists' is Exists. */
export type LabelOperator = 'in' | 'notin' | 'exists' | '!' | '=' | '==' | '!=' | 'gt' | 'lt';

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  /** Sorted and unique for in/notin; one value for =, ==, !=, gt, lt; empty for exists and '!'. */
  values: string[];
}

/** The struct form used in spec.selector (metav1.LabelSelector). */
export interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

// The error message kube prints lists the binary operators in this order.
const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

type Tok = 'end' | ')' | ',' | '!' | '==' | '=' | '>' | 'id' | 'in' | '<' | '!=' | 'notin' | '(' | 'error';
interface Item { tok: Tok; lit: string }

const SYMBOL_TOKENS: Record<string, Tok> = { ')': ')', ',': ',', '!': '!', '==': '==', '=': '=', '>': '>', '<': '<', '!=': '!=', '(': '(' };
const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isSymbol = (c: string): boolean => '=!(),><'.includes(c);

function lex(s: string): Item[] {
  const items: Item[] = [];
  let i = 0;
  while (true) {
    while (i < s.length && isSpace(s[i] ?? '')) i++;
    if (i >= s.length) { items.push({ tok: 'end', lit: '' }); return items; }
    const c = s[i] ?? '';
    if (isSymbol(c)) {
      // Longest run of symbol characters that still forms a known token ("!=" beats "!").
      let buf = '';
      let last: Item | undefined;
      while (i < s.length && isSymbol(s[i] ?? '')) {
        buf += s[i];
        const tok = SYMBOL_TOKENS[buf];
        if (tok) { last = { tok, lit: buf }; i++; } else if (last) break; else i++;
      }
      items.push(last ?? { tok: 'error', lit: `error expected: keyword found '${buf}'` });
    } else {
      let buf = '';
      while (i < s.length && !isSymbol(s[i] ?? '') && !isSpace(s[i] ?? '')) buf += s[i++];
      items.push({ tok: buf === 'in' ? 'in' : buf === 'notin' ? 'notin' : 'id', lit: buf });
    }
  }
}

class Parser {
  private pos = 0;
  constructor(private readonly items: Item[]) {}

  // In value position the keywords 'in' and 'notin' are plain identifiers ("x in (in)").
  peek(values = true): Item { return this.asValue(this.items[this.pos] ?? { tok: 'end', lit: '' }, values); }
  next(values = true): Item { const it = this.peek(values); this.pos++; return it; }
  private asValue(it: Item, values: boolean): Item { return values && (it.tok === 'in' || it.tok === 'notin') ? { tok: 'id', lit: it.lit } : it; }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    while (true) {
      const { tok, lit } = this.peek();
      if (tok === 'end') return reqs;
      if (tok !== 'id' && tok !== '!') throw new Error(`found '${lit}', expected: !, identifier, or 'end of string'`);
      try {
        reqs.push(this.requirement());
      } catch (err) {
        throw new Error(`unable to parse requirement: ${(err as Error).message}`);
      }
      const after = this.next();
      if (after.tok === 'end') return reqs;
      if (after.tok !== ',') throw new Error(`found '${after.lit}', expected: ',' or 'end of string'`);
      const following = this.peek();
      if (following.tok !== 'id' && following.tok !== '!') throw new Error(`found '${following.lit}', expected: identifier after ','`);
    }
  }

  private requirement(): LabelRequirement {
    let negated = false;
    let it = this.next();
    if (it.tok === '!') { negated = true; it = this.next(); }
    if (it.tok !== 'id') throw new Error(`found '${it.lit}', expected: identifier`);
    const key = it.lit;
    const keyErrs = qualifiedNameErrors(key);
    if (keyErrs.length > 0) throw new Error(invalidValue('<nil>', key, keyErrs.join('; ')));
    // "!key" takes no operator: whatever follows is refused by the caller ("expected: ',' or 'end of string'").
    if (negated) return newRequirement(key, '!', []);
    const ahead = this.peek().tok;
    if (ahead === 'end' || ahead === ',') return newRequirement(key, 'exists', []);
    const op = this.operator();
    const values = op === 'in' || op === 'notin' ? this.setValues() : [this.exactValue()];
    return newRequirement(key, op, values);
  }

  private operator(): LabelOperator {
    const { tok, lit } = this.next(false);
    switch (tok) {
      case 'in': return 'in';
      case 'notin': return 'notin';
      case '=': return '=';
      case '==': return '==';
      case '!=': return '!=';
      case '>': return 'gt';
      case '<': return 'lt';
      default: throw new Error(`found '${lit}', expected: ${BINARY_OPERATORS}`);
    }
  }

  private setValues(): string[] {
    const open = this.next();
    if (open.tok !== '(') throw new Error(`found '${open.lit}' expected: '('`);
    const first = this.peek();
    if (first.tok === ')') { this.next(); return ['']; }
    if (first.tok !== 'id' && first.tok !== ',') throw new Error(`found '${first.lit}', expected: ',', ')' or identifier`);
    const values = new Set<string>();
    // Empty entries ("(a,,b)", "(,a)", "(a,)") stand for the empty value, as in kube.
    while (true) {
      const it = this.next();
      if (it.tok === 'id') {
        values.add(it.lit);
        const ahead = this.peek();
        if (ahead.tok === ',') continue;
        if (ahead.tok === ')') break;
        throw new Error(`found '${ahead.lit}', expected: ',' or ')'`);
      } else if (it.tok === ',') {
        if (values.size === 0) values.add('');
        const ahead = this.peek().tok;
        if (ahead === ')') { values.add(''); break; }
        if (ahead === ',') values.add('');
      } else {
        throw new Error(`found '${it.lit}', expected: ',', or identifier`);
      }
    }
    const close = this.next();
    if (close.tok !== ')') throw new Error(`found '${first.lit}', expected: ')'`);
    return [...values];
  }

  private exactValue(): string {
    const ahead = this.peek().tok;
    if (ahead === 'end' || ahead === ',') return '';
    const it = this.next();
    if (it.tok === 'id') return it.lit;
    throw new Error(`found '${it.lit}', expected: identifier`);
  }
}

/** kube's NewRequirement: validates and normalises (values sorted and unique). Throws a plain Error with kube's text. */
function newRequirement(key: string, operator: LabelOperator, values: string[], path?: string): LabelRequirement {
  const errs: string[] = [];
  const keyErrs = qualifiedNameErrors(key);
  const base = path ? `${path}.` : '';
  if (keyErrs.length > 0) errs.push(invalidValue(`${base}key`, key, keyErrs.join('; ')));
  const shown = `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
  if ((operator === 'in' || operator === 'notin') && values.length === 0) {
    errs.push(`${base}values: Invalid value: ${shown}: for 'in', 'notin' operators, values set can't be empty`);
  } else if ((operator === '=' || operator === '==' || operator === '!=') && values.length !== 1) {
    errs.push(`${base}values: Invalid value: ${shown}: exact-match compatibility requires one single value`);
  } else if ((operator === 'exists' || operator === '!') && values.length !== 0) {
    errs.push(`${base}values: Invalid value: ${shown}: values set must be empty for exists and does not exist`);
  } else if (operator === 'gt' || operator === 'lt') {
    if (values.length !== 1) errs.push(`${base}values: Invalid value: ${shown}: for 'Gt', 'Lt' operators, exactly one value is required`);
    values.forEach((v, i) => {
      if (!/^[+-]?\d+$/.test(v)) errs.push(invalidValue(`${base}values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
    });
  }
  values.forEach((v, i) => {
    const vErrs = labelValueErrors(v);
    if (vErrs.length > 0) errs.push(invalidValue(`${base}values[${i}][${key}]`, v, vErrs.join('; ')));
  });
  if (errs.length === 1) throw new Error(errs[0]);
  if (errs.length > 1) throw new Error(`[${errs.join(', ')}]`);
  return { key, operator, values: [...new Set(values)].sort(compareStrings) };
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byKey(reqs: LabelRequirement[]): LabelRequirement[] {
  // Array.prototype.sort is stable, as kube's sort.Sort on ByKey is not guaranteed to be; equal keys keep input order.
  return reqs.sort((a, b) => compareStrings(a.key, b.key));
}

/** Parses `?labelSelector=`; '' selects everything. Throws BadRequest with kube's message. Requirements come back sorted by key. */
export function parseLabelSelector(text: string): LabelRequirement[] {
  try {
    return byKey(new Parser(lex(text)).parse());
  } catch (err) {
    throw badRequest((err as Error).message);
  }
}

function formatRequirement(r: LabelRequirement): string {
  switch (r.operator) {
    case 'exists': return r.key;
    case '!': return `!${r.key}`;
    case 'in': case 'notin': return `${r.key} ${r.operator} (${[...r.values].sort(compareStrings).join(',')})`;
    case 'gt': return `${r.key}>${r.values[0] ?? ''}`;
    case 'lt': return `${r.key}<${r.values[0] ?? ''}`;
    default: return `${r.key}${r.operator}${r.values[0] ?? ''}`;
  }
}

/** The canonical string form, as kube's Selector.String(): requirements joined by ','. */
export function formatLabelSelector(reqs: readonly LabelRequirement[]): string {
  return reqs.map(formatRequirement).join(',');
}

function matchesOne(r: LabelRequirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const value = has ? labels[r.key] : undefined;
  switch (r.operator) {
    case 'in': case '=': case '==': return has && r.values.includes(value ?? '');
    case 'notin': case '!=': return !has || !r.values.includes(value ?? '');
    case 'exists': return has;
    case '!': return !has;
    case 'gt': case 'lt': {
      if (!has || !/^[+-]?\d+$/.test(value ?? '') || r.values.length !== 1) return false;
      const left = BigInt(value ?? '0');
      const right = BigInt(r.values[0] ?? '0');
      return r.operator === 'gt' ? left > right : left < right;
    }
  }
}

/** True when every requirement holds (an empty list matches everything). */
export function matchesLabels(reqs: readonly LabelRequirement[], labels: Readonly<Record<string, string>> | undefined): boolean {
  const set = labels ?? {};
  return reqs.every((r) => matchesOne(r, set));
}

const STRUCT_OPERATORS: Record<string, LabelOperator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/**
 * metav1.LabelSelectorAsSelector. Returns null for a null/undefined selector, which selects nothing
 * (an empty object selects everything). Throws BadRequest on an unknown operator or invalid key/values.
 */
export function fromLabelSelectorObject(selector: LabelSelectorObject | null | undefined): LabelRequirement[] | null {
  if (selector === null || selector === undefined) return null;
  const reqs: LabelRequirement[] = [];
  try {
    for (const [key, value] of Object.entries(selector.matchLabels ?? {})) reqs.push(newRequirement(key, '=', [value]));
    for (const expr of selector.matchExpressions ?? []) {
      const op = STRUCT_OPERATORS[expr.operator];
      if (!op) throw new Error(`${JSON.stringify(expr.operator)} is not a valid label selector operator`);
      reqs.push(newRequirement(expr.key, op, [...(expr.values ?? [])]));
    }
  } catch (err) {
    throw badRequest((err as Error).message);
  }
  return byKey(reqs);
}
