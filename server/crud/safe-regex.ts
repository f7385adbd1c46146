import { RE2JS } from 're2js';

/**
 * Regular expressions written by users or administrators (check rules, field validation patterns) run
 * on RE2 (re2js): matching time is linear in the input, so no pattern — `(a+)+$` included — can stall
 * the server. RE2 has no look-around or back-references; such a pattern is refused when it is saved.
 * Compiled patterns are kept (bounded), as a pattern is reused on every save.
 */
export interface SafeRegex {
  test(input: string): boolean;
}

const cache = new Map<string, SafeRegex>();
const CACHE_MAX = 500;
export const MAX_PATTERN_LENGTH = 1000;

/** Compiles `pattern` for RE2; throws a Chinese message when it is too long or not RE2 syntax. */
export function safeRegex(pattern: string): SafeRegex {
  const hit = cache.get(pattern);
  if (hit) return hit;
  if (pattern.length > MAX_PATTERN_LENGTH) throw new Error(`正则表达式过长（最多${MAX_PATTERN_LENGTH}个字符）`);
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch {
    throw new Error('正则表达式无效或使用了不支持的语法（不支持环视、反向引用）');
  }
  const compiled: SafeRegex = { test: (input) => re.test(input) };
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(pattern, compiled);
  return compiled;
}
