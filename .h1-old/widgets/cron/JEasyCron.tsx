import { useEffect, useState } from 'react';
import { Button, Checkbox, Input, InputNumber, Modal, Radio, Space, Tabs } from 'antd';
import { changePart, CRON_BOUNDS, CRON_FIELDS, DEFAULT_CRON, formatCron, parseCron, PREVIEW_DEBOUNCE_MS, previewRuns, YEAR_CHOICES, type CronField, type CronMode, type CronModel, type CronPart } from '../logic/cron';

export const CRON_WIDTH = 608;

const LABEL: Record<CronField, string> = { second: '秒', minute: '分', hour: '时', day: '日', month: '月', week: '周', year: '年' };
const WEEK = ['', '周日', '周一', '周二', '周三', '周四', '周五', '周六'];

function modeLabel(f: CronField, m: CronMode): string {
  const u = LABEL[f];
  switch (m) {
    case 'every':
      return `每${u}`;
    case 'unset':
      return '不指定';
    case 'range':
      return '区间';
    case 'loop':
      return '循环';
    case 'specify':
      return '指定';
    case 'workday':
      return '工作日';
    case 'lastWorkday':
      return '本月最后一个工作日';
    case 'last':
      return f === 'week' ? '本月最后一个' : '本月最后一天';
    case 'daysBeforeEom':
      return '月末前';
    case 'nth':
      return '第几周的星期几';
  }
}

function PartEditor({ field, part, onChange }: { field: CronField; part: CronPart; onChange: (p: CronPart) => void }) {
  const b = CRON_BOUNDS[field];
  const num = (key: keyof CronPart, bound: { min: number; max: number }) => (
    <InputNumber
      size="small"
      precision={0}
      min={bound.min}
      max={bound.max}
      value={part[key] as number}
      aria-label={`${LABEL[field]}-${key}`}
      style={{ width: field === 'year' ? 80 : 64 }}
      onChange={(v) => onChange({ ...part, [key]: v ?? bound.min })}
    />
  );
  const choices = field === 'year' ? YEAR_CHOICES : Array.from({ length: b.specify.max - b.specify.min + 1 }, (_, i) => b.specify.min + i);
  const row = (m: CronMode) => {
    switch (m) {
      case 'range':
        return <span className="j-cron-row">从 {num('rangeStart', b.rangeStart)} 至 {num('rangeEnd', b.rangeEnd)}</span>;
      case 'loop':
        return <span className="j-cron-row">从 {num('loopStart', b.loopStart)} 开始，每 {num('loopInterval', b.loopInterval)} {LABEL[field]}执行一次</span>;
      case 'workday':
        return <span className="j-cron-row">每月 {num('weekday', b.weekday!)} 号最近的工作日</span>;
      case 'daysBeforeEom':
        return <span className="j-cron-row">月末前 {num('nth', b.nth!)} 天</span>;
      case 'last':
        return field === 'week' ? <span className="j-cron-row">本月最后一个 {num('weekday', b.weekday!)}（1=周日）</span> : null;
      case 'nth':
        return <span className="j-cron-row">第 {num('nth', b.nth!)} 周的 {num('weekday', b.weekday!)}（1=周日）</span>;
      default:
        return null;
    }
  };
  return (
    <Radio.Group value={part.mode} onChange={(e) => onChange({ ...part, mode: e.target.value as CronMode })} style={{ width: '100%' }}>
      <Space direction="vertical" style={{ width: '100%' }}>
        {b.modes.map((m) => (
          <div key={m}>
            <Radio value={m}>{modeLabel(field, m)}</Radio>
            {row(m)}
            {m === 'specify' && (
              <div style={{ maxHeight: 150, overflow: 'auto', marginTop: 4 }}>
                <Checkbox.Group
                  value={part.specify}
                  onChange={(v) => onChange({ ...part, mode: 'specify', specify: v as number[] })}
                  options={choices.map((n) => ({ value: n, label: field === 'week' ? WEEK[n] : String(n).padStart(field === 'year' ? 4 : 2, '0') }))}
                />
              </div>
            )}
          </div>
        ))}
      </Space>
    </Radio.Group>
  );
}

export interface JCronProps {
  value?: string;
  onChange?: (v: string) => void;
  /** Remote preview: resolves to the next run times. */
  remote?: (expr: string) => Promise<string[]>;
}

/** The inline cron builder: seven parts, the expression, and the next 10 runs. */
export function JCron({ value, onChange, remote }: JCronProps) {
  const [model, setModel] = useState<CronModel>(() => parseCron(value || DEFAULT_CRON));
  const [expr, setExpr] = useState(value || DEFAULT_CRON);
  const [preview, setPreview] = useState<{ runs: string[]; error?: string }>({ runs: [] });
  useEffect(() => {
    if (value && value !== expr) {
      setExpr(value);
      setModel(parseCron(value));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);
  useEffect(() => {
    let live = true;
    const t = setTimeout(() => {
      const run = remote ? remote(expr) : Promise.resolve().then(() => previewRuns(expr));
      run.then((runs) => live && setPreview({ runs })).catch((e: Error) => live && setPreview({ runs: [], error: e.message }));
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [expr, remote]);
  const update = (m: CronModel) => {
    setModel(m);
    const e = formatCron(m);
    setExpr(e);
    onChange?.(e);
  };
  return (
    <div className="j-cron">
      <Tabs
        size="small"
        items={CRON_FIELDS.map((f) => ({ key: f, label: LABEL[f], children: <PartEditor field={f} part={model[f]} onChange={(p) => update(changePart(model, f, p))} /> }))}
      />
      <Space.Compact style={{ width: '100%', marginTop: 8 }}>
        <Input
          aria-label="Cron表达式"
          value={expr}
          onChange={(e) => {
            setExpr(e.target.value);
            setModel(parseCron(e.target.value));
            onChange?.(e.target.value);
          }}
        />
      </Space.Compact>
      <div className="j-cron-preview" style={{ marginTop: 8, background: '#fafafa', padding: 8, fontSize: 12, minHeight: 60 }}>
        <div style={{ fontWeight: 500 }}>近十次执行时间（不含年）</div>
        {preview.error ? <div style={{ color: '#ff4d4f' }}>{preview.error}</div> : preview.runs.map((r) => <div key={r}>{r}</div>)}
      </div>
    </div>
  );
}

/** Cron input with the builder in a 608-wide dialog. */
export function JEasyCron({ value, onChange, remote, disabled, placeholder = '请输入cron表达式' }: JCronProps & { disabled?: boolean; placeholder?: string }) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(value ?? '');
  return (
    <>
      <Space.Compact style={{ width: '100%' }}>
        <Input value={value ?? ''} placeholder={placeholder} disabled={disabled} onChange={(e) => onChange?.(e.target.value)} />
        <Button disabled={disabled} onClick={() => (setDraft(value || DEFAULT_CRON), setOpen(true))}>选择</Button>
      </Space.Compact>
      <Modal open={open} title="Cron表达式" width={CRON_WIDTH} destroyOnHidden onCancel={() => setOpen(false)} onOk={() => (onChange?.(draft), setOpen(false))}>
        <JCron value={draft} onChange={setDraft} remote={remote} />
      </Modal>
    </>
  );
}

export default JEasyCron;
