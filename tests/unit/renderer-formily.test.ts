import { describe, expect, it } from 'vitest';
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
});
