import { describe, expect, it } from 'vitest';
import { checkValue } from '../../server/crud/validate.js';
import { validateInput } from '../../server/crud/engine.js';
import type { EntityField, EntitySchema } from '../../server/crud/entity-types.js';

const f = (more: Partial<EntityField>): EntityField => ({ name: 'v', title: '值', type: 'string', length: 20, ...more });

describe('field validation', () => {
  it('applies pattern presets with their messages, skipping empty values', () => {
    expect(checkValue(f({ pattern: 'm', patternMessage: '请输入正确手机号' }), '13912345678')).toBe('13912345678');
    expect(() => checkValue(f({ pattern: 'm', patternMessage: '请输入正确手机号' }), '12912345678')).toThrow('值：请输入正确手机号');
    expect(() => checkValue(f({ pattern: 'e' }), 'not-mail')).toThrow('邮箱格式不正确');
    expect(checkValue(f({ pattern: 'e' }), 'a.b@example.edu.cn')).toBe('a.b@example.edu.cn');
    expect(() => checkValue(f({ pattern: 'n6-16' }), '12345')).toThrow('6到16位数字');
    expect(() => checkValue(f({ pattern: 'money' }), '1.234')).toThrow('金额');
    expect(checkValue(f({ pattern: '^[A-Z]{2}$', patternMessage: '两位大写' }), 'AB')).toBe('AB');
    expect(() => checkValue(f({ pattern: '^[A-Z]{2}$', patternMessage: '两位大写' }), 'ab')).toThrow('两位大写');
    expect(checkValue(f({ pattern: 'm' }), '')).toBeNull();
  });

  it('checks required, length, numbers and ranges', () => {
    expect(() => checkValue(f({ required: true }), '  ')).toThrow('值不能为空');
    expect(() => checkValue(f({ length: 3 }), '四个字符')).toThrow('最多3个字符');
    expect(checkValue(f({ length: 3 }), '三个字')).toBe('三个字');
    expect(checkValue(f({ type: 'integer', min: 0, max: 10 }), '7')).toBe(7);
    expect(() => checkValue(f({ type: 'integer', min: 0, max: 10 }), 11)).toThrow('不能大于10');
    expect(() => checkValue(f({ type: 'integer' }), '1.5')).toThrow('整数');
    expect(() => checkValue(f({ type: 'number', precision: 5, scale: 2 }), '1000')).toThrow('超出允许的范围');
    expect(checkValue(f({ type: 'boolean' }), '是')).toBe(true);
    expect(() => checkValue(f({ type: 'string' }), { $gt: '' })).toThrow('格式不正确');
  });

  it('takes only writable fields from a client body (mass assignment)', () => {
    const e: EntitySchema = {
      name: 't', table: 't', title: 't', scope: { tenant: 'tenantId' },
      fields: [
        { name: 'id', type: 'string', length: 32, primary: true },
        { name: 'name', type: 'string', length: 20, required: true },
        { name: 'password', type: 'string', length: 100, secret: true },
        { name: 'status', type: 'string', length: 2, readonly: true },
        { name: 'tenantId', type: 'integer' },
      ],
    };
    expect(validateInput(e, { id: 'x', name: 'n', password: 'p', status: '9', tenantId: 7, createBy: 'm', extra: 1 }, 'add')).toEqual({ name: 'n' });
    expect(() => validateInput(e, {}, 'add')).toThrow('name不能为空');
    expect(validateInput(e, {}, 'edit')).toEqual({});
  });
});
