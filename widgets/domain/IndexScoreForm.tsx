import { useEffect, useMemo, useState } from 'react';
import { Alert, Input, Space, Spin, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Field } from '@formily/core';
import { observer, useField, useForm } from '@formily/react';
import { GRADE_COLOR, gradeOf, leavesOf, scoreMessage, scoreProblem, scoreProblems, type GradeBand } from '@shared/rules';
import { http } from '@core/http/client';
import { dataProvider } from '@core/data';
import './IndexScoreForm.css';

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
  /** A number, or the text typed when it is not one (kept so the user sees it; refused at the field and by the server). */
  score: number | string | null;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Total of the entered scores, the number of scored leaves, and the grade the server would give. */
export function scoreSummary(system: Pick<IndexSystem, 'gradeBands' | 'leafIds'> & { indexes?: IndexItem[] }, value: IndexScore[] | undefined) {
  const leaves = new Set(system.leafIds);
  const max = new Map((system.indexes ?? []).map((i) => [i.id, i.maxScore]));
  // Refused scores (not a number, outside 0…max) count for nothing.
  const entered = (value ?? []).filter(
    (s) => leaves.has(s.indexId) && typeof s.score === 'number' && Number.isFinite(s.score) && s.score >= 0 && s.score <= (max.get(s.indexId) ?? Infinity),
  );
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

/** Typed text → the stored score: empty → null, a number → that number, anything else → the text itself. */
export function parseScore(text: string): number | string | null {
  const t = text.trim();
  if (!t) return null;
  return /^-?(\d+\.?\d*|\.\d+)$/.test(t) ? Number(t) : text;
}

/**
 * Scores of a lecture record against the applicable published index system: the two-level tree with
 * a score input per scored (leaf) index (the phone's number keypad), a live total and grade preview.
 * A score outside 0…max or not a number is kept as typed and refused at the field (and by the server,
 * with the same words: shared/rules.ts). In a form whose `status` is SUBMITTED (the 提交 button), every
 * unscored index is named at the field too. Value: [{indexId, score}]. The server computes the stored
 * total and grade again.
 */
export const IndexScoreForm = observer(function IndexScoreForm({ value, onChange, disabled, readOnly, system: given }: IndexScoreFormProps) {
  const form = useForm() as ReturnType<typeof useForm> | undefined;
  const field = useField() as Field | undefined;
  /** Text being typed, by index (so "4." stays "4." until the next digit). */
  const [typed, setTyped] = useState<Record<string, string>>({});
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
  const leaves = useMemo(() => (system ? system.indexes.filter((i) => leafSet.has(i.id)) : []), [system, leafSet]);

  // The field refuses bad scores always, and missing ones when the form is being submitted.
  useEffect(() => {
    if (!field?.setValidator || !leaves.length) return;
    field.setValidator((v: unknown) => {
      const list = (Array.isArray(v) ? v : []) as IndexScore[];
      const submitting = (field.form.values as Record<string, unknown>).status === 'SUBMITTED';
      return scoreMessage(scoreProblems(leaves, list.filter((s) => leafSet.has(s.indexId)), submitting)) ?? '';
    });
    return () => field.setValidator(undefined);
  }, [field, leaves, leafSet]);

  if (error) return <Alert type="error" showIcon message={error} />;
  if (!system) return !recordId && !courseTaskId ? <Typography.Text type="secondary">请先从课表选择课次，再按指标评分</Typography.Text> : <Spin size="small" />;

  const scoreOf = (id: string) => value?.find((s) => s.indexId === id)?.score ?? null;
  const set = (id: string, text: string) => {
    setTyped((t) => ({ ...t, [id]: text }));
    const rest = (value ?? []).filter((s) => s.indexId !== id);
    onChange?.([...rest, { indexId: id, score: parseScore(text) }]);
  };
  const sum = scoreSummary({ gradeBands: system.gradeBands, leafIds: [...leafSet], indexes: system.indexes }, value);
  const numeric = (id: string) => {
    const v = scoreOf(id);
    return typeof v === 'number' && !scoreProblem({ name: '', maxScore: system.indexes.find((i) => i.id === id)?.maxScore ?? 0 }, v) ? v : 0;
  };
  const subtotal = (r: TreeRow) => round2((r.children ?? []).reduce((a, c) => a + numeric(c.id), 0));
  const shown = (id: string) => {
    const v = scoreOf(id);
    const t = typed[id];
    return t !== undefined && parseScore(t) === v ? t : v === null ? '' : String(v);
  };

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
          (() => {
            const problem = scoreProblem(r, scoreOf(r.id));
            return (
              <div>
                <Input
                  aria-label={`${r.name}得分`}
                  aria-invalid={!!problem}
                  inputMode="decimal"
                  autoComplete="off"
                  size="small"
                  style={{ width: 88 }}
                  placeholder={`0–${r.maxScore}`}
                  value={shown(r.id)}
                  status={problem ? 'error' : undefined}
                  className={!problem && scoreOf(r.id) !== null ? 'index-score-ok' : undefined}
                  disabled={disabled || readOnly}
                  onChange={(e) => set(r.id, e.target.value)}
                />
                {problem && (
                  <Typography.Text type="danger" className="index-score-error" style={{ display: 'block', fontSize: 12 }}>
                    {problem.replace(`指标“${r.name}”的`, '')}
                  </Typography.Text>
                )}
              </div>
            );
          })()
        ) : (
          <Typography.Text type="secondary">小计 {subtotal(r)}</Typography.Text>
        ),
    },
  ];

  return (
    <div data-testid="index-score-form" className="index-score-form">
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
        {sum.grade ? <Tag color={GRADE_COLOR[sum.grade.grade]?.tag ?? 'default'} data-testid="score-grade">{sum.grade.label}</Tag> : <Typography.Text type="secondary">评完所有指标后显示等级</Typography.Text>}
      </Space>
    </div>
  );
});
