/**
 * The safe expression evaluator for page schemas (visibility, disabled, defaults, linkage).
 * A hand-written parser + tree walker: no eval, no `new Function`, so it runs under a CSP without
 * 'unsafe-eval'. Only scope variables ($record, $values, …) and a few helper functions are
 * reachable; prototype-related names are refused and function values read as undefined, so an
 * expression cannot reach Function, constructors or globals. The language is documented in
 * docs/page-schema.md.
 */

import { formatValue, type DisplayFormat } from './format';

export type Scope = Record<string, unknown>;

type Node =
  | { t: 'lit'; v: unknown }
  | { t: 'id'; name: string }
  | { t: 'member'; obj: Node; prop: Node; computed: boolean; optional: boolean }
  | { t: 'call'; name: string; args: Node[] }
  | { t: 'unary'; op: string; arg: Node }
  | { t: 'bin'; op: string; l: Node; r: Node }
  | { t: 'cond'; test: Node; yes: Node; no: Node }
  | { t: 'arr'; items: Node[] }
  | { t: 'obj'; entries: Array<[string, Node]> };

export class ExprError extends Error {}

const FORBIDDEN = new Set(['constructor', '__proto__', 'prototype', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__']);

const HELPERS: Record<string, (...a: unknown[]) => unknown> = {
  /** includes(listOrString, x); a comma-joined string counts as a list. */
  includes: (c, x) => {
    if (Array.isArray(c)) return c.includes(x);
    if (typeof c === 'string') return c.split(',').includes(String(x));
    return false;
  },
  len: (x) => (Array.isArray(x) || typeof x === 'string' ? x.length : 0),
  isEmpty: (x) => x === undefined || x === null || x === '' || (Array.isArray(x) && x.length === 0),
  String: (x) => (x === undefined || x === null ? '' : String(x)),
  Number: (x) => Number(x),
  startsWith: (s, p) => typeof s === 'string' && typeof p === 'string' && s.startsWith(p),
  // Dashboards (issue 26): figures of an answer in texts and titles.
  /** sum(list, field?): the sum of the numbers (or of a field of each row) of a list. */
  sum: (list, field) => (Array.isArray(list) ? list.reduce<number>((a, r) => a + (Number(typeof field === 'string' && r && typeof r === 'object' ? (r as Record<string, unknown>)[field] : r) || 0), 0) : 0),
  /** join(listOrObject, sep?): a list's items, or an object's `key value` pairs, joined (default ' / ' and '，'). */
  join: (x, sep) =>
    Array.isArray(x) ? x.join(typeof sep === 'string' ? sep : ' / ') : x && typeof x === 'object' ? Object.entries(x).map(([k, v]) => `${k} ${String(v)}`).join(typeof sep === 'string' ? sep : '，') : '',
  /** fmt(value, format, precision?): a value in a display format (shared/format.ts). */
  fmt: (v, format, precision) => formatValue(v, format as DisplayFormat, { precision: typeof precision === 'number' ? precision : undefined }),
  round: (n, d) => {
    const k = 10 ** (typeof d === 'number' ? d : 0);
    return Math.round(Number(n) * k) / k;
  },
};

const BINARY: Record<string, number> = {
  '??': 1, '||': 2, '&&': 3,
  '==': 4, '!=': 4, '===': 4, '!==': 4,
  '<': 5, '>': 5, '<=': 5, '>=': 5,
  '+': 6, '-': 6, '*': 7, '/': 7, '%': 7,
};
const OPERATORS = ['===', '!==', '==', '!=', '<=', '>=', '&&', '||', '??', '?.', '<', '>', '+', '-', '*', '/', '%', '!', '?', ':', '.', ',', '(', ')', '[', ']', '{', '}'];

type Tok = { k: 'num' | 'str' | 'id' | 'op'; v: string };

function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) { i++; continue; }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(src.slice(i))!;
      out.push({ k: 'num', v: m[0] });
      i += m[0].length;
      continue;
    }
    if (c === '"' || c === "'") {
      let s = '';
      i++;
      while (i < src.length && src[i] !== c) {
        if (src[i] === '\\') {
          const n = src[i + 1];
          s += n === 'n' ? '\n' : n === 't' ? '\t' : (n ?? '');
          i += 2;
        } else s += src[i++];
      }
      if (src[i] !== c) throw new ExprError('字符串未结束');
      i++;
      out.push({ k: 'str', v: s });
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(src.slice(i))!;
      out.push({ k: 'id', v: m[0] });
      i += m[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (!op) throw new ExprError(`无法识别的字符 "${c}"`);
    out.push({ k: 'op', v: op });
    i += op.length;
  }
  return out;
}

class Parser {
  private i = 0;
  constructor(private readonly toks: Tok[]) {}
  private peek(): Tok | undefined {
    return this.toks[this.i];
  }
  private isOp(v: string) {
    const t = this.peek();
    return t?.k === 'op' && t.v === v;
  }
  private expect(v: string) {
    if (!this.isOp(v)) throw new ExprError(`缺少 "${v}"`);
    this.i++;
  }
  parseAll(): Node {
    const n = this.expr();
    if (this.i < this.toks.length) throw new ExprError(`多余的内容 "${this.toks[this.i]!.v}"`);
    return n;
  }
  private expr(): Node {
    const test = this.binary(0);
    if (!this.isOp('?')) return test;
    this.i++;
    const yes = this.expr();
    this.expect(':');
    return { t: 'cond', test, yes, no: this.expr() };
  }
  private binary(min: number): Node {
    let l = this.unary();
    for (;;) {
      const t = this.peek();
      const p = t?.k === 'op' ? BINARY[t.v] : undefined;
      if (p === undefined || p <= min) return l;
      this.i++;
      l = { t: 'bin', op: t!.v, l, r: this.binary(p) };
    }
  }
  private unary(): Node {
    const t = this.peek();
    if (t?.k === 'op' && (t.v === '!' || t.v === '-' || t.v === '+')) {
      this.i++;
      return { t: 'unary', op: t.v, arg: this.unary() };
    }
    return this.postfix();
  }
  private postfix(): Node {
    let n = this.primary();
    for (;;) {
      if (this.isOp('.') || this.isOp('?.')) {
        const optional = this.peek()!.v === '?.';
        this.i++;
        const t = this.peek();
        if (t?.k === 'op' && t.v === '[' && optional) {
          this.i++;
          const prop = this.expr();
          this.expect(']');
          n = { t: 'member', obj: n, prop, computed: true, optional };
          continue;
        }
        if (t?.k !== 'id') throw new ExprError('属性名无效');
        this.i++;
        n = { t: 'member', obj: n, prop: { t: 'lit', v: t.v }, computed: false, optional };
      } else if (this.isOp('[')) {
        this.i++;
        const prop = this.expr();
        this.expect(']');
        n = { t: 'member', obj: n, prop, computed: true, optional: false };
      } else if (this.isOp('(')) {
        if (n.t !== 'id' || !Object.hasOwn(HELPERS, n.name)) throw new ExprError('只能调用内置函数');
        this.i++;
        const args: Node[] = [];
        while (!this.isOp(')')) {
          args.push(this.expr());
          if (!this.isOp(')')) this.expect(',');
        }
        this.i++;
        n = { t: 'call', name: n.name, args };
      } else return n;
    }
  }
  private primary(): Node {
    const t = this.peek();
    if (!t) throw new ExprError('表达式不完整');
    this.i++;
    if (t.k === 'num') return { t: 'lit', v: Number(t.v) };
    if (t.k === 'str') return { t: 'lit', v: t.v };
    if (t.k === 'id') {
      if (t.v === 'true') return { t: 'lit', v: true };
      if (t.v === 'false') return { t: 'lit', v: false };
      if (t.v === 'null') return { t: 'lit', v: null };
      if (t.v === 'undefined') return { t: 'lit', v: undefined };
      return { t: 'id', name: t.v };
    }
    if (t.v === '(') {
      const n = this.expr();
      this.expect(')');
      return n;
    }
    if (t.v === '[') {
      const items: Node[] = [];
      while (!this.isOp(']')) {
        items.push(this.expr());
        if (!this.isOp(']')) this.expect(',');
      }
      this.i++;
      return { t: 'arr', items };
    }
    if (t.v === '{') {
      const entries: Array<[string, Node]> = [];
      while (!this.isOp('}')) {
        const k = this.peek();
        if (!k || (k.k !== 'id' && k.k !== 'str')) throw new ExprError('对象键无效');
        if (FORBIDDEN.has(k.v)) throw new ExprError(`不允许的属性 "${k.v}"`);
        this.i++;
        this.expect(':');
        entries.push([k.v, this.expr()]);
        if (!this.isOp('}')) this.expect(',');
      }
      this.i++;
      return { t: 'obj', entries };
    }
    throw new ExprError(`意外的符号 "${t.v}"`);
  }
}

const cache = new Map<string, Node>();

/** Parses an expression (without the {{ }} braces); parse trees are cached by source. */
export function parse(src: string): Node {
  let n = cache.get(src);
  if (!n) {
    n = new Parser(tokenize(src)).parseAll();
    if (cache.size > 2000) cache.clear();
    cache.set(src, n);
  }
  return n;
}

function read(obj: unknown, key: unknown): unknown {
  if (obj === null || obj === undefined) return undefined;
  const k = typeof key === 'number' ? key : String(key);
  if (typeof k === 'string' && FORBIDDEN.has(k)) throw new ExprError(`不允许访问属性 "${k}"`);
  if (typeof obj !== 'object' && typeof obj !== 'string') return undefined;
  const v = (obj as Record<string | number, unknown>)[k];
  return typeof v === 'function' ? undefined : v;
}

function run(n: Node, scope: Scope): unknown {
  switch (n.t) {
    case 'lit':
      return n.v;
    case 'id':
      if (FORBIDDEN.has(n.name)) throw new ExprError(`不允许访问 "${n.name}"`);
      return Object.hasOwn(scope, n.name) ? read(scope, n.name) : undefined;
    case 'member': {
      const o = run(n.obj, scope);
      if ((o === null || o === undefined) && n.optional) return undefined;
      return read(o, run(n.prop, scope));
    }
    case 'call':
      return HELPERS[n.name]!(...n.args.map((a) => run(a, scope)));
    case 'unary': {
      const v = run(n.arg, scope);
      return n.op === '!' ? !v : n.op === '-' ? -(v as number) : +(v as number);
    }
    case 'cond':
      return run(n.test, scope) ? run(n.yes, scope) : run(n.no, scope);
    case 'arr':
      return n.items.map((i) => run(i, scope));
    case 'obj': {
      const o: Record<string, unknown> = {};
      for (const [k, v] of n.entries) o[k] = run(v, scope);
      return o;
    }
    case 'bin': {
      if (n.op === '&&') return run(n.l, scope) && run(n.r, scope);
      if (n.op === '||') return run(n.l, scope) || run(n.r, scope);
      if (n.op === '??') return run(n.l, scope) ?? run(n.r, scope);
      const l = run(n.l, scope) as never;
      const r = run(n.r, scope) as never;
      switch (n.op) {
        case '==': return l == r;
        case '!=': return l != r;
        case '===': return l === r;
        case '!==': return l !== r;
        case '<': return l < r;
        case '>': return l > r;
        case '<=': return l <= r;
        case '>=': return l >= r;
        case '+': return (l as number) + (r as number);
        case '-': return l - r;
        case '*': return l * r;
        case '/': return l / r;
        case '%': return l % r;
      }
    }
  }
  throw new ExprError('无法计算');
}

/** Evaluates an expression source (braces optional) over a scope. Throws ExprError on bad input. */
export function evaluate(src: string, scope: Scope): unknown {
  return run(parse(stripBraces(src)), scope);
}

const WRAPPED = /^\s*\{\{([\s\S]*)\}\}\s*$/;

export function stripBraces(src: string): string {
  const m = WRAPPED.exec(src);
  return m ? m[1]! : src;
}

export function isExpression(v: unknown): v is string {
  return typeof v === 'string' && WRAPPED.test(v);
}

/**
 * A schema value that may be an expression: `{{ … }}` strings are evaluated, anything else is
 * returned as is. A bad expression yields `fallback` (and a console warning) instead of a crash.
 */
export function resolveValue<T>(v: unknown, scope: Scope, fallback: T): T | unknown {
  if (!isExpression(v)) return v === undefined ? fallback : v;
  try {
    return evaluate(v, scope);
  } catch (err) {
    console.warn('页面配置表达式有误', v, (err as Error).message);
    return fallback;
  }
}

/** Truthiness of an optional condition: absent means true. */
export function condition(v: unknown, scope: Scope): boolean {
  if (v === undefined || v === null) return true;
  return !!resolveValue(v, scope, false);
}
