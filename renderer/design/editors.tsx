import type { ReactNode } from 'react';
import { Badge, Space, Typography } from 'antd';
import { actionTypes } from '../registry';
import { JsonInput, ListEditor, problemsUnder, type ListEditorField, type Problem } from './ListEditor';

type Doc = Record<string, any>;

/** Sets `path` (object keys) of a copy of `doc`; an empty list at the top level removes the key. */
export function setIn(doc: Doc, path: string[], value: unknown): Doc {
  const out = structuredClone(doc);
  let at: Doc = out;
  for (const k of path.slice(0, -1)) at = at[k] = at[k] && typeof at[k] === 'object' ? at[k] : {};
  const last = path[path.length - 1]!;
  if ((Array.isArray(value) && !value.length && path.length === 1) || value === undefined) delete at[last];
  else at[last] = value;
  return out;
}

const FORMATS = ['text', 'date', 'datetime', 'number', 'percent', 'bytes', 'duration', 'money', 'tag', 'files'];
const COLUMN_FIELDS: ListEditorField[] = [
  { key: 'dataIndex', label: '字段' },
  { key: 'title', label: '标题' },
  { key: 'width', label: '宽度', type: 'number', width: 80 },
  { key: 'sorter', label: '排序', type: 'bool' },
  { key: 'dict', label: '字典', width: 120 },
  { key: 'widget', label: '单元格组件', width: 120 },
];
const QUERY_FIELDS: ListEditorField[] = [
  { key: 'name', label: '字段' },
  { key: 'label', label: '标签' },
  { key: 'widget', label: '组件', width: 120 },
  { key: 'rule', label: '匹配', type: 'select', options: ['like', 'eq', 'range', 'in', 'begin'], width: 96 },
  { key: 'dict', label: '字典', width: 120 },
];
const FORM_FIELDS: ListEditorField[] = [
  { key: 'name', label: '字段' },
  { key: 'label', label: '标签' },
  { key: 'widget', label: '组件', width: 120 },
  { key: 'required', label: '必填', type: 'bool' },
  { key: 'readOnly', label: '只读', type: 'bool' },
  { key: 'dict', label: '字典', width: 120 },
  { key: 'span', label: '占列', type: 'number', width: 70 },
  { key: 'visible', label: '显示条件', width: 160, placeholder: '{{ 表达式 }}' },
];
const SUB_TABLE_FIELDS: ListEditorField[] = [
  { key: 'key', label: '键', width: 110 },
  { key: 'title', label: '标题' },
  { key: 'field', label: '记录字段', width: 120 },
  { key: 'resource', label: '子表接口', width: 160, placeholder: '/模块/实体' },
  { key: 'foreignKey', label: '外键', width: 110 },
  { key: 'listUrl', label: '列表地址', width: 160 },
];
const SUB_COLUMN_FIELDS: ListEditorField[] = [
  { key: 'key', label: '字段', width: 120 },
  { key: 'title', label: '标题', width: 120 },
  { key: 'type', label: '类型', type: 'select', options: ['input', 'number', 'select', 'date', 'datetime', 'switch', 'textarea'], width: 100 },
  { key: 'dict', label: '字典', width: 110 },
  { key: 'required', label: '必填', type: 'bool' },
  { key: 'width', label: '宽度', type: 'number', width: 80 },
];
const actionFields = (): ListEditorField[] => [
  { key: 'key', label: '键', width: 100 },
  { key: 'label', label: '名称', width: 110 },
  { key: 'type', label: '类型', type: 'select', options: actionTypes().sort(), width: 120 },
  { key: 'permission', label: '权限编码', width: 180 },
  { key: 'page', label: '页面', width: 160 },
  { key: 'url', label: '地址', width: 160 },
  { key: 'visible', label: '显示条件', width: 160, placeholder: '{{ 表达式 }}' },
  { key: 'dropdown', label: '更多', type: 'bool' },
];
const TAB_FIELDS: ListEditorField[] = [
  { key: 'key', label: '键', width: 110 },
  { key: 'label', label: '标题' },
  { key: 'page', label: '页面', width: 200 },
  { key: 'params', label: '参数', type: 'json', width: 160 },
];
const PANEL_FIELDS: ListEditorField[] = [
  { key: 'type', label: '类型', type: 'select', options: ['stat', 'chart', 'table', 'progress', 'list', 'descriptions', 'widget', 'profile'], width: 110 },
  { key: 'key', label: '键', width: 120 },
  { key: 'title', label: '标题', width: 180 },
  { key: 'url', label: '数据地址', width: 180 },
  { key: 'path', label: '数据路径', width: 100 },
  { key: 'field', label: '取值字段', width: 100 },
  { key: 'format', label: '格式', type: 'select', options: FORMATS, width: 100 },
  { key: 'span', label: '宽度（24 栅格）', type: 'json', width: 130 },
];
const FILTER_FIELDS: ListEditorField[] = [
  { key: 'name', label: '参数', width: 110 },
  { key: 'label', label: '标签' },
  { key: 'widget', label: '组件', width: 120 },
  { key: 'dict', label: '字典', width: 160 },
];
const SECTION_FIELDS: ListEditorField[] = [
  { key: 'title', label: '标题' },
  { key: 'columns', label: '每行项数', type: 'number', width: 90 },
];
const ITEM_FIELDS: ListEditorField[] = [
  { key: 'label', label: '标签' },
  { key: 'field', label: '字段', width: 120 },
  { key: 'format', label: '格式', type: 'select', options: FORMATS, width: 100 },
  { key: 'dict', label: '字典', width: 110 },
  { key: 'span', label: '占列', type: 'number', width: 70 },
];

export interface EditorTab {
  key: string;
  label: ReactNode;
  children: ReactNode;
}

/**
 * The form editors the designer offers for a draft: the parts its kind has (and any part the draft
 * already holds). Each is a list editor over one JSON path of the schema; `change` gets the whole new draft.
 */
export function editorTabs(draft: Doc, problems: Problem[], change: (doc: Doc) => void): EditorTab[] {
  const kind = String(draft.kind ?? '');
  const listKind = ['list', 'tree-list', 'master-detail', 'report'].includes(kind);
  const get = (path: string[]) => {
    let v: unknown = draft;
    for (const k of path) v = (v as Doc | undefined)?.[k];
    return Array.isArray(v) ? (v as Doc[]) : [];
  };
  const pointer = (path: string[]) => `/${path.join('/')}`;
  const list = (label: string, path: string[], fields: ListEditorField[], newItem: () => Doc, expand?: Parameters<typeof ListEditor>[0]['expand']) => (
    <ListEditor label={label} path={pointer(path)} items={get(path)} fields={fields} problems={problems} onChange={(v) => change(setIn(draft, path, v))} newItem={newItem} expand={expand} />
  );
  /** A nested list inside an item of a list (a sub-table's columns, a section's items). */
  const nested = (label: string, at: string, item: Doc, key: string, fields: ListEditorField[], set: (item: Doc) => void, newItem: () => Doc) => (
    <ListEditor
      label={label}
      path={`${at}/${key}`}
      items={Array.isArray(item[key]) ? item[key] : []}
      fields={fields}
      problems={problems}
      onChange={(v) => set(v.length ? { ...item, [key]: v } : Object.fromEntries(Object.entries(item).filter(([k]) => k !== key)))}
      newItem={newItem}
    />
  );
  /** The rest of an item as JSON (what the row's inputs do not show). */
  const json = (label: string, at: string) => (item: Doc, i: number, set: (item: Doc) => void) => (
    <div>
      <Typography.Text type="secondary">全部属性（JSON）</Typography.Text>
      <JsonInput aria={`${label} ${i + 1} JSON`} rows={4} status={problemsUnder(problems, `${at}/${i}`).length ? 'error' : undefined} value={item} onChange={(v) => v && typeof v === 'object' && !Array.isArray(v) && set(v as Doc)} />
    </div>
  );
  const tabs: Array<EditorTab & { path: string }> = [];
  const add = (key: string, label: string, path: string, children: ReactNode) => tabs.push({ key, label, path, children });

  if (listKind || draft.columns) add('columns', '列表列', '/columns', list('列', ['columns'], COLUMN_FIELDS, () => ({ dataIndex: '', title: '新列' })));
  if (listKind || draft.query) add('query', '查询条件', '/query', list('查询条件', ['query', 'fields'], QUERY_FIELDS, () => ({ name: '', label: '新条件' })));
  if (listKind || kind === 'form' || draft.form?.fields) add('form', '表单字段', '/form/fields', list('表单字段', ['form', 'fields'], FORM_FIELDS, () => ({ name: '', label: '新字段' })));
  if (listKind || draft.form?.subTables)
    add(
      'subTables',
      '子表',
      '/form/subTables',
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">一对多子表：在表单中以标签页编辑；展开一行编辑它的列。</Typography.Text>
        {list('子表', ['form', 'subTables'], SUB_TABLE_FIELDS, () => ({ key: `sub${get(['form', 'subTables']).length + 1}`, title: '新子表', columns: [{ key: 'name', title: '名称' }] }), (item, i, set) =>
          nested('子表列', `/form/subTables/${i}`, item, 'columns', SUB_COLUMN_FIELDS, set, () => ({ key: '', title: '新列' })),
        )}
      </Space>,
    );
  if (kind === 'dashboard' || draft.panels) {
    add('panels', '看板面板', '/panels', list('面板', ['panels'], PANEL_FIELDS, () => ({ type: 'stat', key: `panel${get(['panels']).length + 1}`, title: '新面板', url: '/sys/user/list', field: 'total', span: 6 }), json('面板', '/panels')));
    add('filters', '看板筛选', '/filters', list('筛选条件', ['filters'], FILTER_FIELDS, () => ({ name: '', label: '新条件' })));
  }
  if (['detail', 'result'].includes(kind) || (draft.sections && kind !== 'dashboard'))
    add(
      'sections',
      '区块',
      '/sections',
      list('区块', ['sections'], SECTION_FIELDS, () => ({ title: '新区块', items: [{ label: '名称', field: 'name' }] }), (item, i, set) =>
        Array.isArray(item.items) ? nested('描述项', `/sections/${i}`, item, 'items', ITEM_FIELDS, set, () => ({ label: '新项', field: '' })) : json('区块', '/sections')(item, i, set),
      ),
    );
  if (kind === 'tabs' || draft.tabs) add('tabs', '标签页', '/tabs', list('标签页', ['tabs'], TAB_FIELDS, () => ({ key: `tab${get(['tabs']).length + 1}`, label: '新标签页', page: '' })));
  if (listKind || draft.actions || kind === 'detail') {
    const groups: Array<[string, string]> = listKind ? [['toolbar', '工具栏按钮'], ['row', '行按钮'], ['batch', '批量按钮']] : [['row', '按钮']];
    add(
      'actions',
      '按钮',
      '/actions',
      <Space direction="vertical" style={{ width: '100%' }}>
        {!draft.actions && listKind && <Typography.Text type="secondary">未配置按钮时使用默认按钮（新增、导入、导出、批量删除；行：编辑、详情、删除）。</Typography.Text>}
        {groups.map(([group, title]) => (
          <div key={group}>
            <Typography.Text strong>{title}</Typography.Text>
            {list(title, ['actions', group], actionFields(), () => ({ key: `action${get(['actions', group]).length + 1}`, label: '新按钮', type: 'reload' }))}
          </div>
        ))}
      </Space>,
    );
  }
  // A tab shows how many problems lie under its part of the schema.
  return tabs.map(({ path, label, ...t }) => {
    const n = problemsUnder(problems, path).length;
    return { ...t, label: n ? <Badge count={n} size="small" offset={[8, -2]}>{label}</Badge> : label };
  });
}
