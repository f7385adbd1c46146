import { useEffect, useMemo, type ReactNode } from 'react';
import { Alert, Button, Input, InputNumber, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { observer, useForm } from '@formily/react';
import { checkIndexTree, round2, type IndexNode } from '@shared/rules';
import { dataProvider } from '@core/data';

/** One index of an index system as `/supervisor/index/add|edit` take it (`indexList`) and `queryById` returns it. */
export interface IndexTreeItem {
  name?: string;
  maxScore?: number | null;
  code?: string | null;
  description?: string | null;
  weight?: number | null;
  children?: IndexTreeItem[];
}

export interface IndexTreeEditorProps {
  value?: IndexTreeItem[];
  onChange?: (v: IndexTreeItem[]) => void;
  disabled?: boolean;
  readOnly?: boolean;
}

/** The editable part of a loaded index (ids, set and level are the server's). */
const editable = (i: IndexTreeItem): IndexTreeItem => ({
  name: i.name ?? '',
  maxScore: i.maxScore === null || i.maxScore === undefined ? null : Number(i.maxScore),
  code: i.code ?? null,
  description: i.description ?? null,
  weight: i.weight === null || i.weight === undefined ? null : Number(i.weight),
  ...(i.children ? { children: i.children.map(editable) } : {}),
});

/** The tree as the server's publish check sees it (checkIndexTree in shared/rules.ts). */
function asNodes(tree: IndexTreeItem[]): IndexNode[] {
  return tree.flatMap((p, i) => [
    { id: `${i}`, parentId: null, level: 1, name: p.name || `第${i + 1}个一级指标`, maxScore: Number(p.maxScore ?? 0) },
    ...(p.children ?? []).map((c, j) => ({ id: `${i}.${j}`, parentId: `${i}`, level: 2, name: c.name || `第${j + 1}个二级指标`, maxScore: Number(c.maxScore ?? 0) })),
  ]);
}

/**
 * The two-level tree of an index system: first-level indexes with their scores, each with its
 * second-level indexes. Shows, as it is edited, what publishing would refuse (the first-level scores
 * must add up to the full score, each one's second-level scores to its own). Editing a saved system
 * loads its tree (the list row carries none). Value: `indexList` of the index API.
 */
export const IndexTreeEditor = observer(function IndexTreeEditor({ value, onChange, disabled, readOnly }: IndexTreeEditorProps) {
  const form = useForm() as ReturnType<typeof useForm> | undefined;
  const values = (form?.values ?? {}) as Record<string, unknown>;
  const id = typeof values.id === 'string' ? values.id : undefined;
  const fullScore = Number(values.fullScore ?? 100);
  const tree = useMemo(() => value ?? [], [value]);
  const locked = disabled || readOnly;

  useEffect(() => {
    if (!id || value?.length || !onChange) return;
    let live = true;
    void dataProvider.getOne<{ indexList?: IndexTreeItem[] }>('/supervisor/index', id).then((r) => {
      const list = r.success ? r.result?.indexList : undefined;
      if (live && list?.length) onChange(list.map(editable));
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id]);

  const change = (next: IndexTreeItem[]) => onChange?.(next);
  const setRoot = (i: number, patch: IndexTreeItem) => change(tree.map((p, k) => (k === i ? { ...p, ...patch } : p)));
  const setChild = (i: number, j: number, patch: IndexTreeItem) =>
    setRoot(i, { children: (tree[i]!.children ?? []).map((c, k) => (k === j ? { ...c, ...patch } : c)) });
  const problem = tree.length ? checkIndexTree(asNodes(tree), fullScore) : '请至少添加一个一级指标';
  const total = round2(tree.reduce((s, p) => s + Number(p.maxScore ?? 0), 0));

  const row = (label: string, item: IndexTreeItem, set: (patch: IndexTreeItem) => void, remove: () => void, extra?: ReactNode, indent = 0) => (
    <div style={{ display: 'flex', gap: 8, alignItems: 'center', marginBottom: 8, paddingLeft: indent }}>
      {locked ? (
        <span style={{ flex: 1, fontWeight: indent ? undefined : 600 }}>{item.name}</span>
      ) : (
        <Input aria-label={`${label}名称`} placeholder={`${label}名称`} value={item.name} onChange={(e) => set({ name: e.target.value })} style={{ flex: 1 }} />
      )}
      {locked ? (
        <span style={{ width: 110, textAlign: 'right' }}>{item.maxScore} 分</span>
      ) : (
        <InputNumber aria-label={`${label}分值`} placeholder="分值" min={0} max={1000} step={0.5} value={item.maxScore} onChange={(n) => set({ maxScore: n === null ? null : Number(n) })} suffix="分" style={{ width: 120 }} />
      )}
      {!locked && extra}
      {!locked && <Button type="text" danger icon={<DeleteOutlined />} aria-label={`删除${label}`} onClick={remove} />}
    </div>
  );

  return (
    <div data-testid="index-tree-editor">
      {tree.map((p, i) => (
        <div key={i} style={{ border: '1px solid #f0f0f0', borderRadius: 4, padding: '8px 8px 0', marginBottom: 8 }}>
          {row(
            '一级指标',
            p,
            (patch) => setRoot(i, patch),
            () => change(tree.filter((_, k) => k !== i)),
            <Button icon={<PlusOutlined />} onClick={() => setRoot(i, { children: [...(p.children ?? []), { name: '', maxScore: null }] })}>
              二级指标
            </Button>,
          )}
          {(p.children ?? []).map((c, j) => (
            <div key={j}>
              {row(
                '二级指标',
                c,
                (patch) => setChild(i, j, patch),
                () => setRoot(i, { children: (p.children ?? []).filter((_, k) => k !== j) }),
                undefined,
                24,
              )}
            </div>
          ))}
        </div>
      ))}
      {!locked && (
        <Button type="dashed" block icon={<PlusOutlined />} onClick={() => change([...tree, { name: '', maxScore: null, children: [] }])} style={{ marginBottom: 8 }}>
          添加一级指标
        </Button>
      )}
      <Typography.Text type="secondary" data-testid="index-tree-total">
        一级指标合计 {total} 分 / 满分 {fullScore} 分
      </Typography.Text>
      {problem && tree.length > 0 && !locked && <Alert style={{ marginTop: 8 }} type="warning" showIcon message={`发布前需修正：${problem}`} />}
    </div>
  );
});
