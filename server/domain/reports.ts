import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type RawBuilder } from 'kysely';
import type { ServerContext } from '../context.js';
import type { SessionUser } from '../auth/session.js';
import type { DB } from '../db/index.js';
import { BizError, ok, page } from '../http/envelope.js';
import { parsePaging } from '../crud/query.js';
import { buildXlsx, XLSX_TYPE } from '../crud/excel.js';
import { attachment } from '../crud/routes.js';
import type { EntitySchema, FieldType } from '../crud/entity-types.js';
import { applicableIndexSet, termOrCurrent } from './base.js';
import { DEFAULT_GRADE_BANDS, DONE_STATUSES, GRADE_TEXT, gradeOf, round2, type GradeBand } from '../../shared/rules.js';
import { scopeOf, subtree } from './scope.js';

/**
 * Statistics over lecture records, all in SQL. One filter builder (`validRecords`) serves every
 * report and its drill-down, so a number and the records behind it always agree.
 */
const PERM = 'supervisor:report:list';
const DONE = sql.join(DONE_STATUSES.map((s) => sql.lit(s)));

export interface ReportFilter {
  termId: string;
  /** Department subtree (orgCode prefix) of the people counted; null = whole school. */
  orgCode: string | null;
  mode?: string;
  week?: number;
}

/** The department a request may report on: its own department when the user's scope is narrower than all. */
export async function reportFilter(ctx: ServerContext, user: SessionUser, query: Record<string, unknown>): Promise<ReportFilter> {
  const term = await termOrCurrent(ctx.db, query.termId);
  let orgCode: string | null = null;
  if (typeof query.departId === 'string' && query.departId) {
    const d = await ctx.db.selectFrom('sys_depart').select('org_code').where('id', '=', query.departId).executeTakeFirst();
    if (!d) throw new BizError('部门不存在');
    orgCode = String(d.org_code);
  }
  const scope = scopeOf(user);
  if (scope !== 'all') {
    if (scope === 'self' || !user.orgCode) throw new BizError('无权查看统计数据', 510);
    if (!orgCode || !orgCode.startsWith(user.orgCode)) orgCode = user.orgCode;
  }
  const mode = typeof query.mode === 'string' && ['OFFLINE', 'ONLINE'].includes(query.mode) ? query.mode : undefined;
  const week = Number(query.week) > 0 ? Number(query.week) : undefined;
  return { termId: term.id, orgCode, mode, week };
}

/** Valid (counted) records of a term with optional filters; `side` picks whose department is filtered. */
function validRecords(f: ReportFilter, side: 'listener' | 'teacher'): RawBuilder<unknown> {
  const col = side === 'listener' ? sql.ref('r.listener_org_code') : sql.ref('r.teacher_org_code');
  return sql`select r.* from sup_lecture_record r where r.term_id = ${f.termId} and r.status in (${DONE})
    ${f.orgCode ? sql`and ${col} like ${subtree(f.orgCode)}` : sql``}
    ${f.mode ? sql`and r.mode = ${f.mode}` : sql``}
    ${f.week ? sql`and r.week = ${f.week}` : sql``}`;
}

/** Listeners who owe observations in the term and how many: the highest matching requirement. */
function requirements(f: ReportFilter): RawBuilder<unknown> {
  return sql`select u.id as user_id, max(q.required_count) as required, max(q.min_offline) as min_offline
    from sys_user u
    join sup_require_task q on q.term_id = ${f.termId} and (
      (q.target_type = 'PERSON' and q.person_id = u.id) or
      (q.target_type = 'CATEGORY' and (',' || coalesce(u.listener_category, '') || ',') like ('%,' || q.listener_category || ',%')))
    left join sys_depart qd on qd.id = q.depart_id
    where u.del_flag = 0 and (q.depart_id is null or u.org_code like (qd.org_code || '%'))
      ${f.orgCode ? sql`and u.org_code like ${subtree(f.orgCode)}` : sql``}
    group by u.id`;
}

export interface FrequencyRow {
  userId: string;
  realname: string;
  departName: string;
  /** The person's department (links of the by-department summary). */
  departId: string;
  required: number;
  actual: number;
  online: number;
  offline: number;
  rate: number;
  met: boolean;
}

export async function frequency(db: DB, f: ReportFilter): Promise<FrequencyRow[]> {
  const { rows } = await sql<Record<string, unknown>>`
    with req as (${requirements(f)}),
    act as (select listener_id, count(*) as actual, count(*) filter (where mode = 'ONLINE') as online, count(*) filter (where mode <> 'ONLINE' or mode is null) as offline
            from (${validRecords({ ...f, orgCode: null }, 'listener')}) r group by listener_id)
    select u.id, u.realname, d.depart_name, d.id as depart_id, req.required, req.min_offline, coalesce(act.actual, 0) as actual,
           coalesce(act.online, 0) as online, coalesce(act.offline, 0) as offline
    from req join sys_user u on u.id = req.user_id
    left join act on act.listener_id = req.user_id
    left join sys_depart d on d.org_code = u.org_code
    order by d.depart_name, u.realname, u.id`.execute(db);
  return rows.map((r) => {
    const required = Number(r.required);
    const actual = Number(r.actual);
    const offline = Number(r.offline);
    return {
      userId: String(r.id), realname: String(r.realname), departName: String(r.depart_name ?? ''), departId: String(r.depart_id ?? ''), required, actual, online: Number(r.online), offline,
      rate: required > 0 ? Math.round((Math.min(actual, required) / required) * 10000) / 10000 : 1,
      met: actual >= required && offline >= Number(r.min_offline ?? 0),
    };
  });
}

/** Per department: headcount owing, completed, Σ actual, average, completion rate. */
export function byDepartment(rows: FrequencyRow[]) {
  const m = new Map<string, { departName: string; departId: string; headcount: number; completed: number; actualSum: number; requiredSum: number; doneSum: number }>();
  for (const r of rows) {
    const d = m.get(r.departName) ?? { departName: r.departName, departId: r.departId, headcount: 0, completed: 0, actualSum: 0, requiredSum: 0, doneSum: 0 };
    d.headcount++;
    if (r.met) d.completed++;
    d.actualSum += r.actual;
    d.requiredSum += r.required;
    d.doneSum += Math.min(r.actual, r.required);
    m.set(r.departName, d);
  }
  return [...m.values()].map((d) => ({
    departName: d.departName, departId: d.departId, headcount: d.headcount, completed: d.completed, actualSum: d.actualSum,
    average: d.headcount ? round2(d.actualSum / d.headcount) : 0, completionRate: d.headcount ? Math.round((d.completed / d.headcount) * 10000) / 10000 : 0,
  }));
}

export async function coverage(db: DB, f: ReportFilter) {
  const { rows } = await sql<{ teaching: string; observed: string }>`
    with teachers as (select distinct k.teacher_id from sup_course_task k join sys_user u on u.id = k.teacher_id
                      where k.term_id = ${f.termId} ${f.orgCode ? sql`and u.org_code like ${subtree(f.orgCode)}` : sql``})
    select (select count(*) from teachers) as teaching,
           (select count(distinct r.teacher_id) from (${validRecords(f, 'teacher')}) r where r.teacher_id in (select teacher_id from teachers)) as observed`.execute(db);
  const teaching = Number(rows[0]?.teaching ?? 0);
  const observed = Number(rows[0]?.observed ?? 0);
  return { teaching, observed, rate: teaching ? Math.round((observed / teaching) * 10000) / 10000 : 0 };
}

export async function weekly(db: DB, f: ReportFilter) {
  const { rows } = await sql<{ week: number; n: string; online: string }>`
    select r.week, count(*) as n, count(*) filter (where r.mode = 'ONLINE') as online from (${validRecords(f, 'listener')}) r group by r.week order by r.week`.execute(db);
  return rows.map((r) => ({ week: Number(r.week), count: Number(r.n), online: Number(r.online), offline: Number(r.n) - Number(r.online) }));
}

export interface PerformanceRow {
  teacherId: string;
  realname: string;
  departName: string;
  title: string;
  count: number;
  avg: number;
  max: number;
  min: number;
  trimmedAvg: number | null;
  grade: string;
}

async function bandsOf(db: DB): Promise<GradeBand[]> {
  try {
    return (await applicableIndexSet(db, 'THEORY')).bands;
  } catch {
    return DEFAULT_GRADE_BANDS;
  }
}

export async function performance(db: DB, f: ReportFilter): Promise<PerformanceRow[]> {
  // Aggregate the narrow record rows per teacher first, then join names (no sort of wide rows).
  const { rows } = await sql<Record<string, unknown>>`
    with agg as (select r.teacher_id, count(*) as n, avg(r.total_score) as avg, max(r.total_score) as max, min(r.total_score) as min, sum(r.total_score) as sum
                 from (${validRecords(f, 'teacher')}) r where r.total_score is not null group by r.teacher_id)
    select agg.*, u.realname, d.depart_name, u.title
    from agg join sys_user u on u.id = agg.teacher_id
    left join sys_depart d on d.org_code = u.org_code
    order by agg.avg desc, agg.teacher_id`.execute(db);
  const bands = await bandsOf(db);
  return rows.map((r) => {
    const n = Number(r.n);
    const avg = round2(Number(r.avg));
    const max = Number(r.max);
    const min = Number(r.min);
    // Trimmed average: drop one highest and one lowest score once there are at least five.
    const trimmedAvg = n >= 5 ? round2((Number(r.sum) - max - min) / (n - 2)) : null;
    return {
      teacherId: String(r.teacher_id), realname: String(r.realname), departName: String(r.depart_name ?? ''), title: String(r.title ?? ''),
      count: n, avg, max, min, trimmedAvg, grade: gradeOf(avg, bands).grade,
    };
  });
}

/** Grade distribution of the records by teacher department, course category or teacher title. */
export async function gradeDistribution(db: DB, f: ReportFilter, by: 'depart' | 'category' | 'title') {
  const key =
    by === 'category' ? sql`coalesce(c.category, '')` : by === 'title' ? sql`coalesce(u.title, '')` : sql`coalesce(d.depart_name, '')`;
  // by=depart rows also carry the department id (`departId`), so a bar can drill down to its records.
  const { rows } = await sql<{ k: string; dept: string | null; grade: string; n: string }>`
    with agg as (select r.teacher_id, r.course_id, r.grade, count(*) as n from (${validRecords(f, 'teacher')}) r
                 where r.grade is not null group by r.teacher_id, r.course_id, r.grade)
    select ${key} as k, ${by === 'depart' ? sql`min(d.id)` : sql`null`} as dept, agg.grade, sum(agg.n) as n
    from agg
    join sys_user u on u.id = agg.teacher_id
    left join sys_depart d on d.org_code = u.org_code
    left join sup_course c on c.id = agg.course_id
    group by 1, 3 order by 1, 3`.execute(db);
  const m = new Map<string, Record<string, number | string>>();
  for (const r of rows) {
    const o = m.get(r.k) ?? { key: r.k, total: 0, ...(by === 'depart' ? { departId: r.dept ?? '' } : {}) };
    o[r.grade] = Number(r.n);
    o.total = Number(o.total) + Number(r.n);
    m.set(r.k, o);
  }
  return [...m.values()];
}

/** Drill-down: the records behind a number, with the same filters (listener or teacher side). */
export async function drill(db: DB, f: ReportFilter, q: Record<string, unknown>) {
  const side = q.side === 'teacher' ? 'teacher' : 'listener';
  const { pageNo, pageSize } = parsePaging(q);
  const extra = sql`${typeof q.userId === 'string' && q.userId ? sql`and r.listener_id = ${q.userId}` : sql``}
    ${typeof q.teacherId === 'string' && q.teacherId ? sql`and r.teacher_id = ${q.teacherId}` : sql``}
    ${typeof q.grade === 'string' && q.grade ? sql`and r.grade = ${q.grade}` : sql``}`;
  const base = sql`select * from (${validRecords(f, side)}) r where true ${extra}`;
  const [{ rows: cnt }, { rows }] = await Promise.all([
    sql<{ n: string }>`select count(*) as n from (${base}) x`.execute(db),
    sql<Record<string, unknown>>`select x.id, x.record_no, x.listener_name, x.teacher_name, x.course_name, x.lecture_date, x.week, x.mode, x.total_score, x.grade, x.status
      from (${base}) x order by x.lecture_date desc, x.id limit ${pageSize} offset ${(pageNo - 1) * pageSize}`.execute(db),
  ]);
  const records = rows.map((r) => ({
    id: r.id, recordNo: r.record_no, listenerName: r.listener_name, teacherName: r.teacher_name, courseName: r.course_name, lectureDate: r.lecture_date,
    week: r.week, mode: r.mode, totalScore: r.total_score === null ? null : Number(r.total_score), grade: r.grade, status: r.status,
  }));
  return { ...page(records, Number(cnt[0]?.n ?? 0), pageNo, pageSize), filters: await drillFilters(db, f, q, side) };
}

/** What a drill-down counts, as label/text pairs the list shows above its rows (学期, 部门, 教师 or 听课人, 等级). */
async function drillFilters(db: DB, f: ReportFilter, q: Record<string, unknown>, side: 'listener' | 'teacher') {
  const out: Array<{ label: string; text: string }> = [];
  const term = await db.selectFrom('sup_term').select('name').where('id', '=', f.termId).executeTakeFirst();
  out.push({ label: '学期', text: String(term?.name ?? f.termId) });
  if (f.orgCode) {
    const d = await db.selectFrom('sys_depart').select('depart_name').where('org_code', '=', f.orgCode).executeTakeFirst();
    if (d) out.push({ label: side === 'teacher' ? '授课教师部门' : '听课人部门', text: String(d.depart_name) });
  }
  for (const [key, label] of [['teacherId', '授课教师'], ['userId', '听课人']] as const) {
    const id = typeof q[key] === 'string' ? (q[key] as string) : '';
    if (!id) continue;
    const u = await db.selectFrom('sys_user').select('realname').where('id', '=', id).executeTakeFirst();
    out.push({ label, text: String(u?.realname ?? id) });
  }
  if (typeof q.grade === 'string' && q.grade) out.push({ label: '等级', text: GRADE_TEXT[q.grade] ?? q.grade });
  return out;
}

/** A report's columns as an export-only schema, so the engine's Excel writer (text, no formulas) serves it. */
function sheet(title: string, cols: Array<[string, string, FieldType?]>): EntitySchema {
  return { name: 'report', table: 'report', title, audit: false, fields: cols.map(([name, excel, type]) => ({ name, excel, type: type ?? 'string', length: 200 })) };
}
const FREQ_SHEET = sheet('听课频次统计', [['realname', '姓名'], ['departName', '部门'], ['required', '应听', 'integer'], ['actual', '实听', 'integer'],
  ['offline', '线下', 'integer'], ['online', '线上', 'integer'], ['rate', '完成率', 'number'], ['metText', '达标']]);
const PERF_SHEET = sheet('听课成绩统计', [['realname', '授课教师'], ['departName', '部门'], ['count', '被听次数', 'integer'], ['avg', '平均分', 'number'],
  ['max', '最高分', 'number'], ['min', '最低分', 'number'], ['trimmedAvg', '去极值平均', 'number'], ['gradeText', '等级']]);

export async function registerReports(api: FastifyInstance, ctx: ServerContext) {
  const filter = (req: FastifyRequest) => reportFilter(ctx, req.user!, (req.query ?? {}) as Record<string, unknown>);
  const cfg = { config: { auth: PERM } };
  // `realname`: optional name filter of the screens (a list query's `*x*` form is accepted).
  const byName = <T extends { realname: string }>(req: FastifyRequest, rows: T[]) => {
    const n = String((req.query as Record<string, unknown>)?.realname ?? '').replace(/\*/g, '').trim();
    return n ? rows.filter((r) => String(r.realname ?? '').includes(n)) : rows;
  };
  api.get('/supervisor/report/frequency', cfg, async (req) => ok(byName(req, await frequency(ctx.db, await filter(req)))));
  api.get('/supervisor/report/frequencyByDepart', cfg, async (req) => ok(byDepartment(await frequency(ctx.db, await filter(req)))));
  api.get('/supervisor/report/coverage', cfg, async (req) => ok(await coverage(ctx.db, await filter(req))));
  api.get('/supervisor/report/weekly', cfg, async (req) => ok(await weekly(ctx.db, await filter(req))));
  api.get('/supervisor/report/performance', cfg, async (req) => ok(byName(req, await performance(ctx.db, await filter(req)))));
  api.get('/supervisor/report/gradeDistribution', cfg, async (req) => {
    const by = (req.query as Record<string, unknown>).by;
    return ok(await gradeDistribution(ctx.db, await filter(req), by === 'category' || by === 'title' ? by : 'depart'));
  });
  const exportCfg = { config: { auth: ['supervisor:report:exportXls', PERM] } };
  api.get('/supervisor/report/frequency/exportXls', exportCfg, async (req, reply) => {
    const rows = (await frequency(ctx.db, await filter(req))).map((r) => ({ ...r, metText: r.met ? '是' : '否' }));
    attachment(reply, '听课频次统计.xlsx', XLSX_TYPE);
    return reply.send(await buildXlsx(FREQ_SHEET, rows));
  });
  api.get('/supervisor/report/performance/exportXls', exportCfg, async (req, reply) => {
    const bands = await bandsOf(ctx.db);
    const rows = (await performance(ctx.db, await filter(req))).map((r) => ({ ...r, gradeText: bands.find((b) => b.grade === r.grade)?.label ?? r.grade }));
    attachment(reply, '听课成绩统计.xlsx', XLSX_TYPE);
    return reply.send(await buildXlsx(PERF_SHEET, rows));
  });
  api.get('/supervisor/report/detail', cfg, async (req) => ok(await drill(ctx.db, await filter(req), (req.query ?? {}) as Record<string, unknown>)));
}
