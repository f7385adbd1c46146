import { describe, expect, it } from 'vitest';
import { createForm } from '@formily/core';
import { toFormilySchema } from '../../renderer/formily';

type Props = Record<string, { 'x-decorator-props'?: Record<string, unknown> }>;
const grid = (s: ReturnType<typeof toFormilySchema>) => (s.properties as Record<string, { 'x-component-props': Record<string, unknown>; properties: Props }>).grid!;

describe('form schema → Formily', () => {
  const fields = [
    { name: 'title', label: '标题' },
    { name: 'source', label: '来源' },
    { name: 'deadline', label: '期限' },
    { name: 'description', label: '问题描述', span: 2 },
  ];

  it('a field spanning a two-column row starts its own row and keeps its label as wide as its neighbours\'', () => {
    const g = grid(toFormilySchema({ columns: 2, fields }, 'add', {}, 8));
    // strictAutoFit: after the odd 期限 the spanning field goes to the next row instead of the half row left.
    expect(g['x-component-props']).toMatchObject({ maxColumns: 2, minColumns: 2, strictAutoFit: true });
    expect(g.properties.description!['x-decorator-props']).toEqual({ gridSpan: 2, labelCol: 4, wrapperCol: 20 });
    expect(g.properties.title!['x-decorator-props']).toBeUndefined();
  });

  it('a one-column form, or one drawn without a layout, leaves the labels to the layout', () => {
    expect(grid(toFormilySchema({ columns: 1, fields }, 'add', {}, 5)).properties.description!['x-decorator-props']).toEqual({ gridSpan: 2 });
    expect(grid(toFormilySchema({ columns: 2, fields }, 'add', {})).properties.description!['x-decorator-props']).toEqual({ gridSpan: 2 });
  });

  it('a read-only field is drawn as text and disabled; a preset rule checks like the server', async () => {
    const g = grid(toFormilySchema({ fields: [{ name: 'amount', label: '金额', readOnly: true }, { name: 'money', label: '金额', rules: [{ preset: 'money' }] }] }, 'add', {})) as any;
    expect(g.properties.amount['x-read-pretty']).toBe(true);
    expect(g.properties.amount['x-component-props'].disabled).toBe(true);
    const form = createForm();
    const field = form.createField({ name: 'money', validator: g.properties.money['x-validator'] });
    await field.onInput('1.234');
    await field.validate().catch(() => undefined); // refused: validate throws, the message is on the field
    expect(field.selfErrors).toEqual(['请输入正确的金额']);
    await field.onInput('12.5');
    await field.validate();
    expect(field.selfErrors).toEqual([]);
  });
});
