import { useEffect, useRef, useState } from 'react';
import { DatePicker, Input, Progress, Select, Tag, TimePicker, Tooltip } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import type { CustomCellEditorProps, CustomCellRendererProps } from 'ag-grid-react';
import { http } from '@/http/client';
import { cellFileName, joinMulti, numberTyping, splitMulti, userLabel } from '../logic/inputs';
import { validateValueSync } from '../logic/validation';
import { uploadReducer, type UploadFile } from '../logic/upload';
import { fileUrl, UPLOAD_URL } from '../upload/JUpload';
import { JSelectDepart } from '../pickers/JSelectDepart';
import { JSelectUser } from '../pickers/JSelectUser';
import { JPopup } from '../pickers/JPopup';
import { DATE_FORMAT, DATETIME_FORMAT, TIME_FORMAT } from '../inputs/JDate';
import type { EditColumn, Option, Row } from './model';

/** What the table passes to its cells through the grid context. */
export interface TableContext {
  setCell: (id: string, key: string, value: unknown, extra?: Record<string, unknown>) => void;
  optionsOf: (c: EditColumn) => Option[];
  /** Values of a column in every row except `exceptId`. */
  columnValues: (key: string, exceptId?: string) => unknown[];
  disabled: boolean;
  slots: Record<string, (p: { row: Row; column: EditColumn; value: unknown }) => React.ReactNode>;
}

type EditorProps = CustomCellEditorProps<Row, unknown, TableContext> & { column: EditColumn };
type RendererProps = CustomCellRendererProps<Row, unknown, TableContext> & { column: EditColumn };

const textOf = (opts: Option[], v: string) => opts.find((o) => o.value === v)?.text ?? opts.find((o) => o.value === v)?.title ?? opts.find((o) => o.value === v)?.label ?? v;
const labelOf = (o: Option) => o.text ?? o.title ?? o.label ?? o.value;

/** Text / number editor that validates on every keystroke (error shown on the input). */
export function InputEditor(p: EditorProps) {
  const ref = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(p.value === null || p.value === undefined ? '' : String(p.value));
  const isNumber = p.column.type === 'inputNumber';
  const error = validateValueSync(text, p.column.validateRules, { title: p.column.title, columnValues: [...p.context.columnValues(p.column.key, p.data?.id), text] });
  useEffect(() => ref.current?.focus(), []);
  return (
    <input
      ref={ref}
      className={`j-cell-input${error ? ' j-cell-input-error' : ''}`}
      title={error}
      value={text}
      placeholder={p.column.placeholder}
      inputMode={isNumber ? 'decimal' : undefined}
      onChange={(e) => {
        const v = isNumber ? numberTyping(e.target.value, text) : e.target.value;
        setText(v);
        p.onValueChange(isNumber ? (v === '' || v === '-' ? '' : Number.isFinite(Number.parseFloat(v)) ? Number.parseFloat(v) : '') : v);
      }}
      style={{ width: '100%', height: '100%', border: `1px solid ${error ? '#ff4d4f' : '#1677ff'}`, padding: '0 8px', outline: 'none', boxSizing: 'border-box' }}
    />
  );
}

/** Textarea popup, 300 × 210. */
export function TextareaEditor(p: EditorProps) {
  return (
    <div style={{ width: 300, height: 210, background: '#fff', padding: 4, boxShadow: '0 6px 16px rgba(0,0,0,.15)' }}>
      <Input.TextArea autoFocus defaultValue={String(p.value ?? '')} style={{ height: 200, resize: 'none' }} onChange={(e) => p.onValueChange(e.target.value)} />
    </div>
  );
}

/** antd Select as a popup cell editor; its dropdown renders inside the editor so focus stays in the grid. */
export function SelectEditor(p: EditorProps) {
  const multi = p.column.type === 'select-multiple' || p.column.type === 'list_multi';
  const search = p.column.type !== 'select' && !multi;
  const [done, setDone] = useState(false);
  const [remote, setRemote] = useState<Option[]>();
  const seq = useRef(0);
  useEffect(() => {
    if (done) p.stopEditing();
  }, [done, p]);
  const opts = remote ?? p.context.optionsOf(p.column);
  const box = useRef<HTMLDivElement>(null);
  return (
    <div ref={box} style={{ width: Math.max(p.column.width ?? 160, 160), background: '#fff' }}>
      <Select
        autoFocus
        defaultOpen
        showSearch={search || multi}
        mode={multi ? 'multiple' : undefined}
        maxTagCount={1}
        allowClear
        style={{ width: '100%' }}
        getPopupContainer={() => box.current ?? document.body}
        defaultValue={multi ? splitMulti(p.value) : (p.value as string | undefined) ?? undefined}
        filterOption={p.column.type === 'sel_search_async' ? false : (input, o) => String(o?.label ?? '').toLowerCase().includes(input.toLowerCase())}
        onSearch={
          p.column.type === 'sel_search_async' && p.column.dict
            ? (kw) => {
                const mine = ++seq.current;
                void http.signedGet<Option[]>(`/sys/dict/loadDict/${encodeURIComponent(p.column.dict!)}`, { keyword: kw, pageSize: 10 }).then((r) => mine === seq.current && setRemote(r.success && Array.isArray(r.result) ? r.result : []));
              }
            : undefined
        }
        notFoundContent="没有查询到任何数据"
        options={opts.map((o) => ({ value: o.value, label: labelOf(o) }))}
        onChange={(v: string | string[] | undefined) => {
          p.onValueChange(multi ? joinMulti(v as string[]) : (v ?? ''));
          if (!multi) setDone(true);
        }}
      />
    </div>
  );
}

/** Date / datetime / time popup editor. */
export function DateEditor(p: EditorProps) {
  const t = p.column.type;
  const fmt = t === 'datetime' ? DATETIME_FORMAT : t === 'time' ? TIME_FORMAT : DATE_FORMAT;
  const box = useRef<HTMLDivElement>(null);
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (done) p.stopEditing();
  }, [done, p]);
  const v = p.value ? dayjs(String(p.value), fmt) : null;
  const common = { autoFocus: true, defaultOpen: true, format: fmt, getPopupContainer: () => box.current ?? document.body, style: { width: '100%' } };
  const change = (d: dayjs.Dayjs | null) => {
    p.onValueChange(d ? d.format(fmt) : '');
    setDone(true);
  };
  return (
    <div ref={box} style={{ width: t === 'datetime' ? 200 : 150, background: '#fff' }}>
      {t === 'time' ? <TimePicker {...common} defaultValue={v} onChange={change} /> : <DatePicker {...common} showTime={t === 'datetime'} defaultValue={v} onChange={change} />}
    </div>
  );
}

/** Text shown for a value (no React renderer: plain cells keep scrolling fast). */
export function displayText(c: EditColumn, v: unknown, opts: Option[]): string {
  if (v === undefined || v === null || v === '') return '';
  if (c.type === 'select-multiple' || c.type === 'list_multi') {
    const vals = splitMulti(v);
    return vals.length > 1 ? `${textOf(opts, vals[0]!)} +${vals.length - 1}` : textOf(opts, vals[0] ?? '');
  }
  if (['select', 'select-search', 'sel_search', 'sel_search_async', 'select-dict-search', 'radio'].includes(c.type)) return textOf(opts, String(v));
  return String(v);
}

/** Display of plain values (dictionary texts, multi tags, numbers). */
export function ValueRenderer(p: RendererProps) {
  if (p.node.rowPinned) return <b>{p.value === undefined ? '' : (p.valueFormatted ?? String(p.value))}</b>;
  const c = p.column;
  const v = p.value;
  const box = (content: React.ReactNode) => <div className="j-cell-box">{content}</div>;
  if (v === undefined || v === null || v === '') return box(<span className="j-cell-placeholder">{c.placeholder ?? ''}</span>);
  if (c.type === 'select-multiple' || c.type === 'list_multi') {
    const vals = splitMulti(v);
    const opts = p.context.optionsOf(c);
    return box(
      <>
        {vals.slice(0, 1).map((x) => <Tag key={x}>{textOf(opts, x)}</Tag>)}
        {vals.length > 1 && <Tag>+{vals.length - 1}</Tag>}
      </>,
    );
  }
  if (['select', 'select-search', 'sel_search', 'sel_search_async', 'select-dict-search'].includes(c.type)) return box(textOf(p.context.optionsOf(c), String(v)));
  if (c.type === 'inputNumber') return box(p.valueFormatted ?? String(v));
  return box(String(v));
}

// Native inputs and plain divs below: hundreds of these mount while scrolling.
export function CheckboxRenderer(p: RendererProps) {
  if (p.node.rowPinned) return null;
  const [on, off] = p.column.customValue ?? [true, false];
  return <input type="checkbox" className="j-cell-checkbox" aria-label={p.column.title} checked={p.value === on} disabled={p.context.disabled || p.column.disabled} onChange={(e) => p.context.setCell(p.data!.id, p.column.key, e.target.checked ? on : off)} />;
}

export function RadioRenderer(p: RendererProps) {
  if (p.node.rowPinned) return null;
  const name = `${p.column.key}-${p.data!.id}`;
  return (
    <span role="radiogroup" aria-label={p.column.title} className="j-cell-radio">
      {p.context.optionsOf(p.column).map((o) => (
        <label key={o.value} style={{ marginRight: 8 }}>
          <input type="radio" name={name} value={o.value} checked={p.value === o.value} disabled={p.context.disabled || p.column.disabled} onChange={() => p.context.setCell(p.data!.id, p.column.key, o.value)} /> {labelOf(o)}
        </label>
      ))}
    </span>
  );
}

export function ProgressRenderer(p: RendererProps) {
  if (p.node.rowPinned) return null;
  const pct = Math.max(0, Math.min(100, Number(p.value ?? 0) || 0));
  return (
    <div className="j-cell-progress" role="progressbar" aria-valuenow={pct} style={{ display: 'flex', alignItems: 'center', gap: 6, width: '100%' }}>
      <div style={{ flex: 1, height: 6, background: '#f0f0f0', borderRadius: 3 }}>
        <div style={{ width: `${pct}%`, height: 6, background: pct >= 100 ? '#52c41a' : '#1677ff', borderRadius: 3 }} />
      </div>
      <span style={{ fontSize: 12 }}>{pct}%</span>
    </div>
  );
}

export function TagsRenderer(p: RendererProps) {
  if (p.node.rowPinned) return null;
  return <>{splitMulti(p.value, ';').map((t) => <Tag key={t}>{t}</Tag>)}</>;
}

/** Upload / file / image cell: one file, the SPEC §4 state machine, name truncated at 5 characters. */
export function UploadRenderer(p: RendererProps) {
  const [files, setFiles] = useState<UploadFile[]>([]);
  const input = useRef<HTMLInputElement>(null);
  if (p.node.rowPinned) return null;
  const image = p.column.type === 'image';
  const value = p.value ? String(p.value) : '';
  const f = files[0];
  const start = async (file: File) => {
    if (image && !file.type.startsWith('image/')) return;
    const uid = String(Date.now());
    let state = uploadReducer([], { type: 'start', uid, name: file.name, size: file.size, fileType: file.type });
    setFiles(state);
    const form = new FormData();
    form.append('file', file);
    form.append('biz', p.column.bizPath ?? 'temp');
    form.append('isup', '1');
    try {
      const body = await http.upload(UPLOAD_URL, form, (percent) => setFiles((state = uploadReducer(state, { type: 'progress', uid, percent }))));
      state = uploadReducer(state, { type: 'response', uid, body, urlOf: fileUrl });
    } catch (e) {
      state = uploadReducer(state, { type: 'fail', uid, message: (e as Error).message });
    }
    setFiles(state);
    if (state[0]?.status === 'done') p.context.setCell(p.data!.id, p.column.key, state[0].path);
  };
  const name = value ? value.slice(value.lastIndexOf('/') + 1) : '';
  return (
    <div className="j-cell-upload" style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
      {f?.status === 'uploading' && <Progress percent={f.percent} size="small" style={{ width: 80, margin: 0 }} />}
      {f?.status === 'error' && <Tooltip title={f.message}><span style={{ color: '#ff4d4f' }}>上传失败</span></Tooltip>}
      {value && f?.status !== 'uploading' && (
        <Tooltip title={name}>
          {image ? <img src={fileUrl(value)} alt={name} style={{ height: 40, maxWidth: 60, objectFit: 'cover' }} /> : <a href={fileUrl(value)} target="_blank" rel="noreferrer">{cellFileName(name)}</a>}
        </Tooltip>
      )}
      {value && !p.context.disabled && <a onClick={() => (setFiles([]), p.context.setCell(p.data!.id, p.column.key, ''))}>删除</a>}
      {!value && !p.context.disabled && (
        <a onClick={() => input.current?.click()}>
          <UploadOutlined /> 上传
        </a>
      )}
      <input
        ref={input}
        type="file"
        hidden
        accept={image ? 'image/*' : undefined}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void start(file);
        }}
      />
    </div>
  );
}

export function DepartRenderer(p: RendererProps) {
  if (p.node.rowPinned) return null;
  return <JSelectDepart value={p.value as string} disabled={p.context.disabled || p.column.disabled} onChange={(v) => p.context.setCell(p.data!.id, p.column.key, v ?? '')} />;
}

export function UserRenderer(p: RendererProps) {
  if (p.node.rowPinned) return null;
  return <JSelectUser value={p.value as string} disabled={p.context.disabled || p.column.disabled} onChange={(v) => p.context.setCell(p.data!.id, p.column.key, v ?? '')} />;
}

export function PopupRenderer(p: RendererProps) {
  if (p.node.rowPinned) return null;
  const c = p.column;
  return (
    <JPopup
      value={p.value as string}
      code={c.popupCode}
      orgFields={c.orgFields}
      destFields={c.destFields}
      field={c.key}
      disabled={p.context.disabled || c.disabled}
      onChange={(v, values) => p.context.setCell(p.data!.id, c.key, v ?? '', values)}
    />
  );
}

export function SlotRenderer(p: RendererProps) {
  if (p.node.rowPinned) return null;
  const slot = p.column.slotName ? p.context.slots[p.column.slotName] : undefined;
  return <>{slot ? slot({ row: p.data!, column: p.column, value: p.value }) : null}</>;
}

export { userLabel };
