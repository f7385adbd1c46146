import { presetOf } from '@shared/validation-presets';
/**
 * Validation presets and rules (SPEC §5), one implementation for forms and the editable table.
 * A rule list is checked in order; the first failing rule gives the message.
 */
export interface ValidateRule {
  required?: boolean;
  /** A preset code (`*`, `n6-16`, `e`, …), `only` (= unique), or any other string as a regular expression. */
  pattern?: string | RegExp;
  message?: string;
  unique?: boolean;
  /** Custom check: resolve/return `undefined`/`true` to accept, a string or `false` to reject. */
  handler?: (value: unknown, ctx: RuleContext) => unknown;
}

export interface RuleContext {
  /** Column title, used in default messages. */
  title?: string;
  /** Values of the same column in every row (for unique). */
  columnValues?: unknown[];
}

export type { PatternPreset as Preset } from '@shared/validation-presets';
/** The presets (shared with the server's validation). */
export { PATTERN_PRESETS as PRESETS } from '@shared/validation-presets';

export function isEmptyValue(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

/** The regular expression of a pattern: a preset, or the string itself. Invalid expressions never match. */
export function patternOf(p: string | RegExp): RegExp {
  if (p instanceof RegExp) return p;
  const preset = presetOf(p);
  if (preset) return preset.pattern;
  try {
    return new RegExp(p);
  } catch {
    return /(?!)/;
  }
}

function isUnique(rule: ValidateRule) {
  return rule.unique === true || rule.pattern === 'only';
}

/** Checks one value against a rule list; resolves to the first failing message, or undefined. */
export async function validateValue(value: unknown, rules: ValidateRule[] | undefined, ctx: RuleContext = {}): Promise<string | undefined> {
  for (const rule of rules ?? []) {
    const msg = await checkRule(value, rule, ctx);
    if (msg !== undefined) return msg;
  }
  return undefined;
}

/** Synchronous variant (handlers returning promises are skipped). */
export function validateValueSync(value: unknown, rules: ValidateRule[] | undefined, ctx: RuleContext = {}): string | undefined {
  for (const rule of rules ?? []) {
    const r = checkRuleCore(value, rule, ctx);
    if (typeof r === 'string') return r;
  }
  return undefined;
}

async function checkRule(value: unknown, rule: ValidateRule, ctx: RuleContext): Promise<string | undefined> {
  const core = checkRuleCore(value, rule, ctx);
  if (core !== 'handler') return core;
  try {
    const r = await rule.handler!(value, ctx);
    return handlerResult(r, rule);
  } catch (e) {
    return e instanceof Error && e.message ? e.message : (rule.message ?? '校验未通过');
  }
}

function handlerResult(r: unknown, rule: ValidateRule): string | undefined {
  if (r === undefined || r === true || r === null) return undefined;
  if (typeof r === 'string') return r;
  return rule.message ?? '校验未通过';
}

function checkRuleCore(value: unknown, rule: ValidateRule, ctx: RuleContext): string | undefined | 'handler' {
  const title = ctx.title ?? '';
  const empty = isEmptyValue(value) || (typeof value === 'string' && value.trim() === '');
  if (rule.required && empty) return rule.message ?? `${title}不能为空`;
  if (isUnique(rule)) {
    if (empty) return undefined;
    const same = (ctx.columnValues ?? []).filter((v) => String(v ?? '') === String(value)).length;
    return same >= 2 ? (rule.message ?? `${title}不能重复`) : undefined;
  }
  if (rule.pattern !== undefined) {
    if (rule.pattern === '*') return empty ? (rule.message ?? `${title}不能为空`) : undefined;
    if (empty) return undefined;
    const re = patternOf(rule.pattern);
    re.lastIndex = 0;
    if (!re.test(String(value))) {
      const preset = typeof rule.pattern === 'string' ? presetOf(rule.pattern) : undefined;
      return rule.message ?? `${title}${preset ? `必须是${preset.title}` : '格式不正确'}`;
    }
    return undefined;
  }
  if (rule.handler) return 'handler';
  return undefined;
}

/** Named form rules of SPEC §5 with their exact messages (antd Form rule shape). */
export interface FormRule {
  required?: boolean;
  pattern?: RegExp;
  min?: number;
  max?: number;
  type?: 'array';
  message: string;
}

export const formRules = {
  mobile: [
    { required: true, message: '请输入手机号' },
    { pattern: /^1[34578]\d{9}$/, message: '请输入正确手机号' },
  ] as FormRule[],
  username: [
    { required: true, message: '请输入用户名' },
    { pattern: /^\w+$/, message: '只允许字母、数字、下划线' },
    { min: 4, max: 18, message: '长度6到18个字符' },
  ] as FormRule[],
  email: [{ pattern: /^[\w.+-]+@[\w-]+(\.[\w-]+)+$/, message: '邮箱格式不正确' }] as FormRule[],
  naturalNumber: [{ pattern: /^(0|[1-9]\d*)$/, message: '请输入自然数' }] as FormRule[],
  english: [{ pattern: /^[A-Za-z]+$/, message: '请输入英文字符' }] as FormRule[],
  landline: [{ pattern: /^(\d{3,4}-)?\d{7,8}$/, message: '请输入正确的座机号' }] as FormRule[],
  bankCard: [{ pattern: /^[1-9]\d{9,19}$/, message: '请输入正确的银行卡号码' }] as FormRule[],
  certificate: [{ pattern: /^[A-Za-z0-9]{1,50}$/, message: '请输入正确的证件号码' }] as FormRule[],
  idCard: [{ pattern: /^[1-9]\d{5}(18|19|20)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])\d{3}[\dXx]$/, message: '请输入正确的身份证号码' }] as FormRule[],
  qq: [{ pattern: /^[1-9]\d{4,11}$/, message: '请输入正确的QQ号码' }] as FormRule[],
  httpUrl: [{ pattern: /^https?:\/\/\S+$/, message: '请输入以http和https开头的网址' }] as FormRule[],
  alnum20: [{ pattern: /^[A-Za-z0-9]{0,20}$/, message: '请输入20位以内的英文字符和数字' }] as FormRule[],
  cnEnSpace: [{ pattern: /^[\u4e00-\u9fa5A-Za-z ]{2,100}$/, message: '请输入2到100位的中英文字符和空格' }] as FormRule[],
  digitsLines: [{ pattern: /^[\d\n\r]+$/, message: '请输入数字和换行符' }] as FormRule[],
  max255: [{ pattern: /^[\s\S]{0,255}$/, message: '请输入255位以内的字符' }] as FormRule[],
  /** Required with optional length bounds. */
  requiredLength: (min?: number, max?: number, message = '该字段为必填项'): FormRule[] => [
    { required: true, message },
    ...(min !== undefined ? [{ min, message: `最小长度${min}位字符` }] : []),
    ...(max !== undefined ? [{ max, message: `最大长度${max}位字符` }] : []),
  ],
  selectRequired: (message = '请选择'): FormRule[] => [{ required: true, message }],
  checkboxCount: (min?: number, max?: number): FormRule[] => [
    ...(min !== undefined ? [{ type: 'array' as const, min, message: `最少选择${min}项` }] : []),
    ...(max !== undefined ? [{ type: 'array' as const, max, message: `最多选择${max}项` }] : []),
  ],
};

/** Checks a value against antd-shaped form rules (first failing message), for code outside antd Form. */
export function checkFormRules(value: unknown, rules: FormRule[]): string | undefined {
  for (const r of rules) {
    const empty = isEmptyValue(value);
    if (r.required && empty) return r.message;
    if (empty) continue;
    if (r.pattern && !r.pattern.test(String(value))) return r.message;
    const len = Array.isArray(value) ? value.length : String(value).length;
    if (r.min !== undefined && len < r.min) return r.message;
    if (r.max !== undefined && len > r.max) return r.message;
  }
  return undefined;
}
