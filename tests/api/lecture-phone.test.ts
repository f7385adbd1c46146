import { beforeAll, describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { fileTestServer } from '../helpers/server.js';
import { ROLE_PERMS, tokenFor, callsAs, type Who } from './lecture-fixture.js';
import { newId } from '../../server/util.js';
import { weekMask, weekOf } from '../../shared/rules.js';

/*
 * In the classroom on a phone (issue 30): the lesson on now in a room (from the schedule lines, the
 * section times and the current term/week) or the room's next lessons; today's lessons; the printable
 * sheet of classroom QR codes; an offline draft saved twice (or twice at once) under one client key is
 * one record. Times are made around the present minute, so the tests do not depend on the wall clock.
 */
const s = fileTestServer();
const who: Who = {};
const db = () => s.running.ctx.db;
const call = callsAs(s, who);

// Read once the server has set the school's time zone (config timezone).
let now: dayjs.Dayjs;
let today: string;
let minutes: number;
const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:00`;
const campus = `测试校区${newId().slice(0, 6)}`;
const roomNow = newId();
const roomLater = newId();
let task: { id: string; course_name: string | null };
/** The other room's lesson is later today, or (late in the evening) over already. */
let laterIsNext: boolean;

beforeAll(async () => {
  now = dayjs();
  today = now.format('YYYY-MM-DD');
  minutes = now.hour() * 60 + now.minute();
  laterIsNext = minutes < 22 * 60;
  who.supervisor = await tokenFor(s, 'supervisor', ROLE_PERMS.supervisor!);
  who.printer = await tokenFor(s, 'secretary', [...ROLE_PERMS.secretary!, 'supervisor:classroom:list']);
  // Seeded roles: the department administrator adds no records, the teacher reads no classrooms.
  who.deptadmin = await tokenFor(s, 'deptadmin', ['supervisor:term:list']);
  who.teacher = await tokenFor(s, 'teacher', ['supervisor:term:list']);
  const term = await db().selectFrom('sup_term').select(['id', 'start_date', 'week_count']).where('is_current', '=', true).executeTakeFirstOrThrow();
  const week = weekOf(String(term.start_date).slice(0, 10), today);
  expect(week).toBeGreaterThanOrEqual(1);
  expect(week).toBeLessThanOrEqual(Number(term.week_count));
  task = await db()
    .selectFrom('sup_course_task')
    .select(['id', 'course_name'])
    .where('term_id', '=', term.id)
    .where('teacher_id', '<>', who.supervisor!.id)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  await db().deleteFrom('sup_lecture_record').where('listener_id', '=', who.supervisor!.id).where('course_task_id', '=', task.id).where('lecture_date', '=', today).execute();
  await db()
    .insertInto('sup_classroom')
    .values([
      { id: roomNow, code: `T${roomNow.slice(0, 8)}`, name: '至善楼101', campus, status: 1 },
      { id: roomLater, code: `T${roomLater.slice(0, 8)}`, name: '至善楼102 <b>', campus, status: 1 },
    ])
    .execute();
  await db()
    .insertInto('sup_section_time')
    .values([
      { id: newId(), campus, season: 'WINTER', section_no: 1, begin_time: hhmm(Math.max(0, minutes - 30)), end_time: hhmm(Math.min(1439, minutes + 30)) },
      laterIsNext
        ? { id: newId(), campus, season: 'WINTER', section_no: 2, begin_time: hhmm(minutes + 60), end_time: hhmm(Math.min(1439, minutes + 100)) }
        : { id: newId(), campus, season: 'WINTER', section_no: 2, begin_time: hhmm(0), end_time: hhmm(Math.max(1, minutes - 60)) },
    ])
    .execute();
  const weekday = ((now.day() + 6) % 7) + 1;
  const line = (room: string, section: number) => ({
    id: newId(), term_id: term.id, task_id: task.id, weekday, start_section: section, end_section: section, weeks: String(week), week_mask: String(weekMask([week])), classroom_id: room,
  });
  await db().insertInto('sup_course_schedule').values([line(roomNow, 1), line(roomLater, 2)]).execute();
}, 120_000);

describe('the lesson on now in a room', () => {
  it('a room with a lesson on now answers it, with its times and today\'s date', async () => {
    const r = await call('get', `/supervisor/lectureRecord/scan?room=${roomNow}`, 'supervisor');
    expect(r.success, r.message).toBe(true);
    expect(r.result.current).toMatchObject({ courseTaskId: task.id, classroomId: roomNow, state: 'NOW', stateText: '正在上课', lectureDate: today, startSection: 1 });
    expect(r.result.current.beginTime).toBe(hhmm(Math.max(0, minutes - 30)).slice(0, 5));
    // No record of the caller's yet: no draft comes with it.
    expect(r.result.record).toBeNull();
  });

  it('a room with no lesson now answers none, with its lessons of today', async () => {
    const r = await call('get', `/supervisor/lectureRecord/scan?room=${roomLater}`, 'supervisor');
    expect(r.success).toBe(true);
    expect(r.result.current).toBeNull();
    expect(r.result.today).toHaveLength(1);
    expect(r.result.today[0]).toMatchObject({ state: laterIsNext ? 'NEXT' : 'PAST', startSection: 2 });
  });

  it('an unknown room is a clear message; a user who may not add records is refused', async () => {
    expect(await call('get', '/supervisor/lectureRecord/scan?room=nope', 'supervisor')).toMatchObject({ success: false, message: '未找到该教室，请确认二维码是否有效' });
    const t = await call('get', `/supervisor/lectureRecord/scan?room=${roomNow}`, 'deptadmin');
    expect(t.success).toBe(false);
    expect(t.code).toBe(510);
  });

  it('today\'s lessons put the one on now first and name the signed-in user\'s own record', async () => {
    const r = await call('get', `/supervisor/lectureRecord/today?keyword=${encodeURIComponent('至善楼')}&pageSize=50`, 'supervisor');
    expect(r.success).toBe(true);
    const mine = (r.result.records as any[]).filter((l) => l.courseTaskId === task.id);
    expect(mine.map((l) => l.classroomId)).toEqual([roomNow, roomLater]);
    expect(mine[0].state).toBe('NOW');
    expect(mine[0].timeText).toMatch(/^第1节 \d\d:\d\d–\d\d:\d\d$/);
  });
});

describe('an offline draft is one record, however often it is saved', () => {
  const key = 'k' + newId();
  const count = async () =>
    Number(
      (
        await db()
          .selectFrom('sup_lecture_record')
          .select(db().fn.countAll().as('n'))
          .where('listener_id', '=', who.supervisor!.id)
          .where('course_task_id', '=', task.id)
          .where('lecture_date', '=', today)
          .executeTakeFirstOrThrow()
      ).n,
    );
  let first: any;

  it('two saves with the same key at once, then again: one record, the last values', async () => {
    const body = (actual: number) => ({ courseTaskId: task.id, lectureDate: today, clientKey: key, actualCount: actual, indexScoreList: [] });
    const [a, b] = await Promise.all([call('post', '/supervisor/lectureRecord/add', 'supervisor', body(30)), call('post', '/supervisor/lectureRecord/add', 'supervisor', body(31))]);
    expect(a.success, a.message).toBe(true);
    expect(b.success, b.message).toBe(true);
    expect(a.result.id).toBe(b.result.id);
    const c = await call('post', '/supervisor/lectureRecord/add', 'supervisor', body(32));
    expect(c.success, c.message).toBe(true);
    expect(c.result.id).toBe(a.result.id);
    expect(c.result.actualCount).toBe(32);
    expect(await count()).toBe(1);
    // The lesson on now comes with that draft, as queryById answers it: the phone form starts from it without asking.
    const scan = await call('get', `/supervisor/lectureRecord/scan?room=${roomNow}`, 'supervisor');
    expect(scan.result.current.myRecordId).toBe(a.result.id);
    const byId = await call('get', `/supervisor/lectureRecord/queryById?id=${a.result.id}`, 'supervisor');
    expect(scan.result.record).toEqual(byId.result);
    expect(scan.result.record.actualCount).toBe(32);
    first = c.result;
  });

  it('once submitted, a late save with the key changes nothing and says so', async () => {
    await db().updateTable('sup_lecture_record').set({ status: 'SUBMITTED' }).where('id', '=', first.id).execute();
    const late = await call('post', '/supervisor/lectureRecord/add', 'supervisor', { courseTaskId: task.id, lectureDate: today, clientKey: key, actualCount: 1 });
    expect(late).toMatchObject({ success: true, message: '该听课记录已提交' });
    expect(late.result.actualCount).toBe(32);
    expect(await count()).toBe(1);
  });

  it('another user\'s key is not this user\'s record; a malformed key is refused', async () => {
    const bad = await call('post', '/supervisor/lectureRecord/add', 'supervisor', { courseTaskId: task.id, lectureDate: today, clientKey: "x'; drop" });
    expect(bad.success).toBe(false);
    expect(bad.message).toContain('草稿键格式不正确');
  });
});

describe('the classroom QR sheet', () => {
  it('is a printable page with one code per classroom of the filter, each for /lecture/scan?room=<id>, names escaped', async () => {
    const r = await s.get(`/jeecg-boot/supervisor/classroom/qrSheet?campus=${encodeURIComponent(campus)}`, who.printer!.token, { host: 'jw.example.edu.cn', 'x-forwarded-proto': 'https' });
    expect(r.headers['content-type']).toContain('text/html');
    expect(String(r.headers['content-disposition'])).toContain('attachment');
    const html = r.body;
    expect(html.match(/<svg/g)).toHaveLength(2);
    expect(html).toContain('至善楼101');
    expect(html).toContain('至善楼102 &lt;b&gt;');
    expect(html).not.toContain('至善楼102 <b>');
    expect(html).toContain('共 2 间');
    expect(html).toContain(`https://jw.example.edu.cn/lecture/scan?room=${roomNow}`);
  });

  it('is refused without the classroom list permission', async () => {
    const r = await call('get', `/supervisor/classroom/qrSheet?campus=${encodeURIComponent(campus)}`, 'teacher');
    expect(r.success).toBe(false);
    expect(r.code).toBe(510);
  });
});
