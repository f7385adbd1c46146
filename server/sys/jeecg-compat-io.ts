import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { getRow, hookContext, listRows } from '../crud/engine.js';
import { readXlsx } from '../crud/excel.js';
import type { RowError } from '../crud/import.js';
import { writeErrorReport } from '../crud/import.js';
import { storageOf } from '../storage/index.js';
import type { Query } from '../crud/query.js';
import { readUploads, sendExport } from '../crud/routes.js';
import { BizError, fail, ok } from '../http/envelope.js';
import { allows } from '../http/guard.js';
import { reportOf } from '../online/reports/index.js';
import { newId, now } from '../util.js';
import { nextOrgCode } from './depart-admin.js';
import { forward } from './jeecg-compat.js';

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : v === undefined || v === null ? '' : String(v));

/** JeecgBoot's Online-report field types by ours. */
const FIELD_TYPE: Record<string, string> = { string: 'String', text: 'String', integer: 'Integer', bigint: 'Long', number: 'BigDecimal', date: 'Date', datetime: 'Date', boolean: 'String' };

/**
 * The stock JeecgBoot 3.4 client's file, department Excel and report-editor calls (issue 33),
 * served from our files, departments and registered reports. See docs/jeecg-compat.md.
 */
export async function registerJeecgCompatIo(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  // ── 文件存储 (OSS): our uploaded files ──
  const file = () => ctx.entities.get('sys_file');
  api.get('/sys/oss/file/list', { config: { auth: 'system:file:list' } }, async (req) => {
    const q = req.query as Query;
    const query: Query = { pageNo: q.pageNo, pageSize: q.pageSize, column: q.column, order: q.order };
    const name = str(q.fileName).replace(/\*/g, '');
    if (name) query.fileName = `*${name}*`;
    return ok(await listRows(hookContext(ctx, req, file()), query));
  });
  api.get('/sys/oss/file/queryById', { config: { auth: 'system:file:queryById' } }, async (req) => {
    const row = await getRow(hookContext(ctx, req, file()), (req.query as Query).id);
    return row ? ok(row) : fail('未找到对应数据');
  });
  /** The same checked upload as /sys/common/upload (server-chosen name, size and content checks), JeecgBoot's answer. */
  api.post('/sys/oss/file/upload', { config: { auth: 'system:file:upload' } }, async (req) => {
    const type = req.headers['content-type'];
    if (typeof type !== 'string' || !req.isMultipart()) throw new BizError('请以multipart/form-data方式上传文件');
    const r = await forward(req, ctx, 'POST', '/sys/common/upload', { payload: req.raw, headers: { 'content-type': type } });
    return r.body.success ? ok(null, '上传成功！') : r.body;
  });
  api.delete('/sys/oss/file/delete', { config: { auth: 'system:file:delete' } }, async (req) => {
    const r = await forward(req, ctx, 'DELETE', '/sys/files/delete', { query: { id: (req.query as Query).id } });
    return r.body.success ? ok(null, '删除成功!') : r.body;
  });

  // ── 部门: Excel export and import ──
  api.get('/sys/sysDepart/exportXls', { config: { auth: 'system:depart:exportXls' } }, (req, reply) => sendExport(ctx, req, reply, ctx.entities.get('sys_depart')));

  /**
   * Rows of 部门名称 and 机构编码 (a child's code starts with its parent's, as exported). Each
   * department gets a new code under its parent (existing or imported in the same file); a row
   * whose code is taken, or whose parent is unknown, is an error and then nothing is imported.
   */
  api.post('/sys/sysDepart/importExcel', { config: { auth: 'system:depart:importExcel' } }, async (req) => {
    const files = await readUploads(req, ctx.cfg.import.maxBytes);
    const existing = await ctx.db.selectFrom('sys_depart').select(['id', 'org_code', 'parent_id']).where('del_flag', '=', '0').execute();
    const byCode = new Map(existing.map((r) => [String(r.org_code), { id: String(r.id), code: String(r.org_code) }]));
    const errors: RowError[] = [];
    const plan: Array<{ name: string; given: string; file: string; row: number; extra: Record<string, string> }> = [];
    for (const f of files) {
      const rows = await readXlsx(f.data, f.name, ['部门名称', '机构编码', '部门简称', '英文名', '手机号', '传真', '地址', '备注'], ctx.cfg.import.maxRows);
      for (const r of rows) {
        const name = str(r.cells['部门名称']);
        const given = str(r.cells['机构编码']).toUpperCase();
        if (r.formulas.length) errors.push({ file: f.name, row: r.rowNo, column: r.formulas[0]!, reason: '不支持公式' });
        else if (!name) errors.push({ file: f.name, row: r.rowNo, column: '部门名称', reason: '部门名称不能为空' });
        else if (name.length > 100) errors.push({ file: f.name, row: r.rowNo, column: '部门名称', reason: '部门名称不能超过100个字符' });
        else if (given && !/^([A-Z]\d{2})+$/.test(given)) errors.push({ file: f.name, row: r.rowNo, column: '机构编码', reason: '机构编码格式应为 A01、A01A02 这样的层级编码' });
        else if (given && byCode.has(given)) errors.push({ file: f.name, row: r.rowNo, column: '机构编码', reason: `机构编码“${given}”已存在` });
        else
          plan.push({
            name, given, file: f.name, row: r.rowNo,
            extra: { depart_name_abbr: str(r.cells['部门简称']), depart_name_en: str(r.cells['英文名']), mobile: str(r.cells['手机号']), fax: str(r.cells['传真']), address: str(r.cells['地址']), memo: str(r.cells['备注']) },
          });
      }
    }
    // Parents first; a parent is the row (or department) whose code is the row's code minus its last level.
    plan.sort((a, b) => a.given.length - b.given.length);
    const planned = new Set(plan.map((p) => p.given).filter(Boolean));
    for (const p of plan) {
      const parent = p.given.length > 3 ? p.given.slice(0, -3) : '';
      if (parent && !byCode.has(parent) && !planned.has(parent)) errors.push({ file: p.file, row: p.row, column: '机构编码', reason: `上级部门“${parent}”不存在` });
    }
    const total = plan.length + errors.length;
    if (errors.length) {
      const name = await writeErrorReport(storageOf(ctx), req.user!.id, errors);
      return ok(
        { totalCount: total, errorCount: errors.length, successCount: 0, msg: `共${total}行数据，有${errors.length}处错误，未导入任何数据`, fileUrl: `/sys/crud/importError/${name}`, fileName: '导入错误报告.txt', errors: errors.slice(0, 100) },
        '文件导入成功，但有错误。',
        201,
      );
    }
    await ctx.db.transaction().execute(async (trx) => {
      const made = new Map<string, { id: string; code: string }>(); // given code → created
      for (const p of plan) {
        const parentGiven = p.given.length > 3 ? p.given.slice(0, -3) : '';
        const parent = parentGiven ? (made.get(parentGiven) ?? byCode.get(parentGiven)!) : undefined;
        let sib = trx.selectFrom('sys_depart').select('org_code');
        sib = parent ? sib.where('parent_id', '=', parent.id) : sib.where((eb) => eb.or([eb('parent_id', 'is', null), eb('parent_id', '=', '')]));
        const orgCode = nextOrgCode(parent?.code ?? '', (await sib.execute()).map((r) => String(r.org_code)));
        const id = newId();
        const extra = Object.fromEntries(Object.entries(p.extra).filter(([, v]) => v !== ''));
        await trx
          .insertInto('sys_depart')
          .values({
            org_category: parent ? '2' : '1', status: '1', depart_order: 0, ...extra,
            id, depart_name: p.name, parent_id: parent?.id ?? null, org_code: orgCode, org_type: String(orgCode.length / 3), del_flag: '0', tenant_id: 0,
            create_by: req.user!.username, create_time: now(),
          })
          .execute();
        if (p.given) made.set(p.given, { id, code: orgCode });
      }
    });
    return ok(`文件导入成功！数据行数：${plan.length}`, `文件导入成功！数据行数：${plan.length}`);
  });

  // ── Online报表 editor: a registered report's columns and parameters, read-only ──
  const reportFor = (req: { user?: Parameters<typeof allows>[0] }, headId: unknown) => {
    const def = reportOf(str(headId));
    return def && allows(req.user!, def.auth) ? def : undefined;
  };
  api.get('/online/cgreport/item/listByHeadId', { config: { auth: 'online:cgreport:list' } }, async (req) => {
    const def = reportFor(req, (req.query as Query).headId);
    if (!def) return ok([]);
    return ok(def.columns.map((c, i) => ({
      id: `${def.code}.${c.field}`, cgrheadId: def.code, fieldName: c.field, fieldTxt: c.title, fieldWidth: null, fieldType: FIELD_TYPE[c.type ?? 'string'] ?? 'String',
      searchMode: c.search ? (c.searchMode ?? 'single') : null, isOrder: c.sortable ? 1 : 0, isSearch: c.search ? 1 : 0, dictCode: c.dict ?? null, fieldHref: null,
      isShow: 1, orderNum: i + 1, replaceVal: null, isTotal: '0', groupTitle: null, createBy: 'system', createTime: null, updateBy: null, updateTime: null,
    })));
  });
  api.get('/online/cgreport/param/listByHeadId', { config: { auth: 'online:cgreport:list' } }, async (req) => {
    const def = reportFor(req, (req.query as Query).headId);
    if (!def) return ok([]);
    return ok(def.params.map((p, i) => ({
      id: `${def.code}.${p.name}`, cgrheadId: def.code, paramName: p.name, paramTxt: p.label, paramValue: null, orderNum: i + 1, createBy: 'system', createTime: null, updateBy: null, updateTime: null,
    })));
  });
}
