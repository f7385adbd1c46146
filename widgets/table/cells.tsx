import { createElement, useEffect, useRef, useState, type ComponentType } from 'react';
import { DatePicker, Input, Progress, Select, TimePicker, Tooltip } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import type { ICellEditorComp, ICellEditorParams, ICellRendererComp, ICellRendererParams } from 'ag-grid-community';
import { fileUrl, http } from '@core/http/client';
import { cellFileName, joinMulti, splitMulti, userLabel } from '../logic/inputs';
import { validateValueSync } from '../logic/validation';
import { uploadReducer, type UploadFile } from '../logic/upload';
import { UPLOAD_URL } from '../upload/JUpload';
import { JSelectDepart } from '../pickers/JSelectDepart';
import { JSelectUser } from '../pickers/JSelectUser';
import { JPopup } from '../pickers/JPopup';
import { DATE_FORMAT, DATETIME_FORMAT, TIME_FORMAT } from '../inputs/JDate';
import { cellText, cellTextValue, cellTyping, type EditColumn, type Option, type Row } from './model';
import type { PortalHost } from './portals';

/** What the table passes to its cells through the grid context. */
export interface TableContext {
  setCell: (id: string, key: string, value: unknown, extra?: Record<string, unknown>) => void;
  /** Validates one cell as it is (blur without a change). */
  validate: (id: string, key: string) => void;
  optionsOf: (c: EditColumn) => Option[];
  /** Values of a column in every row except `exceptId`. */
  columnValues: (key: string, exceptId?: string) => unknown[];
  disabled: boolean;
  slots: Record<string, (p: { row: Row; column: EditColumn; value: unknown }) => React.ReactNode>;
  /** Renders React content into grid-owned DOM (React cells and editors). */
  portal: PortalHost['render'];
}

/** Cell parameters; `column` is the table's column (given as cellRendererParams / cellEditorParams). */
type RendererProps = ICellRendererParams<Row, unknown, TableContext> & { column: EditColumn };
type EditorParams = ICellEditorParams<Row, unknown, TableContext> & { column: EditColumn };
type EditorProps = EditorParams & { onValueChange: (value: unknown) => void };

/** A React cell (antd pickers, slots) in the plain-DOM grid: a portal of the table into the cell. */
export function reactCell(component: ComponentType<RendererProps>) {
  return class ReactCell implements ICellRendererComp<Row> {
    private el = reactBox();
    private p!: RendererProps;
    init(p: RendererProps) {
      this.refresh(p);
    }
    getGui() {
      return this.el;
    }
    refresh(p: RendererProps) {
      this.p = p;
      p.context.portal(this.el, createElement(component, p));
      return true;
    }
    destroy() {
      this.p.context.portal(this.el, null);
    }
  };
}

/** A React cell editor: a portal of the table into the editor's box; the value is the last `onValueChange`. */
export function reactEditor(component: ComponentType<EditorProps>) {
  return class ReactEditor implements ICellEditorComp<Row> {
    private el = reactBox();
    private p!: EditorParams;
    private value: unknown;
    init(p: EditorParams) {
      this.p = p;
      this.value = p.value;
      p.context.portal(this.el, createElement(component, { ...p, onValueChange: (v: unknown) => (this.value = v) }));
    }
    getGui() {
      return this.el;
    }
    getValue() {
      return this.value;
    }
    destroy() {
      this.p.context.portal(this.el, null);
    }
  };
}

/** The box a portal renders into: no box of its own, its content lays out as the cell's child. */
function reactBox() {
  const el = document.createElement('div');
  el.style.display = 'contents';
  return el;
}

const textOf = (opts: Option[], v: string) => opts.find((o) => o.value === v)?.text ?? opts.find((o) => o.value === v)?.title ?? opts.find((o) => o.value === v)?.label ?? v;
const labelOf = (o: Option) => o.text ?? o.title ?? o.label ?? o.value;

/** Sync validation of a text cell's text, against the other rows' values (unique/only rules). */
function textError(p: { column: EditColumn; context: TableContext; data?: Row }, text: string): string | undefined {
  const c = p.column;
  if (!c.validateRules?.length) return undefined;
  return validateValueSync(text, c.validateRules, { title: c.title, columnValues: [...p.context.columnValues(c.key, p.data?.id), text] });
}

/**
 * Text / number / tags editor of click-to-edit mode: the SPEC §5 typing rules (`cellTyping`) and
 * validation on every keystroke (error shown on the input). A printable key that opened the editor
 * is its first character.
 */
export function InputEditor(p: EditorProps) {
  const ref = useRef<HTMLInputElement>(null);
  const type = p.column.type;
  const [text, setText] = useState(() => (p.eventKey?.length === 1 ? cellTyping(type, p.eventKey, '') : cellText(p.value)));
  const error = textError(p, text);
  useEffect(() => {
    const el = ref.current;
    el?.focus();
    el?.setSelectionRange(el.value.length, el.value.length);
  }, []);
  return (
    <input
      ref={ref}
      className={`j-cell-input j-cell-editor${error ? ' j-cell-input-error' : ''}`}
      aria-label={p.column.title}
      title={error}
      value={text}
      placeholder={p.column.placeholder}
      inputMode={type === 'inputNumber' ? 'decimal' : undefined}
      onChange={(e) => {
        const v = cellTyping(type, e.target.value, text);
        setText(v);
        p.onValueChange(cellTextValue(type, v));
      }}
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

/**
 * Cells drawn with plain DOM (AG Grid JavaScript cell components, no React): hundreds of these are
 * created while scrolling 1,000 rows, and a DOM cell costs a fraction of a React renderer.
 * Pinned footer rows never get them (see `cellRendererSelector` in JEditableTable).
 * Values are written with `node.setDataValue`, so they take the grid's one change path
 * (validation, onChange, live-update socket).
 */
abstract class DomCell<E extends HTMLElement = HTMLElement> implements ICellRendererComp<Row> {
  protected p!: RendererProps;
  protected el!: E;
  init(p: RendererProps) {
    this.p = p;
    this.el = this.create();
    this.show();
  }
  getGui() {
    return this.el;
  }
  refresh(p: RendererProps) {
    this.p = p;
    this.show();
    return true;
  }
  protected get off() {
    return this.p.context.disabled || !!this.p.column.disabled;
  }
  protected write(v: unknown) {
    this.p.node.setDataValue(this.p.column.key, v, 'j-cell');
  }
  protected abstract create(): E;
  protected abstract show(): void;
}

/**
 * Always-edit text cell: a box that looks like an input (`j-cell-input`, the value as text) and turns
 * into a real input when it gets focus — a click (caret where clicked) or the grid's keyboard focus
 * arriving (Tab, arrows: caret at the end) — so scrolling never builds inputs. In the input, typing
 * goes straight in with the SPEC §5 typing rules (`cellTyping`: number rule, tags semicolon rule) and
 * sync validation on every keystroke; the value is written on change (Enter, blur, keyboard
 * navigation away) and the box comes back on blur. Escape restores the written value.
 */
export class InputCell extends DomCell<HTMLDivElement> {
  private input?: HTMLInputElement;
  private text = '';
  private written = '';
  private focusIn = () => this.activate();
  private pointerIn = (e: MouseEvent) => {
    if (this.input || this.off || e.button !== 0) return;
    // No default focus on the grid cell: the input takes it, with the caret where the text was clicked.
    e.preventDefault();
    const at = document.caretPositionFromPoint?.(e.clientX, e.clientY);
    this.activate(at && this.el.contains(at.offsetNode) ? at.offset : undefined);
  };
  protected create() {
    const box = document.createElement('div');
    const c = this.p.column;
    box.className = 'j-cell-input j-cell-box';
    if (c.placeholder) box.dataset.placeholder = c.placeholder;
    this.p.eGridCell.addEventListener('focus', this.focusIn);
    this.p.eGridCell.addEventListener('mousedown', this.pointerIn);
    return box;
  }
  protected show() {
    this.el.classList.toggle('j-cell-disabled', this.off);
    const t = cellText(this.p.value);
    // An input being typed in keeps its text unless the value changed elsewhere.
    if (t !== this.written || !this.input) this.set(t);
  }
  destroy() {
    this.p.eGridCell.removeEventListener('focus', this.focusIn);
    this.p.eGridCell.removeEventListener('mousedown', this.pointerIn);
  }
  private activate(caret = this.text.length) {
    if (this.input || this.off) return;
    const c = this.p.column;
    const i = document.createElement('input');
    i.type = 'text';
    i.spellcheck = false;
    i.value = this.text;
    i.setAttribute('aria-label', c.title);
    if (c.placeholder) i.placeholder = c.placeholder;
    if (c.type === 'inputNumber') i.inputMode = 'decimal';
    i.addEventListener('input', () => {
      const next = cellTyping(c.type, i.value, this.text);
      if (next !== i.value) i.value = next;
      this.text = next;
      this.mark(textError(this.p, next));
    });
    i.addEventListener('blur', () => {
      this.commit();
      this.input = undefined;
      this.el.textContent = this.text;
    });
    i.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') this.commit();
      else if (e.key === 'Escape') this.set(this.written);
    });
    this.input = i;
    this.el.replaceChildren(i);
    i.focus({ preventScroll: true });
    i.setSelectionRange(caret, caret);
  }
  private set(t: string) {
    this.written = t;
    this.text = t;
    if (!this.input) this.el.textContent = t;
    else if (this.input.value !== t) this.input.value = t;
    this.mark(undefined);
  }
  private mark(error: string | undefined) {
    this.el.classList.toggle('j-cell-input-error', !!error);
    if (error) this.el.title = error;
    else if (this.el.title) this.el.removeAttribute('title');
  }
  private commit() {
    const v = cellTextValue(this.p.column.type, this.text);
    const t = cellText(v);
    if (t === this.written) {
      this.set(t);
      return this.p.context.validate(this.p.data!.id, this.p.column.key);
    }
    this.set(t);
    this.write(v);
  }
}

/**
 * The selection column's checkbox: AG Grid's look (its checkbox classes; the cell has class
 * ag-selection-checkbox) drawn with plain DOM — the grid's own is a component of six elements built
 * for every row that scrolls in. Follows the row's selection and selectability.
 */
export class SelectCell implements ICellRendererComp<Row> {
  private p!: ICellRendererParams<Row>;
  private box = document.createElement('div');
  private input = document.createElement('input');
  private sync = () => {
    const on = !!this.p.node.isSelected();
    const off = !this.p.node.selectable;
    this.input.checked = on;
    this.input.disabled = off;
    this.box.className = `ag-wrapper ag-input-wrapper ag-checkbox-input-wrapper${on ? ' ag-checked' : ''}${off ? ' ag-disabled' : ''}`;
  };
  init(p: ICellRendererParams<Row>) {
    this.p = p;
    this.input.type = 'checkbox';
    this.input.className = 'ag-input-field-input ag-checkbox-input';
    this.input.tabIndex = -1;
    this.input.setAttribute('aria-label', '选择行');
    this.input.addEventListener('change', () => this.p.node.setSelected(this.input.checked));
    this.box.append(this.input);
    p.node.addEventListener('rowSelected', this.sync);
    p.node.addEventListener('selectableChanged', this.sync);
    this.sync();
  }
  getGui() {
    return this.box;
  }
  refresh(p: ICellRendererParams<Row>) {
    this.p = p;
    this.sync();
    return true;
  }
  destroy() {
    this.p.node.removeEventListener('rowSelected', this.sync);
    this.p.node.removeEventListener('selectableChanged', this.sync);
  }
}

/**
 * The row drag handle: AG Grid's look (its handle and grip icon classes) on one element registered as
 * the row's dragger — the grid's own handle column builds five elements for every row.
 */
export class DragCell implements ICellRendererComp<Row> {
  private el = document.createElement('span');
  init(p: ICellRendererParams<Row>) {
    this.el.className = 'ag-drag-handle ag-row-drag ag-icon ag-icon-grip';
    p.registerRowDragger(this.el);
  }
  getGui() {
    return this.el;
  }
  refresh() {
    return true;
  }
}

export class CheckboxCell extends DomCell<HTMLInputElement> {
  protected create() {
    const i = document.createElement('input');
    i.type = 'checkbox';
    i.className = 'j-cell-checkbox';
    i.setAttribute('aria-label', this.p.column.title);
    i.addEventListener('change', () => this.write((this.p.column.customValue ?? [true, false])[i.checked ? 0 : 1]));
    return i;
  }
  protected show() {
    this.el.checked = this.p.value === (this.p.column.customValue ?? [true, false])[0];
    this.el.disabled = this.off;
  }
}

export class RadioCell extends DomCell {
  protected create() {
    const g = document.createElement('span');
    g.className = 'j-cell-radio';
    g.setAttribute('role', 'radiogroup');
    g.setAttribute('aria-label', this.p.column.title);
    g.addEventListener('change', (e) => this.write((e.target as HTMLInputElement).value));
    return g;
  }
  protected show() {
    const opts = this.p.context.optionsOf(this.p.column);
    const name = `${this.p.column.key}-${this.p.data!.id}`;
    if (this.el.childElementCount !== opts.length) {
      this.el.replaceChildren(
        ...opts.map((o) => {
          const l = document.createElement('label');
          const i = document.createElement('input');
          i.type = 'radio';
          i.name = name;
          i.value = o.value;
          l.append(i, ` ${labelOf(o)}`);
          return l;
        }),
      );
    }
    for (const i of this.el.querySelectorAll('input')) {
      i.name = name;
      i.checked = this.p.value === i.value;
      i.disabled = this.off;
    }
  }
}

export class ProgressCell extends DomCell {
  private bar!: HTMLDivElement;
  private label!: HTMLSpanElement;
  protected create() {
    const d = document.createElement('div');
    d.className = 'j-cell-progress';
    d.setAttribute('role', 'progressbar');
    const track = document.createElement('div');
    track.className = 'j-cell-progress-track';
    this.bar = document.createElement('div');
    this.label = document.createElement('span');
    track.append(this.bar);
    d.append(track, this.label);
    return d;
  }
  protected show() {
    const pct = Math.max(0, Math.min(100, Number(this.p.value ?? 0) || 0));
    this.el.setAttribute('aria-valuenow', String(pct));
    this.bar.style.cssText = `width:${pct}%;height:6px;border-radius:3px;background:${pct >= 100 ? '#52c41a' : '#1677ff'}`;
    this.label.textContent = `${pct}%`;
  }
}

/** Tags (click-to-edit display): one tag per semicolon-separated value. */
export class TagsCell extends DomCell {
  protected create() {
    const d = document.createElement('div');
    d.className = 'j-cell-tags';
    return d;
  }
  protected show() {
    this.el.replaceChildren(
      ...splitMulti(this.p.value, ';').map((t) => {
        const s = document.createElement('span');
        s.className = 'j-cell-tag';
        s.textContent = t;
        return s;
      }),
    );
  }
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
      const body = await http.upload(UPLOAD_URL, form, (percent) => setFiles((state = uploadReducer(state, { type: 'progress', uid, percent }))), { withToken: p.column.token !== false });
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

export const UploadCell = reactCell(UploadRenderer);
export const DepartCell = reactCell(DepartRenderer);
export const UserCell = reactCell(UserRenderer);
export const PopupCell = reactCell(PopupRenderer);
export const SlotCell = reactCell(SlotRenderer);
export const InputCellEditor = reactEditor(InputEditor);
export const TextareaCellEditor = reactEditor(TextareaEditor);
export const SelectCellEditor = reactEditor(SelectEditor);
export const DateCellEditor = reactEditor(DateEditor);
