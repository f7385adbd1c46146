import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import { defineEntityHooks, type Row } from '../crud/hooks.js';
import { assertWriteScope, deleteRows, getRow, hookContext, inTransaction, saveRow } from '../crud/engine.js';
import { BizError, ok } from '../http/envelope.js';
import { newId, now } from '../util.js';
import { currentTerm, loadIndexSet, termOrCurrent } from './base.js';
import { checkGradeBands, checkIndexTree, dateOf, DEFAULT_GRADE_BANDS, formatWeeks, parseWeeks, weekMask, weekOf } from '../../shared/rules.js';

/** Terms (one current), schedule lines (week masks), versioned index systems, the timetable and the lesson picker. */
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
type Q = Record<string, unknown>;

export function registerSetupHooks() {
  defineEntityHooks('sup_course_schedule', {
    async beforeSave(h, row, mode, old) {
      const merged = { ...(old ?? {}), ...row };
      const weeks = parseWeeks(str(merged.weeks));
      if (!weeks) throw new BizError('上课周次格式不正确，例如 1-8,10-16 或 1-15(单)');
      if (Number(merged.startSection) > Number(merged.endSection)) throw new BizError('开始节次不能大于结束节次');
      row.weekMask = String(weekMask(weeks));
      const task = await h.db.selectFrom('sup_course_task').select(['term_id', 'teacher_id']).where('id', '=', str(merged.taskId)).executeTakeFirst();
      if (!task) throw new BizError('教学任务不存在');
      row.termId = task.term_id;
      if (!merged.teacherId) row.teacherId = task.teacher_id;
    },
  });
  defineEntityHooks('sup_term', {
    async beforeSave(h, row, mode) {
      if (mode === 'add' && !(await currentTerm(h.db))) row.isCurrent = true; // the first term becomes current
    },
    beforeDelete(_h, rows) {
      if (rows.some((r) => r.isCurrent)) throw new BizError('不能删除当前学期');
    },
  });
}

interface IndexInput {
  id?: string;
  name?: string;
  code?: string;
  description?: string;
  maxScore?: unknown;
  weight?: unknown;
  children?: IndexInput[];
}

/** Validates and writes an index tree for a set (replacing its items). */
async function writeIndexes(db: ServerContext['db'], setId: string, list: IndexInput[]) {
  if (!Array.isArray(list) || !list.length) throw new BizError('请至少添加一个一级指标');
  const rows: Record<string, unknown>[] = [];
  list.forEach((p, i) => {
    const pid = newId();
    const add = (x: IndexInput, level: number, parentId: string | null, sort: number, id: string) => {
      const name = str(x.name).trim();
      if (!name) throw new BizError(`第${level}级指标名称不能为空`);
      if (name.length > 200) throw new BizError(`指标“${name.slice(0, 20)}…”名称过长`);
      const max = Number(x.maxScore);
      if (!Number.isFinite(max) || max <= 0 || max > 1000) throw new BizError(`指标“${name}”的分值必须是大于 0 的数字`);
      const w = x.weight === undefined || x.weight === null || x.weight === '' ? null : Number(x.weight);
      if (w !== null && (!Number.isFinite(w) || w < 0 || w > 1)) throw new BizError(`指标“${name}”的权重应在 0 到 1 之间`);
      rows.push({ id, set_id: setId, parent_id: parentId, level, code: x.code ?? null, name, description: x.description ?? null, max_score: max, weight: w, sort });
    };
    add(p, 1, null, i, pid);
    (p.children ?? []).forEach((c, j) => add(c, 2, pid, j, newId()));
  });
  await db.deleteFrom('sup_index').where('set_id', '=', setId).execute();
  await db.insertInto('sup_index').values(rows).execute();
}

function treeOf(set: Awaited<ReturnType<typeof loadIndexSet>>) {
  return set.indexes
    .filter((i) => !i.parentId)
    .map((p) => ({ ...p, children: set.indexes.filter((c) => c.parentId === p.id) }));
}

export async function registerSetup(api: FastifyInstance, ctx: ServerContext) {
  registerSetupHooks();
  const q = (req: FastifyRequest) => (req.query ?? {}) as Q;
  const body = (req: FastifyRequest) => (req.body && typeof req.body === 'object' ? req.body : {}) as Q;

  api.get('/supervisor/term/current', { config: { auth: 'user' } }, async () => ok(await currentTerm(ctx.db)));
  /** Makes one term current (and every other not), atomically. */
  api.post('/supervisor/term/setCurrent', { config: { auth: 'supervisor:term:setCurrent' } }, async (req) => {
    const id = str(q(req).id || body(req).id);
    // University-wide: only university roles set the current term (issue 27 rule 2).
    await assertWriteScope(hookContext(ctx, req, 'sup_term'), [{ id }]);
    await inTransaction(ctx.db, async (trx) => {
      const t = await trx.selectFrom('sup_term').select('id').where('id', '=', id).executeTakeFirst();
      if (!t) throw new BizError('学期不存在');
      await trx.updateTable('sup_term').set({ is_current: false }).where('is_current', '=', true).execute();
      await trx.updateTable('sup_term').set({ is_current: true, update_by: req.user!.username, update_time: now() }).where('id', '=', id).execute();
    });
    return ok(await currentTerm(ctx.db), '已设为当前学期');
  });

  // ---- index systems: a set with its two-level tree; published sets are frozen ----
  const P = 'supervisor:index';
  api.get('/supervisor/index/queryById', { config: { auth: [`${P}:queryById`, `${P}:list`] } }, async (req) => {
    const row = await getRow(hookContext(ctx, req, 'sup_index_set'), q(req).id);
    if (!row) throw new BizError('评价指标体系不存在');
    return ok({ ...row, indexList: treeOf(await loadIndexSet(ctx.db, str(row.id))) });
  });
  api.post('/supervisor/index/add', { config: { auth: `${P}:add` } }, async (req) => {
    const b = body(req);
    const bands = b.gradeBands ?? DEFAULT_GRADE_BANDS;
    const bad = checkGradeBands(bands);
    if (bad) throw new BizError(bad);
    const h = hookContext(ctx, req, 'sup_index_set');
    const saved = await inTransaction(ctx.db, async (trx) => {
      const row = await saveRow({ ...h, db: trx }, { ...b, gradeBands: bands }, 'add');
      await trx.updateTable('sup_index_set').set({ root_id: str(row.id), version: 1, status: 'DRAFT' }).where('id', '=', str(row.id)).execute();
      await writeIndexes(trx, str(row.id), b.indexList as IndexInput[]);
      return row;
    });
    return ok(saved, '添加成功！');
  });
  /** Editing a draft changes it; editing a published set creates the next version as a draft. */
  for (const m of ['put', 'post'] as const)
    api[m]('/supervisor/index/edit', { config: { auth: `${P}:edit` } }, async (req) => {
      const b = body(req);
      const h = hookContext(ctx, req, 'sup_index_set');
      const old = await getRow(h, b.id);
      if (!old) throw new BizError('评价指标体系不存在');
      if (b.gradeBands !== undefined) {
        const bad = checkGradeBands(b.gradeBands);
        if (bad) throw new BizError(bad);
      }
      const result = await inTransaction(ctx.db, async (trx) => {
        if (old.status === 'DRAFT') {
          const row = await saveRow({ ...h, db: trx }, b, 'edit');
          if (b.indexList) await writeIndexes(trx, str(row.id), b.indexList as IndexInput[]);
          return row;
        }
        const root = str(old.rootId || old.id);
        const v = await trx.selectFrom('sup_index_set').select(sql<number>`max(version)`.as('v')).where('root_id', '=', root).executeTakeFirst();
        const { id: _omit, ...rest } = { ...old, ...b };
        void _omit;
        const row = await saveRow({ ...h, db: trx }, rest, 'add');
        await trx.updateTable('sup_index_set').set({ root_id: root, version: Number(v?.v ?? 1) + 1, status: 'DRAFT' }).where('id', '=', str(row.id)).execute();
        const tree = (b.indexList as IndexInput[] | undefined) ?? (treeOf(await loadIndexSet(trx, str(old.id))) as unknown as IndexInput[]);
        await writeIndexes(trx, str(row.id), tree);
        return row;
      });
      return ok(await getRow(h, result.id), old.status === 'DRAFT' ? '编辑成功！' : '已发布的指标体系不能修改，已生成新版本（草稿）');
    });
  api.post('/supervisor/index/publish', { config: { auth: `${P}:publish` } }, async (req) => {
    const id = str(q(req).id || body(req).id);
    await assertWriteScope(hookContext(ctx, req, 'sup_index_set'), [{ id }]);
    const set = await loadIndexSet(ctx.db, id);
    const bad = checkIndexTree(set.indexes, set.fullScore);
    if (bad) throw new BizError(bad);
    await ctx.db.updateTable('sup_index_set').set({ status: 'PUBLISHED', published_time: now() }).where('id', '=', id).where('status', '=', 'DRAFT').execute();
    return ok(null, '发布成功');
  });
  for (const [op, path] of [['delete', 'delete'], ['deleteBatch', 'deleteBatch']] as const)
    api.delete(`/supervisor/index/${path}`, { config: { auth: `${P}:${op}` } }, async (req) => {
      const ids = str(op === 'delete' ? q(req).id : q(req).ids).split(',').filter(Boolean);
      const used = await ctx.db.selectFrom('sup_lecture_record').select('id').where('index_set_id', 'in', ids.length ? ids : ['']).limit(1).executeTakeFirst();
      if (used) throw new BizError('指标体系已被听课记录使用，不能删除');
      await inTransaction(ctx.db, async (trx) => {
        await deleteRows(hookContext(ctx, req, 'sup_index_set', trx), ids);
        await trx.deleteFrom('sup_index').where('set_id', 'in', ids).execute();
      });
      return ok(null, '删除成功!');
    });

  // ---- timetable ----
  /**
   * Lessons of a term for the record form's picker: one row per schedule line, or per actual
   * lesson date when `date` or `week` is given. Searches teacher, course and room names.
   */
  const lessons = async (p: Q) => {
    const term = await termOrCurrent(ctx.db, p.termId);
    let week = Number(p.week) || undefined;
    let weekday: number | undefined;
    if (typeof p.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(p.date)) {
      week = weekOf(term.startDate, p.date);
      weekday = ((new Date(`${p.date}T00:00:00`).getDay() + 6) % 7) + 1;
    }
    const kw = typeof p.keyword === 'string' && p.keyword.trim() ? `%${p.keyword.trim().replace(/[\\%_]/g, (c) => '\\' + c)}%` : null;
    const rows = await sql<Record<string, unknown>>`
      select s.id as schedule_id, s.task_id, s.weekday, s.start_section, s.end_section, s.weeks, s.week_mask, s.classroom_id, r.name as classroom_name,
             k.teacher_id, u.realname as teacher_name, k.course_name, k.course_code, k.seq_no, k.class_names, k.student_count
      from sup_course_schedule s
      join sup_course_task k on k.id = s.task_id
      left join sys_user u on u.id = k.teacher_id
      left join sup_classroom r on r.id = s.classroom_id
      where s.term_id = ${term.id}
        ${week ? sql`and (s.week_mask >> ${week - 1}) & 1 = 1` : sql``}
        ${weekday ? sql`and s.weekday = ${weekday}` : sql``}
        ${typeof p.teacherId === 'string' && p.teacherId ? sql`and k.teacher_id = ${p.teacherId}` : sql``}
        ${typeof p.classroomId === 'string' && p.classroomId ? sql`and s.classroom_id = ${p.classroomId}` : sql``}
        ${typeof p.classId === 'string' && p.classId ? sql`and (',' || coalesce(k.class_ids, '') || ',') like ${`%,${p.classId.replace(/[\\%_,]/g, '')},%`}` : sql``}
        ${kw ? sql`and (u.realname like ${kw} or k.course_name like ${kw} or r.name like ${kw} or k.course_code like ${kw})` : sql``}
      order by s.weekday, s.start_section, k.course_code, s.id
      limit 500`.execute(ctx.db);
    const list = rows.rows.map((r) => ({
      scheduleId: r.schedule_id, courseTaskId: r.task_id, weekday: r.weekday, startSection: r.start_section, endSection: r.end_section,
      weeks: r.weeks, classroomId: r.classroom_id, classroomName: r.classroom_name, teacherId: r.teacher_id, teacherName: r.teacher_name,
      courseName: r.course_name, courseCode: r.course_code, seqNo: r.seq_no, classNames: r.class_names, studentCount: r.student_count,
      week: week ?? null, lectureDate: week ? dateOf(term.startDate, week, Number(r.weekday)) : null,
    }));
    return list;
  };
  api.get('/supervisor/courseSchedule/lessons', { config: { auth: ['supervisor:lectureRecord:add', 'supervisor:courseSchedule:list', 'timetable:schedule:list'] } }, async (req) => ok(await lessons(q(req))));
  /** The record form pre-filled from a lesson of the timetable (课表's 听课 on a lesson of a dated week). */
  api.get('/supervisor/lectureRecord/prefill', { config: { auth: 'supervisor:lectureRecord:add' } }, async (req) => {
    const p = q(req);
    if (typeof p.lectureDate !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(p.lectureDate)) throw new BizError('请选择听课日期');
    const l = (await lessons({ date: p.lectureDate })).find((x) => x.scheduleId === p.scheduleId);
    if (!l) throw new BizError('该课次在所选日期没有上课安排');
    return ok({
      courseTaskId: l.courseTaskId, scheduleId: l.scheduleId, lectureDate: p.lectureDate, teacherName: l.teacherName, courseName: l.courseName,
      classroomName: l.classroomName, startSection: l.startSection, endSection: l.endSection, classNames: l.classNames, expectedCount: l.studentCount ?? null,
    });
  });
  /** Weekly timetable grid of a teacher, class or room (all weeks, or one week). */
  api.get('/supervisor/courseSchedule/timetable', { config: { auth: ['supervisor:courseSchedule:list', 'timetable:schedule:list'] } }, async (req) => {
    const p = q(req);
    if (!p.teacherId && !p.classroomId && !p.classId) throw new BizError('请选择教师、班级或教室');
    return ok(await lessons(p));
  });
  /** Parses and normalises a week expression for the schedule form. */
  api.get('/supervisor/courseSchedule/parseWeeks', { config: { auth: 'user' } }, async (req) => {
    const w = parseWeeks(str(q(req).weeks));
    if (!w) throw new BizError('上课周次格式不正确，例如 1-8,10-16 或 1-15(单)');
    return ok({ weeks: w, text: formatWeeks(w) });
  });
}

export type { Row };
