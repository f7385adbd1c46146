import { Button, Checkbox, Input, InputNumber, Select, Space, Table } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';

type Item = Record<string, unknown>;

export interface ListEditorField {
  key: string;
  label: string;
  type?: 'text' | 'number' | 'bool' | 'select';
  options?: string[];
  width?: number;
}

/**
 * An editable list of schema objects (columns, query fields, form fields, actions, tabs): one row per
 * item, one input per property, move up/down, delete, add. Properties the editor does not show are kept.
 * Inputs are labelled `<label> <n> <field label>` (e.g. 列 2 标题) for assistive technology and tests.
 */
export function ListEditor({ label, items, fields, onChange, newItem }: { label: string; items: Item[]; fields: ListEditorField[]; onChange: (items: Item[]) => void; newItem: () => Item }) {
  const set = (i: number, key: string, value: unknown) =>
    onChange(
      items.map((it, j) => {
        if (j !== i) return it;
        const next = { ...it };
        if (value === '' || value === undefined || value === null || value === false) delete next[key];
        else next[key] = value;
        return next;
      }),
    );
  const move = (i: number, d: number) => {
    const next = [...items];
    const [x] = next.splice(i, 1);
    next.splice(i + d, 0, x!);
    onChange(next);
  };
  const columns = [
    ...fields.map((f) => ({
      key: f.key,
      title: f.label,
      width: f.width ?? (f.type === 'bool' ? 64 : 150),
      render: (_: unknown, it: Item, i: number) => {
        const aria = `${label} ${i + 1} ${f.label}`;
        const v = it[f.key];
        if (f.type === 'bool') return <Checkbox aria-label={aria} checked={!!v} onChange={(e) => set(i, f.key, e.target.checked)} />;
        if (f.type === 'number') return <InputNumber aria-label={aria} size="small" style={{ width: '100%' }} value={typeof v === 'number' ? v : null} onChange={(x) => set(i, f.key, x ?? undefined)} />;
        if (f.type === 'select')
          return <Select aria-label={aria} size="small" style={{ width: '100%' }} allowClear value={v as string | undefined} options={(f.options ?? []).map((o) => ({ value: o, label: o }))} onChange={(x) => set(i, f.key, x)} />;
        return <Input aria-label={aria} size="small" value={typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v)} onChange={(e) => set(i, f.key, e.target.value)} />;
      },
    })),
    {
      key: '$ops',
      title: '操作',
      width: 112,
      fixed: 'right' as const,
      render: (_: unknown, _it: Item, i: number) => (
        <Space size={0}>
          <Button type="text" size="small" aria-label={`${label} ${i + 1} 上移`} icon={<ArrowUpOutlined />} disabled={i === 0} onClick={() => move(i, -1)} />
          <Button type="text" size="small" aria-label={`${label} ${i + 1} 下移`} icon={<ArrowDownOutlined />} disabled={i === items.length - 1} onClick={() => move(i, 1)} />
          <Button type="text" size="small" danger aria-label={`${label} ${i + 1} 删除`} icon={<DeleteOutlined />} onClick={() => onChange(items.filter((_x, j) => j !== i))} />
        </Space>
      ),
    },
  ];
  return (
    <div>
      <Table<Item> size="small" rowKey={(_r) => String(items.indexOf(_r))} columns={columns} dataSource={items} pagination={false} scroll={{ x: 'max-content' }} />
      <Button style={{ marginTop: 8 }} size="small" icon={<PlusOutlined />} onClick={() => onChange([...items, newItem()])}>
        添加{label}
      </Button>
    </div>
  );
}
