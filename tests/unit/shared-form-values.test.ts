import { describe, expect, it } from 'vitest';
import { checkFormValues, valuesText } from '@shared/form-values';
import type { FormFieldSchema } from '@shared/page-schema';

const compile = (p: string) => new RegExp(p);
const fields: FormFieldSchema[] = [
  { name: 'title', label: '标题', required: true, props: { maxLength: 5 } },
  { name: 'amount', label: '金额', widget: 'NumberPicker', props: { min: 0, max: 100, precision: 2 } },
  { name: 'kind', label: '类别', options: [{ label: '差旅', value: 'trip' }, { label: '设备', value: 'device' }] },
  { name: 'day', label: '日期', widget: 'DatePicker' },
  { name: 'phone', label: '手机', rules: [{ preset: 'm' }] },
  { name: 'code', label: '编号', rules: [{ pattern: '^A\\d+$', message: '以A开头' }] },
  { name: 'shown', label: '只读', readOnly: true },
  { name: 'more', label: '补充', visible: "{{ $values.kind === 'device' }}", required: true },
];
const check = (v: Record<string, unknown>) => checkFormValues(fields, v, { compile });

describe('checkFormValues', () => {
  it('keeps only the named editable fields and converts numbers', () => {
    expect(check({ title: '出差', amount: '12.5', shown: 'x', other: 1 })).toEqual({ values: { title: '出差', amount: 12.5 } });
  });
  it('refuses with the field named', () => {
    expect(check({}).error).toBe('标题不能为空');
    expect(check({ title: '123456' }).error).toBe('标题最多5个字符');
    expect(check({ title: 'a', amount: 101 }).error).toBe('金额不能大于100');
    expect(check({ title: 'a', amount: 1.234 }).error).toBe('金额最多2位小数');
    expect(check({ title: 'a', kind: 'car' }).error).toBe('类别的选项无效');
    expect(check({ title: 'a', day: '2026-02-30' }).error).toBe('日期：日期格式不正确');
    expect(check({ title: 'a', phone: '123' }).error).toBe('手机：请输入正确手机号');
    expect(check({ title: 'a', code: 'B1' }).error).toBe('编号：以A开头');
    expect(check({ title: 'a', amount: { x: 1 } }).error).toBe('金额必须是数字');
  });
  it('a field hidden by its visible expression is neither required nor kept', () => {
    expect(check({ title: 'a', kind: 'trip', more: 'x' })).toEqual({ values: { title: 'a', kind: 'trip' } });
    expect(check({ title: 'a', kind: 'device' }).error).toBe('补充不能为空');
  });
  it('history text uses option labels', () => {
    expect(valuesText(fields, { title: 'a', kind: 'trip', amount: 3 })).toEqual({ 标题: 'a', 金额: '3', 类别: '差旅' });
  });
});
