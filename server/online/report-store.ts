import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import { BizError, Forbidden, ok } from '../http/envelope.js';
import { buildXlsx, XLSX_TYPE } from '../crud/excel.js';
import { attachment } from '../crud/routes.js';
import type { EntitySchema } from '../crud/entity-types.js';
import { loadPage } from '../pages/index.js';
import { pageIdOf } from '../pages/allowed.js';
import { seesEverything } from '../sys/permission-tree.js';
import { newId } from '../util.js';
import { compileReport, runReportWithMeta, type ReportSpec } from './report-builder.js';

/**
 * Stored reports of 报表配置 (issue 31): a name, a code and the builder's structure (`onl_report.spec`,
 * JSON — never SQL). Saving compiles it (a structure that does not compile is refused); 生成菜单 adds its
 * menu entry `/online/report/<code>` (page `online/ReportView`) with the codes `online:report:<code>`
 * (open it) and `online:report:<code>:exportXls` (导出), granted to the admin role and the author's roles.
 * Running a report applies the caller's data scope of its base entity (runReport → scopedQuery).
 */
const CODE = /^[a-z][a-z0-9_]{1,39}$/;
const REPORT_PAGE = 'online/ReportView';
type Row = Record<string, unknown>;

export interface StoredReport {
  id: string;
  code: string;
  name: string;
  spec: ReportSpec;
  menuId: string | null;
}

async function byCode(ctx: ServerContext, code: string): Promise<StoredReport | undefined> {
  const r = await ctx.db.selectFrom('onl_report').selectAll().where('code', '=', code).executeTakeFirst();
  return r ? toReport(r as Row) : undefined;
}
async function byId(ctx: ServerContext, id: unknown): Promise<StoredReport> {
  const r = typeof id === 'string' && id ? await ctx.db.selectFrom('onl_report').selectAll().where('id', '=', id).executeTakeFirst() : undefined;
  if (!r) throw new BizError('报表不存在');
  return toReport(r as Row);
}
const toReport = (r: Row): StoredReport => ({ id: String(r.id), code: String(r.code), name: String(r.name), spec: JSON.parse(String(r.spec)) as ReportSpec, menuId: (r.menu_id as string | null) ?? null });

export async function storedReports(ctx: ServerContext): Promise<StoredReport[]> {
  return ((await ctx.db.selectFrom('onl_report').selectAll().orderBy('create_time', 'desc').execute()) as Row[]).map(toReport);
}

/** The caller may run the report: its menu code, or the designer's, or the administrator. */
function mayRun(req: FastifyRequest, code: string, op = ''): boolean {
  const u = req.user!;
  return seesEverything(u) || u.perms.has('online:cgreport:design') || u.perms.has(`online:report:${code}${op}`);
}
async function reportFor(ctx: ServerContext, req: FastifyRequest, op = ''): Promise<StoredReport> {
  const code = String((req.params as { code?: string }).code ?? '');
  const r = CODE.test(code) ? await byCode(ctx, code) : undefined;
  if (!r) throw new BizError('报表不存在');
  if (!mayRun(req, code, op)) throw Forbidden();
  return r;
}

/** The list screen of the entity's records (a menu whose page lists it): a row link opens `<url>?open=<id>`. */
async function recordLink(ctx: ServerContext, e: EntitySchema): Promise<string | undefined> {
  const menus = await ctx.db.selectFrom('sys_permission').select(['url', 'component']).where('del_flag', '=', 0).where('menu_type', 'in', [0, 1]).where('component', 'is not', null).orderBy('sort_no').execute();
  for (const m of menus) {
    const s = loadPage(pageIdOf(m.component), ctx)?.schema;
    if (s && s.entity === e.name && ['list', 'master-detail', 'tree-list'].includes(String(s.kind)) && m.url) return String(m.url);
  }
  return undefined;
}

const parseJson = (v: unknown, what: string): Record<string, unknown> => {
  if (v === undefined || v === '') return {};
  try {
    const o = typeof v === 'string' ? (JSON.parse(v) as unknown) : v;
    if (o && typeof o === 'object' && !Array.isArray(o)) return o as Record<string, unknown>;
  } catch {
    /* below */
  }
  throw new BizError(`${what}不正确`);
};

async function ensureReportMenu(ctx: ServerContext, req: FastifyRequest, r: StoredReport): Promise<string> {
  const db = ctx.db;
  const url = `/online/report/${r.code}`;
  const found = await db.selectFrom('sys_permission').select('id').where('url', '=', url).where('del_flag', '=', 0).executeTakeFirst();
  if (found) return found.id as string;
  const parent = await db.selectFrom('sys_permission').select('id').where('url', '=', '/online').where('del_flag', '=', 0).executeTakeFirst();
  const now = new Date();
  const base = { del_flag: 0, status: '1', perms_type: '1', rule_flag: 0, internal_or_external: false, create_by: req.user?.username ?? 'system', create_time: now, always_show: false, hidden: false, keep_alive: false, hide_tab: false };
  const menuId = newId();
  const rows = [
    { ...base, id: menuId, parent_id: parent?.id ?? null, name: r.name, url, component: REPORT_PAGE, menu_type: parent ? 1 : 0, perms: `online:report:${r.code}`, sort_no: 60, is_route: true, is_leaf: false, icon: 'bar-chart' },
    { ...base, id: newId(), parent_id: menuId, name: '导出', url: '', component: null, menu_type: 2, perms: `online:report:${r.code}:exportXls`, sort_no: 1, is_route: false, is_leaf: true },
  ];
  await db.insertInto('sys_permission').values(rows).execute();
  const roles = await db.selectFrom('sys_role').select('id').where('role_code', 'in', [...new Set(['admin', ...(req.user?.roleCodes ?? [])])]).execute();
  const grants = roles.flatMap((role) => [...rows.map((x) => x.id), ...(parent ? [parent.id as string] : [])].map((pid) => ({ id: newId(), role_id: role.id, permission_id: pid, operate_date: now })));
  if (grants.length) await db.insertInto('sys_role_permission').values(grants).onConflict((oc) => oc.columns(['role_id', 'permission_id']).doNothing()).execute();
  return menuId;
}

export async function registerReportStore(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  const design = { config: { auth: 'online:cgreport:design' } };
  const user = { config: { auth: 'user' } };

  api.get('/online/cgreport/design/get', design, async (req) => ok(await byId(ctx, (req.query as Row).id)));

  api.post('/online/cgreport/design/save', design, async (req) => {
    const b = (req.body ?? {}) as { id?: string; code?: unknown; name?: unknown; spec?: ReportSpec };
    const code = typeof b.code === 'string' ? b.code.trim() : '';
    const name = typeof b.name === 'string' ? b.name.trim() : '';
    if (!CODE.test(code)) throw new BizError('报表编码须以小写字母开头，只含小写字母、数字、下划线（2–40个字符）');
    if (!name || name.length > 100) throw new BizError('请填写报表名称（不超过100个字符）');
    // The structure must compile and run for the author (bound to one row).
    const { qb } = await compileReport(ctx, req, b.spec as ReportSpec, {});
    await qb.limit(1).execute();
    const spec = JSON.stringify(b.spec);
    if (spec.length > 20_000) throw new BizError('报表定义太大');
    const same = await byCode(ctx, code);
    const now = new Date();
    if (b.id) {
      const old = await byId(ctx, b.id);
      if (same && same.id !== old.id) throw new BizError(`报表编码“${code}”已存在`);
      if (old.menuId && old.code !== code) throw new BizError('已生成菜单的报表不能修改编码');
      await ctx.db.updateTable('onl_report').set({ code, name, spec, update_by: req.user!.username, update_time: now }).where('id', '=', old.id).execute();
      return ok({ id: old.id, code }, '保存成功');
    }
    if (same) throw new BizError(`报表编码“${code}”已存在`);
    const id = newId();
    await ctx.db.insertInto('onl_report').values({ id, code, name, spec, create_by: req.user!.username, create_time: now }).execute();
    return ok({ id, code }, '保存成功');
  });

  api.delete('/online/cgreport/design/delete', design, async (req) => {
    const r = await byId(ctx, (req.query as Row).id);
    await ctx.db.transaction().execute(async (trx) => {
      if (r.menuId) {
        const ids = (await trx.selectFrom('sys_permission').select('id').where((eb) => eb.or([eb('id', '=', r.menuId), eb('parent_id', '=', r.menuId)])).execute()).map((x) => x.id as string);
        if (ids.length) {
          await trx.deleteFrom('sys_role_permission').where('permission_id', 'in', ids).execute();
          await trx.deleteFrom('sys_permission').where('id', 'in', ids).execute();
        }
      }
      await trx.deleteFrom('onl_report').where('id', '=', r.id).execute();
    });
    return ok(null, '删除成功');
  });

  api.post('/online/cgreport/design/menu', design, async (req) => {
    const r = await byId(ctx, (req.query as Row).id ?? (req.body as Row | undefined)?.id);
    const menuId = await ensureReportMenu(ctx, req, r);
    await ctx.db.updateTable('onl_report').set({ menu_id: menuId }).where('id', '=', r.id).execute();
    return ok({ menuId, url: `/online/report/${r.code}` }, `已生成菜单：在线开发 / ${r.name}`);
  });

  // The builder's live preview: the same answer as a stored report's view + data, for the draft structure.
  api.post('/online/cgreport/design/view', design, async (req) => {
    const b = (req.body ?? {}) as { spec?: ReportSpec; params?: Record<string, unknown>; drill?: Record<string, unknown> };
    const drill = b.drill === undefined ? undefined : parseJson(b.drill, '明细条件');
    const { e, rows, outputs, grouped, dims } = await runReportWithMeta(ctx, req, b.spec as ReportSpec, parseJson(b.params, '报表参数'), drill);
    const detail = grouped && !drill ? (await compileReport(ctx, req, b.spec as ReportSpec, {}, {})).outputs : undefined;
    return ok({ name: '预览', params: b.spec?.params ?? [], chart: b.spec?.chart, columns: outputs, grouped, dims, detail, recordLink: await recordLink(ctx, e), rows });
  });

  // The report screen: what to draw (columns, parameters, chart), then its rows and its Excel file.
  api.get('/online/report/:code/view', user, async (req) => {
    const r = await reportFor(ctx, req);
    const { e, outputs, grouped, dims } = await compileReport(ctx, req, r.spec, {});
    const detail = grouped ? (await compileReport(ctx, req, r.spec, {}, {})).outputs : undefined;
    return ok({ code: r.code, name: r.name, params: r.spec.params ?? [], chart: r.spec.chart, columns: outputs, grouped, dims, detail, recordLink: await recordLink(ctx, e), mayExport: mayRun(req, r.code, ':exportXls') });
  });

  api.get('/online/report/:code/data', user, async (req) => {
    const r = await reportFor(ctx, req);
    const q = req.query as Row;
    const drill = q.drill !== undefined ? parseJson(q.drill, '明细条件') : undefined;
    return ok((await runReportWithMeta(ctx, req, r.spec, parseJson(q.params, '报表参数'), drill)).rows);
  });

  api.get('/online/report/:code/exportXls', user, async (req, reply) => {
    const r = await reportFor(ctx, req, ':exportXls');
    const { rows, pseudo } = await runReportWithMeta(ctx, req, r.spec, parseJson((req.query as Row).params, '报表参数'));
    const buf = await buildXlsx({ ...pseudo, title: r.name }, rows);
    attachment(reply, `${r.name}.xlsx`, XLSX_TYPE);
    return reply.send(buf);
  });
}
