import { beforeAll, describe, expect, it } from 'vitest';
import { fileTestServer } from '../helpers/server.js';
import { departId, userId } from '../../server/seed/data/org.js';

const s = fileTestServer(['admin']);
const j = async (p: Promise<{ json(): any }>) => (await p).json();
const CS = departId('A01A04'); // 计算机学院: the demo teacher's department
const MATH = departId('A01A05');

const permId = async (url: string) => String((await s.running.ctx.db.selectFrom('sys_permission').select('id').where('url', '=', url).where('menu_type', '<>', 2).executeTakeFirstOrThrow()).id);
const roleIdOf = async (dep: string, code: string) =>
  String((await s.running.ctx.db.selectFrom('sys_depart_role').select('id').where('depart_id', '=', dep).where('role_code', '=', code).executeTakeFirstOrThrow()).id);
const menuPaths = (menu: Array<{ path: string; children?: unknown[] }>): string[] => menu.flatMap((m) => [m.path, ...menuPaths((m.children ?? []) as typeof menu)]);

let position: string; // 系统管理 / 职务管理 (code system:position:list)
let system: string; // its parent 系统管理
let tenant: string; // 系统管理 / 租户管理: never given to the department

beforeAll(async () => {
  [position, system, tenant] = [await permId('/isystem/position'), await permId('/isystem'), await permId('/isystem/tenant')];
  // The department's own permissions: the cap of its roles.
  expect(await j(s.post('sys/permission/saveDepartPermission', { departId: CS, permissionIds: `${system},${position}` }, s.tok.admin))).toMatchObject({ success: true });
});

describe('department roles', () => {
  it('add, list with search, edit, queryById, unique code per department, delete', async () => {
    expect(await j(s.post('sys/sysDepartRole/add', { departId: CS, roleName: '课程组长', roleCode: 'course_lead', description: '负责课程组' }, s.tok.admin))).toMatchObject({ success: true });
    expect(await j(s.post('sys/sysDepartRole/add', { departId: CS, roleName: '教务员', roleCode: 'cs_clerk' }, s.tok.admin))).toMatchObject({ success: true });
    // The same code in another department is fine; twice in one department is not.
    expect(await j(s.post('sys/sysDepartRole/add', { departId: MATH, roleName: '课程组长', roleCode: 'course_lead' }, s.tok.admin))).toMatchObject({ success: true });
    expect(await j(s.post('sys/sysDepartRole/add', { departId: CS, roleName: '重复', roleCode: 'course_lead' }, s.tok.admin))).toMatchObject({
      success: false, message: '部门角色编码“course_lead”在本部门已存在，不能重复',
    });
    expect(await j(s.post('sys/sysDepartRole/add', { departId: 'nope', roleName: 'x', roleCode: 'xx' }, s.tok.admin))).toMatchObject({ success: false, message: '部门不存在' });
    expect(await j(s.post('sys/sysDepartRole/add', { departId: CS, roleName: 'x', roleCode: '1bad' }, s.tok.admin))).toMatchObject({ success: false });

    const list = await j(s.get(`sys/sysDepartRole/list?deptId=${CS}&pageNo=1&pageSize=10`, s.tok.admin));
    expect(list.result.total).toBe(2);
    expect(list.result.records.map((r: { roleCode: string }) => r.roleCode).sort()).toEqual(['course_lead', 'cs_clerk']);
    expect(list.result.records[0]).toMatchObject({ departId: CS, createBy: 'admin' });
    const found = await j(s.get(`sys/sysDepartRole/list?deptId=${CS}&roleName=*教务*`, s.tok.admin));
    expect(found.result.records.map((r: { roleName: string }) => r.roleName)).toEqual(['教务员']);
    expect((await j(s.get('sys/sysDepartRole/list', s.tok.admin))).result.total).toBe(0);

    const clerk = await roleIdOf(CS, 'cs_clerk');
    expect(await j(s.put('sys/sysDepartRole/edit', { id: clerk, roleName: '教务秘书', roleCode: 'course_lead' }, s.tok.admin))).toMatchObject({ success: false, message: expect.stringContaining('已存在') });
    expect(await j(s.put('sys/sysDepartRole/edit', { id: clerk, departId: MATH }, s.tok.admin))).toMatchObject({ success: false, message: '不支持修改部门角色所属的部门' });
    expect(await j(s.put('sys/sysDepartRole/edit', { id: clerk, roleName: '教务秘书' }, s.tok.admin))).toMatchObject({ success: true });
    expect((await j(s.get(`sys/sysDepartRole/queryById?id=${clerk}`, s.tok.admin))).result).toMatchObject({ roleName: '教务秘书', roleCode: 'cs_clerk', updateBy: 'admin' });

    expect(await j(s.del(`sys/sysDepartRole/delete?id=${clerk}`, s.tok.admin))).toMatchObject({ success: true });
    expect((await j(s.get(`sys/sysDepartRole/list?deptId=${CS}`, s.tok.admin))).result.total).toBe(1);
  });

  it('the authorisation tree is capped by the department; granting outside it is refused', async () => {
    const lead = await roleIdOf(CS, 'course_lead');
    const t = await j(s.get(`sys/sysDepartPermission/queryTreeListForDeptRole?departId=${CS}`, s.tok.admin));
    expect(t.result.ids.sort()).toEqual([system, position].sort());
    expect(t.result.treeList).toHaveLength(1);
    expect(t.result.treeList[0]).toMatchObject({ key: system, children: [{ key: position, title: '职务管理' }] });
    expect((await j(s.get(`sys/sysDepartPermission/queryTreeListForDeptRole?departId=${MATH}`, s.tok.admin))).result).toEqual({ treeList: [], ids: [] });

    const refused = await j(s.post('sys/sysDepartPermission/saveDeptRolePermission', { roleId: lead, permissionIds: `${system},${tenant}`, lastpermissionIds: '' }, s.tok.admin));
    expect(refused).toMatchObject({ success: false, message: '部分权限不在本部门的部门权限范围内，未保存；请先在“部门权限”中授予本部门' });
    // The department comes from the role: naming another department in the body changes nothing.
    const mathLead = await roleIdOf(MATH, 'course_lead');
    expect(await j(s.post('sys/sysDepartPermission/saveDeptRolePermission', { roleId: mathLead, departId: CS, permissionIds: position }, s.tok.admin))).toMatchObject({ success: false });
    expect((await j(s.get(`sys/sysDepartPermission/queryDeptRolePermission?roleId=${lead}`, s.tok.admin))).result).toEqual([]);
    expect(await j(s.post('sys/sysDepartPermission/saveDeptRolePermission', { roleId: 'nope', permissionIds: position }, s.tok.admin))).toMatchObject({ success: false, message: '部门角色不存在' });
  });

  it('a teacher given a department role gets its menu and may call its routes; changes revoke sessions', async () => {
    const lead = await roleIdOf(CS, 'course_lead');
    const teacher = userId('teacher');
    let tok = await s.login('teacher');
    expect(await j(s.get('sys/position/list', tok))).toMatchObject({ success: false, code: 510 });

    expect(await j(s.post('sys/sysDepartPermission/saveDeptRolePermission', { roleId: lead, permissionIds: `${system},${position}`, lastpermissionIds: '' }, s.tok.admin))).toMatchObject({ success: true });
    expect((await j(s.get(`sys/sysDepartPermission/queryDeptRolePermission?roleId=${lead}`, s.tok.admin))).result.sort()).toEqual([system, position].sort());

    // Only a member of the department may hold its roles.
    expect(await j(s.post('sys/sysDepartRole/deptRoleUserAdd', { userId: userId('supervisor'), newRoleId: lead, oldRoleId: '' }, s.tok.admin))).toMatchObject({
      success: false, message: '该用户不属于此部门，不能分配此部门的角色',
    });
    expect((await j(s.get(`sys/sysDepartRole/getDeptRoleList?departId=${CS}&userId=${teacher}`, s.tok.admin))).result.map((r: { id: string }) => r.id)).toEqual([lead]);
    expect(await j(s.post('sys/sysDepartRole/deptRoleUserAdd', { userId: teacher, newRoleId: lead, oldRoleId: '' }, s.tok.admin))).toMatchObject({ success: true });
    expect((await j(s.get(`sys/sysDepartRole/getDeptRoleByUserId?departId=${CS}&userId=${teacher}`, s.tok.admin))).result).toMatchObject([{ userId: teacher, droleId: lead }]);

    // The old session is gone at once; after signing in again the menu and the route are there.
    expect((await s.get('sys/position/list', tok)).statusCode).toBe(401);
    tok = await s.login('teacher');
    const perms = await j(s.get('sys/permission/getUserPermissionByToken', tok));
    expect(menuPaths(perms.result.menu)).toContain('/isystem/position');
    expect(menuPaths(perms.result.menu)).not.toContain('/isystem/tenant');
    expect(await j(s.get('sys/position/list', tok))).toMatchObject({ success: true });
    expect(await j(s.get('sys/tenant/list', tok))).toMatchObject({ success: false, code: 510 });

    // Shrinking the department's permissions takes the role's grant away (capped and pruned), sessions revoked.
    expect(await j(s.post('sys/permission/saveDepartPermission', { departId: CS, permissionIds: system }, s.tok.admin))).toMatchObject({ success: true });
    expect((await s.get('sys/position/list', tok)).statusCode).toBe(401);
    tok = await s.login('teacher');
    expect(await j(s.get('sys/position/list', tok))).toMatchObject({ success: false, code: 510 });
    expect((await j(s.get(`sys/sysDepartPermission/queryDeptRolePermission?roleId=${lead}`, s.tok.admin))).result).toEqual([system]);

    // Granted again, then the role taken from the user: gone at once.
    expect(await j(s.post('sys/permission/saveDepartPermission', { departId: CS, permissionIds: `${system},${position}` }, s.tok.admin))).toMatchObject({ success: true });
    expect(await j(s.post('sys/sysDepartPermission/saveDeptRolePermission', { roleId: lead, permissionIds: `${system},${position}` }, s.tok.admin))).toMatchObject({ success: true });
    tok = await s.login('teacher');
    expect(await j(s.get('sys/position/list', tok))).toMatchObject({ success: true });
    expect(await j(s.post('sys/sysDepartRole/deptRoleUserAdd', { userId: teacher, newRoleId: '', oldRoleId: lead, departId: CS }, s.tok.admin))).toMatchObject({ success: true });
    expect((await s.get('sys/position/list', tok)).statusCode).toBe(401);
    tok = await s.login('teacher');
    expect(await j(s.get('sys/position/list', tok))).toMatchObject({ success: false, code: 510 });
    expect((await j(s.get(`sys/sysDepartRole/getDeptRoleByUserId?departId=${CS}&userId=${teacher}`, s.tok.admin))).result).toEqual([]);

    // Deleting a held role revokes its holders too.
    expect(await j(s.post('sys/sysDepartRole/deptRoleUserAdd', { userId: teacher, newRoleId: lead }, s.tok.admin))).toMatchObject({ success: true });
    tok = await s.login('teacher');
    expect(await j(s.get('sys/position/list', tok))).toMatchObject({ success: true });
    expect(await j(s.del(`sys/sysDepartRole/deleteBatch?ids=${lead}`, s.tok.admin))).toMatchObject({ success: true });
    expect((await s.get('sys/position/list', tok)).statusCode).toBe(401);
    expect(await s.running.ctx.db.selectFrom('sys_depart_role_user').select('id').where('drole_id', '=', lead).executeTakeFirst()).toBeUndefined();
    expect(await s.running.ctx.db.selectFrom('sys_depart_role_permission').select('id').where('role_id', '=', lead).executeTakeFirst()).toBeUndefined();
  });

  it('data rules on a department role\'s grant narrow its users\' rows', async () => {
    const users = await permId('/isystem/user');
    expect(await j(s.post('sys/permission/saveDepartPermission', { departId: CS, permissionIds: `${system},${position},${users}` }, s.tok.admin))).toMatchObject({ success: true });
    expect(await j(s.post('sys/sysDepartRole/add', { departId: CS, roleName: '用户查看', roleCode: 'user_viewer' }, s.tok.admin))).toMatchObject({ success: true });
    const viewer = await roleIdOf(CS, 'user_viewer');
    expect(await j(s.post('sys/sysDepartPermission/saveDeptRolePermission', { roleId: viewer, permissionIds: `${system},${users}` }, s.tok.admin))).toMatchObject({ success: true });
    const teacher = userId('teacher');
    expect(await j(s.post('sys/sysDepartRole/deptRoleUserAdd', { userId: teacher, newRoleId: viewer }, s.tok.admin))).toMatchObject({ success: true });
    const all = (await j(s.get('sys/user/list?pageSize=1000', s.tok.admin))).result.records as Array<{ username: string; orgCode: string }>;
    let tok = await s.login('teacher');
    expect((await j(s.get('sys/user/list?pageSize=1000', tok))).result.total).toBe(all.length);

    // The rule 本部门及下级部门用户 of 用户管理, ticked on the department role's grant.
    const rules = (await j(s.get(`sys/permission/getPermRuleListByPermId?permissionId=${users}`, s.tok.admin))).result as Array<{ id: string; ruleName: string }>;
    const own = rules.find((r) => r.ruleName === '本部门及下级部门用户')!;
    const before = await j(s.get(`sys/sysDepartPermission/datarule/${users}/${CS}/${viewer}`, s.tok.admin));
    expect(before.result.datarule.map((r: { id: string }) => r.id)).toContain(own.id);
    expect(before.result.drChecked).toBe('');
    expect(await j(s.get(`sys/sysDepartPermission/datarule/${users}/${MATH}/${viewer}`, s.tok.admin))).toMatchObject({ success: false, message: '该部门角色不属于此部门' });
    const otherRule = (await s.running.ctx.db.selectFrom('sys_permission_data_rule').select('id').where('permission_id', '<>', users).executeTakeFirst())?.id;
    if (otherRule) expect(await j(s.post('sys/sysDepartPermission/datarule', { roleId: viewer, permissionId: users, dataRuleIds: otherRule }, s.tok.admin))).toMatchObject({ success: false, message: '数据规则不属于该菜单' });
    expect(await j(s.post('sys/sysDepartPermission/datarule', { roleId: viewer, permissionId: tenant, dataRuleIds: '' }, s.tok.admin))).toMatchObject({ success: false, message: '请先授权该菜单，再保存数据规则' });
    expect(await j(s.post('sys/sysDepartPermission/datarule', { roleId: viewer, departId: CS, permissionId: users, dataRuleIds: own.id }, s.tok.admin))).toMatchObject({ success: true, message: '数据规则保存成功！' });
    expect((await j(s.get(`sys/sysDepartPermission/datarule/${users}/${CS}/${viewer}`, s.tok.admin))).result.drChecked).toBe(own.id);

    // Rules apply per request: the same session now sees only 计算机学院's users.
    const csCode = String((await s.running.ctx.db.selectFrom('sys_depart').select('org_code').where('id', '=', CS).executeTakeFirstOrThrow()).org_code);
    const expected = all.filter((u) => String(u.orgCode ?? '').startsWith(csCode)).map((u) => u.username).sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length);
    const seen = (await j(s.get('sys/user/list?pageSize=1000', tok))).result.records.map((u: { username: string }) => u.username).sort();
    expect(seen).toEqual(expected);

    // Untick: every user again; the role taken away: the route is refused.
    expect(await j(s.post('sys/sysDepartPermission/datarule', { roleId: viewer, permissionId: users, dataRuleIds: '' }, s.tok.admin))).toMatchObject({ success: true });
    expect((await j(s.get('sys/user/list?pageSize=1000', tok))).result.total).toBe(all.length);
    expect(await j(s.del(`sys/sysDepartRole/delete?id=${viewer}`, s.tok.admin))).toMatchObject({ success: true });
    tok = await s.login('teacher');
    expect(await j(s.get('sys/user/list', tok))).toMatchObject({ success: false, code: 510 });
  });

  it('refuses a non-administrator (510) on every department-role route', async () => {
    const t = await s.login('teacher');
    const calls = [
      s.get(`sys/sysDepartRole/list?deptId=${CS}`, t),
      s.get('sys/sysDepartRole/queryById?id=x', t),
      s.post('sys/sysDepartRole/add', { departId: CS, roleName: 'x', roleCode: 'xx' }, t),
      s.put('sys/sysDepartRole/edit', { id: 'x', roleName: 'y' }, t),
      s.del('sys/sysDepartRole/delete?id=x', t),
      s.del('sys/sysDepartRole/deleteBatch?ids=x', t),
      s.get(`sys/sysDepartRole/getDeptRoleList?departId=${CS}&userId=x`, t),
      s.get(`sys/sysDepartRole/getDeptRoleByUserId?departId=${CS}&userId=x`, t),
      s.post('sys/sysDepartRole/deptRoleUserAdd', { userId: 'x', newRoleId: 'y' }, t),
      s.get(`sys/sysDepartPermission/queryTreeListForDeptRole?departId=${CS}`, t),
      s.get('sys/sysDepartPermission/queryDeptRolePermission?roleId=x', t),
      s.post('sys/sysDepartPermission/saveDeptRolePermission', { roleId: 'x', permissionIds: 'y' }, t),
      s.get(`sys/sysDepartPermission/datarule/x/${CS}/y`, t),
      s.post('sys/sysDepartPermission/datarule', { roleId: 'x', permissionId: 'y', dataRuleIds: '' }, t),
    ];
    for (const r of calls) expect(await j(r)).toMatchObject({ success: false, code: 510 });
    expect(await s.running.ctx.db.selectFrom('sys_depart_role').select('id').where('role_code', '=', 'xx').executeTakeFirst()).toBeUndefined();
  });

  it('leaving the department drops its roles; a department is deleted with its roles', async () => {
    expect(await j(s.post('sys/sysDepartRole/add', { departId: CS, roleName: '临时', roleCode: 'tmp_role' }, s.tok.admin))).toMatchObject({ success: true });
    const tmp = await roleIdOf(CS, 'tmp_role');
    const t2 = userId('teacher2');
    expect(await j(s.post('sys/sysDepartRole/deptRoleUserAdd', { userId: t2, newRoleId: tmp }, s.tok.admin))).toMatchObject({ success: true });
    expect(await j(s.del(`sys/user/deleteUserInDepart?depId=${CS}&userId=${t2}`, s.tok.admin))).toMatchObject({ success: true });
    expect(await s.running.ctx.db.selectFrom('sys_depart_role_user').select('id').where('user_id', '=', t2).executeTakeFirst()).toBeUndefined();

    const add = await j(s.post('sys/sysDepart/add', { departName: '临时部门', parentId: CS }, s.tok.admin));
    expect(add.success).toBe(true);
    expect(await j(s.post('sys/sysDepartRole/add', { departId: add.result.id, roleName: '临时', roleCode: 'tmp_role' }, s.tok.admin))).toMatchObject({ success: true });
    expect(await j(s.del(`sys/sysDepart/delete?id=${add.result.id}`, s.tok.admin))).toMatchObject({ success: true });
    expect(await s.running.ctx.db.selectFrom('sys_depart_role').select('id').where('depart_id', '=', add.result.id).executeTakeFirst()).toBeUndefined();
  });
});
