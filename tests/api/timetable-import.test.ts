import { beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { fileTestServer } from '../helpers/server.js';
import { tokenFor } from './lecture-fixture.js';

const s = fileTestServer();
let token = '';
let termId = '';
const TITLES = ['课程号', '课程名称', '课序号', '开课单位', '学分', '教师工号', '教师姓名', '上课班级', '选课人数', '上课时间', '上课地点'];

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('课表');
  ws.addRow(TITLES);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

function multipart(files: Array<{ name: string; data: Buffer }>) {
  const boundary = '----lt' + Date.now();
  const parts: Buffer[] = [];
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`));
    parts.push(f.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(path: string, files: Array<{ name: string; data: Buffer }>) {
  const m = multipart(files);
  const r = await s.call({ method: 'POST', url: `/jeecg-boot${path}?termId=${termId}`, token, payload: m.payload, headers: m.headers });
  return r.json() as { success: boolean; code: number; message: string; result: any };
}

const counts = async () => {
  const db = s.running.ctx.db;
  const one = async (t: string) => Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(t)}`.execute(db)).rows[0]!.n);
  return { tasks: await one('sup_course_task'), lines: await one('sup_course_schedule'), courses: await one('sup_course'), rooms: await one('sup_classroom'), classes: await one('sup_class') };
};

beforeAll(async () => {
  // The timetable spans every college: a university role imports it (a department only its own rows, issue 27 rule 2).
  token = (await tokenFor(s, 'supervisor', ['timetable:import:importExcel'])).token;
  termId = String((await s.running.ctx.db.selectFrom('sup_term').select('id').where('is_current', '=', true).executeTakeFirstOrThrow()).id);
}, 120_000);

describe('timetable import', () => {
  it('previews, then imports several files atomically, reporting unmatched rows', async () => {
    const db = s.running.ctx.db;
    const teachers = (await db.selectFrom('sys_user').select(['work_no', 'realname']).where('work_no', 'is not', null).orderBy('work_no').limit(40).execute());
    const existing = await db.selectFrom('sup_course_task').select(['course_code', 'seq_no']).where('term_id', '=', termId).orderBy('course_code').limit(5).execute();
    const rows: unknown[][] = [];
    for (let i = 0; i < 300; i++) {
      const t = teachers[i % teachers.length]!;
      const day = '一二三四五'[i % 5];
      rows.push([`IMP${1000 + Math.floor(i / 2)}`, `导入课程${Math.floor(i / 2)}`, '01', '计算机学院', 3, t.work_no, t.realname, `导入班${i % 10}`, 40,
        i % 2 ? `1-8,10-16周星期${day}${1 + (i % 4) * 2}-${2 + (i % 4) * 2}节` : `1-15周(单)星期${day}3-4节`, `导入楼${i % 20}`]);
    }
    // Existing tasks (same term, 课程号, 课序号) are updated, not duplicated.
    for (const e of existing) rows.push([e.course_code, '已有课程', e.seq_no, '', '', teachers[0]!.work_no, '', '', 50, '1-16周星期五9-10节', '']);
    const bad: unknown[][] = [
      ['IMPBAD1', '坏课程1', '01', '', '', 'NO_SUCH_NO', '某某', '', 30, '1-16周星期一1-2节', ''],
      ['IMPBAD2', '坏课程2', '01', '', '', teachers[1]!.work_no, '', '', 30, '每周一上午', ''],
      ['', '坏课程3', '01', '', '', teachers[1]!.work_no, '', '', 30, '1-16周星期一1-2节', ''],
      ['IMPBAD4', '坏课程4', '01', '', '', teachers[1]!.work_no, '', '', 30, '1-40周星期一1-2节', ''],
    ];
    const files = [
      { name: '课表1.xlsx', data: await xlsx([...rows.slice(0, 200), ...bad.slice(0, 2)]) },
      { name: '课表2.xlsx', data: await xlsx([...rows.slice(200), ...bad.slice(2)]) },
    ];
    const before = await counts();
    const pre = await upload('/supervisor/courseSchedule/importPreview', files);
    expect(pre.success, pre.message).toBe(true);
    expect(pre.result.rows).toBe(rows.length + bad.length);
    expect(pre.result.summary.tasks).toEqual({ create: 150, update: existing.length });
    expect(pre.result.summary.courses.create).toBe(150);
    expect(pre.result.summary.lines.create + pre.result.summary.lines.replace).toBe(300 + existing.length);
    expect(pre.result.problems).toHaveLength(4);
    expect(pre.result.problems[0]).toMatchObject({ file: '课表1.xlsx', reason: '未找到工号为 NO_SUCH_NO 的教师' });
    expect(pre.result.problems[1].reason).toContain('无法识别');
    expect(pre.result.problems[2].reason).toContain('缺少课程号');
    expect(await counts()).toEqual(before); // the preview writes nothing

    const imp = await upload('/supervisor/courseSchedule/importTimetable', files);
    expect(imp.success, imp.message).toBe(true);
    expect(imp.code).toBe(201);
    const after = await counts();
    expect(after.tasks).toBe(before.tasks + 150);
    expect(after.courses).toBe(before.courses + 150);
    expect(after.rooms).toBe(before.rooms + 20);
    expect(after.classes).toBe(before.classes + 10);
    const line = await db.selectFrom('sup_course_schedule as s').innerJoin('sup_course_task as k', 'k.id', 's.task_id')
      .select(['s.weeks', 's.weekday', 's.start_section']).where('k.course_code', '=', 'IMP1000').orderBy('s.weeks').execute();
    expect(line.map((l) => l.weeks).sort()).toEqual(['1,3,5,7,9,11,13,15', '1-8,10-16']);

    // A second import of the same files changes nothing but updates (de-duplicated).
    const again = await upload('/supervisor/courseSchedule/importPreview', files);
    expect(again.result.summary.tasks).toEqual({ create: 0, update: 150 + existing.length });
  });

  it('writes nothing when the transaction fails midway', async () => {
    const db = s.running.ctx.db;
    // Simulate a failure after courses and tasks were written: schedule lines on Sundays are refused.
    await sql`create or replace function lt_refuse() returns trigger language plpgsql as $$ begin raise exception 'simulated failure'; end $$`.execute(db);
    await sql`create trigger lt_refuse before insert on sup_course_schedule for each row when (new.weekday = 7) execute function lt_refuse()`.execute(db);
    const before = await counts();
    const teacher = await db.selectFrom('sys_user').select('work_no').where('work_no', 'is not', null).executeTakeFirstOrThrow();
    const files = [{ name: 'bad.xlsx', data: await xlsx([
      ['IMPX1', '回滚课程', '01', '', '', teacher.work_no, '', '回滚班', 10, '1-16周星期一1-2节', '回滚楼1'],
      ['IMPX2', '回滚课程2', '01', '', '', teacher.work_no, '', '', 10, '1-16周星期日1-2节', ''],
    ]) }];
    const r = await upload('/supervisor/courseSchedule/importTimetable', files);
    expect(r.success).toBe(false);
    expect(r.message).not.toContain('simulated');
    expect(await counts()).toEqual(before);
    await sql`drop trigger lt_refuse on sup_course_schedule`.execute(db);
  });
});
