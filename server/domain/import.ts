import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import { readUploads } from '../crud/routes.js';
import { readXlsx } from '../crud/excel.js';
import { assertWriteScope, hookContext } from '../crud/engine.js';
import { BizError, ok } from '../http/envelope.js';
import { newId, now } from '../util.js';
import { termOrCurrent } from './base.js';
import { formatWeeks, parseSlots, weekMask, type SlotTime } from '../../shared/rules.js';

/**
 * Timetable import from the academic-affairs Excel export (one or several files): courses, classes,
 * rooms, course tasks and schedule lines; teachers are matched by 工号. `importPreview` reports what
 * would be created/updated and what cannot be matched; `importTimetable` writes the matched rows in
 * one transaction (rows that cannot be matched are skipped and reported; nothing else is written).
 */
export const TIMETABLE_TITLES = ['课程号', '课程名称', '课序号', '开课单位', '学分', '教师工号', '教师姓名', '上课班级', '选课人数', '上课时间', '上课地点'];
const REQUIRED = ['课程号', '课程名称', '课序号', '教师工号', '上课时间'];

export interface Problem {
  file: string;
  row: number;
  reason: string;
}

interface TaskPlan {
  key: string;
  courseCode: string;
  courseName: string;
  seqNo: string;
  departName: string;
  credit: number | null;
  teacherIds: string[];
  teacherNames: string[];
  classNames: string[];
  studentCount: number | null;
  slots: Array<SlotTime & { room: string | null }>;
}

export interface ImportPlan {
  termId: string;
  tasks: Map<string, TaskPlan>;
  problems: Problem[];
  rows: number;
  summary: {
    courses: { create: number; update: number };
    classes: { create: number };
    rooms: { create: number };
    tasks: { create: number; update: number };
    lines: { create: number; replace: number };
    skippedRows: number;
  };
  newCourses: string[];
  newClasses: string[];
  newRooms: string[];
}

const split = (s: string) => s.split(/[,，;；、\s]+/).map((x) => x.trim()).filter(Boolean);

export async function planImport(db: DB, termId: string, files: Array<{ name: string; data: Buffer }>, maxRows: number, createMissing = true): Promise<ImportPlan> {
  const problems: Problem[] = [];
  const tasks = new Map<string, TaskPlan>();
  const teachers = new Map((await db.selectFrom('sys_user').select(['id', 'work_no', 'realname']).where('del_flag', '=', 0).where('work_no', 'is not', null).execute()).map((u) => [String(u.work_no).toUpperCase(), u]));
  const rooms = new Set((await db.selectFrom('sup_classroom').select(['name', 'code']).execute()).flatMap((r) => [String(r.name), String(r.code)]));
  const classes = new Set((await db.selectFrom('sup_class').select('name').execute()).map((c) => String(c.name)));
  const newRooms = new Set<string>();
  const newClasses = new Set<string>();
  let rows = 0;
  for (const f of files) {
    const sheet = await readXlsx(f.data, f.name, TIMETABLE_TITLES, maxRows);
    for (const r of sheet) {
      rows++;
      const c = r.cells;
      const bad = (reason: string) => problems.push({ file: f.name, row: r.rowNo, reason });
      if (r.formulas.length) { bad(`单元格含公式：${r.formulas.join('、')}`); continue; }
      const missing = REQUIRED.filter((t) => !c[t]);
      if (missing.length) { bad(`缺少${missing.join('、')}`); continue; }
      const tooLong = ([['课程号', 50], ['课程名称', 200], ['课序号', 20], ['上课地点', 100]] as const).find(([t, n]) => (c[t] ?? '').length > n);
      if (tooLong) { bad(`${tooLong[0]}超过${tooLong[1]}个字符`); continue; }
      const slots = parseSlots(c['上课时间']!);
      if (!slots) { bad(`上课时间“${c['上课时间']}”无法识别，应如 1-4,6-17周星期一6-7节`); continue; }
      const workNos = split(c['教师工号']!.toUpperCase());
      const unknown = workNos.filter((w) => !teachers.has(w));
      if (unknown.length) { bad(`未找到工号为 ${unknown.join('、')} 的教师`); continue; }
      const roomNames = c['上课地点'] ? c['上课地点'].split(/[;；]/).map((x) => x.trim()) : [];
      const classNames = c['上课班级'] ? split(c['上课班级']) : [];
      if (classNames.some((n) => n.length > 100)) { bad('上课班级名称超过100个字符'); continue; }
      const unknownRooms = roomNames.filter((x) => x && !rooms.has(x));
      const unknownClasses = classNames.filter((x) => !classes.has(x));
      if (!createMissing && (unknownRooms.length || unknownClasses.length)) {
        bad([unknownRooms.length ? `未找到教室 ${unknownRooms.join('、')}` : '', unknownClasses.length ? `未找到班级 ${unknownClasses.join('、')}` : ''].filter(Boolean).join('；'));
        continue;
      }
      const count = c['选课人数'] ? Number(c['选课人数']) : null;
      if (count !== null && (!Number.isInteger(count) || count < 0 || count > 10000)) { bad(`选课人数“${c['选课人数']}”不是有效的人数`); continue; }
      unknownRooms.forEach((x) => newRooms.add(x));
      unknownClasses.forEach((x) => newClasses.add(x));
      const key = `${c['课程号']}|${c['课序号']}`;
      const t = tasks.get(key) ?? {
        key, courseCode: c['课程号']!, courseName: c['课程名称']!, seqNo: c['课序号']!, departName: c['开课单位'] ?? '', credit: c['学分'] ? Number(c['学分']) || null : null,
        teacherIds: [], teacherNames: [], classNames: [], studentCount: count, slots: [],
      };
      for (const w of workNos) {
        const u = teachers.get(w)!;
        if (!t.teacherIds.includes(String(u.id))) { t.teacherIds.push(String(u.id)); t.teacherNames.push(String(u.realname)); }
      }
      for (const n of classNames) if (!t.classNames.includes(n)) t.classNames.push(n);
      slots.forEach((s, i) => {
        const room = roomNames[i] ?? roomNames[0] ?? null;
        if (!t.slots.some((x) => x.weekday === s.weekday && x.startSection === s.startSection && formatWeeks(x.weeks) === formatWeeks(s.weeks))) t.slots.push({ ...s, room: room || null });
      });
      tasks.set(key, t);
    }
  }
  const codes = [...new Set([...tasks.values()].map((t) => t.courseCode))];
  const existingCourses = codes.length ? await db.selectFrom('sup_course').select(['id', 'code']).where('code', 'in', codes).execute() : [];
  const courseIds = new Map(existingCourses.map((x) => [String(x.code), String(x.id)]));
  const existingTasks = courseIds.size
    ? await db.selectFrom('sup_course_task').select(['course_id', 'seq_no']).where('term_id', '=', termId).where('course_id', 'in', [...courseIds.values()]).execute()
    : [];
  const taskKeys = new Set(existingTasks.map((x) => `${x.course_id}|${x.seq_no}`));
  let taskUpdate = 0;
  let lineReplace = 0;
  for (const t of tasks.values()) {
    const cid = courseIds.get(t.courseCode);
    if (cid && taskKeys.has(`${cid}|${t.seqNo}`)) { taskUpdate++; lineReplace += t.slots.length; }
  }
  const lines = [...tasks.values()].reduce((s, t) => s + t.slots.length, 0);
  return {
    termId, tasks, problems, rows, newCourses: codes.filter((x) => !courseIds.has(x)), newClasses: [...newClasses], newRooms: [...newRooms],
    summary: {
      courses: { create: codes.length - courseIds.size, update: courseIds.size },
      classes: { create: newClasses.size },
      rooms: { create: newRooms.size },
      tasks: { create: tasks.size - taskUpdate, update: taskUpdate },
      lines: { create: lines - lineReplace, replace: lineReplace },
      skippedRows: problems.length,
    },
  };
}

/** Writes a plan in the caller's transaction. */
export async function applyImport(db: DB, plan: ImportPlan, by: string): Promise<void> {
  const t = now();
  const audit = { create_by: by, create_time: t };
  const departs = new Map((await db.selectFrom('sys_depart').select(['id', 'depart_name']).execute()).map((d) => [String(d.depart_name), String(d.id)]));
  const all = [...plan.tasks.values()];
  const chunk = async (table: string, rows: Record<string, unknown>[]) => {
    for (let i = 0; i < rows.length; i += 500) await db.insertInto(table).values(rows.slice(i, i + 500)).execute();
  };
  await chunk('sup_classroom', plan.newRooms.map((n) => ({ id: newId(), code: n.slice(0, 50), name: n.slice(0, 100), status: 1, ...audit })));
  await chunk('sup_class', plan.newClasses.map((n) => ({ id: newId(), code: n.slice(0, 50), name: n.slice(0, 100), ...audit })));
  const firstOf = new Map<string, TaskPlan>();
  for (const x of all) if (!firstOf.has(x.courseCode)) firstOf.set(x.courseCode, x);
  await chunk('sup_course', plan.newCourses.map((code) => {
    const x = firstOf.get(code)!;
    return { id: newId(), code, name: x.courseName, depart_id: departs.get(x.departName) ?? null, credit: x.credit, lesson_kind: 'THEORY', ...audit };
  }));
  const courseIds = new Map((await db.selectFrom('sup_course').select(['id', 'code']).where('code', 'in', [...firstOf.keys(), '']).execute()).map((c) => [String(c.code), String(c.id)]));
  const roomIds = new Map((await db.selectFrom('sup_classroom').select(['id', 'name', 'code']).execute()).flatMap((r) => [[String(r.name), String(r.id)], [String(r.code), String(r.id)]] as const));
  const classIds = new Map((await db.selectFrom('sup_class').select(['id', 'name']).execute()).map((c) => [String(c.name), String(c.id)]));
  const existing = new Map(
    (await db.selectFrom('sup_course_task').select(['id', 'course_id', 'seq_no']).where('term_id', '=', plan.termId).execute()).map((x) => [`${x.course_id}|${x.seq_no}`, String(x.id)]),
  );
  const newTasks: Record<string, unknown>[] = [];
  const lines: Record<string, unknown>[] = [];
  const replaced: string[] = [];
  for (const x of all) {
    const courseId = courseIds.get(x.courseCode)!;
    const values = {
      course_code: x.courseCode, course_name: x.courseName, name: `${x.courseName}-${x.seqNo}`, depart_id: departs.get(x.departName) ?? null,
      teacher_id: x.teacherIds[0], teacher_ids: x.teacherIds.join(','), teacher_names: x.teacherNames.join(','),
      class_ids: x.classNames.map((n) => classIds.get(n)).filter(Boolean).join(','), class_names: x.classNames.join(','), student_count: x.studentCount, source: 'IMPORT',
    };
    let id = existing.get(`${courseId}|${x.seqNo}`);
    if (id) {
      await db.updateTable('sup_course_task').set({ ...values, update_by: by, update_time: t }).where('id', '=', id).execute();
      replaced.push(id);
    } else {
      id = newId();
      newTasks.push({ id, term_id: plan.termId, course_id: courseId, seq_no: x.seqNo, ...values, ...audit });
    }
    for (const s of x.slots)
      lines.push({ id: newId(), term_id: plan.termId, task_id: id, weekday: s.weekday, start_section: s.startSection, end_section: s.endSection, weeks: formatWeeks(s.weeks),
        week_mask: String(weekMask(s.weeks)), classroom_id: s.room ? roomIds.get(s.room) ?? null : null, teacher_id: x.teacherIds[0], ...audit });
  }
  await chunk('sup_course_task', newTasks);
  for (let i = 0; i < replaced.length; i += 500) await db.deleteFrom('sup_course_schedule').where('task_id', 'in', replaced.slice(i, i + 500)).execute();
  await chunk('sup_course_schedule', lines);
}

const view = (p: ImportPlan) => ({
  summary: p.summary, rows: p.rows, problems: p.problems.slice(0, 500), newCourses: p.newCourses.slice(0, 200), newClasses: p.newClasses.slice(0, 200), newRooms: p.newRooms.slice(0, 200),
});

/**
 * A department role imports only its own subtree's teaching tasks (new ones and the ones replaced):
 * the write scope of sup_course_task (issue 27 rule 2), checked before anything is written.
 */
async function assertImportInScope(ctx: ServerContext, req: FastifyRequest, plan: ImportPlan): Promise<void> {
  const h = hookContext(ctx, req, 'sup_course_task');
  const departs = new Map((await ctx.db.selectFrom('sys_depart').select(['id', 'depart_name']).execute()).map((d) => [String(d.depart_name), String(d.id)]));
  const rows: Record<string, unknown>[] = [...plan.tasks.values()].map((x) => ({ departId: departs.get(x.departName) ?? null }));
  const codes = [...new Set([...plan.tasks.values()].map((x) => x.courseCode))];
  if (codes.length) {
    const old = await ctx.db
      .selectFrom('sup_course_task as k')
      .innerJoin('sup_course as c', 'c.id', 'k.course_id')
      .select('k.depart_id')
      .where('k.term_id', '=', plan.termId)
      .where('c.code', 'in', codes)
      .execute();
    rows.push(...old.map((o) => ({ departId: o.depart_id })));
  }
  await assertWriteScope(h, rows);
}

export async function registerTimetableImport(api: FastifyInstance, ctx: ServerContext) {
  const prepare = async (req: FastifyRequest) => {
    const q = (req.query ?? {}) as Record<string, unknown>;
    const term = await termOrCurrent(ctx.db, q.termId);
    const files = await readUploads(req, ctx.cfg.import.maxBytes);
    return planImport(ctx.db, term.id, files, ctx.cfg.import.maxRows, q.createMissing !== 'false');
  };
  const auth = { config: { auth: ['timetable:import:importExcel', 'supervisor:courseSchedule:importExcel'] } };
  api.post('/supervisor/courseSchedule/importPreview', auth, async (req) => ok(view(await prepare(req))));
  api.post('/supervisor/courseSchedule/importTimetable', auth, async (req, reply) => {
    const plan = await prepare(req);
    if (!plan.tasks.size) throw new BizError('没有可以导入的数据', 500, 200, view(plan));
    await assertImportInScope(ctx, req, plan);
    await ctx.db.transaction().execute((trx) => applyImport(trx, plan, req.user!.username));
    const s = plan.summary;
    const msg = `导入完成：新增教学任务${s.tasks.create}个、更新${s.tasks.update}个，排课${s.lines.create + s.lines.replace}条${plan.problems.length ? `；${plan.problems.length}行未导入` : ''}`;
    return reply.send(ok(view(plan), msg, plan.problems.length ? 201 : 200));
  });
}
