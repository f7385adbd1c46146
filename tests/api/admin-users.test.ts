import { beforeAll, describe, expect, it } from 'vitest';
import { API, fileTestServer } from '../helpers/server.js';
import { departId } from '../../server/seed/data/org.js';

const s = fileTestServer(['admin']);
const j = async (p: Promise<{ json(): any }>) => (await p).json();
const PW = 'Good#Pw9x';

beforeAll(async () => {
  for (const u of ['binuser1', 'binuser2', 'binuser3'])
    expect(await j(s.post('sys/user/add', { username: u, realname: `回收${u.slice(-1)}`, password: PW, confirmPassword: PW, selecteddeparts: departId('A01A02') }, s.tok.admin))).toMatchObject({ success: true });
});

const idOf = async (username: string) => String((await s.running.ctx.db.selectFrom('sys_user').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id);
const signIn = async (username: string) => (await s.post(`${API}/sys/login`, { username, password: PW })).json();

describe('user recycle bin', () => {
  it('deleted users go to the bin, cannot sign in, are restored and sign in again', async () => {
    const [a, b, c] = [await idOf('binuser1'), await idOf('binuser2'), await idOf('binuser3')];
    expect(await j(s.del(`sys/user/deleteBatch?ids=${a},${b},${c}`, s.tok.admin))).toMatchObject({ success: true });
    expect((await signIn('binuser1')).success).toBe(false);
    const paged = await j(s.get('sys/user/recycleBin?pageNo=1&pageSize=2&username=*binuser*', s.tok.admin));
    expect(paged.result).toMatchObject({ total: 3, current: 1 });
    expect(paged.result.records).toHaveLength(2);
    expect(paged.result.records[0]).not.toHaveProperty('password');
    expect(paged.result.records[0]).toMatchObject({ updateBy: 'admin', updateTime: expect.stringMatching(/^\d{4}-/) });
    const one = await j(s.get('sys/user/recycleBin?pageNo=1&realname=回收2', s.tok.admin));
    expect(one.result.records.map((u: { username: string }) => u.username)).toEqual(['binuser2']);
    // Batch restore through `ids` (the list screen's batch action) and sign in again.
    expect(await j(s.put('sys/user/putRecycleBin', { ids: `${a},${b}` }, s.tok.admin))).toMatchObject({ success: true, message: '还原成功' });
    expect((await signIn('binuser1')).success).toBe(true);
    expect((await j(s.get('sys/user/list?username=binuser2', s.tok.admin))).result.total).toBe(1);
    // 彻底删除: gone for good, relations too; a live user is never touched by it.
    expect(await j(s.del(`sys/user/deleteRecycleBin?ids=${c},${a}`, s.tok.admin))).toMatchObject({ success: true });
    expect(await s.running.ctx.db.selectFrom('sys_user').select('id').where('id', '=', c).executeTakeFirst()).toBeUndefined();
    expect(await s.running.ctx.db.selectFrom('sys_user_depart').select('id').where('user_id', '=', c).executeTakeFirst()).toBeUndefined();
    expect(await s.running.ctx.db.selectFrom('sys_user').select('id').where('id', '=', a).executeTakeFirst()).toBeDefined();
    expect((await signIn('binuser3')).success).toBe(false);
  });

  it('refuses a non-administrator', async () => {
    const t = await s.login('teacher');
    for (const r of [s.get('sys/user/recycleBin?pageNo=1', t), s.put('sys/user/putRecycleBin', { ids: 'x' }, t), s.del('sys/user/deleteRecycleBin?ids=x', t)])
      expect(await j(r)).toMatchObject({ success: false, code: 510 });
  });
});

describe('department users', () => {
  it('lists, adds and removes users of a department; the current department follows', async () => {
    const dep = departId('A01A03');
    const uid = await idOf('binuser2');
    const before = await j(s.get(`sys/user/departUserList?depId=${dep}&pageNo=1&pageSize=500`, s.tok.admin));
    expect(before.success).toBe(true);
    expect(before.result.records.map((u: { id: string }) => u.id)).not.toContain(uid);
    expect(await j(s.post('sys/user/editSysDepartWithUser', { depId: dep, userIdList: [uid] }, s.tok.admin))).toMatchObject({ success: true });
    const after = await j(s.get(`sys/user/departUserList?depId=${dep}&username=binuser2`, s.tok.admin));
    expect(after.result.records.map((u: { id: string }) => u.id)).toEqual([uid]);
    expect(after.result.records[0]).not.toHaveProperty('password');
    expect(await j(s.post('sys/user/editSysDepartWithUser', { depId: dep, userIdList: ['nope'] }, s.tok.admin))).toMatchObject({ success: false, message: '部分用户不存在，未做任何修改' });
    // Removing the user's current department makes the remaining one current.
    await s.running.ctx.db.updateTable('sys_user').set({ org_code: 'A01A03' }).where('id', '=', uid).execute();
    expect(await j(s.del(`sys/user/deleteUserInDepartBatch?depId=${dep}&userIds=${uid}`, s.tok.admin))).toMatchObject({ success: true });
    expect((await j(s.get(`sys/user/departUserList?depId=${dep}&username=binuser2`, s.tok.admin))).result.total).toBe(0);
    const u = await s.running.ctx.db.selectFrom('sys_user').select('org_code').where('id', '=', uid).executeTakeFirstOrThrow();
    expect(u.org_code).toBe('A01A02');
    const t = await s.login('teacher');
    expect(await j(s.post('sys/user/editSysDepartWithUser', { depId: dep, userIdList: [uid] }, t))).toMatchObject({ success: false, code: 510 });
    expect(await j(s.get(`sys/user/departUserList?depId=${dep}`, t))).toMatchObject({ success: false, code: 510 });
  });

  it('department permissions are saved and read back', async () => {
    const dep = departId('A01A03');
    const perms = await s.running.ctx.db.selectFrom('sys_permission').select('id').where('perms', 'in', ['system:user:list', 'system:role:list']).execute();
    const ids = perms.map((p) => String(p.id)).sort();
    expect(await j(s.post('sys/permission/saveDepartPermission', { departId: dep, permissionIds: ids.join(',') }, s.tok.admin))).toMatchObject({ success: true });
    expect((await j(s.get(`sys/permission/queryDepartPermission?departId=${dep}`, s.tok.admin))).result.sort()).toEqual(ids);
    expect(await j(s.post('sys/permission/saveDepartPermission', { departId: dep, permissionIds: ids[0] }, s.tok.admin))).toMatchObject({ success: true });
    expect((await j(s.get(`sys/permission/queryDepartPermission?departId=${dep}`, s.tok.admin))).result).toEqual([ids[0]]);
  });
});
