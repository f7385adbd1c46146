import type { EntityField } from './entity-types.js';
import { safeRegex } from './safe-regex.js';
import { coerce } from './query.js';
import { BizError } from '../http/envelope.js';

/** Pattern presets of SPEC §5 with their default messages. */
export const PATTERN_PRESETS: Record<string, { re: RegExp; message: string }> = {
  '*': { re: /[\s\S]+/, message: '该字段不能为空' },
  'n6-16': { re: /^\d{6,16}$/, message: '请输入6到16位数字' },
  '*6-16': { re: /^[\s\S]{6,16}$/, message: '请输入6到16位任意字符' },
  's6-18': { re: /^[a-zA-Z]{6,18}$/, message: '请输入6到18位字母' },
  url: { re: /^((ht|f)tps?):\/\/[\w-]+(\.[\w-]+)+([\w\-.,@?^=%&:/~+#]*[\w\-@?^=%&/~+#])?$/, message: '请输入正确的网址' },
  e: { re: /^([\w]+\.*)([\w]+)@[\w]+\.\w{3}(\.\w{2}|)$|^[\w.+-]+@[\w-]+(\.[\w-]+)+$/, message: '邮箱格式不正确' },
  m: { re: /^1[3-9]\d{9}$/, message: '请输入正确手机号' },
  p: { re: /^[0-9]{6}$/, message: '请输入正确的邮政编码' },
  s: { re: /^[A-Za-z]+$/, message: '请输入字母' },
  n: { re: /^-?\d+(\.?\d+|\d?)$/, message: '请输入数字' },
  z: { re: /^-?\d+$/, message: '请输入整数' },
  money: { re: /^(([1-9][0-9]*)|([0]\.\d{0,2}|[1-9][0-9]*\.\d{0,2}))$/, message: '请输入正确的金额' },
};

const label = (f: EntityField) => f.title ?? f.name;

/**
 * Converts and checks one client value for a field: type, required, length, min/max, pattern.
 * Returns the value to store (null for empty). Messages are Chinese and name the field.
 */
export function checkValue(f: EntityField, raw: unknown): unknown {
  const empty = raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
  if (empty) {
    if (f.required) throw new BizError(`${label(f)}不能为空`);
    return null;
  }
  if (f.type === 'json') return typeof raw === 'string' ? raw : JSON.stringify(raw);
  if (typeof raw === 'object') throw new BizError(`${label(f)}的值格式不正确`);
  const v = coerce(f, typeof raw === 'number' || typeof raw === 'boolean' ? raw : String(raw));
  if (typeof v === 'string' && (f.type === 'string' || f.type === 'text')) {
    const len = [...v].length;
    if (f.type === 'string' && len > (f.length ?? 255)) throw new BizError(`${label(f)}最多${f.length ?? 255}个字符`);
    if (f.pattern && f.pattern !== 'only') {
      const preset = PATTERN_PRESETS[f.pattern];
      let re: { test(s: string): boolean };
      try {
        re = preset?.re ?? safeRegex(f.pattern); // an administrator's pattern runs on RE2 (linear time)
      } catch {
        re = /[\s\S]*/;
      }
      if (!re.test(v)) throw new BizError(`${label(f)}：${f.patternMessage ?? preset?.message ?? '格式不正确'}`);
    }
  }
  if (f.type === 'integer' || f.type === 'bigint' || f.type === 'number') {
    const n = Number(v);
    if (f.min !== undefined && n < f.min) throw new BizError(`${label(f)}不能小于${f.min}`);
    if (f.max !== undefined && n > f.max) throw new BizError(`${label(f)}不能大于${f.max}`);
    if (f.type === 'number') {
      const p = f.precision ?? 12;
      const sc = f.scale ?? 2;
      if (Math.abs(n) >= 10 ** (p - sc)) throw new BizError(`${label(f)}超出允许的范围`);
    }
  }
  return v;
}
