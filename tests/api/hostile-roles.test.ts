/**
 * Authorisation inside roles (issue 27 rules 1–4 and 9): each rule as an attack by the role that would
 * try it — the department administrator, the department secretary, the college leader, the teacher,
 * an anonymous caller — refused with `success:false` (or code 510) and the database unchanged; plus
 * positive controls showing the legitimate in-scope action still works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { API, DEMO_PASSWORD, startTestServer, type TestServer, fileTestServer, type ApiAnswer } from '../helpers/server.js';

const s = fileTestServer(['admin', 'supervisor', 'secretary', 'leader', 'teacher', 'deptadmin']);
const { tok } = s;
const db = () => s.running.ctx.db;

type Env = ApiAnswer;
const j = async (r: Promise<{ json(): unknown }>) => (await r).json() as Env;
const CHINESE = /[\u4e00-\u9fa5]/;
/** A refusal: success false with a Chinese message (or the guard's 510). */
const refused = (b: Env) => {
  expect(b.success, JSON.stringify(b).slice(0, 300)).toBe(false);
  expect(b.message).toMatch(CHINESE);
  expect(b.message).not.toMatch(/服务器内部错误/);
};
const userOf = (username: string) => db().selectFrom('sys_user').selectAll().where('username', '=', username).executeTakeFirstOrThrow();
const rowsOf = (table: string, col: string, v: string) => db().selectFrom(table).selectAll().where(col, '=', v).orderBy('id').execute();
/** Everything that describes one user's access: the row, roles, departments, department roles, live sessions. */
async function userSnapshot(id: string) {
  return {
    user: await db().selectFrom('sys_user').selectAll().where('id', '=', id).executeTakeFirst(),
    roles: await rowsOf('sys_user_role', 'user_id', id),
    departs: await rowsOf('sys_user_depart', 'user_id', id),
    droles: await rowsOf('sys_depart_role_user', 'user_id', id),
  };
}
const roleId = async (code: string) => String((await db().selectFrom('sys_role').select('id').where('role_code', '=', code).executeTakeFirstOrThrow()).id);
const departId = async (orgCode: string) => String((await db().selectFrom('sys_depart').select('id').where('org_code', '=', orgCode).executeTakeFirstOrThrow()).id);

describe('rule 1: routes that touch a user apply the user data scope', () => {
  it('deptadmin cannot reset the system administrator’s password (changePassword)', async () => {
    const admin = await userOf('admin');
    const before = await userSnapshot(String(admin.id));
    const r = await j(s.put('sys/user/changePassword', { username: 'admin', password: 'Taken#Over2026', confirmpassword: 'Taken#Over2026' }, tok.deptadmin));
    refused(r);
    expect(await userSnapshot(String(admin.id))).toEqual(before);
    expect((await j(s.post('sys/login', { username: 'admin', password: 'Taken#Over2026' }))).success).toBe(false);
    // Nor a user of another college, nor a supervisor of their own college's scope.
    const math = await db().selectFrom('sys_user').select(['id', 'username', 'password']).where('org_code', 'like', 'A01A05%').where('del_flag', '=', 0).limit(1).executeTakeFirstOrThrow();
    refused(await j(s.put('sys/user/changePassword', { username: math.username, password: 'Taken#Over2026', confirmpassword: 'Taken#Over2026' }, tok.deptadmin)));
    expect((await db().selectFrom('sys_user').select('password').where('id', '=', math.id).executeTakeFirstOrThrow()).password).toBe(math.password);
  });

  it('deptadmin resets a teacher of their college (positive control)', async () => {
    const r = await j(s.put('sys/user/changePassword', { username: 'teacher', password: DEMO_PASSWORD, confirmpassword: DEMO_PASSWORD }, tok.deptadmin));
    expect(r).toMatchObject({ success: true });
    tok.teacher = await s.login('teacher');
  });

  it('deptadmin cannot add the root department or 校级督导 to their own account, nor change their status or tenants', async () => {
    const me = await userOf('deptadmin');
    const before = await userSnapshot(String(me.id));
    const root = await departId('A01');
    const sup = await roleId('supervisor');
    refused(await j(s.put('sys/user/edit', { id: me.id, selecteddeparts: `${await departId('A01A04')},${root}` }, tok.deptadmin)));
    refused(await j(s.put('sys/user/edit', { id: me.id, selectedroles: `${await roleId('deptadmin')},${sup}` }, tok.deptadmin)));
    refused(await j(s.put('sys/user/edit', { id: me.id, status: 2 }, tok.deptadmin)));
    const t = await j(s.put('sys/user/edit', { id: me.id, relTenantIds: '1,2', loginTenantId: 2 }, tok.deptadmin));
    if (!t.success) refused(t);
    expect(await userSnapshot(String(me.id))).toEqual(before);
    // The admin cannot change their own roles either (self-edit goes through account settings).
    const admin = await userOf('admin');
    const adminBefore = await userSnapshot(String(admin.id));
    refused(await j(s.put('sys/user/edit', { id: admin.id, selectedroles: sup }, tok.admin)));
    refused(await j(s.put('sys/user/frozenBatch', { ids: String(admin.id), status: 1 }, tok.admin)));
    expect(await userSnapshot(String(admin.id))).toEqual(adminBefore);
  });

  it('deptadmin grants only allow-listed roles and departments of their subtree to their users', async () => {
    const t = await userOf('teacher');
    const before = await userSnapshot(String(t.id));
    const teacherRole = await roleId('teacher');
    for (const code of ['admin', 'supervisor', 'deptadmin']) {
      refused(await j(s.put('sys/user/edit', { id: t.id, selectedroles: `${teacherRole},${await roleId(code)}` }, tok.deptadmin)));
    }
    refused(await j(s.put('sys/user/edit', { id: t.id, selecteddeparts: `${await departId('A01A04')},${await departId('A01A05')}` }, tok.deptadmin)));
    refused(await j(s.post('sys/user/add', { username: 'hostile_new', realname: '越权新用户', password: 'Hostile#2026x', confirmPassword: 'Hostile#2026x', selectedroles: await roleId('supervisor') }, tok.deptadmin)));
    expect(await db().selectFrom('sys_user').select('id').where('username', '=', 'hostile_new').executeTakeFirst()).toBeUndefined();
    expect(await userSnapshot(String(t.id))).toEqual(before);
    // Positive control: an allow-listed role and a department of the subtree.
    const ok = await j(
      s.put('sys/user/edit', { id: t.id, selectedroles: `${teacherRole},${await roleId('secretary')}`, selecteddeparts: `${await departId('A01A04')},${await departId('A01A04A01')}` }, tok.deptadmin),
    );
    expect(ok).toMatchObject({ success: true });
    expect((await rowsOf('sys_user_role', 'user_id', String(t.id))).length).toBe(2);
    expect((await j(s.put('sys/user/edit', { id: t.id, selectedroles: teacherRole, selecteddeparts: await departId('A01A04') }, tok.deptadmin))).success).toBe(true);
    tok.teacher = await s.login('teacher');
  });

  it('deptadmin cannot edit, freeze, read grants of or restore users outside their scope', async () => {
    const sup = await userOf('supervisor');
    const before = await userSnapshot(String(sup.id));
    refused(await j(s.put('sys/user/edit', { id: sup.id, realname: '越权改名' }, tok.deptadmin)));
    refused(await j(s.put('sys/user/frozenBatch', { ids: String(sup.id), status: 2 }, tok.deptadmin)));
    refused(await j(s.get(`sys/user/queryUserRole?userid=${sup.id}`, tok.deptadmin)));
    refused(await j(s.get(`sys/user/userDepartList?userId=${sup.id}`, tok.deptadmin)));
    expect(await userSnapshot(String(sup.id))).toEqual(before);
  });

  it('the recycle bin and department user lists show only users in scope', async () => {
    // The admin deletes a mathematics teacher; the CS department administrator may not see or restore them.
    const math = await db().selectFrom('sys_user').select(['id', 'username']).where('org_code', '=', 'A01A05').where('del_flag', '=', 0).where('username', 'not in', ['admin', 'teacher2']).limit(1).executeTakeFirstOrThrow();
    expect((await j(s.del(`sys/user/delete?id=${math.id}`, tok.admin))).success).toBe(true);
    const adminBin = await j(s.get('sys/user/recycleBin', tok.admin));
    expect((adminBin.result as any[]).map((u) => u.id)).toContain(math.id);
    // deptadmin has no recycle-bin permission; give their role the code for this check.
    const perm = await db().selectFrom('sys_permission').select('id').where('perms', '=', 'system:user:recycleBin').executeTakeFirstOrThrow();
    await db().insertInto('sys_role_permission').values({ id: 'hostilerolesrecyclebin0000000001', role_id: await roleId('deptadmin'), permission_id: perm.id }).execute();
    const da = await s.login('deptadmin');
    const bin = await j(s.get('sys/user/recycleBin', da));
    expect(bin.success).toBe(true);
    expect((bin.result as any[]).map((u) => u.id)).not.toContain(math.id);
    refused(await j(s.put('sys/user/putRecycleBin', { userIds: math.id }, da)));
    refused(await j(s.del(`sys/user/deleteRecycleBin?userIds=${math.id}`, da)));
    expect(Number((await db().selectFrom('sys_user').select('del_flag').where('id', '=', math.id).executeTakeFirstOrThrow()).del_flag)).toBe(1);
    await db().deleteFrom('sys_role_permission').where('id', '=', 'hostilerolesrecyclebin0000000001').execute();
    expect((await j(s.put('sys/user/putRecycleBin', { userIds: math.id }, tok.admin))).success).toBe(true);

    // Department user lists: deptadmin (system:depart:queryById) sees no user of another college.
    const list = await j(s.get(`sys/user/departUserList?depId=${await departId('A01A05')}&pageSize=100`, tok.deptadmin));
    expect(list.success).toBe(true);
    // Only members of the department who are also in their scope (teacher2 belongs to both colleges).
    const mathMembers = await db().selectFrom('sys_user_depart').select('user_id').where('dep_id', '=', await departId('A01A05')).execute();
    expect(mathMembers.length).toBeGreaterThan(list.result.total);
    for (const u of list.result.records as any[]) expect(String(u.orgCode)).toMatch(/^A01A04/);
    const own = await j(s.get(`sys/user/departUserList?depId=${await departId('A01A04')}&pageSize=100`, tok.deptadmin));
    expect(own.result.total).toBeGreaterThan(0);
  });

  it('a scoped administrator with role-user and department-user rights cannot reach other users (mechanism, not the seed)', async () => {
    // Give the department administrator's role every user-touching code, then attack.
    const codes = ['system:role:users', 'system:depart:edit', 'system:depart:authorize'];
    const perms = await db().selectFrom('sys_permission').select('id').where('perms', 'in', codes).execute();
    const rid = await roleId('deptadmin');
    await db().insertInto('sys_role_permission').values(perms.map((p, i) => ({ id: `hostilerolesgrant00000000000000${i}`, role_id: rid, permission_id: p.id }))).execute();
    const da = await s.login('deptadmin');
    const sup = await userOf('supervisor');
    const me = await userOf('deptadmin');
    const before = await userSnapshot(String(sup.id));
    const meBefore = await userSnapshot(String(me.id));
    const adminRole = await roleId('admin');
    refused(await j(s.post('sys/user/addSysUserRole', { roleId: adminRole, userIdList: String(me.id) }, da)));
    refused(await j(s.post('sys/user/addSysUserRole', { roleId: await roleId('teacher'), userIdList: String(sup.id) }, da)));
    refused(await j(s.del(`sys/user/deleteUserRole?roleId=${await roleId('supervisor')}&userId=${sup.id}`, da)));
    refused(await j(s.post('sys/user/editSysDepartWithUser', { depId: await departId('A01'), userIdList: String(me.id) }, da)));
    refused(await j(s.post('sys/user/editSysDepartWithUser', { depId: await departId('A01A04'), userIdList: String(sup.id) }, da)));
    refused(await j(s.del(`sys/user/deleteUserInDepart?depId=${await departId('A01A01A01')}&userId=${sup.id}`, da)));
    refused(await j(s.get(`sys/sysDepartRole/getDeptRoleByUserId?userId=${sup.id}&departId=${await departId('A01A01A01')}`, da)));
    refused(await j(s.post('sys/sysDepartRole/deptRoleUserAdd', { userId: sup.id, newRoleId: '', departId: await departId('A01A01A01') }, da)));
    const roleUsers = await j(s.get(`sys/user/userRoleList?roleId=${await roleId('supervisor')}&pageSize=100`, da));
    expect(roleUsers.success).toBe(true);
    expect((roleUsers.result.records as any[]).map((u) => u.id)).not.toContain(sup.id);
    expect(await userSnapshot(String(sup.id))).toEqual(before);
    expect(await userSnapshot(String(me.id))).toEqual(meBefore);
    // Positive control: an allow-listed role for a user of the college.
    const t = await userOf('teacher');
    expect((await j(s.post('sys/user/addSysUserRole', { roleId: await roleId('leader'), userIdList: String(t.id) }, da))).success).toBe(true);
    expect((await j(s.del(`sys/user/deleteUserRole?roleId=${await roleId('leader')}&userId=${t.id}`, da))).success).toBe(true);
    await db().deleteFrom('sys_role_permission').where('id', 'like', 'hostilerolesgrant%').execute();
    tok.teacher = await s.login('teacher');
  });

  it('anonymous callers get 401 on every user-touching route', async () => {
    for (const [m, u] of [['PUT', 'sys/user/changePassword'], ['PUT', 'sys/user/edit'], ['GET', 'sys/user/queryUserRole?userid=x'], ['GET', 'sys/user/recycleBin']] as const) {
      const r = await s.call({ method: m, url: u, payload: m === 'GET' ? undefined : { username: 'admin' } });
      expect(r.statusCode, u).toBe(401);
    }
  });
});

describe('rule 3: domain rules on who may act', () => {
  let termId = '';
  beforeAll(async () => {
    termId = String((await db().selectFrom('sup_term').select('id').where('is_current', '=', true).executeTakeFirstOrThrow()).id);
  });
  const lessons = async (teacherId?: string) =>
    (await j(s.get(`supervisor/courseSchedule/lessons?termId=${termId}&week=3${teacherId ? `&teacherId=${teacherId}` : ''}`, tok.admin))).result as any[];
  const count = async (table: string) => Number((await db().selectFrom(table).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);

  it('a teacher never records an observation of their own lesson (add and edit)', async () => {
    const me = await userOf('teacher');
    const own = (await lessons(String(me.id)))[0];
    expect(own, 'a lesson of the demo teacher in week 3').toBeDefined();
    const before = await count('sup_lecture_record');
    const add = await j(s.post('supervisor/lectureRecord/add', { scheduleId: own.scheduleId, courseTaskId: own.courseTaskId, lectureDate: own.lectureDate }, tok.teacher));
    refused(add);
    expect(add.message).toContain('自己任课');
    expect(await count('sup_lecture_record')).toBe(before);
    // Positive control: another teacher's lesson is fine; editing that draft over to one's own lesson is not.
    const other = (await lessons()).find((l) => l.teacherId !== me.id);
    const ok = await j(s.post('supervisor/lectureRecord/add', { scheduleId: other.scheduleId, courseTaskId: other.courseTaskId, lectureDate: other.lectureDate }, tok.teacher));
    expect(ok.success, ok.message).toBe(true);
    const draft = await db().selectFrom('sup_lecture_record').selectAll().where('listener_id', '=', me.id).where('course_task_id', '=', other.courseTaskId).where('lecture_date', '=', other.lectureDate).executeTakeFirstOrThrow();
    refused(await j(s.put('supervisor/lectureRecord/edit', { id: draft.id, scheduleId: own.scheduleId, courseTaskId: own.courseTaskId, lectureDate: own.lectureDate }, tok.teacher)));
    expect(await db().selectFrom('sup_lecture_record').selectAll().where('id', '=', draft.id).executeTakeFirst()).toEqual(draft);
  });

  it('a department secretary cannot return an evaluation the quality office wrote about their staff', async () => {
    const foreign = await db()
      .selectFrom('sup_lecture_record').selectAll()
      .where('status', '=', 'SUBMITTED').where('teacher_org_code', 'like', 'A01A04%').where('listener_org_code', 'not like', 'A01A04%')
      .limit(1).executeTakeFirstOrThrow();
    const r = await j(s.post(`supervisor/lectureRecord/return?id=${foreign.id}`, { reason: '不认可该评价' }, tok.secretary));
    refused(r);
    expect(await db().selectFrom('sup_lecture_record').selectAll().where('id', '=', foreign.id).executeTakeFirst()).toEqual(foreign);
    // Positive control: a record written by the college's own listener.
    const own = await db()
      .selectFrom('sup_lecture_record').select('id')
      .where('status', '=', 'SUBMITTED').where('listener_org_code', 'like', 'A01A04%')
      .limit(1).executeTakeFirstOrThrow();
    const back = await j(s.post(`supervisor/lectureRecord/return?id=${own.id}`, { reason: '请补充问题描述' }, tok.secretary));
    expect(back.success, back.message).toBe(true);
  });

  it('a college leader sees and changes only their college’s improvement tasks', async () => {
    const all = await count('imp_task');
    const mine = Number((await db().selectFrom('imp_task').select(sql<string>`count(*)`.as('n')).where('resp_org_code', 'like', 'A01A04%').where('status', '<>', 'DRAFT').executeTakeFirstOrThrow()).n);
    const list = await j(s.get('improvement/task/list?pageSize=200', tok.leader));
    expect(list.success).toBe(true);
    expect(all).toBeGreaterThan(list.result.total);
    for (const t of list.result.records as any[]) expect(String(t.respOrgCode)).toMatch(/^A01A04/);
    expect(list.result.total).toBeGreaterThanOrEqual(mine);
    // A submitted task of another college (issued by the quality office): not verifiable, not readable.
    const foreign = await db().selectFrom('imp_task').selectAll().where('status', '=', 'SUBMITTED').where('resp_org_code', 'not like', 'A01A04%').limit(1).executeTakeFirstOrThrow();
    refused(await j(s.post('improvement/task/transition', { id: foreign.id, action: 'VERIFY', comment: '越权验收' }, tok.leader)));
    refused(await j(s.get(`improvement/task/queryById?id=${foreign.id}`, tok.leader)));
    expect(await db().selectFrom('imp_task').selectAll().where('id', '=', foreign.id).executeTakeFirst()).toEqual(foreign);
    // Nor raise a task for another college.
    const before = await count('imp_task');
    refused(await j(s.post('improvement/task/add', { title: '越权整改', respDepartId: await departId('A01A05'), deadline: '2099-01-01', description: 'x', requirement: 'x' }, tok.leader)));
    expect(await count('imp_task')).toBe(before);
  });

  it('every improvement transition checks its own button permission', async () => {
    const add = await j(s.post('improvement/task/add', { title: '按钮权限测试', respDepartId: await departId('A01A04'), deadline: '2099-01-01', description: 'x', requirement: 'x' }, tok.leader));
    expect(add.success, add.message).toBe(true);
    const id = String(add.result.id);
    const issue = await db().selectFrom('sys_permission').select('id').where('perms', '=', 'improvement:task:issue').executeTakeFirstOrThrow();
    const leaderRole = await roleId('leader');
    const grant = await db().selectFrom('sys_role_permission').selectAll().where('role_id', '=', leaderRole).where('permission_id', '=', issue.id).executeTakeFirstOrThrow();
    await db().deleteFrom('sys_role_permission').where('id', '=', grant.id).execute();
    const lt = await s.login('leader');
    const r = await j(s.post('improvement/task/transition', { id, action: 'ISSUE' }, lt));
    expect(r.code).toBe(510);
    expect((await db().selectFrom('imp_task').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('DRAFT');
    await db().insertInto('sys_role_permission').values(grant).execute();
    // Positive control: with the button the same call issues the task.
    const lt2 = await s.login('leader');
    const ok = await j(s.post('improvement/task/transition', { id, action: 'ISSUE' }, lt2));
    expect(ok.success, ok.message).toBe(true);
    expect(ok.result.status).toBe('ISSUED');
    // The teacher (may list the tasks of their college, holds no task-side button) cannot take a
    // task-side action either: refused, and nothing changes.
    const t = await j(s.post('improvement/task/transition', { id, action: 'CANCEL' }, tok.teacher));
    expect(t).toMatchObject({ success: false, message: '只有下发人或质量管理部门可以撤销' });
    expect((await db().selectFrom('imp_task').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('ISSUED');
  });
});

describe('rule 2: department roles write only their department’s data', () => {
  const count = async (table: string) => Number((await db().selectFrom(table).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
  const snapshot = (table: string) => db().selectFrom(table).selectAll().orderBy('id').execute();

  it('secretary cannot edit, delete or create courses, tasks, schedule lines or classes of another college', async () => {
    const math = await departId('A01A05');
    const course = await db().selectFrom('sup_course').selectAll().where('depart_id', '=', math).limit(1).executeTakeFirstOrThrow();
    const task = await db().selectFrom('sup_course_task').selectAll().where('depart_id', '=', math).limit(1).executeTakeFirstOrThrow();
    const line = await db().selectFrom('sup_course_schedule').selectAll().where('task_id', '=', task.id).limit(1).executeTakeFirstOrThrow();
    const before = { c: await snapshot('sup_course'), k: await snapshot('sup_course_task'), l: await snapshot('sup_course_schedule'), cl: await snapshot('sup_class') };
    refused(await j(s.put('supervisor/course/edit', { id: course.id, name: '越权修改' }, tok.secretary)));
    refused(await j(s.del(`supervisor/course/delete?id=${course.id}`, tok.secretary)));
    refused(await j(s.post('supervisor/course/add', { code: 'HOSTILE01', name: '越权课程', departId: math }, tok.secretary)));
    refused(await j(s.put('supervisor/courseTask/edit', { id: task.id, name: '越权修改' }, tok.secretary)));
    refused(await j(s.del(`supervisor/courseTask/deleteBatch?ids=${task.id}`, tok.secretary)));
    refused(await j(s.put('supervisor/courseSchedule/edit', { id: line.id, weeks: '1-2' }, tok.secretary)));
    refused(await j(s.del(`supervisor/courseSchedule/delete?id=${line.id}`, tok.secretary)));
    refused(await j(s.post('supervisor/classes/add', { code: 'HOSTILE-C1', name: '越权班级', departId: math }, tok.secretary)));
    // A batch mixing an own and a foreign course deletes nothing.
    const own = await db().selectFrom('sup_course').select('id').where('depart_id', '=', await departId('A01A04')).limit(1).executeTakeFirstOrThrow();
    refused(await j(s.del(`supervisor/course/deleteBatch?ids=${own.id},${course.id}`, tok.secretary)));
    expect({ c: await snapshot('sup_course'), k: await snapshot('sup_course_task'), l: await snapshot('sup_course_schedule'), cl: await snapshot('sup_class') }).toEqual(before);
  });

  it('deptadmin: classrooms without a department are university data; a new classroom belongs to their college', async () => {
    const room = await db().selectFrom('sup_classroom').selectAll().where('depart_id', 'is', null).limit(1).executeTakeFirstOrThrow();
    refused(await j(s.put('supervisor/classroom/edit', { id: room.id, name: '越权教室' }, tok.deptadmin)));
    expect(await db().selectFrom('sup_classroom').selectAll().where('id', '=', room.id).executeTakeFirst()).toEqual(room);
    // Positive control: created without a department, it is the caller's; they may edit it.
    const add = await j(s.post('supervisor/classroom/add', { code: 'CS-LAB-901', name: '计算机学院实验室901' }, tok.deptadmin));
    expect(add.success, add.message).toBe(true);
    const mine = await db().selectFrom('sup_classroom').selectAll().where('code', '=', 'CS-LAB-901').executeTakeFirstOrThrow();
    expect(mine.depart_id).toBe(await departId('A01A04'));
    expect((await j(s.put('supervisor/classroom/edit', { id: mine.id, name: '计算机学院实验室902' }, tok.deptadmin))).success).toBe(true);
    // Moving it to another college is refused.
    refused(await j(s.put('supervisor/classroom/edit', { id: mine.id, departId: await departId('A01A05') }, tok.deptadmin)));
    expect((await db().selectFrom('sup_classroom').select('depart_id').where('id', '=', mine.id).executeTakeFirstOrThrow()).depart_id).toBe(await departId('A01A04'));
  });

  it('import by a department role: rows take the caller’s college (positive control)', async () => {
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sheet1');
    ws.addRow(['班级编号', '班级名称', '年级', '专业', '人数']);
    ws.addRow(['HOSTILE-IMP-1', '越权导入班级', 2026, '数学', 30]);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    const boundary = '----hostile';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="c.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`),
      buf,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const before = await count('sup_class');
    // The supervisor (university role) has no write permission; the secretary imports into their own college.
    const r = await s.call({ method: 'POST', url: 'supervisor/classes/importExcel', token: tok.secretary, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    const b = r.json() as Env;
    expect(b.success, b.message).toBe(true);
    const row = await db().selectFrom('sup_class').selectAll().where('code', '=', 'HOSTILE-IMP-1').executeTakeFirstOrThrow();
    expect(row.depart_id).toBe(await departId('A01A04'));
    expect(await count('sup_class')).toBe(before + 1);
  });

  it('terms, section times, index systems and the current term belong to the university roles', async () => {
    const term = await db().selectFrom('sup_term').selectAll().where('is_current', '=', false).limit(1).executeTakeFirstOrThrow();
    const terms = await snapshot('sup_term');
    const times = await snapshot('sup_section_time');
    // The secretary's role is given the write codes, to show the mechanism (not only the seed) refuses.
    const codes = ['supervisor:term:edit', 'supervisor:term:setCurrent', 'supervisor:sectionTime:add', 'supervisor:index:publish'];
    const perms = await db().selectFrom('sys_permission').select('id').where('perms', 'in', codes).execute();
    const sec = await roleId('secretary');
    await db().insertInto('sys_role_permission').values(perms.map((p, i) => ({ id: `hostilerolesuniv0000000000000${String(i).padStart(3, '0')}`, role_id: sec, permission_id: p.id }))).execute();
    const st = await s.login('secretary');
    refused(await j(s.put('supervisor/term/edit', { id: term.id, name: '越权学期' }, st)));
    refused(await j(s.post('supervisor/term/setCurrent', { id: term.id }, st)));
    refused(await j(s.post('supervisor/sectionTime/add', { campus: '主校区', season: 'SUMMER', sectionNo: 13, name: '第13节', beginTime: '21:00', endTime: '21:45' }, st)));
    const set = await db().selectFrom('sup_index_set').select('id').limit(1).executeTakeFirstOrThrow();
    refused(await j(s.post('supervisor/index/publish', { id: set.id }, st)));
    expect(await snapshot('sup_term')).toEqual(terms);
    expect(await snapshot('sup_section_time')).toEqual(times);
    await db().deleteFrom('sys_role_permission').where('id', 'like', 'hostilerolesuniv%').execute();
    // The seeded secretary has no write buttons on terms any more; the admin sets the current term.
    expect((await j(s.put('supervisor/term/edit', { id: term.id, name: '越权学期' }, tok.secretary))).code).toBe(510);
    const cur = await db().selectFrom('sup_term').select('id').where('is_current', '=', true).executeTakeFirstOrThrow();
    expect((await j(s.post('supervisor/term/setCurrent', { id: cur.id }, tok.admin))).success).toBe(true);
  });
});

describe('rule 4: user text in notices is text', () => {
  it('a return reason with markup reaches the listener escaped', async () => {
    const rec = await db().selectFrom('sup_lecture_record').select('id').where('status', '=', 'SUBMITTED').where('listener_org_code', 'like', 'A01A04%').limit(1).executeTakeFirstOrThrow();
    const reason = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    const r = await j(s.post(`supervisor/lectureRecord/return?id=${rec.id}`, { reason }, tok.secretary));
    expect(r.success, r.message).toBe(true);
    const note = await db().selectFrom('sys_announcement').select(['msg_content', 'msg_abstract']).where('bus_id', '=', rec.id).orderBy('create_time', 'desc').executeTakeFirstOrThrow();
    expect(note.msg_content).toContain('&#60;img src=x onerror=alert(1)&#62;');
    expect(note.msg_content).not.toMatch(/<img|<script/);
    expect(note.msg_abstract).not.toMatch(/<img|<script/);
  });
});

describe('rule 9: less to learn for the curious', () => {
  it('duplicate check answers only for tables the caller may edit', async () => {
    refused(await j(s.get('sys/duplicate/check?tableName=sys_user&fieldName=username&fieldVal=admin', tok.teacher)));
    refused(await j(s.get('sys/duplicate/check?tableName=sup_term&fieldName=code&fieldVal=2026-2027-1', tok.leader)));
    // Positive control: the department administrator edits users.
    const ok = await j(s.get('sys/duplicate/check?tableName=sys_user&fieldName=username&fieldVal=nobody_like_this', tok.deptadmin));
    expect(ok.success).toBe(true);
  });

  it('refleshCache is an administrator’s action', async () => {
    for (const u of ['teacher', 'secretary', 'deptadmin']) expect((await j(s.get('sys/dict/refleshCache', tok[u]))).code, u).toBe(510);
    expect((await s.get(`${API}/sys/dict/refleshCache`)).statusCode).toBe(401);
    expect((await j(s.get('sys/dict/refleshCache', tok.admin))).success).toBe(true);
  });

  it('the data-source password key is not the request-signing secret', async () => {
    const { encryptSecret, decryptSecret } = await import('../../server/sys/data-source.js');
    const ctx = s.running.ctx;
    const stored = encryptSecret(ctx, 'db-pass-1');
    const other = { ...ctx, cfg: { ...ctx.cfg, signature: { enabled: true, secret: 'a-completely-different-secret' } } };
    expect(decryptSecret(other, stored)).toBe('db-pass-1');
    expect(ctx.cfg.signature.secret).toBe('');
  });
});

describe('rule 9: signing on without a secret refuses clearly', () => {
  let s2: TestServer;
  beforeAll(async () => {
    s2 = await startTestServer({ signature: { enabled: true, secret: '' } });
  });
  afterAll(() => s2?.close());
  it('a signed path is refused with a message naming the missing secret', async () => {
    const t = await s2.login('admin');
    const r = (await s2.get(`${API}/sys/dict/getDictItems/sex`, t, { 'x-sign': 'ABC', 'x-timestamp': String(Date.now()) })).json() as Env;
    refused(r);
    expect(r.message).toContain('signature.secret');
  });
});

