import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import { ok } from '../http/envelope.js';
import { currentTerm, getTerm } from './base.js';
import { byDepartment, frequency, gradeDistribution, type ReportFilter } from './reports.js';
import { DONE_STATUSES, weekOf } from '../../shared/rules.js';
import { recordVisibility, scopeOf } from './scope.js';
import type { SessionUser } from '../auth/session.js';
import { fmt } from '../util.js';

type DB = ServerContext['db'];
type Term = NonNullable<Awaited<ReturnType<typeof currentTerm>>>;

/** The term a dashboard asks about (`termId`, else the current one) with its week number today. */
async function termOf(ctx: ServerContext, req: FastifyRequest) {
  const termId = (req.query as Record<string, unknown>).termId;
  const term = typeof termId === 'string' && termId ? await getTerm(ctx.db, termId) : await currentTerm(ctx.db);
  return term && { ...term, week: Math.max(1, Math.min(term.weekCount, weekOf(term.startDate, new Date().toISOString().slice(0, 10)))) };
}

/** My observations of a term against my requirement. */
async function mineOf(db: DB, u: SessionUser, term: Term) {
  // My own row: the frequency of my department's subtree only (not the whole school's).
  const mine = (await frequency(db, { termId: term.id, orgCode: u.orgCode || null })).find((r) => r.userId === u.id) ?? null;
  const done = await db
    .selectFrom('sup_lecture_record')
    .select(sql<string>`count(*)`.as('n'))
    .where('term_id', '=', term.id)
    .where('listener_id', '=', u.id)
    .where('status', 'in', [...DONE_STATUSES])
    .executeTakeFirst();
  return { required: mine?.required ?? 0, actual: Number(done?.n ?? 0), rate: mine?.rate ?? null, met: mine?.met ?? null };
}

/** The improvement statuses in which the handling side has to act. */
const HANDLER_WAITING = ['ISSUED', 'ACCEPTED', 'IN_PROGRESS', 'REJECTED'];

/** The home tab (/dashboard/analysis): the term at a glance for the signed-in user's role; the workplace: what waits on me. */
export async function registerDashboard(api: FastifyInstance, ctx: ServerContext) {
  api.get('/supervisor/dashboard/summary', { config: { auth: 'user' } }, async (req: FastifyRequest) => {
    const u = req.user!;
    const term = await termOf(ctx, req);
    if (!term) return ok({ term: null });
    const scope = scopeOf(u);
    const f: ReportFilter = { termId: term.id, orgCode: scope === 'all' ? null : u.orgCode || '\u0000' };
    const recent = await ctx.db
      .selectFrom('sup_lecture_record as t')
      .select(['t.id', 't.record_no as recordNo', 't.teacher_name as teacherName', 't.listener_name as listenerName', 't.course_name as courseName', 't.lecture_date as lectureDate', 't.total_score as totalScore', 't.grade', 't.status'])
      .where('t.term_id', '=', term.id)
      .where((eb) => recordVisibility(eb, u))
      .orderBy('t.lecture_date', 'desc')
      .orderBy('t.id')
      .limit(8)
      .execute();
    const overdue = await sql<Record<string, unknown>>`
      select t.id, t.task_no as "taskNo", t.title, t.deadline, t.status from imp_task t
      where t.status in ('ISSUED','ACCEPTED','IN_PROGRESS','SUBMITTED','REJECTED') and t.deadline < current_date
        and (${scope === 'all'} or t.issuer_id = ${u.id} or t.resp_person_id = ${u.id} or (${scope === 'depart'} and t.resp_org_code like ${`${u.orgCode}%`}))
      order by t.deadline limit 10`.execute(ctx.db);
    const showDept = scope !== 'self';
    return ok({
      term,
      mine: await mineOf(ctx.db, u, term),
      department: showDept ? byDepartment(await frequency(ctx.db, f)) : [],
      scoreDistribution: showDept ? await gradeDistribution(ctx.db, f, 'depart') : [],
      recent: recent.map((r) => ({ ...r, totalScore: r.totalScore === null ? null : Number(r.totalScore) })),
      overdueTasks: overdue.rows,
    });
  });

  /**
   * The workplace (/dashboard/workplace): only the signed-in user's own business — what waits on me in
   * every module, my observations this term against my requirement, my improvement tasks, my notices.
   */
  api.get('/supervisor/dashboard/workplace', { config: { auth: 'user' } }, async (req: FastifyRequest) => {
    const u = req.user!;
    const term = await termOf(ctx, req);
    const count = async (q: Promise<{ n: string | number } | undefined>) => Number((await q)?.n ?? 0);
    const n = sql<string>`count(*)`.as('n');
    const todos: Array<{ key: string; title: string; count: number; url: string }> = [
      {
        key: 'recordsToConfirm', title: '待我确认的听课记录', url: '/supervisor/lectureRecord',
        count: await count(ctx.db.selectFrom('sup_lecture_record').select(n).where('teacher_id', '=', u.id).where('status', '=', 'SUBMITTED').executeTakeFirst()),
      },
      {
        key: 'recordsReturned', title: '被退回待修改的听课记录', url: '/supervisor/lectureRecord',
        count: await count(ctx.db.selectFrom('sup_lecture_record').select(n).where('listener_id', '=', u.id).where('status', '=', 'RETURNED').executeTakeFirst()),
      },
      {
        key: 'tasksToHandle', title: '待我整改的任务', url: '/improvement/task',
        count: await count(ctx.db.selectFrom('imp_task').select(n).where('resp_person_id', '=', u.id).where('status', 'in', HANDLER_WAITING).executeTakeFirst()),
      },
      {
        key: 'tasksToVerify', title: '待我验收的任务', url: '/improvement/task',
        count: await count(ctx.db.selectFrom('imp_task').select(n).where('issuer_id', '=', u.id).where('status', '=', 'SUBMITTED').executeTakeFirst()),
      },
      {
        key: 'subtasksToHandle', title: '待我整改的子任务', url: '/improvement/subtask',
        count: await count(ctx.db.selectFrom('imp_subtask').select(n).where('assignee_id', '=', u.id).where('status', 'in', HANDLER_WAITING).executeTakeFirst()),
      },
      {
        key: 'subtasksToVerify', title: '待我验收的子任务', url: '/improvement/subtask',
        count: await count(ctx.db.selectFrom('imp_subtask').select(n).where('issuer_id', '=', u.id).where('status', '=', 'SUBMITTED').executeTakeFirst()),
      },
    ];
    // Published notices for me: every "ALL" notice and the ones sent to me (read receipts are made lazily).
    const mineNotices = sql`from sys_announcement a left join sys_announcement_send s on s.annt_id = a.id and s.user_id = ${u.id}
      where a.send_status = '1' and a.del_flag = '0' and a.msg_category in ('1', '2') and (a.msg_type = 'ALL' or s.id is not null)
        and (a.end_time is null or a.end_time >= ${fmt(new Date())})`;
    const unread = await sql<{ n: string }>`select count(*) as n ${mineNotices} and coalesce(s.read_flag, '0') = '0'`.execute(ctx.db);
    todos.push({ key: 'unreadNotices', title: '未读通知', url: '/isps/userAnnouncement', count: Number(unread.rows[0]?.n ?? 0) });
    const notices = await sql<Record<string, unknown>>`
      select a.id, a.titile as title, a.send_time as "sendTime", a.sender, coalesce(s.read_flag, '0') as "readFlag"
      ${mineNotices} order by a.send_time desc, a.id limit 6`.execute(ctx.db);
    const tasks = await sql<Record<string, unknown>>`
      select t.id, t.task_no as "taskNo", t.title, t.deadline, t.status,
        case when t.resp_person_id = ${u.id} then '整改' else '下发' end as role
      from imp_task t
      where (t.resp_person_id = ${u.id} or t.issuer_id = ${u.id}) and t.status not in ('CLOSED', 'CANCELLED')
      order by t.deadline nulls last, t.id limit 8`.execute(ctx.db);
    const waiting = todos.filter((t) => t.count > 0);
    return ok({
      term,
      mine: term ? await mineOf(ctx.db, u, term) : null,
      todoTotal: waiting.reduce((a, t) => a + t.count, 0),
      todos: waiting,
      tasks: tasks.rows,
      notices: notices.rows.map((r) => ({ ...r, sendTime: r.sendTime instanceof Date ? fmt(r.sendTime) : r.sendTime })),
    });
  });
}
