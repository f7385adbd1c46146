import type { EntityField } from './entity-types.js';
import { safeRegex } from './safe-regex.js';
import { coerce } from './query.js';
import { BizError } from '../http/envelope.js';
import { presetOf } from '../../shared/validation-presets.js';


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
      const preset = presetOf(f.pattern);
      let re: { test(s: string): boolean };
      try {
        re = preset?.pattern ?? safeRegex(f.pattern); // an administrator's pattern runs on RE2 (linear time)
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
