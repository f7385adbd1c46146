import { describe, expect, it } from 'vitest';
import { API, fileTestServer } from '../helpers/server.js';

const s = fileTestServer(['teacher']);
const j = async (p: Promise<{ json(): any }>) => (await p).json();

const row = (username: string) => s.running.ctx.db.selectFrom('sys_user').selectAll().where('username', '=', username).executeTakeFirstOrThrow();

describe('account centre and settings (own profile only)', () => {
  it('shows the signed-in user with departments, roles and recent activity', async () => {
    const r = await j(s.get('sys/user/login/setting/getUserData', s.tok.teacher));
    expect(r.success).toBe(true);
    expect(r.result.userInfo).toMatchObject({ username: 'teacher', realname: '王磊' });
    expect(r.result.userInfo).not.toHaveProperty('password');
    expect(r.result.roles.map((x: { roleCode: string }) => x.roleCode)).toContain('teacher');
    expect(r.result.departs.length).toBeGreaterThan(0);
    expect(r.result.notify).toEqual({ system: true, todo: true, message: true });
    expect(Array.isArray(r.result.records)).toBe(true);
    expect((await s.get('sys/user/login/setting/getUserData')).json().code).toBe(401);
  });

  it('edits only the allowed fields of the own user; mass assignment is ignored', async () => {
    const before = await row('teacher');
    const other = await row('leader');
    const r = await j(
      s.put(
        'sys/user/login/setting/userEdit',
        {
          id: other.id, username: 'hacker', realname: '王磊二', email: 'wl@example.edu.cn', phone: '13900001111', sex: 2, birthday: '1985-03-04',
          status: 2, delFlag: 1, orgCode: 'A01', selectedroles: 'admin', selecteddeparts: 'x', workNo: 'X1', password: 'Weak', relTenantIds: '1,2',
        },
        s.tok.teacher,
      ),
    );
    expect(r).toMatchObject({ success: true, message: '保存成功！' });
    expect(r.result).toMatchObject({ username: 'teacher', realname: '王磊二' });
    const after = await row('teacher');
    expect(after).toMatchObject({ username: 'teacher', realname: '王磊二', email: 'wl@example.edu.cn', phone: '13900001111', sex: 2, status: before.status, del_flag: before.del_flag, org_code: before.org_code, work_no: before.work_no, password: before.password, rel_tenant_ids: before.rel_tenant_ids });
    expect(String(after.birthday)).toContain('1985-03-04');
    expect(await row('leader')).toMatchObject({ realname: other.realname, username: 'leader' });
    const roles = await s.running.ctx.db.selectFrom('sys_user_role as ur').innerJoin('sys_role as r', 'r.id', 'ur.role_id').select('r.role_code').where('ur.user_id', '=', before.id).execute();
    expect(roles.map((x) => x.role_code)).not.toContain('admin');
    // The session still works (no revocation for a profile edit) and the header data follows.
    expect((await j(s.get('sys/user/getUserInfo', s.tok.teacher))).result.userInfo.realname).toBe('王磊二');
  });

  it('refuses bad input with a Chinese message and changes nothing', async () => {
    const before = await row('teacher');
    const bad = await j(s.put('sys/user/login/setting/userEdit', { email: 'not-an-email', realname: '新名字' }, s.tok.teacher));
    expect(bad.success).toBe(false);
    expect(bad.message).toMatch(/邮箱/);
    const empty = await j(s.put('sys/user/login/setting/userEdit', { realname: '  ' }, s.tok.teacher));
    expect(empty).toMatchObject({ success: false, message: '真实姓名不能为空' });
    const none = await j(s.put('sys/user/login/setting/userEdit', { username: 'x' }, s.tok.teacher));
    expect(none).toMatchObject({ success: false, message: '没有需要保存的内容' });
    expect((await row('teacher')).realname).toBe(before.realname);
  });

  it('saves the notification switches on the own profile', async () => {
    const r = await j(s.put('sys/user/login/setting/notify', { system: false, message: true, other: 'x' }, s.tok.teacher));
    expect(r).toMatchObject({ success: true, result: { system: false, todo: true, message: true } });
    expect((await j(s.get('sys/user/login/setting/getUserData', s.tok.teacher))).result.notify).toEqual({ system: false, todo: true, message: true });
    const bad = await j(s.put('sys/user/login/setting/notify', { todo: 'yes' }, s.tok.teacher));
    expect(bad).toMatchObject({ success: false, message: '通知设置只能是开启或关闭' });
    const leader = await s.login('leader');
    expect((await j(s.get('sys/user/login/setting/getUserData', leader))).result.notify).toEqual({ system: true, todo: true, message: true });
  });

  it('a renamed user signs in as before', async () => {
    const r = await j(s.post(`${API}/sys/login`, { username: 'teacher', password: 'Observe#2026' }));
    expect(r.result.userInfo.realname).toBe('王磊二');
  });
});
