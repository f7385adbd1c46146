import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import { ok } from '../http/envelope.js';
import { currentTerm, getTerm } from './base.js';
import { byDepartment, frequency, gradeDistribution, type ReportFilter } from './reports.js';
import { DONE_STATUSES, weekOf } from '../../shared/rules.js';
import { recordVisibility, scopeOf } from './scope.js';

/** The home tab (/dashboard/analysis): the term at a glance for the signed-in user's role. */
export async function registerDashboard(api: FastifyInstance, ctx: ServerContext) {
  api.get('/supervisor/dashboard/summary', { config: { auth: 'user' } }, async (req: FastifyRequest) => {
    const u = req.user!;
    const termId = (req.query as Record<string, unknown>).termId;
    const term = typeof termId === 'string' && termId ? await getTerm(ctx.db, termId) : await currentTerm(ctx.db);
    if (!term) return ok({ term: null });
    const scope = scopeOf(u);
    const f: ReportFilter = { termId: term.id, orgCode: scope === 'all' ? null : u.orgCode || '\u0000' };
    // My own row: the frequency of my department's subtree only (not the whole school's).
    const mine = (await frequency(ctx.db, { termId: term.id, orgCode: u.orgCode || null })).find((r) => r.userId === u.id) ?? null;
    const done = await ctx.db
      .selectFrom('sup_lecture_record')
      .select(sql<string>`count(*)`.as('n'))
      .where('term_id', '=', term.id)
      .where('listener_id', '=', u.id)
      .where('status', 'in', [...DONE_STATUSES])
      .executeTakeFirst();
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
      term: { ...term, week: Math.max(1, Math.min(term.weekCount, weekOf(term.startDate, new Date().toISOString().slice(0, 10)))) },
      mine: { required: mine?.required ?? 0, actual: Number(done?.n ?? 0), rate: mine?.rate ?? null, met: mine?.met ?? null },
      department: showDept ? byDepartment(await frequency(ctx.db, f)) : [],
      scoreDistribution: showDept ? await gradeDistribution(ctx.db, f, 'depart') : [],
      recent: recent.map((r) => ({ ...r, totalScore: r.totalScore === null ? null : Number(r.totalScore) })),
      overdueTasks: overdue.rows,
    });
  });
}
