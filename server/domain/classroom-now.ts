import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import dayjs from 'dayjs';
import QRCode from 'qrcode';
import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import { getRow, hookContext, listRows } from '../crud/engine.js';
import { BizError, ok } from '../http/envelope.js';
import { applicableIndexSet, currentTerm, type TermRow } from './base.js';
import { dateOf, sectionsText, weekdayOf, weekOf, type LessonToday } from '../../shared/rules.js';

/**
 * The classroom side of observing on a phone (issue 30): which lesson is on in a room now (from the
 * schedule lines, the section times and the current term/week), the lessons of today for 今日听课,
 * and the printable sheet of classroom QR codes that open /lecture/scan?room=<id>.
 */
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
type Q = Record<string, unknown>;

const STATE_TEXT = { NOW: '正在上课', NEXT: '未开始', PAST: '已结束' } as const;
const hhmm = (t: unknown) => str(t).slice(0, 5);

/** Section number → [begin, end] of today for a campus (a campus without its own times uses any). */
async function sectionTimes(db: DB, date: string, campus: string | null): Promise<Map<number, [string, string]>> {
  const rows = await db
    .selectFrom('sup_section_time')
    .select(['campus', 'section_no', 'begin_time', 'end_time'])
    .where((eb) => eb.or([eb('valid_from', 'is', null), eb('valid_from', '<=', date)]))
    .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>=', date)]))
    .orderBy('section_no')
    .execute();
  const own = campus ? rows.filter((r) => r.campus === campus) : [];
  const map = new Map<number, [string, string]>();
  for (const r of own.length ? own : rows) if (!map.has(Number(r.section_no))) map.set(Number(r.section_no), [hhmm(r.begin_time), hhmm(r.end_time)]);
  return map;
}

/** Lessons of `date` (all, or one room's / one schedule line's), with their times and the user's own record. */
export async function lessonsOn(db: DB, userId: string, term: TermRow, date: string, at: string, p: { roomId?: string; scheduleId?: string; keyword?: string }): Promise<LessonToday[]> {
  const week = weekOf(term.startDate, date);
  if (week < 1 || week > term.weekCount) return [];
  const weekday = weekdayOf(date);
  const kw = p.keyword?.trim() ? `%${p.keyword.trim().replace(/[\\%_]/g, (c) => '\\' + c)}%` : null;
  const rows = (
    await sql<Record<string, unknown>>`
      select s.id as schedule_id, s.task_id, s.start_section, s.end_section, s.classroom_id, r.name as classroom_name, r.campus,
             k.teacher_id, k.teacher_ids, u.realname as teacher_name, k.course_name, k.class_names,
             (select l.id from sup_lecture_record l where l.listener_id = ${userId} and l.course_task_id = s.task_id and l.lecture_date = ${date} limit 1) as my_id,
             (select l.status from sup_lecture_record l where l.listener_id = ${userId} and l.course_task_id = s.task_id and l.lecture_date = ${date} limit 1) as my_status
      from sup_course_schedule s
      join sup_course_task k on k.id = s.task_id
      left join sys_user u on u.id = k.teacher_id
      left join sup_classroom r on r.id = s.classroom_id
      where s.term_id = ${term.id} and s.weekday = ${weekday} and (s.week_mask >> ${week - 1}) & 1 = 1
        ${p.roomId ? sql`and s.classroom_id = ${p.roomId}` : sql``}
        ${p.scheduleId ? sql`and s.id = ${p.scheduleId}` : sql``}
        ${kw ? sql`and (u.realname like ${kw} or k.course_name like ${kw} or r.name like ${kw})` : sql``}
      order by s.start_section, s.end_section, k.course_name, s.id
      limit 1000`.execute(db)
  ).rows;
  const times = new Map<string, Map<number, [string, string]>>();
  const out: LessonToday[] = [];
  for (const r of rows) {
    // Nobody observes their own lesson.
    if (r.teacher_id === userId || str(r.teacher_ids).split(',').map((x) => x.trim()).includes(userId)) continue;
    const campus = (r.campus as string | null) ?? null;
    const key = campus ?? '';
    if (!times.has(key)) times.set(key, await sectionTimes(db, date, campus));
    const t = times.get(key)!;
    const begin = t.get(Number(r.start_section))?.[0] ?? null;
    const end = t.get(Number(r.end_section))?.[1] ?? null;
    const state = begin && end ? (at < begin ? 'NEXT' : at >= end ? 'PAST' : 'NOW') : 'NEXT';
    out.push({
      scheduleId: str(r.schedule_id), courseTaskId: str(r.task_id), courseName: (r.course_name as string) ?? null, teacherId: (r.teacher_id as string) ?? null,
      teacherName: (r.teacher_name as string) ?? null, classroomId: (r.classroom_id as string) ?? null, classroomName: (r.classroom_name as string) ?? null,
      classNames: (r.class_names as string) ?? null, startSection: Number(r.start_section), endSection: Number(r.end_section),
      sectionsText: sectionsText(r.start_section, r.end_section), timeText: `${sectionsText(r.start_section, r.end_section)}${begin ? ` ${begin}–${end ?? ''}` : ''}`, beginTime: begin, endTime: end, state, stateText: STATE_TEXT[state],
      lectureDate: dateOf(term.startDate, week, weekday), week, myRecordId: (r.my_id as string) ?? null, myStatus: (r.my_status as string) ?? null,
    });
  }
  return out;
}

/** The index form of a lesson (as GET /supervisor/lectureRecord/form answers it): sent with the lesson, one round trip less on a phone. */
async function indexFormOf(db: DB, courseTaskId: string) {
  const k = await db.selectFrom('sup_course_task as k').leftJoin('sup_course as c', 'c.id', 'k.course_id').select('c.lesson_kind').where('k.id', '=', courseTaskId).executeTakeFirst();
  const set = await applicableIndexSet(db, (k?.lesson_kind as string | null) ?? null);
  return { id: set.id, name: set.name, fullScore: set.fullScore, gradeBands: set.bands, indexes: set.indexes, leafIds: set.leaves.map((l) => l.id) };
}

async function termNow(db: DB): Promise<TermRow> {
  const term = await currentTerm(db);
  if (!term) throw new BizError('尚未设置当前学期，无法确定今天的课程');
  return term;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The product's origin as the browser reached it (a proxy's forwarded host and protocol first). */
function originOf(req: FastifyRequest): string {
  const proto = str(req.headers['x-forwarded-proto']).split(',')[0]?.trim() || req.protocol;
  const host = str(req.headers['x-forwarded-host']).split(',')[0]?.trim() || str(req.headers.host);
  return `${/^https?$/.test(proto) ? proto : 'http'}://${host.replace(/[^\w.:[\]-]/g, '')}`;
}

export async function registerClassroomNow(api: FastifyInstance, ctx: ServerContext) {
  const q = (req: FastifyRequest) => (req.query ?? {}) as Q;
  const ADD = 'supervisor:lectureRecord:add';

  /**
   * The lesson on now in a room (`room`), or one lesson of a date (`scheduleId` + `date`, from 今日听课):
   * `{ room, date, time, week, current, today, system }` — `current` null with the room's lessons of today when none
   * is on; `system` the current lesson's index form (as /supervisor/lectureRecord/form); `record` the caller's draft of it, if any.
   */
  /**
   * The caller's own record of the lesson while it is still a draft (as GET /supervisor/lectureRecord/queryById answers
   * it, same data scope): the phone form starts from it without asking again — one round trip less on a phone.
   */
  const myDraft = async (req: FastifyRequest, l: LessonToday | null | undefined) =>
    l?.myRecordId && (!l.myStatus || ['DRAFT', 'RETURNED'].includes(l.myStatus)) ? ((await getRow(hookContext(ctx, req, 'sup_lecture_record'), l.myRecordId)) ?? null) : null;

  api.get('/supervisor/lectureRecord/scan', { config: { auth: ADD } }, async (req) => {
    const p = q(req);
    const term = await termNow(ctx.db);
    const n = dayjs();
    const at = n.format('HH:mm');
    const date = typeof p.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(p.date) ? p.date : n.format('YYYY-MM-DD');
    const user = req.user!;
    if (p.scheduleId) {
      const [lesson] = await lessonsOn(ctx.db, user.id, term, date, at, { scheduleId: str(p.scheduleId) });
      if (!lesson) throw new BizError(`该课次在 ${date} 没有上课安排`);
      const system = await indexFormOf(ctx.db, lesson.courseTaskId);
      const record = await myDraft(req, lesson);
      return ok({ room: lesson.classroomId ? { id: lesson.classroomId, name: lesson.classroomName } : null, date, time: at, week: lesson.week, current: lesson, today: [lesson], system, record });
    }
    const roomId = str(p.room);
    const room = roomId ? await ctx.db.selectFrom('sup_classroom').select(['id', 'name', 'code', 'building', 'campus']).where('id', '=', roomId).executeTakeFirst() : undefined;
    if (!room) throw new BizError('未找到该教室，请确认二维码是否有效');
    const today = await lessonsOn(ctx.db, user.id, term, date, at, { roomId });
    const current = today.find((l) => l.state === 'NOW') ?? null;
    const system = current ? await indexFormOf(ctx.db, current.courseTaskId) : null;
    const record = await myDraft(req, current);
    return ok({ room, date, time: at, week: weekOf(term.startDate, date), current, today, system, record });
  });

  /** 今日听课: today's lessons from the timetable, on now first, then those to come, then those over. */
  api.get('/supervisor/lectureRecord/today', { config: { auth: ADD } }, async (req) => {
    const p = q(req);
    const term = await termNow(ctx.db);
    const n = dayjs();
    const order = { NOW: 0, NEXT: 1, PAST: 2 };
    const all = (await lessonsOn(ctx.db, req.user!.id, term, n.format('YYYY-MM-DD'), n.format('HH:mm'), { keyword: str(p.keyword) }))
      .filter((l) => !p.state || l.state === p.state)
      .sort((a, b) => order[a.state] - order[b.state] || a.startSection - b.startSection);
    const size = Math.min(Math.max(Number(p.pageSize) || 10, 1), 100);
    const pageNo = Math.max(Number(p.pageNo) || 1, 1);
    return ok({ records: all.slice((pageNo - 1) * size, pageNo * size), total: all.length, size, current: pageNo, pages: Math.ceil(all.length / size) });
  });

  /**
   * 打印二维码: a printable HTML sheet, one QR code per classroom of the list's filters (or the selected
   * ones), each encoding <origin>/lecture/scan?room=<id>. Data scope as the classroom list.
   */
  api.get('/supervisor/classroom/qrSheet', { config: { auth: 'supervisor:classroom:list' } }, async (req, reply) => {
    const p = q(req);
    const h = hookContext(ctx, req, 'sup_classroom');
    const ids = str(p.selections).split(',').filter(Boolean);
    const params: Q = { ...p, pageNo: 1, pageSize: 500 };
    delete params.selections;
    const page = await listRows(h, ids.length ? { pageNo: 1, pageSize: 500 } : params);
    const rooms = (page.records as Record<string, unknown>[]).filter((r) => !ids.length || ids.includes(str(r.id)));
    if (!rooms.length) throw new BizError('没有可打印的教室');
    const origin = originOf(req);
    const cards = await Promise.all(
      rooms.map(async (r) => {
        const url = `${origin}/lecture/scan?room=${encodeURIComponent(str(r.id))}`;
        const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
        const place = [r.campus, r.building].filter(Boolean).map((x) => escapeHtml(str(x))).join(' · ');
        return `<section class="card"><div class="qr">${svg}</div><h2>${escapeHtml(str(r.name))}</h2><p>${escapeHtml(str(r.code))}${place ? ` · ${place}` : ''}</p><p class="hint">微信 / 企业微信 / 钉钉扫码听课</p><p class="url">${escapeHtml(url)}</p></section>`;
      }),
    );
    const html = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>教室听课二维码</title><style>
body{font-family:system-ui,"PingFang SC","Microsoft YaHei",sans-serif;margin:16px;color:#222}
h1{font-size:18px;margin:0 0 12px}.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(60mm,1fr));gap:8mm}
.card{border:1px dashed #999;padding:6mm;text-align:center;break-inside:avoid;page-break-inside:avoid}
.qr svg{width:45mm;height:45mm}.card h2{font-size:20px;margin:4px 0}.card p{margin:2px 0;font-size:12px;color:#555}.hint{color:#888}.url{font-size:9px;color:#aaa;word-break:break-all}
@media print{body{margin:0}h1{display:none}.card{border-color:#ccc}}
</style></head><body><h1>教室听课二维码（共 ${rooms.length} 间，打印后张贴在教室门口）</h1><div class="grid">${cards.join('')}</div></body></html>`;
    return reply
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent('教室听课二维码.html')}`)
      .send(html);
  });
}
