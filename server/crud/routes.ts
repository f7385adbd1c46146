import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import { BizError, ok } from '../http/envelope.js';
import type { EntitySchema } from './entity-types.js';
import { deleteRows, exportRows, getRow, hookContext, listRows, saveRow } from './engine.js';
import { buildXlsx, XLSX_TYPE } from './excel.js';
import type { Row } from './hooks.js';
import { errorReportKey, importFile, writeErrorReport, type ImportFile, type RowError } from './import.js';
import { storageOf } from '../storage/index.js';
import { sendStored } from '../storage/http.js';
import type { Query } from './query.js';

type Op = NonNullable<EntitySchema['operations']>[number];
const ALL_OPS: Op[] = ['list', 'add', 'edit', 'delete', 'deleteBatch', 'queryById', 'exportXls', 'importExcel'];
/** Rows one export may hold: an .xlsx is built in memory (≈ 30 MB of RSS per 1,000 rows of 40 columns). */
const EXPORT_CAP = 20_000;

/** RFC 6266 attachment header with a UTF-8 file name (Chinese titles survive). */
export function attachment(reply: FastifyReply, fileName: string, type: string) {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  reply.header('Content-Type', type);
  reply.header('Content-Disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`);
}

/** Reads every file part of a multipart request (`file`, `files[]`, any name), bounded by `maxBytes`. */
export async function readUploads(req: FastifyRequest, maxBytes: number): Promise<ImportFile[]> {
  if (!req.isMultipart()) throw new BizError('请使用 multipart/form-data 上传文件');
  const files: ImportFile[] = [];
  for await (const part of req.parts()) {
    if (part.type !== 'file') continue;
    const name = part.filename || 'file';
    let data: Buffer;
    try {
      data = await part.toBuffer();
    } catch {
      throw new BizError(`文件“${name}”超过大小限制（最大${Math.round(maxBytes / 1024 / 1024)}MB）`);
    }
    if (data.length > maxBytes) throw new BizError(`文件“${name}”超过大小限制（最大${Math.round(maxBytes / 1024 / 1024)}MB）`);
    if (!/\.(xlsx|xls)$/i.test(name)) throw new BizError(`文件“${name}”不是 Excel 文件，只支持 .xls 和 .xlsx`);
    files.push({ name, data });
  }
  if (!files.length) throw new BizError('请选择要导入的文件');
  return files;
}

/** Generic export/import handlers, shared by entity routes and online forms. */
export async function sendExport(ctx: ServerContext, req: FastifyRequest, reply: FastifyReply, e: EntitySchema) {
  const h = hookContext(ctx, req, e);
  const rows = await exportRows(h, req.query as Query, EXPORT_CAP, true);
  const buf = await buildXlsx(e, rows);
  attachment(reply, `${e.title}.xlsx`, XLSX_TYPE);
  return reply.send(buf);
}

export async function handleImport(ctx: ServerContext, req: FastifyRequest, e: EntitySchema) {
  const files = await readUploads(req, ctx.cfg.import.maxBytes);
  const h = hookContext(ctx, req, e);
  let total = 0;
  let success = 0;
  const errors: RowError[] = [];
  for (const f of files) {
    const r = await importFile(h, f, ctx.cfg.import.maxRows);
    total += r.totalCount;
    success += r.successCount;
    errors.push(...r.errors);
  }
  if (!errors.length) return ok(`文件导入成功！数据行数：${success}`, `文件导入成功！数据行数：${success}`);
  const name = await writeErrorReport(storageOf(ctx), h.user.id, errors);
  const failedFiles = [...new Set(errors.map((x) => x.file))];
  const msg = `共${total}行数据，成功导入${success}行；文件${failedFiles.map((x) => `“${x}”`).join('、')}有${errors.length}处错误，该文件未导入任何数据`;
  return ok(
    { totalCount: total, errorCount: errors.length, successCount: success, msg, fileUrl: `/sys/crud/importError/${name}`, fileName: '导入错误报告.txt', errors: errors.slice(0, 100) },
    '文件导入成功，但有错误。',
    201,
  );
}

function idsParam(q: Query): string[] {
  const raw = q.ids;
  if (typeof raw !== 'string' || !raw.replace(/,/g, '')) throw new BizError('请选择一条记录！');
  return raw.split(',');
}

/** Mounts the generic CRUD routes of every entity with a resource path. */
export async function registerCrud(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  for (const e of ctx.entities.byName.values()) {
    if (!e.resource || !e.permission) continue;
    const ops = new Set(e.operations ?? ALL_OPS);
    const base = e.resource;
    const auth = (op: Op) => ({ config: { auth: `${e.permission}:${op}` } });
    if (ops.has('list')) api.get(`${base}/list`, auth('list'), async (req) => ok(await listRows(hookContext(ctx, req, e), req.query as Query)));
    if (ops.has('queryById'))
      api.get(`${base}/queryById`, auth('queryById'), async (req) => {
        const row = await getRow(hookContext(ctx, req, e), (req.query as Query).id);
        if (!row) throw new BizError('未找到对应数据');
        return ok(row);
      });
    if (ops.has('add'))
      api.post(`${base}/add`, auth('add'), async (req) => {
        await saveRow(hookContext(ctx, req, e), req.body as Row, 'add');
        return ok('添加成功！', '添加成功！');
      });
    if (ops.has('edit')) {
      const edit = async (req: FastifyRequest) => {
        await saveRow(hookContext(ctx, req, e), req.body as Row, 'edit');
        return ok('编辑成功!', '编辑成功!');
      };
      api.put(`${base}/edit`, auth('edit'), edit);
      api.post(`${base}/edit`, auth('edit'), edit);
    }
    if (ops.has('delete'))
      api.delete(`${base}/delete`, auth('delete'), async (req) => {
        const id = (req.query as Query).id;
        if (typeof id !== 'string' || !id) throw new BizError('请选择一条记录！');
        await deleteRows(hookContext(ctx, req, e), [id]);
        return ok('删除成功!', '删除成功!');
      });
    if (ops.has('deleteBatch'))
      api.delete(`${base}/deleteBatch`, auth('deleteBatch'), async (req) => {
        const n = await deleteRows(hookContext(ctx, req, e), idsParam(req.query as Query));
        return ok('批量删除成功!', `批量删除成功！共${n}条`);
      });
    if (ops.has('exportXls')) api.get(`${base}/exportXls`, auth('exportXls'), (req, reply) => sendExport(ctx, req, reply, e));
    if (ops.has('importExcel')) api.post(`${base}/importExcel`, auth('importExcel'), (req) => handleImport(ctx, req, e));
  }

  // Import error reports: only the user who ran the import can read theirs.
  api.get('/sys/crud/importError/:name', { config: { auth: 'user', fileToken: true } }, async (req, reply) => {
    const { name } = req.params as { name: string };
    if (!/^[a-f0-9]{32}\.txt$/.test(name)) throw new BizError('很抱歉，资源未找到!', 404);
    const storage = storageOf(ctx);
    const key = errorReportKey(req.user!.id, name);
    const st = await storage.stat(key);
    if (!st) throw new BizError('很抱歉，资源未找到!', 404);
    attachment(reply, '导入错误报告.txt', 'text/plain; charset=utf-8');
    return sendStored(req, reply, storage, key, st.size);
  });
}
