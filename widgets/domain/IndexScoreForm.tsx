import { useEffect, useMemo, useState } from 'react';
import { Alert, InputNumber, Space, Spin, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { observer, useForm } from '@formily/react';
import { gradeOf, leavesOf, type GradeBand } from '@shared/rules';
import { http } from '@core/http/client';
import { dataProvider } from '@core/data';

export interface IndexItem {
  id: string;
  parentId: string | null;
  level: number;
  name: string;
  maxScore: number;
  description?: string | null;
}
/** GET /supervisor/lectureRecord/form */
export interface IndexSystem {
  id: string;
  name: string;
  fullScore: number;
  gradeBands: GradeBand[];
  indexes: IndexItem[];
  leafIds: string[];
}
export interface IndexScore {
  indexId: string;
  score: number | null;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Total of the entered scores, the number of scored leaves, and the grade the server would give. */
export function scoreSummary(system: Pick<IndexSystem, 'gradeBands' | 'leafIds'>, value: IndexScore[] | undefined) {
  const leaves = new Set(system.leafIds);
  const entered = (value ?? []).filter((s) => leaves.has(s.indexId) && s.score !== null && s.score !== undefined && Number.isFinite(Number(s.score)));
  const total = round2(entered.reduce((a, s) => a + Number(s.score), 0));
  const complete = entered.length === leaves.size;
  return { total, scored: entered.length, leaves: leaves.size, complete, grade: complete && system.gradeBands.length ? gradeOf(total, system.gradeBands) : undefined };
}

export interface IndexScoreFormProps {
  value?: IndexScore[];
  onChange?: (v: IndexScore[]) => void;
  disabled?: boolean;
  readOnly?: boolean;
  /** The index system to score against; else loaded from the form's courseTaskId (add) or id (edit). */
  system?: IndexSystem;
}

type TreeRow = IndexItem & { children?: TreeRow[] };

/**
 * Scores of a lecture record against the applicable published index system: the two-level tree with
 * a number input per scored (leaf) index, bounded by its maximum, a live total and grade preview.
 * Value: [{indexId, score}]. The server computes the stored total and grade again.
 */
export const IndexScoreForm = observer(function IndexScoreForm({ value, onChange, disabled, readOnly, system: given }: IndexScoreFormProps) {
  const form = useForm() as ReturnType<typeof useForm> | undefined;
  const values = (form?.values ?? {}) as Record<string, unknown>;
  const recordId = typeof values.id === 'string' ? values.id : undefined;
  const courseTaskId = typeof values.courseTaskId === 'string' ? values.courseTaskId : undefined;
  const [loaded, setLoaded] = useState<IndexSystem>();
  const [error, setError] = useState<string>();
  const system = given ?? loaded;

  useEffect(() => {
    if (given || (!recordId && !courseTaskId)) return;
    let live = true;
    void http.get<IndexSystem>('/supervisor/lectureRecord/form', recordId ? { recordId } : { courseTaskId }).then((r) => {
      if (!live) return;
      if (r.success) {
        setLoaded(r.result);
        setError(undefined);
      } else setError(r.message);
    });
    return () => {
      live = false;
    };
  }, [given, recordId, courseTaskId]);

  // Editing a saved record whose row carries no scores: load them once.
  useEffect(() => {
    if (!recordId || value?.length || !onChange) return;
    let live = true;
    void dataProvider.getOne<{ indexScoreList?: IndexScore[] }>('/supervisor/lectureRecord', recordId).then((r) => {
      const list = r.success ? r.result?.indexScoreList : undefined;
      if (live && list?.length) onChange(list.map((s) => ({ indexId: String(s.indexId), score: s.score === null ? null : Number(s.score) })));
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [recordId]);

  const tree = useMemo<TreeRow[]>(() => {
    if (!system) return [];
    const byParent = new Map<string, IndexItem[]>();
    for (const i of system.indexes) if (i.parentId) byParent.set(i.parentId, [...(byParent.get(i.parentId) ?? []), i]);
    return system.indexes.filter((i) => !i.parentId).map((r) => ({ ...r, children: byParent.get(r.id) }));
  }, [system]);
  const leafSet = useMemo(() => new Set(system ? system.leafIds.length ? system.leafIds : leavesOf(system.indexes).map((l) => l.id) : []), [system]);

  if (error) return <Alert type="error" showIcon message={error} />;
  if (!system) return !recordId && !courseTaskId ? <Typography.Text type="secondary">请先从课表选择课次，再按指标评分</Typography.Text> : <Spin size="small" />;

  const scoreOf = (id: string) => value?.find((s) => s.indexId === id)?.score ?? null;
  const set = (id: string, score: number | null) => {
    const rest = (value ?? []).filter((s) => s.indexId !== id);
    onChange?.([...rest, { indexId: id, score }]);
  };
  const sum = scoreSummary({ gradeBands: system.gradeBands, leafIds: [...leafSet] }, value);
  const subtotal = (r: TreeRow) => round2((r.children ?? []).reduce((a, c) => a + Number(scoreOf(c.id) ?? 0), 0));

  const columns: ColumnsType<TreeRow> = [
    { title: '评价指标', dataIndex: 'name', render: (n: string, r) => (r.level === 1 ? <b>{n}</b> : n) },
    ...(system.indexes.some((i) => i.description) ? [{ title: '说明', dataIndex: 'description', ellipsis: true, render: (d?: string | null) => d ?? '' }] : []),
    { title: '分值', dataIndex: 'maxScore', width: 70 },
    {
      title: '得分',
      key: 'score',
      width: 140,
      render: (_: unknown, r) =>
        leafSet.has(r.id) ? (
          <InputNumber
            aria-label={`${r.name}得分`}
            size="small"
            min={0}
            max={r.maxScore}
            step={0.5}
            precision={2}
            value={scoreOf(r.id)}
            status={scoreOf(r.id) === null ? undefined : ''}
            disabled={disabled || readOnly}
            onChange={(n) => set(r.id, n === null || n === undefined ? null : Math.min(r.maxScore, Math.max(0, Number(n))))}
          />
        ) : (
          <Typography.Text type="secondary">小计 {subtotal(r)}</Typography.Text>
        ),
    },
  ];

  return (
    <div data-testid="index-score-form">
      <Table<TreeRow>
        size="small"
        rowKey="id"
        columns={columns}
        dataSource={tree}
        pagination={false}
        expandable={{ expandedRowKeys: tree.map((r) => r.id), showExpandColumn: false }}
        title={() => `${system.name}（满分 ${system.fullScore}）`}
      />
      <Space style={{ marginTop: 8 }} data-testid="score-summary">
        <span>
          已评 {sum.scored}/{sum.leaves} 项
        </span>
        <span>
          总分 <b data-testid="score-total">{sum.total}</b>
        </span>
        {sum.grade ? <Tag color="blue" data-testid="score-grade">{sum.grade.label}</Tag> : <Typography.Text type="secondary">评完所有指标后显示等级</Typography.Text>}
      </Space>
    </div>
  );
});
