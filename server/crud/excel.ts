import { createInflateRaw } from 'node:zlib';
import ExcelJS from 'exceljs';
import dayjs from 'dayjs';
import { PassThrough, Readable } from 'node:stream';
import { BizError } from '../http/envelope.js';
import type { EntityField, EntitySchema } from './entity-types.js';
import type { Row } from './hooks.js';
import { publicFields } from './engine.js';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Fields that take part in Excel export/import (declared `excel` title, never secret). */
export const excelFields = (e: EntitySchema): EntityField[] => publicFields(e).filter((f) => f.excel);

const FORMULA_START = /^[=+\-@\t\r]/;
/** Text that a spreadsheet would run as a formula gets a leading apostrophe (DESIGN §6). */
export const neutralise = (s: string) => (FORMULA_START.test(s) ? `'${s}` : s);
/** Import undoes `neutralise`, so export → import round-trips. */
export const unneutralise = (s: string) => (s.length > 1 && s.startsWith("'") && FORMULA_START.test(s.slice(1)) ? s.slice(1) : s);

function cellOut(f: EntityField, r: Row): string | number | boolean | null {
  const v = f.dict || f.dictTable ? (r[`${f.name}_dictText`] ?? r[f.name]) : r[f.name];
  if (v === null || v === undefined) return null;
  if ((f.type === 'integer' || f.type === 'number' || f.type === 'bigint') && !(f.dict || f.dictTable)) {
    const n = Number(v);
    if (Number.isFinite(n) && Math.abs(n) < 2 ** 53) return n;
  }
  if (typeof v === 'boolean') return v ? '是' : '否';
  return neutralise(typeof v === 'object' ? JSON.stringify(v) : String(v));
}

/** Rows written between two yields to the event loop (a big export must not hold up other requests). */
const ROWS_PER_SLICE = 250;
/**
 * One style object shared by every data cell: ExcelJS registers a cell's style once per style
 * object (a WeakMap), and each new cell otherwise carries its own empty object — about half the
 * export's time went into registering the same empty style again for every cell.
 */
const PLAIN_STYLE: Partial<ExcelJS.Style> = {};

/**
 * A real .xlsx: header row of `excel` titles, dictionary texts, text cells never formulas. Written
 * with ExcelJS's streaming writer, which commits each row as it goes, yielding every ROWS_PER_SLICE rows.
 */
export async function buildXlsx(e: EntitySchema, rows: Row[], sheetName = e.title): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(sheetName.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Sheet1');
  const fields = excelFields(e);
  ws.columns = fields.map((f) => ({ header: f.excel!, key: f.name, width: Math.min(40, Math.max(10, f.excel!.length * 2 + 4)) }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  for (let i = 0; i < rows.length; i++) {
    const row = ws.addRow(fields.map((f) => cellOut(f, rows[i]!)));
    row.eachCell((c) => {
      c.style = PLAIN_STYLE;
    });
    row.commit();
    if ((i + 1) % ROWS_PER_SLICE === 0) await new Promise((r) => setImmediate(r));
  }
  ws.commit();
  await wb.commit();
  return Buffer.concat(chunks);
}

export interface SheetRow {
  /** 1-based row number in the sheet (for error reports). */
  rowNo: number;
  /** Excel title → cell text. */
  cells: Record<string, string>;
  /** Titles of cells that held formulas (refused). */
  formulas: string[];
}

function cellText(v: ExcelJS.CellValue): { text: string; formula: boolean } {
  if (v === null || v === undefined) return { text: '', formula: false };
  if (v instanceof Date) {
    const d = dayjs(v.toISOString().slice(0, 19).replace('T', ' '));
    return { text: d.format(d.hour() || d.minute() || d.second() ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD'), formula: false };
  }
  if (typeof v === 'object') {
    if ('formula' in v || 'sharedFormula' in v) return { text: '', formula: true };
    if ('richText' in v) return { text: v.richText.map((t) => t.text).join(''), formula: false };
    if ('text' in v) return { text: String(v.text), formula: false };
    if ('error' in v) return { text: '', formula: true };
    return { text: JSON.stringify(v), formula: false };
  }
  return { text: String(v), formula: false };
}

/** Sum of the uncompressed sizes declared in a zip's central directory; Infinity when unreadable or ZIP64. */
/** Offset of a zip's end-of-central-directory record, or -1. */
function endOfCentralDirectory(buf: Buffer): number {
  const min = Math.max(0, buf.length - 65_557);
  for (let i = buf.length - 22; i >= min; i--) if (buf.readUInt32LE(i) === 0x06054b50) return i;
  return -1;
}

export function zipInflatedSize(buf: Buffer): number {
  const eocd = endOfCentralDirectory(buf);
  if (eocd < 0) return Infinity;
  const entries = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) return Infinity;
    const size = buf.readUInt32LE(p + 24);
    if (size === 0xffffffff) return Infinity;
    total += size;
    p += 46 + buf.readUInt16LE(p + 28) + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  return total;
}

/**
 * Inflates every entry, counting bytes without keeping them, and fails when one yields more than
 * its central directory declares: a zip bomb can lie about its sizes, so the declared total alone
 * is no bound.
 */
export async function zipSizesHonest(buf: Buffer): Promise<boolean> {
  const eocd = endOfCentralDirectory(buf);
  if (eocd < 0) return false;
  let p = buf.readUInt32LE(eocd + 16);
  for (let n = buf.readUInt16LE(eocd + 10); n > 0; n--) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) return false;
    const method = buf.readUInt16LE(p + 10);
    const compressed = buf.readUInt32LE(p + 20);
    const declared = buf.readUInt32LE(p + 24);
    const local = buf.readUInt32LE(p + 42);
    p += 46 + buf.readUInt16LE(p + 28) + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) return false;
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + compressed);
    if (method === 0) {
      if (compressed !== declared) return false;
      continue;
    }
    if (method !== 8) return false;
    let seen = 0;
    const inflate = createInflateRaw();
    inflate.end(data);
    try {
      for await (const chunk of inflate) {
        seen += (chunk as Buffer).length;
        if (seen > declared) {
          inflate.destroy();
          return false;
        }
      }
    } catch {
      return false;
    }
  }
  return true;
}

/** Decompressed size an import may reach (zip-bomb guard, checked before any inflating). */
export const MAX_INFLATED_BYTES = 300 * 1024 * 1024;
/** Up to this decompressed size a file the streaming reader failed on is read again in full. */
const FALLBACK_INFLATED_BYTES = 64 * 1024 * 1024;

/**
 * Streams the first sheet of an .xlsx: finds the header row (first of the first 5 rows naming a
 * known title — so JeecgBoot's "title / 导出人 / header" layout works too), then yields data rows.
 * Stops with a clear message past `maxRows`, without reading the rest.
 */
export async function readXlsx(
  buf: Buffer,
  fileName: string,
  titles: string[],
  maxRows: number,
  maxInflated = MAX_INFLATED_BYTES,
  onError?: (err: unknown) => void,
): Promise<SheetRow[]> {
  if (buf.length >= 4 && buf.readUInt32BE(0) === 0xd0cf11e0) throw new BizError(`文件“${fileName}”是旧版 .xls 格式，暂不支持，请在 Excel 中另存为 .xlsx 后再导入`);
  if (buf.length < 4 || buf.readUInt32BE(0) !== 0x504b0304) throw new BizError(`文件“${fileName}”不是有效的 Excel（.xlsx）文件`);
  const inflated = zipInflatedSize(buf);
  if (inflated === Infinity) throw new BizError(`文件“${fileName}”不是有效的 Excel（.xlsx）文件`);
  if (inflated > maxInflated || !(await zipSizesHonest(buf)))
    throw new BizError(`文件“${fileName}”解压后超过${Math.round(maxInflated / 1024 / 1024)}MB或大小与声明不符，已拒绝，请拆分后再导入`);
  const known = new Set(titles);
  let out: SheetRow[] = [];
  let header: Map<number, string> | undefined;
  const take = (rowNo: number, values: ExcelJS.CellValue[]) => {
    if (!header) {
      if (rowNo > 5) throw new BizError(`文件“${fileName}”的前5行中没有找到表头（应包含：${titles.slice(0, 5).join('、')}…）`);
      const h = new Map<number, string>();
      values.forEach((v, i) => {
        const t = cellText(v).text.trim();
        if (known.has(t)) h.set(i, t);
      });
      if (h.size) header = h;
      return;
    }
    if (out.length >= maxRows) throw new BizError(`文件“${fileName}”超过${maxRows}行的导入上限，未导入任何数据，请拆分后再导入`);
    const cells: Record<string, string> = {};
    const formulas: string[] = [];
    let any = false;
    for (const [i, t] of header) {
      const c = cellText(values[i]);
      if (c.formula) formulas.push(t);
      const text = unneutralise(c.text.trim());
      if (text !== '' || c.formula) any = true;
      cells[t] = text;
    }
    if (any) out.push({ rowNo, cells, formulas });
  };
  try {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(buf), { worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore' });
    for await (const ws of reader) {
      for await (const row of ws) take(row.number, row.values as ExcelJS.CellValue[]);
      break; // only the first sheet
    }
  } catch (err) {
    if (err instanceof BizError) throw err;
    onError?.(err);
    // exceljs' streaming reader intermittently loses zip entries (exceljs#3064). The file is in
    // memory and its inflated size is bounded, so a moderate file is read again in full.
    if (inflated > FALLBACK_INFLATED_BYTES) throw new BizError(`文件“${fileName}”无法读取，请确认是有效的 .xlsx 文件`);
    out = [];
    header = undefined;
    const wb = new ExcelJS.Workbook();
    try {
      await wb.xlsx.load(buf as unknown as ArrayBuffer);
    } catch (again) {
      onError?.(again);
      throw new BizError(`文件“${fileName}”无法读取，请确认是有效的 .xlsx 文件`);
    }
    const ws = wb.worksheets[0];
    if (ws) {
      if (ws.rowCount > maxRows + 5) throw new BizError(`文件“${fileName}”超过${maxRows}行的导入上限，未导入任何数据，请拆分后再导入`);
      ws.eachRow((row, n) => take(n, row.values as ExcelJS.CellValue[]));
    }
  }
  if (!header) throw new BizError(`文件“${fileName}”中没有找到表头（应包含：${titles.slice(0, 5).join('、')}…）`);
  return out;
}
