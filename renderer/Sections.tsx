import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, Descriptions, Empty, Spin, Table, Tag, Timeline, Typography } from 'antd';
import { fileUrl, http } from '@core/http/client';
import { dictText, useDicts, type DictOption } from '@core/dict';
import { formatValue } from '@shared/format';
import type { DisplayItem, SectionSchema, TableSectionSchema, TimelineSchema } from '@shared/page-schema';
import { fillValues, type Row } from './registry';
import { Region } from './Region';

const TreeAssign = lazy(() => import('./TreeAssign'));

/*
 * The sections of a record (detail pages, tabs): description items with their formats, bound regions
 * (another page schema with parameters from the record), a timeline of the record's log, and a
 * checkable tree assignment of the record (the `treeAssign` action drawn in place).
 */

type Dicts = Record<string, DictOption[]>;
const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/** The dictionary codes sections use (items, timelines). */
export function sectionDicts(sections: SectionSchema[] | undefined): string[] {
  return (sections ?? [])
    .flatMap((s) => [...(s.items ?? []).map((i) => i.dict), ...(s.table?.columns ?? []).map((c) => c.dict), s.timeline?.actionDict, s.timeline?.statusDict])
    .filter((d): d is string => !!d);
}

/** A value as a tag: the dictionary's text and colour (a `colors` entry wins). */
function DictTag({ value, text, dict, colors }: { value: unknown; text?: unknown; dict?: DictOption[]; colors?: Record<string, string> }) {
  const v = str(value);
  if (!v) return null;
  const item = dict?.find((d) => d.value === v);
  return <Tag color={colors?.[v] ?? item?.color}>{str(text) || item?.text || v}</Tag>;
}

/** Links to stored files (comma-separated paths), under the names they were uploaded with when known. */
export function FileLinks({ value, names }: { value: unknown; names?: Record<string, string> }) {
  const paths = str(value).split(',').filter(Boolean);
  if (!paths.length) return null;
  return (
    <span className="schema-files">
      {paths.map((p) => (
        <a key={p} href={fileUrl(p)} target="_blank" rel="noreferrer" style={{ marginRight: 8 }}>
          {names?.[p] || p.split('/').pop()}
        </a>
      ))}
    </span>
  );
}

const namesOf = (record: Row, field?: string) => (field && record[field] && typeof record[field] === 'object' ? (record[field] as Record<string, string>) : undefined);

/** One description item's value in its format. */
export function displayValue(it: DisplayItem, record: Row, dicts: Dicts): ReactNode {
  const v = it.field ? record[it.field] : it.value;
  const dictName = it.field ? record[`${it.field}_dictText`] : undefined;
  if (it.format === 'tag') return <DictTag value={v} text={dictName} dict={it.dict ? dicts[it.dict] : undefined} colors={it.colors} />;
  if (it.format === 'files') return <FileLinks value={v} names={namesOf(record, it.fileNames)} />;
  const text = it.dict ? (dictName !== undefined && dictName !== null ? str(dictName) : dictText(dicts[it.dict], v)) : formatValue(v, it.format === 'text' ? undefined : it.format, { precision: it.precision });
  return text && it.suffix ? `${text}${it.suffix}` : text;
}

function Items({ section, record, dicts }: { section: SectionSchema; record: Row; dicts: Dicts }) {
  const cols = section.columns ?? 2;
  return (
    <Descriptions
      className="schema-descriptions"
      bordered
      size="small"
      column={{ xs: 1, sm: 1, md: Math.min(cols, 2), lg: cols, xl: cols, xxl: cols }}
      styles={{ label: { whiteSpace: 'nowrap', width: 1 } }}
      items={(section.items ?? []).map((it, j) => ({
        key: j,
        label: it.label,
        // Never wider than the row of the screen it is drawn on (phones: one column).
        span: it.span ? { xs: 1, sm: 1, md: Math.min(it.span, cols, 2), lg: Math.min(it.span, cols), xl: Math.min(it.span, cols), xxl: Math.min(it.span, cols) } : undefined,
        children: displayValue(it, record, dicts),
      }))}
    />
  );
}

/** The record's log as a timeline: who, when, action, the status reached, comment and attachments. */
function LogTimeline({ timeline: t, record, dicts }: { timeline: TimelineSchema; record: Row; dicts: Dicts }) {
  const f = { who: 'who', when: 'when', action: 'action', comment: 'comment', attachments: 'attachments', note: 'note', ...t.fields };
  const [fetched, setFetched] = useState<{ rows?: Row[]; error?: string }>({});
  const params = useMemo(() => (t.url && t.params ? fillValues(t.params, record) : undefined), [t, record]);
  useEffect(() => {
    if (!t.url) return;
    let live = true;
    void http.get<Row[] | { records: Row[] }>(t.url, params).then((r) => {
      if (!live) return;
      if (r.success) setFetched({ rows: Array.isArray(r.result) ? r.result : (r.result?.records ?? []) });
      else setFetched({ error: r.message });
    });
    return () => {
      live = false;
    };
  }, [t.url, params]);
  if (fetched.error) return <Alert type="warning" message={fetched.error} />;
  const rows = t.url ? fetched.rows : Array.isArray(record[t.field ?? '']) ? (record[t.field!] as Row[]) : [];
  if (!rows) return <Spin />;
  if (!rows.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无记录" />;
  const names = namesOf(record, t.fileNames);
  const list = t.reverse ? [...rows].reverse() : rows;
  return (
    <Timeline
      className="schema-timeline"
      items={list.map((l, i) => ({
        key: str(l.id) || i,
        children: (
          <div className="schema-timeline-item">
            <Typography.Text strong>{t.actionDict ? dictText(dicts[t.actionDict], l[f.action]) : str(l[`${f.action}_dictText`] ?? l[f.action])}</Typography.Text>{' '}
            <span style={{ marginLeft: 4 }}>{str(l[f.who])}</span>{' '}
            <Typography.Text type="secondary" style={{ marginLeft: 4 }}>
              {formatValue(l[f.when], 'datetime')}
              {str(l[f.note]) ? `（${str(l[f.note])}）` : ''}
            </Typography.Text>{' '}
            {f.status && str(l[f.status]) && (
              <span style={{ marginLeft: 4 }}>
                <DictTag value={l[f.status]} dict={t.statusDict ? dicts[t.statusDict] : undefined} />
              </span>
            )}
            {str(l[f.comment]) && <div className="schema-timeline-comment">意见：{str(l[f.comment])}</div>}
            {str(l[f.attachments]) && (
              <div>
                附件：<FileLinks value={l[f.attachments]} names={names} />
              </div>
            )}
          </div>
        ),
      }))}
    />
  );
}

/**
 * A table of an array field of the record: columns in their formats, a group column whose consecutive
 * equal values merge into one cell, and a summary row of record fields. Its cells wrap to fit a phone.
 */
function RecordTable({ table: t, record, dicts }: { table: TableSectionSchema; record: Row; dicts: Dicts }) {
  const rows = useMemo(() => (Array.isArray(record[t.field]) ? (record[t.field] as Row[]) : []), [record, t.field]);
  // How many rows each group cell spans (0: merged into the cell above).
  const spans = useMemo(() => {
    if (!t.groupBy) return [];
    const out = rows.map(() => 1);
    for (let i = 0, start = 0; i < rows.length; i++) {
      if (i > start && str(rows[i]![t.groupBy]) === str(rows[start]![t.groupBy])) {
        out[start]! += 1;
        out[i] = 0;
      } else start = i;
    }
    return out;
  }, [rows, t.groupBy]);
  const cell = (c: TableSectionSchema['columns'][number], v: unknown) =>
    c.dict ? dictText(dicts[c.dict], v) : formatValue(v, c.format === 'text' ? undefined : c.format, { precision: c.precision });
  const data = rows.map((r, i) => ({ ...r, _key: i }));
  return (
    <Table<Row>
      className="schema-record-table"
      size="small"
      bordered
      rowKey="_key"
      pagination={false}
      dataSource={data}
      // Cells wrap to fit the screen (a phone sees every column); a table too wide still scrolls in itself.
      style={{ overflowX: 'auto' }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" /> }}
      columns={t.columns.map((c) => ({
        key: c.dataIndex,
        dataIndex: c.dataIndex,
        title: c.title,
        width: c.width,
        align: c.align,
        render: (v: unknown) => cell(c, v),
        onCell: c.dataIndex === t.groupBy ? (_: Row, i?: number) => ({ rowSpan: spans[i ?? 0] ?? 1 }) : undefined,
      }))}
      summary={
        t.summary
          ? () => (
              <Table.Summary.Row className="schema-record-table-summary">
                {t.columns.map((c, i) => (
                  <Table.Summary.Cell key={c.dataIndex} index={i} align={c.align}>
                    {i === 0 ? <b>{t.summary!.label}</b> : t.summary!.fields[c.dataIndex] ? <b>{cell(c, record[t.summary!.fields[c.dataIndex]!])}</b> : null}
                  </Table.Summary.Cell>
                ))}
              </Table.Summary.Row>
            )
          : undefined
      }
    />
  );
}

/** A checkable tree assignment of the record, in place (the `treeAssign` action's dialog body). */
function AssignSection({ section, record }: { section: SectionSchema; record: Row }) {
  const action = useMemo(() => ({ key: 'assign', label: section.title ?? '', ...section.treeAssign }), [section]);
  return (
    <Suspense fallback={<Spin />}>
      <TreeAssign action={action} data={record} inline />
    </Suspense>
  );
}

/** The sections of `record` in order. */
export function Sections({ sections, record }: { sections: SectionSchema[]; record: Row }) {
  const dicts = useDicts(useMemo(() => sectionDicts(sections), [sections]));
  return (
    <div className="schema-sections">
      {sections.map((s, i) => (
        <section key={i} className="schema-section" style={{ marginBottom: 20 }}>
          {s.title && (
            <Typography.Title level={5} style={{ marginTop: 0, marginBottom: 12 }}>
              {s.title}
            </Typography.Title>
          )}
          {s.items && <Items section={s} record={record} dicts={dicts} />}
          {s.region && <Region region={s.region} parent={record} />}
          {s.timeline && <LogTimeline timeline={s.timeline} record={record} dicts={dicts} />}
          {s.table && <RecordTable table={s.table} record={record} dicts={dicts} />}
          {s.treeAssign && <AssignSection section={s} record={record} />}
        </section>
      ))}
    </div>
  );
}
