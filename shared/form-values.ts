/**
 * Server-side checks of submitted values against fields: the allow-list of a page form's fields
 * (`FormFieldSchema`), and the value checks the generic CRUD engine's entity fields use too (length,
 * range, pattern with the validation presets). Messages are Chinese and name the field. Pure: the caller
 * passes the dictionary items and a safe regular-expression compiler (the server's RE2).
 */
import { presetOf } from './validation-presets';
import { condition } from './expr';
import type { FormFieldSchema } from './page-schema';

type Row = Record<string, unknown>;
export interface Tester {
  test(s: string): boolean;
}
/** Compiles an author's pattern (the server: RE2, linear time); throws on a bad one. */
export type RegexCompiler = (pattern: string) => Tester;

export const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/** A string's length in characters (not UTF-16 units): `最多N个字符`. */
export function lengthError(label: string, v: string, max?: number, min?: number): string | undefined {
  const len = [...v].length;
  if (max !== undefined && len > max) return `${label}最多${max}个字符`;
  if (min !== undefined && len < min) return `${label}最少${min}个字符`;
  return undefined;
}

export function rangeError(label: string, n: number, min?: number, max?: number): string | undefined {
  if (min !== undefined && n < min) return `${label}不能小于${min}`;
  if (max !== undefined && n > max) return `${label}不能大于${max}`;
  return undefined;
}

/** A pattern: a validation preset code (`m`, `e`, `money`, …) or the author's regular expression (compiled by `compile`). */
export function patternError(label: string, v: string, pattern: string, compile: RegexCompiler, message?: string): string | undefined {
  const preset = presetOf(pattern);
  let re: Tester;
  try {
    re = preset?.pattern ?? compile(pattern);
  } catch {
    return undefined; // a pattern that cannot run is refused when it is saved; it never blocks a value
  }
  return re.test(v) ? undefined : `${label}：${message ?? preset?.message ?? '格式不正确'}`;
}

// ------------------------------------------------------------------------------------------ page form fields

const NUMBER_WIDGETS = new Set(['NumberPicker', 'InputNumber', 'Rate', 'Slider']);
const DATE_WIDGETS = new Set(['DatePicker']);
const RANGE_WIDGETS = new Set(['DateRange', 'DatePicker.RangePicker']);
const MULTI_WIDGETS = new Set(['Checkbox.Group', 'CheckboxGroup', 'MultiSelect']);
const FILE_WIDGETS = new Set(['JUpload', 'JImageUpload', 'Upload']);
const SWITCH_WIDGETS = new Set(['Switch', 'Checkbox']);
/** Formily `format` rules → validation presets. */
const FORMATS: Record<string, string> = { email: 'e', phone: 'm', url: 'url', number: 'n', integer: 'z', zip: 'p', money: 'money' };
/** A text without `maxLength` is still bounded. */
const MAX_TEXT = 2000;

/** A field the user sees but does not edit: `readOnly`, or `disabled: true` (not an expression). */
export const isReadOnlyField = (f: FormFieldSchema) => f.readOnly === true || f.disabled === true;

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
function validDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]) && Number(m[4] ?? 0) < 24 && Number(m[5] ?? 0) < 60 && Number(m[6] ?? 0) < 60;
}

interface RuleLike {
  required?: boolean;
  pattern?: string;
  preset?: string;
  format?: string;
  message?: string;
  min?: number;
  max?: number;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  len?: number;
}
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export interface CheckOptions {
  /** Dictionary code → allowed values (system dictionaries); a field whose dictionary is not here is not checked against it. */
  dicts?: Record<string, string[]>;
  compile: RegexCompiler;
  /** Values already known (a task form: the instance's data), for the fields' `visible` expressions. */
  known?: Row;
}

/**
 * Checks values submitted for a page form's fields: only the named, editable (not read-only), visible fields
 * are kept (anything else is dropped), then required, type (numbers, dates, options, files), length, range and
 * patterns / presets. Returns the values to store, or the first error (naming the field).
 */
export function checkFormValues(fields: FormFieldSchema[], input: unknown, opts: CheckOptions): { values: Row; error?: string } {
  const raw: Row = input && typeof input === 'object' && !Array.isArray(input) ? (input as Row) : {};
  const values: Row = {};
  const scope = { $values: { ...(opts.known ?? {}), ...raw }, $mode: 'add', $record: opts.known ?? {} };
  for (const f of fields) {
    if (isReadOnlyField(f)) continue;
    if (f.visible !== undefined && !condition(f.visible, scope)) continue;
    if (f.modes && !f.modes.includes('add') && !f.modes.includes('edit')) continue;
    const r = checkField(f, Object.prototype.hasOwnProperty.call(raw, f.name) ? raw[f.name] : undefined, opts);
    if (r instanceof FieldError) return { values, error: r.error };
    if (r !== undefined) values[f.name] = r;
  }
  return { values };
}

class FieldError {
  constructor(readonly error: string) {}
}

function checkField(f: FormFieldSchema, v: unknown, opts: CheckOptions): unknown {
  const label = String(f.label || f.name);
  const rules = (Array.isArray(f.rules) ? f.rules : []).filter((x): x is RuleLike => !!x && typeof x === 'object');
  const props = (f.props ?? {}) as Row;
  const required = f.required || rules.some((r) => r.required);
  const err = (error: string) => new FieldError(error);
  if (isEmpty(v)) return required ? err(`${label}不能为空`) : undefined;
  const widget = f.widget ?? (f.options || f.dict ? 'Select' : 'Input');
  const multiple = MULTI_WIDGETS.has(widget) || props.mode === 'multiple' || props.mode === 'tags';

  if (SWITCH_WIDGETS.has(widget)) {
    if (typeof v !== 'boolean' && v !== 0 && v !== 1 && v !== '0' && v !== '1') return err(`${label}的值格式不正确`);
    return typeof v === 'boolean' ? v : String(v) === '1';
  }
  if (NUMBER_WIDGETS.has(widget)) {
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : NaN;
    if (!Number.isFinite(n)) return err(`${label}必须是数字`);
    const min = num(props.min) ?? rules.map((r) => num(r.minimum) ?? num(r.min)).find((x) => x !== undefined);
    const max = num(props.max) ?? rules.map((r) => num(r.maximum) ?? num(r.max)).find((x) => x !== undefined);
    const e = rangeError(label, n, min, max);
    if (e) return err(e);
    const precision = num(props.precision);
    if (precision !== undefined && Math.round(n * 10 ** precision) / 10 ** precision !== n) return err(`${label}最多${precision}位小数`);
    return n;
  }
  if (DATE_WIDGETS.has(widget) || RANGE_WIDGETS.has(widget)) {
    const list = RANGE_WIDGETS.has(widget) ? v : [v];
    if (!Array.isArray(list) || (RANGE_WIDGETS.has(widget) && list.length !== 2) || !list.every((d) => typeof d === 'string' && validDate(d))) return err(`${label}：日期格式不正确`);
    return RANGE_WIDGETS.has(widget) ? list : list[0];
  }
  const options = f.options?.map((o) => String(o.value)) ?? (f.dict ? opts.dicts?.[f.dict] : undefined);
  if (multiple || (options && (widget === 'Select' || widget.startsWith('Radio') || MULTI_WIDGETS.has(widget)))) {
    const list = multiple ? (Array.isArray(v) ? v : String(v).split(',')) : [v];
    if (!list.every((x) => typeof x === 'string' || typeof x === 'number')) return err(`${label}的值格式不正确`);
    if (options && list.some((x) => !options.includes(String(x)))) return err(`${label}的选项无效`);
    if (multiple) return list;
    const o = f.options?.find((x) => String(x.value) === String(v));
    return o ? o.value : v;
  }
  if (FILE_WIDGETS.has(widget)) {
    const text = Array.isArray(v) ? v.join(',') : v;
    if (typeof text !== 'string' || text.split(',').some((p) => p.includes('..') || p.startsWith('/') || /[\s<>"']/.test(p))) return err(`${label}的文件无效`);
    return lengthError(label, text, MAX_TEXT) ? err(`${label}的文件过多`) : text;
  }
  if (typeof v !== 'string' && typeof v !== 'number') return err(`${label}的值格式不正确`);
  const s = String(v);
  const maxLength = num(props.maxLength) ?? rules.map((r) => num(r.maxLength) ?? num(r.len) ?? num(r.max)).find((x) => x !== undefined);
  const minLength = rules.map((r) => num(r.minLength) ?? num(r.len) ?? num(r.min)).find((x) => x !== undefined);
  const le = lengthError(label, s, Math.min(maxLength ?? MAX_TEXT, MAX_TEXT), minLength);
  if (le) return err(le);
  for (const r of rules) {
    const pattern = r.preset ?? r.pattern ?? (r.format ? FORMATS[r.format] : undefined);
    if (typeof pattern !== 'string') continue;
    const pe = patternError(label, s, pattern, opts.compile, r.message);
    if (pe) return err(pe);
  }
  if (options && !options.includes(s)) return err(`${label}的选项无效`);
  return s;
}

/** The submitted values as `label → text` for a history row (option values as their labels, lists joined). */
export function valuesText(fields: FormFieldSchema[], values: Row, dictText?: (dict: string, value: string) => string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    if (!(f.name in values)) continue;
    const one = (x: unknown) => {
      const o = f.options?.find((y) => String(y.value) === String(x));
      return o?.label ?? (f.dict ? dictText?.(f.dict, String(x)) : undefined) ?? String(x);
    };
    const v = values[f.name];
    out[f.label || f.name] = typeof v === 'boolean' ? (v ? '是' : '否') : Array.isArray(v) ? v.map(one).join('、') : one(v);
  }
  return out;
}
