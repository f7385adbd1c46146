import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, App, Button, Card, Checkbox, Col, Empty, Flex, Input, InputNumber, Row, Select, Space, Switch, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { http } from '@core/http/client';
import { outputKey, type ReportColumnSpec, type ReportSpec } from '@shared/report-spec';
import { ReportView } from './ReportView';

/**
 * 报表配置's builder (issue 31), opened by the list's 新增 / 编辑 (`widget` action, widget `ReportBuilder`):
 * a base entity the author may read, relations along the entity's declared ones, columns, aggregates,
 * filters (a fixed value or a parameter asked at run time), order, row limit, chart, 明细 columns — and a
 * live preview beside it (POST /online/cgreport/design/view). It edits the structure only; the server
 * compiles and checks it (server/online/report-builder.ts).
 */
interface ModelField {
  name: string;
  title: string;
  type: string;
  dict?: string;
}
interface ModelEntity {
  name: string;
  title: string;
  fields: ModelField[];
  relations: Array<{ name: string; title: string; entity: string; entityTitle: string; fields: ModelField[] }>;
}
type Fn = 'count' | 'sum' | 'avg' | 'min' | 'max';
type Op = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le' | 'like';
interface FilterRow {
  field: string;
  op: Op;
  value?: string;
  asParam: boolean;
  label?: string;
}
interface State {
  name: string;
  code: string;
  entity?: string;
  joins: string[];
  columns: ReportColumnSpec[];
  aggregates: Array<{ fn: Fn; field?: string; label?: string }>;
  filters: FilterRow[];
  order?: string;
  desc: boolean;
  limit?: number;
  chart: { type?: 'bar' | 'line' | 'pie'; x?: string; series: string[] };
  detail: string[];
}

const FNS: Array<{ value: Fn; label: string }> = [
  { value: 'count', label: '计数' },
  { value: 'sum', label: '合计' },
  { value: 'avg', label: '平均' },
  { value: 'min', label: '最小' },
  { value: 'max', label: '最大' },
];
const OPS: Array<{ value: Op; label: string }> = [
  { value: 'eq', label: '等于' },
  { value: 'ne', label: '不等于' },
  { value: 'like', label: '包含' },
  { value: 'gt', label: '大于' },
  { value: 'ge', label: '大于等于' },
  { value: 'lt', label: '小于' },
  { value: 'le', label: '小于等于' },
];
const FORMATS = [
  { value: 'number', label: '数字' },
  { value: 'percent', label: '百分比' },
  { value: 'money', label: '金额' },
  { value: 'date', label: '日期' },
  { value: 'datetime', label: '日期时间' },
];
const NUMERIC = new Set(['integer', 'bigint', 'number']);
const EMPTY: State = { name: '', code: '', joins: [], columns: [], aggregates: [], filters: [], desc: true, chart: { series: [] }, detail: [] };
const aggKey = (i: number) => `agg${i + 1}`;
/** One editable row (a column, a statistic, a condition): separated when it wraps on a narrow screen. */
const ROW = { padding: '6px 0', borderBottom: '1px dashed var(--ant-color-split, #f0f0f0)' } as const;

/** The structure the server compiles. */
export function specOf(s: State, fieldOf: (f: string) => ModelField | undefined): ReportSpec | undefined {
  if (!s.entity) return undefined;
  const columns = s.columns.filter((c) => c.field);
  const aggregates = s.aggregates.map((a, i) => ({ fn: a.fn, ...(a.field ? { field: a.field } : {}), as: aggKey(i), ...(a.label ? { label: a.label } : {}) }));
  const params: NonNullable<ReportSpec['params']> = [];
  const filters = s.filters
    .filter((f) => f.field)
    .map((f, i) => {
      if (!f.asParam) return { field: f.field, op: f.op, value: f.value ?? '' };
      const fd = fieldOf(f.field);
      const name = `p${i + 1}`;
      params.push({ name, label: f.label || fd?.title || f.field, ...(fd?.dict ? { dict: fd.dict } : {}), type: fd?.type === 'date' ? 'date' : fd && NUMERIC.has(fd.type) ? 'number' : 'string' });
      return { field: f.field, op: f.op, param: name };
    });
  return {
    entity: s.entity,
    joins: s.joins,
    columns,
    aggregates,
    filters,
    params,
    ...(s.order ? { orderBy: [{ field: s.order, desc: s.desc }] } : {}),
    ...(s.limit ? { limit: s.limit } : {}),
    ...(s.chart.type && s.chart.x && s.chart.series.length ? { chart: { type: s.chart.type, x: s.chart.x, series: s.chart.series } } : {}),
    ...(aggregates.length && s.detail.length ? { detail: s.detail.map((f, i) => ({ field: f, link: i === 0 })) } : {}),
  };
}

function stateOf(name: string, code: string, spec: ReportSpec): State {
  const cols = (spec.columns ?? []).map((c) => (typeof c === 'string' ? { field: c } : c));
  return {
    name,
    code,
    entity: spec.entity,
    joins: spec.joins ?? [],
    columns: cols,
    aggregates: (spec.aggregates ?? []).map((a) => ({ fn: a.fn, field: a.field, label: a.label })),
    filters: (spec.filters ?? []).map((f) => ({ field: f.field, op: f.op, value: f.value === undefined ? undefined : String(f.value), asParam: !!f.param, label: spec.params?.find((p) => p.name === f.param)?.label })),
    order: spec.orderBy?.[0]?.field,
    desc: !!spec.orderBy?.[0]?.desc,
    limit: spec.limit,
    chart: { type: spec.chart?.type, x: spec.chart?.x, series: spec.chart?.series ?? [] },
    detail: (spec.detail ?? []).map((d) => d.field),
  };
}

function Section({ title, extra, children, testId }: { title: string; extra?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <Card size="small" title={title} extra={extra} style={{ marginBottom: 12 }} data-testid={testId}>
      {children}
    </Card>
  );
}

export function ReportBuilder({ record, onClose, onDone }: { record?: { id?: string; stored?: number }; onClose?: () => void; onDone?: () => void }) {
  const { message } = App.useApp();
  const [model, setModel] = useState<ModelEntity[]>();
  const [error, setError] = useState<string>();
  const [s, setS] = useState<State>(EMPTY);
  const [saving, setSaving] = useState(false);
  const id = record?.stored ? record.id : undefined;

  useEffect(() => {
    void http.get<ModelEntity[]>('/online/cgreport/design/model').then((r) => (r.success ? setModel(r.result) : setError(r.message)));
    if (id) void http.get<{ name: string; code: string; spec: ReportSpec }>('/online/cgreport/design/get', { id }).then((r) => r.success && setS(stateOf(r.result.name, r.result.code, r.result.spec)));
  }, [id]);

  const base = model?.find((m) => m.name === s.entity);
  const fieldOptions = useMemo(() => {
    if (!base) return [];
    return [
      { label: base.title, options: base.fields.map((f) => ({ value: f.name, label: f.title })) },
      ...base.relations.filter((r) => s.joins.includes(r.name)).map((r) => ({ label: r.title, options: r.fields.map((f) => ({ value: `${r.name}.${f.name}`, label: `${r.title}·${f.title}` })) })),
    ];
  }, [base, s.joins]);
  const fieldOf = (f: string): ModelField | undefined => {
    if (!base) return undefined;
    const [a, b] = f.split('.');
    return b ? base.relations.find((r) => r.name === a)?.fields.find((x) => x.name === b) : base.fields.find((x) => x.name === a);
  };
  const labelOf = (f: string) => {
    const fd = fieldOf(f);
    const rel = f.includes('.') ? base?.relations.find((r) => r.name === f.split('.')[0])?.title : undefined;
    return fd ? (rel ? `${rel}·${fd.title}` : fd.title) : f;
  };

  // The outputs (for order and chart): columns, then aggregates.
  const outputs = [
    ...s.columns.filter((c) => c.field).map((c) => ({ value: outputKey(c.field), label: c.label || labelOf(c.field), numeric: NUMERIC.has(fieldOf(c.field)?.type ?? '') })),
    ...s.aggregates.map((a, i) => ({ value: aggKey(i), label: a.label || `${a.field ? labelOf(a.field) : '记录'}${FNS.find((f) => f.value === a.fn)!.label}`, numeric: true })),
  ];

  // The preview follows the structure half a second after the last change.
  const spec = useMemo(() => specOf(s, fieldOf), [s, model]); // eslint-disable-line react-hooks/exhaustive-deps
  const [shown, setShown] = useState<ReportSpec>();
  const specKey = JSON.stringify(spec ?? null);
  useEffect(() => {
    const t = setTimeout(() => setShown(spec), 500);
    return () => clearTimeout(t);
  }, [specKey]); // eslint-disable-line react-hooks/exhaustive-deps

  const set = (patch: Partial<State>) => setS((x) => ({ ...x, ...patch }));
  const setAt = <K extends 'columns' | 'aggregates' | 'filters'>(key: K, i: number, patch: Partial<State[K][number]>) =>
    setS((x) => ({ ...x, [key]: (x[key] as Array<State[K][number]>).map((r, j) => (j === i ? { ...r, ...patch } : r)) }));
  const removeAt = (key: 'columns' | 'aggregates' | 'filters', i: number) => setS((x) => ({ ...x, [key]: (x[key] as unknown[]).filter((_, j) => j !== i) }));

  const save = async () => {
    if (!s.name.trim()) return message.warning('请填写报表名称');
    if (!s.code.trim()) return message.warning('请填写报表编码');
    if (!spec) return message.warning('请选择数据来源');
    setSaving(true);
    const r = await http.post<{ id: string }>('/online/cgreport/design/save', { id, name: s.name, code: s.code, spec });
    setSaving(false);
    if (!r.success) return message.error(r.message);
    message.success(r.message || '保存成功');
    onDone?.();
    onClose?.();
  };

  if (error) return <Alert type="error" showIcon message={error} />;
  const del = (key: 'columns' | 'aggregates' | 'filters', i: number) => <Button type="text" danger icon={<DeleteOutlined />} aria-label="删除" onClick={() => removeAt(key, i)} />;
  const fieldSelect = (value: string | undefined, onChange: (v: string) => void, testId: string, only?: (f: string) => boolean) => (
    <Select
      showSearch
      optionFilterProp="label"
      placeholder="字段"
      data-testid={testId}
      style={{ width: 170 }}
      value={value || undefined}
      onChange={onChange}
      options={only ? fieldOptions.map((g) => ({ ...g, options: g.options.filter((o) => only(o.value)) })) : fieldOptions}
    />
  );

  return (
    <Row gutter={[16, 16]} data-testid="report-builder">
      <Col xs={24} xl={12}>
        <Section title="基本信息">
          <Flex gap={12} wrap>
            <Input addonBefore="报表名称" placeholder="如：各部门听课等级统计" value={s.name} onChange={(e) => set({ name: e.target.value })} style={{ flex: '1 1 260px' }} data-testid="report-name" />
            <Input addonBefore="报表编码" placeholder="小写字母开头，如 lecture_by_dept" value={s.code} onChange={(e) => set({ code: e.target.value })} style={{ flex: '1 1 260px' }} data-testid="report-code" />
          </Flex>
        </Section>
        <Section title="数据来源">
          <Space direction="vertical" style={{ width: '100%' }}>
            <Select
              showSearch
              optionFilterProp="label"
              placeholder="主实体（你有权查看的数据）"
              style={{ width: '100%' }}
              data-testid="report-entity"
              value={s.entity}
              onChange={(entity: string) => setS({ ...EMPTY, name: s.name, code: s.code, entity })}
              options={(model ?? []).map((m) => ({ value: m.name, label: `${m.title}（${m.name}）` }))}
            />
            {base && base.relations.length > 0 && (
              <div>
                <Typography.Text type="secondary">关联（沿实体声明的关系）：</Typography.Text>
                <Checkbox.Group data-testid="report-joins" value={s.joins} onChange={(v) => set({ joins: v as string[] })} options={base.relations.map((r) => ({ value: r.name, label: `${r.title}（${r.entityTitle}）` }))} />
              </div>
            )}
          </Space>
        </Section>
        {base && (
          <>
            <Section title="列" testId="report-columns" extra={<Button size="small" icon={<PlusOutlined />} onClick={() => set({ columns: [...s.columns, { field: '' }] })}>添加列</Button>}>
              {!s.columns.length && <Typography.Text type="secondary">添加要显示的列；有统计时它们就是分组字段。</Typography.Text>}
              {s.columns.map((c, i) => (
                <Flex key={i} gap={8} wrap align="center" style={ROW} data-testid={`report-column-${i}`}>
                  {fieldSelect(c.field, (field) => setAt('columns', i, { field, dict: undefined }), `report-column-field-${i}`)}
                  <Input placeholder="标题" style={{ width: 100 }} value={c.label} onChange={(e) => setAt('columns', i, { label: e.target.value })} />
                  <Input placeholder={fieldOf(c.field)?.dict ?? '字典编码'} style={{ width: 100 }} value={c.dict} onChange={(e) => setAt('columns', i, { dict: e.target.value || undefined })} />
                  <Select allowClear placeholder="格式" style={{ width: 88 }} value={c.format} onChange={(format) => setAt('columns', i, { format })} options={FORMATS} />
                  <Checkbox checked={!!c.link} onChange={(e) => setAt('columns', i, { link: e.target.checked || undefined })}>链接到记录</Checkbox>
                  {del('columns', i)}
                </Flex>
              ))}
            </Section>
            <Section title="分组统计" testId="report-aggregates" extra={<Button size="small" icon={<PlusOutlined />} onClick={() => set({ aggregates: [...s.aggregates, { fn: 'count' }] })}>添加统计</Button>}>
              {!s.aggregates.length && <Typography.Text type="secondary">不加统计时逐条列出记录；加了统计就按上面的列分组。</Typography.Text>}
              {s.aggregates.map((a, i) => (
                <Flex key={i} gap={8} wrap align="center" style={ROW} data-testid={`report-aggregate-${i}`}>
                  <Select style={{ width: 100 }} value={a.fn} onChange={(fn: Fn) => setAt('aggregates', i, { fn })} options={FNS} />
                  {a.fn === 'count' ? (
                    <Typography.Text type="secondary" style={{ width: 170, display: 'inline-block' }}>记录数</Typography.Text>
                  ) : (
                    fieldSelect(a.field, (field) => setAt('aggregates', i, { field }), `report-aggregate-field-${i}`, (f) => a.fn === 'min' || a.fn === 'max' || NUMERIC.has(fieldOf(f)?.type ?? ''))
                  )}
                  <Input placeholder="标题" style={{ width: 130 }} value={a.label} onChange={(e) => setAt('aggregates', i, { label: e.target.value })} data-testid={`report-aggregate-label-${i}`} />
                  {del('aggregates', i)}
                </Flex>
              ))}
              {s.aggregates.length > 0 && (
                <div style={{ marginTop: 8 }}>
                  <Typography.Text type="secondary">明细列（点“明细”列出该组的记录，第一列链接到记录）：</Typography.Text>
                  <Select mode="multiple" optionFilterProp="label" style={{ width: '100%' }} placeholder="主实体的字段" value={s.detail} onChange={(detail: string[]) => set({ detail })} options={base.fields.map((f) => ({ value: f.name, label: f.title }))} data-testid="report-detail" />
                </div>
              )}
            </Section>
            <Section title="条件与参数" testId="report-filters" extra={<Button size="small" icon={<PlusOutlined />} onClick={() => set({ filters: [...s.filters, { field: '', op: 'eq', asParam: true }] })}>添加条件</Button>}>
              {!s.filters.length && <Typography.Text type="secondary">固定值条件每次都生效；“运行时询问”的条件是报表参数，留空即不筛选。</Typography.Text>}
              {s.filters.map((f, i) => (
                <Flex key={i} gap={8} wrap align="center" style={ROW} data-testid={`report-filter-${i}`}>
                  {fieldSelect(f.field, (field) => setAt('filters', i, { field }), `report-filter-field-${i}`)}
                  <Select style={{ width: 100 }} value={f.op} onChange={(op: Op) => setAt('filters', i, { op })} options={OPS} />
                  <Switch checkedChildren="运行时询问" unCheckedChildren="固定值" checked={f.asParam} onChange={(asParam) => setAt('filters', i, { asParam })} />
                  {f.asParam ? (
                    <Input placeholder={`参数名称（${f.field ? labelOf(f.field) : '字段标题'}）`} style={{ width: 170 }} value={f.label} onChange={(e) => setAt('filters', i, { label: e.target.value })} />
                  ) : (
                    <Input placeholder="值" style={{ width: 170 }} value={f.value} onChange={(e) => setAt('filters', i, { value: e.target.value })} />
                  )}
                  {del('filters', i)}
                </Flex>
              ))}
            </Section>
            <Section title="排序、行数与图表">
              <Flex gap={12} wrap align="center" style={{ marginBottom: 12 }}>
                <Select allowClear placeholder="排序列" style={{ width: 200 }} value={s.order} onChange={(order) => set({ order })} options={outputs} data-testid="report-order" />
                <Switch checkedChildren="降序" unCheckedChildren="升序" checked={s.desc} onChange={(desc) => set({ desc })} />
                <InputNumber min={1} max={5000} placeholder="最多行数（1000）" style={{ width: 170 }} value={s.limit} onChange={(v) => set({ limit: v ?? undefined })} />
              </Flex>
              <Flex gap={12} wrap align="center">
                <Select
                  allowClear
                  placeholder="图表"
                  style={{ width: 120 }}
                  value={s.chart.type}
                  onChange={(type) => set({ chart: { ...s.chart, type } })}
                  options={[{ value: 'bar', label: '柱状图' }, { value: 'line', label: '折线图' }, { value: 'pie', label: '饼图' }]}
                  data-testid="report-chart-type"
                />
                <Select placeholder="分类列" style={{ width: 180 }} value={s.chart.x} onChange={(x) => set({ chart: { ...s.chart, x } })} options={outputs} data-testid="report-chart-x" />
                <Select mode="multiple" optionFilterProp="label" placeholder="数值列" style={{ minWidth: 200, flex: 1 }} value={s.chart.series} onChange={(series: string[]) => set({ chart: { ...s.chart, series } })} options={outputs.filter((o) => o.numeric)} data-testid="report-chart-series" />
              </Flex>
            </Section>
          </>
        )}
        <Flex gap={8} justify="flex-end" style={{ position: 'sticky', bottom: 0, background: 'var(--ant-color-bg-container, #fff)', padding: '8px 0' }}>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={saving} onClick={() => void save()} data-testid="report-save">保存</Button>
        </Flex>
      </Col>
      <Col xs={24} xl={12}>
        <Card size="small" title="预览" data-testid="report-preview" style={{ position: 'sticky', top: 0 }}>
          {shown ? <ReportView spec={shown} compact /> : <Empty description="选择主实体和列后在这里预览" />}
        </Card>
      </Col>
    </Row>
  );
}
