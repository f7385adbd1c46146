import { useEffect, useState, type ReactNode } from 'react';
import { Button, Checkbox, Input, InputNumber, Select, Space, Table, Tooltip, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';

type Item = Record<string, unknown>;

export interface Problem {
  file?: string;
  path: string;
  reason: string;
}

export interface ListEditorField {
  key: string;
  label: string;
  /** json: any JSON value (a number, an object such as `{ "sm": 8 }`), applied once it parses. */
  type?: 'text' | 'number' | 'bool' | 'select' | 'json';
  options?: string[];
  width?: number;
  placeholder?: string;
}

/** The problems at `path` or below it. */
export const problemsUnder = (problems: Problem[], path: string) => problems.filter((p) => p.path === path || p.path.startsWith(`${path}/`));

/** A JSON value as text; the value changes only when the text parses (otherwise the input says so). */
export function JsonInput({ value, onChange, aria, status, rows }: { value: unknown; onChange: (v: unknown) => void; aria: string; status?: 'error'; rows?: number }) {
  const shown = value === undefined ? '' : JSON.stringify(value, null, rows ? 2 : undefined);
  const [text, setText] = useState(shown);
  const [bad, setBad] = useState(false);
  useEffect(() => {
    setText((t) => {
      try {
        return JSON.stringify(t.trim() ? JSON.parse(t) : undefined) === JSON.stringify(value) ? t : shown;
      } catch {
        return t;
      }
    });
  }, [shown, value]);
  const change = (t: string) => {
    setText(t);
    if (!t.trim()) return setBad(false), onChange(undefined);
    try {
      const v = JSON.parse(t) as unknown;
      setBad(false);
      onChange(v);
    } catch {
      setBad(true);
    }
  };
  const props = { 'aria-label': aria, value: text, status: bad ? ('error' as const) : status, spellCheck: false, onChange: (e: { target: { value: string } }) => change(e.target.value) };
  return (
    <Tooltip title={bad ? 'JSON 格式有误，尚未应用' : undefined}>
      {rows ? <Input.TextArea {...props} autoSize={{ minRows: rows, maxRows: 16 }} style={{ fontFamily: 'monospace', fontSize: 12 }} /> : <Input {...props} size="small" style={{ fontFamily: 'monospace' }} />}
    </Tooltip>
  );
}

/**
 * An editable list of schema objects (columns, query fields, form fields, sub-tables, actions, tabs,
 * dashboard panels, sections): one row per item, one input per property, move up/down, delete, add.
 * Properties the editor does not show are kept; `expand` edits more of an item below its row (nested
 * lists, or the item's JSON). Problems the server found under `path` (JSON pointer of the list) mark their
 * input and are listed under the table with the row they belong to.
 * Inputs are labelled `<label> <n> <field label>` (e.g. 列 2 标题) for assistive technology and tests.
 */
export function ListEditor({
  label,
  path,
  items,
  fields,
  onChange,
  newItem,
  problems = [],
  expand,
}: {
  label: string;
  path: string;
  items: Item[];
  fields: ListEditorField[];
  onChange: (items: Item[]) => void;
  newItem: () => Item;
  problems?: Problem[];
  expand?: (item: Item, i: number, set: (item: Item) => void) => ReactNode;
}) {
  const replace = (i: number, item: Item) => onChange(items.map((it, j) => (j === i ? item : it)));
  const set = (i: number, key: string, value: unknown) => {
    const next = { ...items[i] };
    if (value === '' || value === undefined || value === null || value === false) delete next[key];
    else next[key] = value;
    replace(i, next);
  };
  const move = (i: number, d: number) => {
    const next = [...items];
    const [x] = next.splice(i, 1);
    next.splice(i + d, 0, x!);
    onChange(next);
  };
  const mine = problemsUnder(problems, path);
  // a problem of the row that names a property (缺少必填属性“title”) marks that property's input too
  const at = (i: number, key?: string) =>
    key ? [...problemsUnder(mine, `${path}/${i}/${key}`), ...mine.filter((p) => p.path === `${path}/${i}` && p.reason.includes(`“${key}”`))] : problemsUnder(mine, `${path}/${i}`);
  const columns = [
    ...fields.map((f) => ({
      key: f.key,
      title: f.label,
      width: f.width ?? (f.type === 'bool' ? 56 : 140),
      render: (_: unknown, it: Item, i: number) => {
        const aria = `${label} ${i + 1} ${f.label}`;
        const v = it[f.key];
        const wrong = at(i, f.key);
        const status = wrong.length ? ('error' as const) : undefined;
        let input: ReactNode;
        if (f.type === 'bool') input = <Checkbox aria-label={aria} checked={!!v} onChange={(e) => set(i, f.key, e.target.checked)} />;
        else if (f.type === 'number')
          input = <InputNumber aria-label={aria} size="small" status={status} style={{ width: '100%' }} value={typeof v === 'number' ? v : null} onChange={(x) => set(i, f.key, x ?? undefined)} />;
        else if (f.type === 'select')
          input = (
            <Select aria-label={aria} size="small" status={status} style={{ width: '100%' }} allowClear value={v as string | undefined} options={(f.options ?? []).map((o) => ({ value: o, label: o }))} onChange={(x) => set(i, f.key, x)} popupMatchSelectWidth={false} />
          );
        else if (f.type === 'json') input = <JsonInput aria={aria} status={status} value={v} onChange={(x) => set(i, f.key, x)} />;
        else
          input = (
            <Input aria-label={aria} size="small" status={status} placeholder={f.placeholder} value={typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v)} onChange={(e) => set(i, f.key, e.target.value)} />
          );
        return wrong.length ? <Tooltip title={wrong.map((p) => p.reason).join('；')}>{input}</Tooltip> : input;
      },
    })),
    {
      key: '$ops',
      title: '操作',
      width: 96,
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
  const rowName = (p: Problem) => {
    const m = p.path.slice(path.length).match(/^\/(\d+)(.*)$/);
    return m ? `${label} ${Number(m[1]) + 1}${m[2] ? ` ${m[2].slice(1)}` : ''}` : label;
  };
  return (
    <div className="design-list-editor" data-path={path}>
      <Table<Item>
        size="small"
        rowKey={(r) => String(items.indexOf(r))}
        columns={columns}
        dataSource={items}
        pagination={false}
        scroll={{ x: 'max-content' }}
        rowClassName={(_r, i) => (at(i).length ? 'design-row-error' : '')}
        expandable={expand ? { expandedRowRender: (it, i) => expand(it, i, (next) => replace(i, next)), columnWidth: 32 } : undefined}
      />
      {mine.length > 0 && (
        <ul className="design-field-problems" style={{ margin: '6px 0 0', paddingLeft: 18 }}>
          {mine.slice(0, 10).map((p, i) => (
            <li key={i}>
              <Typography.Text type="danger">
                {rowName(p)}：{p.reason}
              </Typography.Text>{' '}
              <Typography.Text type="secondary" code>
                {p.path}
              </Typography.Text>
            </li>
          ))}
        </ul>
      )}
      <Button style={{ marginTop: 8 }} size="small" icon={<PlusOutlined />} onClick={() => onChange([...items, newItem()])}>
        添加{label}
      </Button>
    </div>
  );
}
