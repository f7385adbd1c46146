import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { BizError } from '../http/envelope.js';
import { allDictItems } from '../sys/dict-service.js';
import { newId, now } from '../util.js';
import type { FileStorage } from '../storage/index.js';
import { allFields, columnOf, primaryField, type EntityField } from './entity-types.js';
import { excelFields, readXlsx } from './excel.js';
import { hooksOf, type HookContext, type Row } from './hooks.js';
import { assertWriteScope, defaultOwner, inTransaction, validateInput, writableFields } from './engine.js';

export interface ImportFile {
  name: string;
  data: Buffer;
}

export interface RowError {
  file: string;
  row: number;
  column: string;
  reason: string;
}

export interface ImportOutcome {
  totalCount: number;
  successCount: number;
  errorCount: number;
  errors: RowError[];
}

/** text → code maps for dictionary fields, so cells may hold either the text or the code. */
async function reverseDicts(h: HookContext, fields: EntityField[]): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  const sys = fields.some((f) => f.dict) ? await allDictItems(h.db) : {};
  for (const f of fields) {
    if (f.dict) out.set(f.name, new Map((sys[f.dict] ?? []).map((d) => [d.text, d.value])));
    else if (f.dictTable) {
      const { table, text, code } = f.dictTable;
      const rows = await h.db.selectFrom(table).select([sql.ref(code).as('c'), sql.ref(text).as('t')]).limit(20000).execute();
      out.set(f.name, new Map(rows.map((r) => [String(r.t), String(r.c)])));
    }
  }
  return out;
}

/**
 * Imports one file all-or-nothing: every row is validated (types, required, patterns, dictionary
 * texts, uniqueness in the file and in the table); any bad row → nothing written, errors returned.
 */
export async function importFile(h: HookContext, file: ImportFile, maxRows: number): Promise<ImportOutcome> {
  const e = h.entity;
  const fields = excelFields(e).filter((f) => writableFields(e).includes(f));
  if (!fields.length) throw new BizError(`“${e.title}”没有可导入的列`);
  const sheet = await readXlsx(file.data, file.name, fields.map((f) => f.excel!), maxRows, undefined, (err) => h.req.log.warn({ err, file: file.name }, 'xlsx could not be read'));
  const dicts = await reverseDicts(h, fields);
  const errors: RowError[] = [];
  const rows: Array<{ rowNo: number; row: Row }> = [];
  for (const r of sheet) {
    if (r.formulas.length) {
      for (const c of r.formulas) errors.push({ file: file.name, row: r.rowNo, column: c, reason: '不支持公式，请粘贴为数值' });
      continue;
    }
    const input: Row = {};
    let bad = false;
    for (const f of fields) {
      let v: string | null = r.cells[f.excel!] ?? '';
      if (v !== '' && dicts.has(f.name)) {
        const map = dicts.get(f.name)!;
        const codes = new Set(map.values());
        const parts = v.split(',').map((p) => map.get(p.trim()) ?? (codes.has(p.trim()) ? p.trim() : undefined));
        if (parts.some((p) => p === undefined)) {
          errors.push({ file: file.name, row: r.rowNo, column: f.excel!, reason: `“${v}”不是有效的选项` });
          bad = true;
          continue;
        }
        v = parts.join(',');
      }
      if (v === '' && f.default !== undefined) continue;
      input[f.name] = v === '' ? null : v;
    }
    if (bad) continue;
    try {
      rows.push({ rowNo: r.rowNo, row: validateInput(e, input, 'add') });
    } catch (err) {
      if (!(err instanceof BizError)) throw err;
      const f = fields.find((x) => err.message.includes(x.title ?? x.name));
      errors.push({ file: file.name, row: r.rowNo, column: f?.excel ?? '', reason: err.message });
    }
  }
  // Uniqueness within the file and against stored rows (one query per unique column).
  for (const f of e.fields.filter((x) => (x.unique || (x.primary && x.type !== 'string')) && fields.includes(x))) {
    const seen = new Map<unknown, number>();
    for (const { rowNo, row } of rows) {
      const v = row[f.name];
      if (v === null || v === undefined) continue;
      if (seen.has(v)) errors.push({ file: file.name, row: rowNo, column: f.excel!, reason: `与第${seen.get(v)}行重复：${String(v)}` });
      else seen.set(v, rowNo);
    }
    const values = [...seen.keys()];
    for (let i = 0; i < values.length; i += 1000) {
      const taken = await h.db.selectFrom(e.table).select(sql.ref(columnOf(f)).as('v')).where(sql.ref(columnOf(f)), 'in', values.slice(i, i + 1000)).execute();
      for (const t of taken) errors.push({ file: file.name, row: seen.get(t.v)!, column: f.excel!, reason: `${f.title ?? f.name}“${String(t.v)}”已存在` });
    }
  }
  if (errors.length) {
    errors.sort((a, b) => a.row - b.row);
    return { totalCount: sheet.length, successCount: 0, errorCount: errors.length, errors };
  }
  const pk = primaryField(e);
  const hooks = hooksOf(e.name);
  await inTransaction(h.db, async (trx) => {
    const th: HookContext = { ...h, db: trx };
    const stamp = now();
    const prepared: Row[] = [];
    for (const { row } of rows) {
      if (pk.type === 'string') row[pk.name] = newId();
      if (e.scope?.tenant) row[e.scope.tenant] = h.user.tenantId;
      if (e.scope?.department && (row[e.scope.department] === undefined || row[e.scope.department] === null)) row[e.scope.department] = h.user.orgCode;
      if (e.audit !== false) Object.assign(row, { createBy: h.user.username, createTime: stamp });
      await defaultOwner(th, row, trx);
      for (const hk of hooks) if (hk.beforeSave) await hk.beforeSave(th, row, 'add', undefined, { ...row });
      prepared.push(row);
    }
    await assertWriteScope(th, prepared, trx);
    const byName = new Map(allFields(e).map((f) => [f.name, f]));
    const toCols = (r: Row) => Object.fromEntries(Object.entries(r).filter(([k]) => byName.has(k)).map(([k, v]) => [columnOf(byName.get(k)!), v]));
    for (let i = 0; i < prepared.length; i += 500) {
      // Rows may carry different key sets; insert each chunk grouped by its column set.
      const chunk = prepared.slice(i, i + 500).map(toCols);
      const groups = new Map<string, Record<string, unknown>[]>();
      for (const c of chunk) {
        const k = Object.keys(c).sort().join(',');
        groups.set(k, [...(groups.get(k) ?? []), c]);
      }
      for (const g of groups.values()) await trx.insertInto(e.table).values(g).execute();
    }
    for (const row of prepared) for (const hk of hooks) if (hk.afterSave) await hk.afterSave(th, row, 'add', row);
  });
  return { totalCount: sheet.length, successCount: rows.length, errorCount: 0, errors: [] };
}

/** Writes the error report (row, column, reason) where only its owner can download it; returns its name. */
export async function writeErrorReport(storage: FileStorage, userId: string, errors: RowError[]): Promise<string> {
  const name = `${newId()}.txt`;
  const lines = ['文件\t行号\t列\t错误原因', ...errors.map((x) => `${x.file}\t${x.row}\t${x.column}\t${x.reason}`)];
  await storage.put(errorReportKey(userId, name), Readable.from([Buffer.from('\ufeff' + lines.join('\r\n') + '\r\n', 'utf8')]));
  return name;
}

/** Where a user's import error report is stored (any server of a cluster serves it). */
export const errorReportKey = (userId: string, name: string) => `import-errors/${userId.replace(/[^A-Za-z0-9_-]/g, '') || '_'}/${name}`;
