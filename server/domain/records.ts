import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import { defineEntityHooks, type HookContext, type ReadPurpose, type Row } from '../crud/hooks.js';
import { deleteRows, getRow, hookContext, inTransaction, listRows, saveRow } from '../crud/engine.js';
import { BizError, ok } from '../http/envelope.js';
import { newId, now } from '../util.js';
import { applicableIndexSet, getTerm, loadIndexSet } from './base.js';
import { notifyDomain } from './notify.js';
import { noticeHtml } from '../sys/notice-text.js';
import { nextRecordNo } from './numbering.js';
import { GRADE_TEXT, gradeOf, RuleError, scoreRecord, sectionsText, weekdayOf, weekOf, type ScoreInput } from '../../shared/rules.js';
import { recordVisibility, scopeOf, subtree } from './scope.js';
import { entityFileOwner, registerFileOwner } from '../sys/file-access.js';

const E = 'sup_lecture_record';
const P = 'supervisor:lectureRecord';
/** Whether an observed teacher sees who observed them (a university policy; default shown). */
const SHOW_LISTENER_TO_TEACHER = process.env.LECTURE_SHOW_LISTENER !== 'false';
const EDITABLE = ['DRAFT', 'RETURNED'];
/** Statuses in which the observed teacher can answer a record (reply, ask for a review). */
const ANSWERABLE = ['SUBMITTED', 'CONFIRMED'];

/** Work done in beforeSave that afterSave finishes (scores to write, who to notify). */
const pending = new WeakMap<Row, { scores: Map<string, number>; submitted: boolean; mode: 'add' | 'edit'; from: string | null }>();

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

async function lessonFacts(db: DB, row: Row) {
  const task = await db
    .selectFrom('sup_course_task as k')
    .leftJoin('sup_course as c', 'c.id', 'k.course_id')
    .leftJoin('sys_user as u', 'u.id', 'k.teacher_id')
    .select(['k.id', 'k.term_id', 'k.teacher_id', 'k.teacher_ids', 'k.course_id', 'k.class_names', 'k.student_count', 'c.name as course_name', 'c.lesson_kind', 'u.realname', 'u.org_code'])
    .where('k.id', '=', str(row.courseTaskId))
    .executeTakeFirst();
  if (!task) throw new BizError('所选教学任务不存在');
  if (!task.teacher_id) throw new BizError('该教学任务没有任课教师，不能听课');
  return task;
}

async function beforeSave(h: HookContext, row: Row, mode: 'add' | 'edit', old: Row | undefined, input: Row) {
  const u = h.user;
  if (mode === 'edit') delete row.clientKey; // fixed when the record is created
  if (mode === 'edit') {
    if (old!.listenerId !== u.id) throw new BizError('只能修改自己的听课记录');
    if (!EDITABLE.includes(str(old!.status))) throw new BizError('听课记录已提交，不能修改');
  } else {
    Object.assign(row, { listenerId: u.id, listenerName: u.realname, listenerOrgCode: u.orgCode, status: 'DRAFT' });
  }
  const merged: Row = { ...(old ?? {}), ...row };
  const task = await lessonFacts(h.db, merged);
  // Nobody observes their own lesson (main or co-teacher of the task).
  const listener = str(merged.listenerId ?? u.id);
  if (listener === str(task.teacher_id) || str(task.teacher_ids).split(',').map((x) => x.trim()).includes(listener)) throw new BizError('不能对自己任课的课程录入听课记录');
  const term = await getTerm(h.db, String(task.term_id));
  const date = str(merged.lectureDate);
  const week = weekOf(term.startDate, date);
  if (week < 1 || week > term.weekCount) throw new BizError(`听课日期不在${term.name}的教学周内`);
  Object.assign(row, {
    termId: term.id, teacherId: task.teacher_id, teacherName: task.realname, teacherOrgCode: task.org_code, courseId: task.course_id,
    courseName: task.course_name, classNames: task.class_names, week, weekday: weekdayOf(date),
  });
  if (merged.expectedCount === undefined || merged.expectedCount === null) row.expectedCount = task.student_count;
  if (merged.scheduleId) {
    const line = await h.db
      .selectFrom('sup_course_schedule as s')
      .leftJoin('sup_classroom as r', 'r.id', 's.classroom_id')
      .select(['s.task_id', 's.weekday', 's.start_section', 's.end_section', 's.classroom_id', 's.week_mask', 'r.name as room_name'])
      .where('s.id', '=', str(merged.scheduleId))
      .executeTakeFirst();
    if (!line || line.task_id !== task.id) throw new BizError('所选课次不属于该教学任务');
    if (Number(line.weekday) !== weekdayOf(date) || !((BigInt(line.week_mask ?? 0) >> BigInt(week - 1)) & 1n))
      throw new BizError(`该课次在第${week}周星期${'一二三四五六日'[weekdayOf(date) - 1]}没有上课安排`);
    Object.assign(row, { startSection: line.start_section, endSection: line.end_section, classroomId: line.classroom_id, classroomName: line.room_name });
  } else if (merged.classroomId) {
    const r = await h.db.selectFrom('sup_classroom').select('name').where('id', '=', str(merged.classroomId)).executeTakeFirst();
    row.classroomName = r?.name ?? null;
  }
  if (Number(merged.startSection) > Number(merged.endSection)) throw new BizError('开始节次不能大于结束节次');
  if (Number(merged.actualCount) > Number(merged.expectedCount ?? row.expectedCount) && merged.expectedCount !== null)
    throw new BizError('实到人数不能大于应到人数');

  const dup = await h.db
    .selectFrom(E)
    .select('record_no')
    .where('listener_id', '=', str(merged.listenerId ?? u.id))
    .where('course_task_id', '=', task.id)
    .where('lecture_date', '=', date)
    .$if(mode === 'edit', (q) => q.where('id', '<>', str(old!.id)))
    .executeTakeFirst();
  if (dup) throw new BizError(`您在 ${date} 已有该课程的听课记录（${dup.record_no}），不能重复录入`);

  // The index system is fixed when the record is created; later versions do not change old records.
  const set = old?.indexSetId ? await loadIndexSet(h.db, str(old.indexSetId)) : await applicableIndexSet(h.db, task.lesson_kind as string | null);
  row.indexSetId = set.id;
  const submitting = input.status === 'SUBMITTED';
  const list = Array.isArray(input.indexScoreList) ? (input.indexScoreList as ScoreInput[]) : undefined;
  let scores: Map<string, number>;
  if (list) scores = validScores(set.leaves, list, submitting);
  else {
    const prev = old ? await scoresOf(h.db, str(old.id)) : [];
    scores = validScores(set.leaves, prev, submitting);
  }
  const total = [...scores.values()].reduce((a, b) => a + b, 0);
  row.totalScore = scores.size ? Math.round(total * 100) / 100 : null;
  row.grade = scores.size === set.leaves.length ? gradeOf(total, set.bands).grade : null;
  if (submitting) Object.assign(row, { status: 'SUBMITTED', submitTime: now(), returnReason: null });
  if (mode === 'add') row.recordNo = await nextRecordNo(h.db, term.code);
  pending.set(row, { scores, submitted: submitting, mode, from: old ? str(old.status) : null });
}

function validScores(leaves: Parameters<typeof scoreRecord>[0], list: ScoreInput[], complete: boolean) {
  try {
    return scoreRecord(leaves, list, complete).scores;
  } catch (e) {
    if (e instanceof RuleError) throw new BizError(e.message);
    throw e;
  }
}

async function scoresOf(db: DB, recordId: string): Promise<ScoreInput[]> {
  const rows = await db.selectFrom('sup_index_score').select(['index_id', 'score']).where('record_id', '=', recordId).execute();
  return rows.map((r) => ({ indexId: String(r.index_id), score: Number(r.score) }));
}

async function writeScores(h: HookContext, row: Row, scores: Map<string, number>) {
  const id = str(row.id);
  await h.db.deleteFrom('sup_index_score').where('record_id', '=', id).execute();
  if (!scores.size) return;
  const set = await loadIndexSet(h.db, str(row.indexSetId));
  const byId = new Map(set.leaves.map((l) => [l.id, l]));
  const rec = await h.db.selectFrom(E).select(['term_id', 'teacher_id', 'listener_id']).where('id', '=', id).executeTakeFirstOrThrow();
  await h.db
    .insertInto('sup_index_score')
    .values(
      [...scores].map(([indexId, score]) => ({
        id: newId(), record_id: id, index_id: indexId, index_name: byId.get(indexId)?.name ?? '',
        max_score: byId.get(indexId)?.maxScore ?? null, score, term_id: rec.term_id, teacher_id: rec.teacher_id, listener_id: rec.listener_id,
      })),
    )
    .execute();
}

/** One line of a record's log: who did what, when, from which status to which, with their words. */
async function logRecord(db: DB, recordId: string, action: string, from: string | null, to: string | null, u: { id: string; realname?: string | null; username: string }, comment?: string | null) {
  await db
    .insertInto('sup_record_log')
    .values({
      id: newId(), record_id: recordId, action, from_status: from, to_status: to, operator_id: u.id, operator_name: u.realname || u.username,
      comment: comment || null, action_time: now(), seq: sql`(select coalesce(max(seq), 0) + 1 from sup_record_log where record_id = ${recordId})`,
    })
    .execute();
}

/**
 * A run of draft saves by one person with nothing else between them (the phone form saves a few seconds
 * after each change) shown as one line: the latest, with how many saves and since when (`note`). The
 * table keeps every line; only the record's log as read is folded.
 */
export function foldSaves<L extends { action: string | null; operator_id: string | null; comment?: string | null; actionTime: unknown }>(logs: L[]): Array<L & { note?: string }> {
  const out: Array<L & { note?: string; count?: number; first?: unknown }> = [];
  for (const l of logs) {
    const last = out.at(-1);
    if (l.action === 'SAVE' && !l.comment && last?.action === 'SAVE' && !last.comment && last.operator_id === l.operator_id) {
      const count = (last.count ?? 1) + 1;
      const first = last.first ?? last.actionTime;
      out[out.length - 1] = { ...l, count, first, note: `连续保存 ${count} 次，首次 ${String(first).slice(0, 10) === String(l.actionTime).slice(0, 10) ? String(first).slice(11, 19) : String(first)}` };
    } else out.push(l);
  }
  return out.map(({ count, first, ...l }) => (void count, void first, l as L & { note?: string }));
}

/** The listener of a record (read raw: an anonymous record hides it from the teacher's view of the row). */
async function listenerOf(db: DB, id: string): Promise<string> {
  return str((await db.selectFrom(E).select('listener_id').where('id', '=', id).executeTakeFirst())?.listener_id);
}

/** The quality office: active users whose roles grant the review button. */
async function reviewers(db: DB): Promise<string[]> {
  const rows = await db
    .selectFrom('sys_user_role as ur')
    .innerJoin('sys_role_permission as rp', 'rp.role_id', 'ur.role_id')
    .innerJoin('sys_permission as p', 'p.id', 'rp.permission_id')
    .innerJoin('sys_user as u', 'u.id', 'ur.user_id')
    .select('ur.user_id')
    .distinct()
    .where('p.perms', '=', `${P}:review`)
    .where('p.del_flag', '=', 0)
    .where('p.status', '=', '1')
    .where('u.del_flag', '=', 0)
    .where('u.status', '=', 1)
    .execute();
  return rows.map((r) => str(r.user_id));
}

/** Websocket pushes to send once a request's transaction has committed (dropped if it fails). */
const afterCommit = new WeakMap<FastifyRequest, Array<() => Promise<void>>>();
const later = (req: FastifyRequest, push: () => Promise<void>) => (afterCommit.get(req) ?? afterCommit.set(req, []).get(req)!).push(push);

async function announceSubmitted(ctx: ServerContext, req: FastifyRequest, db: DB, rec: Row, sender: string) {
  const push = await notifyDomain(ctx, db, [str(rec.teacherId)], {
    title: `您有一条新的听课记录：${str(rec.courseName)}（${str(rec.lectureDate)}）`,
    content: noticeHtml`${SHOW_LISTENER_TO_TEACHER ? str(rec.listenerName) : '听课人'}提交了对您 ${str(rec.lectureDate)} 《${str(rec.courseName)}》的听课记录（${str(rec.recordNo)}），请查阅并确认。`,
    busType: 'lecture_record', busId: str(rec.id), sender,
  });
  later(req, push);
}

async function flushPushes(req: FastifyRequest) {
  const list = afterCommit.get(req) ?? [];
  afterCommit.delete(req);
  for (const p of list) await p();
}

/** One record (queryById, the edit form) carries its index scores; list pages and exports do not need them. */
async function decorate(h: HookContext, rows: Row[], purpose: ReadPurpose): Promise<Row[]> {
  if (!rows.length) return rows;
  const ids = purpose === 'get' ? rows.map((r) => str(r.id)) : [];
  // Scores in the order of the index set, each with its first-level index (the detail groups by it).
  const scores = ids.length
    ? await h.db
        .selectFrom('sup_index_score as s')
        .leftJoin('sup_index as i', 'i.id', 's.index_id')
        .leftJoin('sup_index as p', 'p.id', 'i.parent_id')
        .select(['s.record_id', 's.index_id', 's.index_name', 's.max_score', 's.score', 'p.name as group_name'])
        .where('s.record_id', 'in', ids)
        .orderBy(sql`coalesce(p.sort, i.sort)`)
        .orderBy('i.sort')
        .orderBy('s.index_name')
        .execute()
    : [];
  const by = new Map<string, Row[]>();
  for (const s of scores)
    (by.get(String(s.record_id)) ?? by.set(String(s.record_id), []).get(String(s.record_id))!).push({
      indexId: s.index_id, indexName: s.index_name, groupName: s.group_name ?? s.index_name, maxScore: Number(s.max_score), score: Number(s.score),
    });
  // The record's log (who did what, when) for its detail.
  const logs = ids.length
    ? await h.db
        .selectFrom('sup_record_log')
        .select(['id', 'record_id', 'action', 'from_status as fromStatus', 'to_status as toStatus', 'operator_id', 'operator_name as operatorName', 'comment', 'action_time as actionTime'])
        .where('record_id', 'in', ids)
        .orderBy('seq')
        .orderBy('action_time')
        .execute()
    : [];
  const anonymous = (r: Row) => !SHOW_LISTENER_TO_TEACHER && r.teacherId === h.user.id && r.listenerId !== h.user.id;
  for (const r of rows) {
    if (purpose === 'get') {
      r.indexScoreList = by.get(str(r.id)) ?? [];
      r.sectionsText = sectionsText(r.startSection, r.endSection);
      // An anonymous listener stays anonymous in the log too.
      r.logs = foldSaves(logs.filter((l) => l.record_id === r.id)).map(({ record_id, operator_id, ...l }) => (void record_id, void operator_id, anonymous(r) && l.operatorName === r.listenerName ? { ...l, operatorName: '听课人' } : l));
    }
    if (r.totalScore !== null && r.totalScore !== undefined) r.totalScore = Number(r.totalScore);
    if (anonymous(r)) Object.assign(r, { listenerId: null, listenerName: '（匿名）', listenerId_dictText: '（匿名）' });
  }
  return rows;
}

export function registerRecordHooks() {
  defineEntityHooks(E, {
    beforeSave: (h, row, mode, old, input) => beforeSave(h, row, mode, old, input),
    async afterSave(h, row) {
      const p = pending.get(row);
      if (!p) return;
      await writeScores(h, row, p.scores);
      const id = str(row.id);
      if (p.mode === 'add') await logRecord(h.db, id, 'CREATE', null, 'DRAFT', h.user);
      else if (!p.submitted) await logRecord(h.db, id, 'SAVE', p.from, p.from, h.user);
      if (p.submitted) {
        await logRecord(h.db, id, 'SUBMIT', p.mode === 'add' ? 'DRAFT' : p.from, 'SUBMITTED', h.user);
        const rec = await h.db.selectFrom(E).select(['id', 'teacher_id', 'course_name', 'lecture_date', 'listener_name', 'record_no']).where('id', '=', str(row.id)).executeTakeFirstOrThrow();
        await announceSubmitted(h.ctx, h.req, h.db, { id: rec.id, teacherId: rec.teacher_id, courseName: rec.course_name, lectureDate: rec.lecture_date, listenerName: rec.listener_name, recordNo: rec.record_no }, h.user.username);
      }
    },
    beforeDelete(h, rows) {
      for (const r of rows)
        if (!(r.listenerId === h.user.id && EDITABLE.includes(str(r.status))) && scopeOf(h.user) !== 'all')
          throw new BizError('只能删除自己未提交的听课记录');
    },
    decorateRows: decorate,
    listScope: (h, qb) => qb.where((eb) => recordVisibility(eb, h.user)),
  });
  // Index scores are visible exactly when their record is, and name it by its number.
  defineEntityHooks('sup_index_score', {
    listScope: (h, qb) =>
      qb.where(({ exists, selectFrom }) =>
        exists(selectFrom(`${E} as r`).select(sql`1`.as('x')).whereRef('r.id', '=', 't.record_id').where((eb) => recordVisibility(eb, h.user, 'r'))),
      ),
    async decorateRows(h, rows) {
      const ids = [...new Set(rows.map((r) => str(r.recordId)).filter(Boolean))];
      const numbers = ids.length ? await h.db.selectFrom(E).select(['id', 'record_no']).where('id', 'in', ids).execute() : [];
      const byId = new Map(numbers.map((n) => [String(n.id), String(n.record_no ?? '')]));
      return rows.map((r) => ({ ...r, recordNo: byId.get(str(r.recordId)) ?? '' }));
    },
  });
}

type Q = Record<string, unknown>;
const q = (req: FastifyRequest) => (req.query ?? {}) as Q;
const body = (req: FastifyRequest) => ((req.body && typeof req.body === 'object' ? req.body : {}) as Q);

/** Loads a visible record or refuses. */
async function visible(ctx: ServerContext, req: FastifyRequest, id: unknown, db: DB = ctx.db): Promise<Row> {
  const r = await getRow(hookContext(ctx, req, E, db), id, db);
  if (!r) throw new BizError('未找到对应听课记录');
  return r;
}

export async function registerLectureRecords(api: FastifyInstance, ctx: ServerContext) {
  registerRecordHooks();
  // A record's photos are readable by who sees the record.
  registerFileOwner(entityFileOwner('lecture-record', E, ['photos']));
  const h = (req: FastifyRequest) => hookContext(ctx, req, E);
  api.get('/supervisor/indexScore/list', { config: { auth: 'supervisor:indexScore:list' } }, async (req) => ok(await listRows(hookContext(ctx, req, 'sup_index_score'), q(req))));
  api.get(`/supervisor/lectureRecord/list`, { config: { auth: `${P}:list` } }, async (req) => ok(await listRows(h(req), q(req))));
  api.get(`/supervisor/lectureRecord/queryById`, { config: { auth: [`${P}:queryById`, `${P}:list`] } }, async (req) => ok(await visible(ctx, req, q(req).id)));
  /**
   * A record saved again with the same client key (an offline draft synced twice, or a retry after a
   * lost answer) is the same record: the second add edits it (a draft) or answers it (already submitted).
   */
  const byClientKey = (req: FastifyRequest, key: string) =>
    ctx.db.selectFrom(E).select(['id', 'status']).where('listener_id', '=', req.user!.id).where('client_key', '=', key).executeTakeFirst();
  api.post(`/supervisor/lectureRecord/add`, { config: { auth: `${P}:add` } }, async (req) => {
    const b = body(req);
    const key = typeof b.clientKey === 'string' && b.clientKey ? b.clientKey : undefined;
    const again = async () => {
      const prev = key ? await byClientKey(req, key) : undefined;
      if (!prev) return undefined;
      if (!EDITABLE.includes(str(prev.status))) return ok(await visible(ctx, req, prev.id), '该听课记录已提交');
      const rest = { ...b };
      delete rest.clientKey;
      const saved = await saveRow(h(req), { ...rest, id: prev.id }, 'edit');
      await flushPushes(req);
      return ok(saved, saved.status === 'SUBMITTED' ? '提交成功！' : '保存成功！');
    };
    const first = await again();
    if (first) return first;
    try {
      const saved = await saveRow(h(req), b, 'add');
      await flushPushes(req);
      return ok(saved, saved.status === 'SUBMITTED' ? '提交成功！' : '添加成功！');
    } catch (e) {
      // Two saves of one key at once: the unique (listener, client key) index let one in; this one edits it.
      const late = await again();
      if (late) return late;
      throw e;
    }
  });
  for (const m of ['put', 'post'] as const)
    api[m](`/supervisor/lectureRecord/edit`, { config: { auth: `${P}:edit` } }, async (req) => {
      const saved = await saveRow(h(req), body(req), 'edit');
      await flushPushes(req);
      return ok(saved, saved.status === 'SUBMITTED' ? '提交成功！' : '编辑成功！');
    });
  api.delete(`/supervisor/lectureRecord/delete`, { config: { auth: `${P}:delete` } }, async (req) => {
    await deleteRows(h(req), [str(q(req).id)]);
    return ok(null, '删除成功!');
  });
  api.delete(`/supervisor/lectureRecord/deleteBatch`, { config: { auth: `${P}:deleteBatch` } }, async (req) => {
    await deleteRows(h(req), str(q(req).ids).split(','));
    return ok(null, '批量删除成功!');
  });

  /** Submits a draft or returned record: every index must be scored; the server recomputes everything. */
  api.post(`/supervisor/lectureRecord/submit`, { config: { auth: [`${P}:submit`, `${P}:add`] } }, async (req) => {
    const id = str(q(req).id || body(req).id);
    const rec = await visible(ctx, req, id);
    if (rec.listenerId !== req.user!.id) throw new BizError('只能提交自己的听课记录');
    if (!EDITABLE.includes(str(rec.status))) throw new BizError('该听课记录已提交');
    const saved = await saveRow(h(req), { id, status: 'SUBMITTED' }, 'edit');
    await flushPushes(req);
    return ok(saved, '提交成功！');
  });

  /** A secretary (or anyone with the return permission in scope) sends a record back to its listener. */
  api.post(`/supervisor/lectureRecord/return`, { config: { auth: `${P}:return` } }, async (req) => {
    const id = str(q(req).id || body(req).id);
    const reason = str(body(req).reason ?? q(req).reason).trim();
    if (!reason) throw new BizError('请填写退回原因');
    if (reason.length > 500) throw new BizError('退回原因最多500个字符');
    const rec = await visible(ctx, req, id);
    if (scopeOf(req.user!) === 'self') throw new BizError('无权退回该听课记录');
    // A department returns only evaluations its own people wrote: never one by the university's quality
    // office or another department about its staff (it may comment or appeal instead).
    if (scopeOf(req.user!) === 'depart' && !str(rec.listenerOrgCode).startsWith(req.user!.orgCode))
      throw new BizError('该听课记录由校级督导或其他部门填写，本部门不能退回；如有异议请通过反馈或申诉提出');
    if (!['SUBMITTED', 'CONFIRMED'].includes(str(rec.status))) throw new BizError('只能退回已提交或已确认的听课记录');
    await inTransaction(ctx.db, async (trx) => {
      await trx.updateTable(E).set({ status: 'RETURNED', return_reason: reason, update_by: req.user!.username, update_time: now() }).where('id', '=', id).execute();
      await logRecord(trx, id, 'RETURN', str(rec.status), 'RETURNED', req.user!, reason);
      later(
        req,
        await notifyDomain(ctx, trx, [str(rec.listenerId)], {
          title: `听课记录 ${str(rec.recordNo)} 被退回`, content: noticeHtml`退回原因：${reason}`, busType: 'lecture_record', busId: id, sender: req.user!.username,
        }),
      );
    });
    await flushPushes(req);
    return ok(await visible(ctx, req, id), '已退回');
  });

  /** The observed teacher reads a record (first read is stamped). */
  api.post(`/supervisor/lectureRecord/read`, { config: { auth: [`${P}:queryById`, `${P}:list`] } }, async (req) => {
    const id = str(q(req).id || body(req).id);
    const rec = await visible(ctx, req, id);
    if (rec.teacherId === req.user!.id && !rec.readTime) await ctx.db.updateTable(E).set({ read_time: now() }).where('id', '=', id).execute();
    return ok(await visible(ctx, req, id));
  });

  /** The observed teacher confirms a submitted record, optionally answering it. */
  api.post(`/supervisor/lectureRecord/confirm`, { config: { auth: [`${P}:confirm`, `${P}:feedback`] } }, async (req) => {
    const id = str(q(req).id || body(req).id);
    const feedback = str(body(req).feedback ?? body(req).teacherFeedback).trim();
    if (feedback.length > 2000) throw new BizError('反馈意见最多2000个字符');
    const rec = await visible(ctx, req, id);
    if (rec.teacherId !== req.user!.id) throw new BizError('只有被听课教师本人可以确认');
    if (rec.status !== 'SUBMITTED') throw new BizError(rec.status === 'CONFIRMED' ? '该听课记录已确认' : '只能确认已提交的听课记录');
    const t = now();
    await inTransaction(ctx.db, async (trx) => {
      const done = await trx
        .updateTable(E)
        .set({ status: 'CONFIRMED', confirm_time: t, read_time: sql`coalesce(read_time, ${t})`, teacher_feedback: feedback || null })
        .where('id', '=', id)
        .where('status', '=', 'SUBMITTED')
        .executeTakeFirst();
      if (Number(done.numUpdatedRows)) await logRecord(trx, id, 'CONFIRM', 'SUBMITTED', 'CONFIRMED', req.user!, feedback);
    });
    return ok(await visible(ctx, req, id), '已确认');
  });

  /** The observed teacher answers a submitted or confirmed record; the text is kept in its log and sent to the listener. */
  api.post(`/supervisor/lectureRecord/reply`, { config: { auth: `${P}:feedback` } }, async (req) => {
    const id = str(q(req).id || body(req).id);
    const content = str(body(req).content).trim();
    if (!content) throw new BizError('请填写回复内容');
    if (content.length > 2000) throw new BizError('回复内容最多2000个字符');
    const rec = await visible(ctx, req, id);
    if (rec.teacherId !== req.user!.id) throw new BizError('只有被听课教师本人可以回复');
    if (!ANSWERABLE.includes(str(rec.status))) throw new BizError('只能回复已提交或已确认的听课记录');
    await inTransaction(ctx.db, async (trx) => {
      await logRecord(trx, id, 'REPLY', str(rec.status), str(rec.status), req.user!, content);
      later(req, await notifyDomain(ctx, trx, [await listenerOf(trx, id)], {
        title: `听课记录 ${str(rec.recordNo)} 有教师回复`, content: noticeHtml`${str(rec.teacherName)}回复：${content}`, busType: 'lecture_record', busId: id, sender: req.user!.username,
      }));
    });
    await flushPushes(req);
    return ok(await visible(ctx, req, id), '已回复');
  });

  /** The observed teacher asks for a review (申诉 / 复核) with a reason: once per record; the listener and the quality office are notified. */
  api.post(`/supervisor/lectureRecord/appeal`, { config: { auth: `${P}:feedback` } }, async (req) => {
    const id = str(q(req).id || body(req).id);
    const reason = str(body(req).reason).trim();
    if (!reason) throw new BizError('请填写申请复核的理由');
    if (reason.length > 2000) throw new BizError('复核理由最多2000个字符');
    const rec = await visible(ctx, req, id);
    if (rec.teacherId !== req.user!.id) throw new BizError('只有被听课教师本人可以申请复核');
    // One open review at a time: a new one only once the last has been decided.
    if (rec.status === 'REVIEWING') throw new BizError('该听课记录正在复核中，请等待复核结果');
    if (!ANSWERABLE.includes(str(rec.status))) throw new BizError('只能对已提交或已确认的听课记录申请复核');
    await inTransaction(ctx.db, async (trx) => {
      const done = await trx.updateTable(E).set({ status: 'REVIEWING', update_by: req.user!.username, update_time: now() }).where('id', '=', id).where('status', '=', str(rec.status)).executeTakeFirst();
      if (!Number(done.numUpdatedRows)) throw new BizError('听课记录状态已变化，请刷新后重试');
      await logRecord(trx, id, 'APPEAL', str(rec.status), 'REVIEWING', req.user!, reason);
      const office = await reviewers(trx);
      later(req, await notifyDomain(ctx, trx, [await listenerOf(trx, id), ...office].filter((u) => u !== req.user!.id), {
        title: `听课记录 ${str(rec.recordNo)} 申请复核`,
        content: noticeHtml`${str(rec.teacherName)}对 ${str(rec.lectureDate)} 《${str(rec.courseName)}》的听课记录（${str(rec.recordNo)}）申请复核。理由：${reason}`,
        busType: 'lecture_record', busId: id, sender: req.user!.username,
      }));
    });
    await flushPushes(req);
    return ok(await visible(ctx, req, id), '已申请复核');
  });

  /**
   * The listener or the quality office (the `review` button) decides a review: UPHOLD keeps the record, AMEND replaces its scores (total and grade
   * recomputed by the scoring rules) and, when given, its comments. The record goes back to the status it had
   * before the appeal; the decision is logged and the teacher (and, for an amendment, the listener) notified.
   */
  api.post(`/supervisor/lectureRecord/review`, { config: { auth: [`${P}:review`, `${P}:add`] } }, async (req) => {
    const b = body(req);
    const id = str(q(req).id || b.id);
    const decision = str(b.decision);
    const opinion = str(b.opinion).trim();
    if (decision !== 'UPHOLD' && decision !== 'AMEND') throw new BizError('请选择复核结论：维持或修改');
    if (!opinion) throw new BizError('请填写复核意见');
    if (opinion.length > 2000) throw new BizError('复核意见最多2000个字符');
    const rec = await visible(ctx, req, id);
    if (rec.status !== 'REVIEWING') throw new BizError('该听课记录不在复核中');
    if (rec.teacherId === req.user!.id) throw new BizError('不能复核自己的听课记录');
    const listener = await listenerOf(ctx.db, id);
    if (listener !== req.user!.id && !req.user!.perms.has(`${P}:review`)) throw new BizError('只有听课人或质量办可以复核该听课记录');
    const appeal = await ctx.db.selectFrom('sup_record_log').select('from_status').where('record_id', '=', id).where('action', '=', 'APPEAL').orderBy('seq', 'desc').executeTakeFirst();
    const back = ANSWERABLE.includes(str(appeal?.from_status)) ? str(appeal!.from_status) : 'SUBMITTED';
    const patch: Record<string, unknown> = { status: back, update_by: req.user!.username, update_time: now() };
    let scores: Map<string, number> | undefined;
    let change = '';
    if (decision === 'AMEND') {
      const set = await loadIndexSet(ctx.db, str(rec.indexSetId));
      const list = Array.isArray(b.indexScoreList) ? (b.indexScoreList as ScoreInput[]) : await scoresOf(ctx.db, id);
      scores = validScores(set.leaves, list, true);
      const total = Math.round([...scores.values()].reduce((x, y) => x + y, 0) * 100) / 100;
      const grade = gradeOf(total, set.bands).grade;
      Object.assign(patch, { total_score: total, grade });
      const texts: string[] = [];
      for (const [k, col, label] of [['strengths', 'strengths', '优点'], ['problems', 'problems', '存在问题'], ['suggestions', 'suggestions', '改进建议']] as const) {
        if (typeof b[k] !== 'string') continue;
        const v = (b[k] as string).trim();
        if (v.length > 2000) throw new BizError(`${label}最多2000个字符`);
        if (v === str(rec[k]).trim()) continue;
        patch[col] = v || null;
        texts.push(label);
      }
      change = `总分 ${Number(rec.totalScore ?? 0)} → ${total}，等级 ${GRADE_TEXT[str(rec.grade)] ?? (str(rec.grade) || '—')} → ${GRADE_TEXT[grade] ?? grade}${texts.length ? `；修改了${texts.join('、')}` : ''}`;
    }
    await inTransaction(ctx.db, async (trx) => {
      const done = await trx.updateTable(E).set(patch).where('id', '=', id).where('status', '=', 'REVIEWING').executeTakeFirst();
      if (!Number(done.numUpdatedRows)) throw new BizError('听课记录状态已变化，请刷新后重试');
      if (scores) await writeScores(hookContext(ctx, req, E, trx), { id, indexSetId: rec.indexSetId }, scores);
      await logRecord(trx, id, decision, 'REVIEWING', back, req.user!, change ? `${opinion}（${change}）` : opinion);
      const outcome = decision === 'UPHOLD' ? '维持原评价' : `修改评价：${change}`;
      later(req, await notifyDomain(ctx, trx, [str(rec.teacherId), listener].filter((u) => u !== req.user!.id), {
        title: `听课记录 ${str(rec.recordNo)} 复核结果：${decision === 'UPHOLD' ? '维持原评价' : '已修改评价'}`,
        content: noticeHtml`您对 ${str(rec.lectureDate)} 《${str(rec.courseName)}》听课记录（${str(rec.recordNo)}）的复核申请已处理：${outcome}。复核意见：${opinion}`,
        busType: 'lecture_record', busId: id, sender: req.user!.username,
      }));
    });
    await flushPushes(req);
    return ok(await visible(ctx, req, id), '复核完成');
  });

  /** The index form of a lesson: the published index system that applies to the task's course. */
  api.get(`/supervisor/lectureRecord/form`, { config: { auth: [`${P}:add`, `${P}:edit`, `${P}:list`] } }, async (req) => {
    const { courseTaskId, recordId } = q(req);
    let set;
    if (recordId) set = await loadIndexSet(ctx.db, str((await visible(ctx, req, recordId)).indexSetId));
    else {
      const k = await ctx.db
        .selectFrom('sup_course_task as k')
        .leftJoin('sup_course as c', 'c.id', 'k.course_id')
        .select('c.lesson_kind')
        .where('k.id', '=', str(courseTaskId))
        .executeTakeFirst();
      set = await applicableIndexSet(ctx.db, (k?.lesson_kind as string | null) ?? null);
    }
    return ok({ id: set.id, name: set.name, fullScore: set.fullScore, gradeBands: set.bands, indexes: set.indexes, leafIds: set.leaves.map((l) => l.id) });
  });
}

/** SQL fragment for department scoping used by reports: users in an orgCode subtree. */
export const orgLike = (orgCode: string) => subtree(orgCode);
