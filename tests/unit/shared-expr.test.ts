import { describe, expect, it } from 'vitest';
import { condition, evaluate, ExprError, resolveValue } from '../../shared/expr';

const scope = {
  $record: { status: '1', name: '张三', tags: ['a', 'b'], nested: { n: 3 } },
  $values: { age: 20, kind: '2' },
  $user: { orgCode: 'A01', username: 'admin' },
  $mode: 'edit',
  $perms: ['demo:customer:add'],
};

describe('safe evaluator', () => {
  it('evaluates the documented language', () => {
    expect(evaluate("{{ $record.status === '1' && $user.orgCode }}", scope)).toBe('A01');
    expect(evaluate("$record.status === '0' && $user.orgCode", scope)).toBe(false);
    expect(evaluate('$values.age >= 18 ? "成年" : "未成年"', scope)).toBe('成年');
    expect(evaluate('$values.age * 2 + 1 - 3 / 3 % 2', scope)).toBe(40);
    expect(evaluate('$record.nested.n', scope)).toBe(3);
    expect(evaluate("$record['name']", scope)).toBe('张三');
    expect(evaluate('$record.tags[1]', scope)).toBe('b');
    expect(evaluate('$record.missing?.deep', scope)).toBeUndefined();
    expect(evaluate('$nothing ?? "默认"', scope)).toBe('默认');
    expect(evaluate("includes($perms, 'demo:customer:add')", scope)).toBe(true);
    expect(evaluate("includes('1,2,3', 2)", scope)).toBe(true);
    expect(evaluate('len($record.tags) === 2 && !isEmpty($record.name)', scope)).toBe(true);
    expect(evaluate('[1, 2][0] + {a: 5}.a', scope)).toBe(6);
    expect(evaluate("$mode !== 'add'", scope)).toBe(true);
    expect(evaluate('-$values.age < 0 && !false', scope)).toBe(true);
  });

  it('cannot reach constructors, prototypes or globals', () => {
    const attempts = [
      '$record.constructor',
      "$record['constructor']",
      '$record.__proto__',
      "$record['__proto__']",
      "$record['con' + 'structor']",
      "''.constructor",
      'constructor',
      '{__proto__: 1}',
      'Object.prototype',
    ];
    for (const a of attempts) {
      let v: unknown;
      try {
        v = evaluate(a, scope);
      } catch (err) {
        expect(err).toBeInstanceOf(ExprError);
        continue;
      }
      expect(v, a).toBeUndefined();
    }
    expect(evaluate('globalThis', scope)).toBeUndefined();
    expect(evaluate('window', scope)).toBeUndefined();
    expect(evaluate('process', scope)).toBeUndefined();
    // Functions read as undefined and only helpers can be called.
    expect(evaluate("$record.name.toString", scope)).toBeUndefined();
    expect(() => evaluate('$record.name.toString()', scope)).toThrow(ExprError);
    expect(() => evaluate('(1).constructor.constructor("return 1")()', scope)).toThrow(ExprError);
    expect(() => evaluate('alert(1)', scope)).toThrow(ExprError);
    expect(() => evaluate('a = 1', scope)).toThrow(ExprError);
    expect(() => evaluate('`x`', scope)).toThrow(ExprError);
  });

  it('a bad expression falls back instead of crashing the page', () => {
    expect(resolveValue('{{ $record. }}', scope, false)).toBe(false);
    expect(condition(undefined, scope)).toBe(true);
    expect(condition('{{ $record.status === "1" }}', scope)).toBe(true);
    expect(condition(false, scope)).toBe(false);
    expect(resolveValue('plain', scope, 'x')).toBe('plain');
  });
});
