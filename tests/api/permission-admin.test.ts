import { describe, expect, it } from 'vitest';
import { API, DEMO_PASSWORD, fileTestServer } from '../helpers/server.js';
import { PASSWORD_MESSAGES } from '../../shared/password-policy.js';
import { departId, roleId } from '../../server/seed/data/org.js';

const s = fileTestServer(['admin']);

const j = async (p: Promise<{ json(): any }>) => (await p).json();
const alive = async (t: string) => (await s.get('sys/user/getCurrentUserDeparts', t)).statusCode;

describe('system administration refuses non-administrators', () => {
  const calls: Array<[string, string, unknown?]> = [
    ['POST', 'sys/user/add', { username: 'x1234', realname: 'x', password: 'Good#Pw9x' }],
    ['PUT', 'sys/user/edit', { id: 'x' }],
    ['DELETE', 'sys/user/delete?id=x'],
    ['PUT', 'sys/user/frozenBatch', { ids: 'x', status: 2 }],
    ['GET', 'sys/user/checkOnlyUser?username=admin'],
    ['GET', 'sys/user/queryUserRole?userid=x'],
    ['GET', 'sys/user/recycleBin'],
    ['GET', 'sys/user/list'],
    ['POST', 'sys/role/add', { roleName: 'x', roleCode: 'xx' }],
    ['GET', 'sys/role/queryTreeList'],
    ['GET', 'sys/permission/queryRolePermission?roleId=x'],
    ['POST', 'sys/permission/saveRolePermission', { roleId: 'x', permissionIds: '' }],
    ['GET', 'sys/user/userRoleList?roleId=x'],
    ['POST', 'sys/sysDepart/add', { departName: 'x' }],
    ['DELETE', 'sys/sysDepart/delete?id=x'],
    ['GET', 'sys/permission/list'],
    ['GET', 'sys/permission/getSystemMenuList'],
    ['POST', 'sys/permission/add', { name: 'x', menuType: 0 }],
    ['DELETE', 'sys/permission/delete?id=x'],
    ['GET', 'sys/permission/getPermRuleListByPermId?permissionId=x'],
    ['GET', 'sys/permission/queryDepartPermission?departId=x'],
  ];
  it.each(calls)('%s %s → 510 for a teacher', async (method, url, body) => {
    const t = await s.login('teacher');
    const r = await s.call({ method: method as 'GET', url, token: t, payload: body as object });
    expect(r.json()).toMatchObject({ success: false, code: 510 });
  });

  it('a department administrator sees and edits only users of their department, and cannot hand out admin roles', async () => {
    const t = await s.login('deptadmin');
    const list = await j(s.get('sys/user/list?pageSize=500', t));
    expect(list.success).toBe(true);
    expect(list.result.total).toBeGreaterThan(5);
    expect(list.result.records.every((u: { orgCode: string }) => u.orgCode.startsWith('A01A04'))).toBe(true);
    const all = await j(s.get('sys/user/list?pageSize=500', s.tok.admin));
    const outsider = all.result.records.find((u: { orgCode: string }) => u.orgCode === 'A01A06');
    expect(await j(s.put('sys/user/edit', { id: outsider.id, realname: '改名' }, t))).toMatchObject({ success: false, message: '未找到对应数据' });
    const mine = list.result.records.find((u: { username: string }) => u.username === 'teacher');
    expect(await j(s.put('sys/user/edit', { id: mine.id, selectedroles: `${roleId('teacher')},${roleId('admin')}` }, t))).toMatchObject({
      success: false,
      message: '无权分配或移除角色“系统管理员”：该角色含有您没有的管理权限',
    });
    // A role without administrative codes may be given.
    expect(await j(s.put('sys/user/edit', { id: mine.id, selectedroles: `${roleId('teacher')},${roleId('leader')}` }, t))).toMatchObject({ success: true });
    expect(await j(s.put('sys/user/edit', { id: mine.id, selectedroles: roleId('teacher') }, t))).toMatchObject({ success: true });
  });

  it('a department administrator may manage users but not roles or menus', async () => {
    const t = await s.login('deptadmin');
    expect((await j(s.get('sys/user/list', t))).success).toBe(true);
    expect((await j(s.post('sys/role/add', { roleName: 'x', roleCode: 'xx' }, t))).code).toBe(510);
    expect((await j(s.get('sys/permission/list', t))).code).toBe(510);
  });
});

describe('users', () => {
  const base = { username: 'newteacher', realname: '新老师', selectedroles: roleId('teacher'), selecteddeparts: departId('A01A05'), phone: '13700000001' };

  it('refuses weak passwords with the policy message, and a bad username', async () => {
    expect(await j(s.post('sys/user/add', { ...base, password: '12345678' }, s.tok.admin))).toMatchObject({ success: false, message: PASSWORD_MESSAGES.strength });
    expect(await j(s.post('sys/user/add', { ...base, password: 'Newteacher#9' }, s.tok.admin))).toMatchObject({ success: false, message: PASSWORD_MESSAGES.username });
    expect(await j(s.post('sys/user/add', { ...base, password: 'Good#Pw9x', confirmPassword: 'Good#Pw9y' }, s.tok.admin))).toMatchObject({ success: false, message: '两次输入的密码不一样！' });
    const bad = await j(s.post('sys/user/add', { ...base, username: 'a b', password: 'Good#Pw9x' }, s.tok.admin));
    expect(bad.success).toBe(false);
    expect(bad.message).toContain('只允许字母、数字、下划线');
  });

  it('adds a user with roles and departments; the user signs in; duplicates are refused', async () => {
    expect(await j(s.post('sys/user/add', { ...base, password: 'Good#Pw9x' }, s.tok.admin))).toMatchObject({ success: true });
    const dup = await j(s.post('sys/user/add', { ...base, phone: '13700000002', password: 'Good#Pw9x' }, s.tok.admin));
    expect(dup.success).toBe(false);
    expect(dup.message).toContain('newteacher');
    expect(dup.message).toContain('已存在');
    const only = await j(s.get('sys/user/checkOnlyUser?username=newteacher', s.tok.admin));
    expect(only).toMatchObject({ success: false, message: '该值不可用，系统中已存在！' });
    expect((await j(s.get('sys/user/checkOnlyUser?username=freshname', s.tok.admin))).success).toBe(true);

    const login = await j(s.post(`${API}/sys/login`, { username: 'newteacher', password: 'Good#Pw9x' }));
    expect(login.code).toBe(200);
    expect(login.result.userInfo).toMatchObject({ orgCode: 'A01A05', orgCodeTxt: '数学与统计学院' });
    const list = await j(s.get(`sys/user/list?departId=${departId('A01A05')}&pageSize=200`, s.tok.admin));
    const row = list.result.records.find((r: { username: string }) => r.username === 'newteacher');
    expect(row).toMatchObject({ realname: '新老师', orgCodeTxt: '数学与统计学院' });
    expect(row).not.toHaveProperty('password');
    expect(list.result.records.every((r: { orgCodeTxt: string }) => r.orgCodeTxt.includes('数学与统计学院'))).toBe(true);
    const roles = await j(s.get(`sys/user/queryUserRole?userid=${row.id}`, s.tok.admin));
    expect(roles.result).toEqual([roleId('teacher')]);
  });

  it('a role change through edit revokes the user\'s sessions', async () => {
    const t = await s.login('newteacher', 'Good#Pw9x');
    const id = (await j(s.get('sys/user/list?username=newteacher', s.tok.admin))).result.records[0].id;
    expect(await j(s.put('sys/user/edit', { id, realname: '新老师2' }, s.tok.admin))).toMatchObject({ success: true });
    expect(await alive(t)).toBe(200); // no role change, still signed in
    expect(await j(s.put('sys/user/edit', { id, selectedroles: `${roleId('teacher')},${roleId('secretary')}` }, s.tok.admin))).toMatchObject({ success: true });
    expect(await alive(t)).toBe(401);
    const t2 = await s.login('newteacher', 'Good#Pw9x');
    const auth = (await j(s.get('sys/permission/getUserPermissionByToken', t2))).result.auth.map((a: { action: string }) => a.action);
    expect(auth).toContain('supervisor:lectureRecord:return');
  });

  it('freezing revokes at once; the frozen user cannot sign in; unfreezing restores', async () => {
    const t = await s.login('newteacher', 'Good#Pw9x');
    const id = (await j(s.get('sys/user/list?username=newteacher', s.tok.admin))).result.records[0].id;
    expect(await j(s.put('sys/user/frozenBatch', { ids: id, status: 2 }, s.tok.admin))).toMatchObject({ success: true });
    expect(await alive(t)).toBe(401);
    expect(await j(s.post(`${API}/sys/login`, { username: 'newteacher', password: 'Good#Pw9x' }))).toMatchObject({ success: false, message: '该用户已冻结' });
    expect(await j(s.put('sys/user/frozenBatch', { ids: id, status: 1 }, s.tok.admin))).toMatchObject({ success: true });
    await s.login('newteacher', 'Good#Pw9x');
    const adminId = (await j(s.get('sys/user/list?username=admin', s.tok.admin))).result.records[0].id;
    expect(await j(s.put('sys/user/frozenBatch', { ids: adminId, status: 2 }, s.tok.admin))).toMatchObject({ success: false });
  });

  it('delete → recycle bin → restore; deleting oneself is refused', async () => {
    const id = (await j(s.get('sys/user/list?username=newteacher', s.tok.admin))).result.records[0].id;
    const t = await s.login('newteacher', 'Good#Pw9x');
    expect(await j(s.del(`sys/user/delete?id=${id}`, s.tok.admin))).toMatchObject({ success: true });
    expect(await alive(t)).toBe(401);
    expect((await j(s.get('sys/user/list?username=newteacher', s.tok.admin))).result.total).toBe(0);
    const bin = await j(s.get('sys/user/recycleBin', s.tok.admin));
    expect(bin.result.map((u: { username: string }) => u.username)).toContain('newteacher');
    expect(await j(s.put('sys/user/putRecycleBin', { userIds: id }, s.tok.admin))).toMatchObject({ success: true });
    expect((await j(s.get('sys/user/list?username=newteacher', s.tok.admin))).result.total).toBe(1);
    const adminId = (await j(s.get('sys/user/list?username=admin', s.tok.admin))).result.records[0].id;
    expect(await j(s.del(`sys/user/delete?id=${adminId}`, s.tok.admin))).toMatchObject({ success: false, message: '不能删除当前登录用户' });
  });

  it('pickers give safe fields to any signed-in user', async () => {
    const t = await s.login('teacher');
    const byDep = await j(s.get(`sys/user/queryUserByDepId?id=${departId('A01A04')}`, t));
    expect(byDep.success).toBe(true);
    expect(byDep.result.map((u: { username: string }) => u.username)).toContain('leader');
    expect(byDep.result[0]).not.toHaveProperty('phone');
    const multi = await j(s.get('sys/user/getMultiUser?username=leader,teacher', t));
    expect(multi.result.map((u: { realname: string }) => u.realname).sort()).toEqual(['李明华', '王磊'].sort());
    const comp = await j(s.get(`sys/user/queryUserComponentDataWithRole?roleId=${roleId('supervisor')}&pageSize=5&column=password`, t));
    expect(comp.result.total).toBeGreaterThanOrEqual(5);
    expect(comp.result.records).toHaveLength(5);
  });
});

describe('roles', () => {
  it('adds a role, refuses a duplicate code, grants permissions and revokes holders', async () => {
    expect(await j(s.post('sys/role/add', { roleName: '听课员', roleCode: 'observer' }, s.tok.admin))).toMatchObject({ success: true });
    const dup = await j(s.post('sys/role/add', { roleName: '听课员2', roleCode: 'observer' }, s.tok.admin));
    expect(dup.success).toBe(false);
    expect(dup.message).toContain('已存在');
    const all = await j(s.get('sys/role/queryall', s.tok.admin));
    const observer = all.result.find((r: { roleCode: string }) => r.roleCode === 'observer');
    const tree = await j(s.get('sys/role/queryTreeList', s.tok.admin));
    expect(tree.result.ids.length).toBeGreaterThan(100);
    expect(tree.result.treeList[0]).toMatchObject({ key: expect.any(String), title: '首页' });
    const perm = await s.running.ctx.db.selectFrom('sys_permission').select('id').where('perms', '=', 'system:position:list').executeTakeFirstOrThrow();

    const tid = (await j(s.get('sys/user/list?username=teacher', s.tok.admin))).result.records[0].id;
    expect(await j(s.post('sys/user/addSysUserRole', { roleId: observer.id, userIdList: [tid] }, s.tok.admin))).toMatchObject({ success: true });
    const t = await s.login('teacher');
    expect((await j(s.get('sys/user/userRoleList?roleId=' + observer.id, s.tok.admin))).result.total).toBe(1);
    expect(await j(s.post('sys/permission/saveRolePermission', { roleId: observer.id, permissionIds: String(perm.id), lastpermissionIds: '' }, s.tok.admin))).toMatchObject({ success: true });
    expect(await alive(t)).toBe(401);
    expect((await j(s.get(`sys/permission/queryRolePermission?roleId=${observer.id}`, s.tok.admin))).result).toEqual([perm.id]);
    const t2 = await s.login('teacher');
    const menu = (await j(s.get('sys/permission/getUserPermissionByToken', t2))).result.menu;
    expect(JSON.stringify(menu)).toContain('/isystem/position');
    expect(await j(s.del(`sys/user/deleteUserRole?roleId=${observer.id}&userId=${tid}`, s.tok.admin))).toMatchObject({ success: true });
    expect(await alive(t2)).toBe(401);
    expect(await j(s.del(`sys/role/delete?id=${observer.id}`, s.tok.admin))).toMatchObject({ success: true });
    expect(await j(s.del(`sys/role/delete?id=${roleId('admin')}`, s.tok.admin))).toMatchObject({ success: false, message: '不允许删除系统管理员角色' });
  });
});

describe('departments', () => {
  it('tree shapes for pickers', async () => {
    const t = await s.login('teacher');
    const tree = await j(s.get('sys/sysDepart/queryTreeList', t));
    expect(tree.result).toHaveLength(1);
    expect(tree.result[0]).toMatchObject({ departName: '某某大学', orgCode: 'A01', key: departId('A01'), value: departId('A01'), title: '某某大学', isLeaf: false });
    const leaf = tree.result[0].children.find((c: { orgCode: string }) => c.orgCode === 'A01A02');
    expect(leaf).toMatchObject({ isLeaf: true, children: null });
    const lazy = await j(s.get(`sys/sysDepart/queryDepartTreeSync?pid=${departId('A01A04')}`, t));
    expect(lazy.result.map((d: { orgCode: string }) => d.orgCode)).toEqual(['A01A04A01', 'A01A04A02']);
    const none = await j(s.get('sys/sysDepart/searchBy?keyWord=不存在的部门', t));
    expect(none).toMatchObject({ success: false, message: '未查询匹配数据！' });
    expect((await j(s.get('sys/sysDepart/searchBy?keyWord=计算机', t))).result.map((d: { departName: string }) => d.departName).sort()).toEqual(['计算机学院', '计算机科学教研室'].sort());
    const my = await j(s.get('sys/sysDepart/queryMyDeptTreeList', await s.login('leader')));
    expect(my.result).toHaveLength(1);
    expect(my.result[0].orgCode).toBe('A01A04');
    expect(my.result[0].children).toHaveLength(2);
  });

  it('adds with the next hierarchical code; refuses deleting one with children or users, with the reason', async () => {
    const a = await j(s.post('sys/sysDepart/add', { departName: '人工智能教研室', parentId: departId('A01A04'), departType: '1' }, s.tok.admin));
    expect(a).toMatchObject({ success: true, result: { orgCode: 'A01A04A03' } });
    const b = await j(s.post('sys/sysDepart/add', { departName: '智能系统组', parentId: a.result.id }, s.tok.admin));
    expect(b.result.orgCode).toBe('A01A04A03A01');
    expect(await j(s.del(`sys/sysDepart/delete?id=${a.result.id}`, s.tok.admin))).toMatchObject({ success: false, message: '部门“人工智能教研室”下还有子部门，不能删除' });
    const withUsers = await j(s.del(`sys/sysDepart/delete?id=${departId('A01A04A01')}`, s.tok.admin));
    expect(withUsers.success).toBe(false);
    expect(withUsers.message).toMatch(/^部门“软件工程教研室”下还有\d+名用户，请先调整用户的部门后再删除$/);
    expect(await j(s.del(`sys/sysDepart/deleteBatch?ids=${b.result.id},${a.result.id}`, s.tok.admin))).toMatchObject({ success: true });
    expect(await j(s.put('sys/sysDepart/edit', { id: departId('A01A06'), departName: '' }, s.tok.admin))).toMatchObject({ success: false });
    expect(await j(s.put('sys/sysDepart/edit', { id: departId('A01A06'), memo: '外语' }, s.tok.admin))).toMatchObject({ success: true });
  });

  it('department permissions are saved and read back', async () => {
    const p = await s.running.ctx.db.selectFrom('sys_permission').select('id').where('url', '=', '/supervisor/term').executeTakeFirstOrThrow();
    expect(await j(s.post('sys/permission/saveDepartPermission', { departId: departId('A01A04'), permissionIds: `${p.id},` }, s.tok.admin))).toMatchObject({ success: true });
    expect((await j(s.get(`sys/permission/queryDepartPermission?departId=${departId('A01A04')}`, s.tok.admin))).result).toEqual([p.id]);
  });
});

describe('permissions', () => {
  it('adds a menu and a button, lists them, edits and deletes them with their grants', async () => {
    const sys = (await j(s.get('sys/permission/getSystemMenuList', s.tok.admin))).result;
    expect(sys[0]).toMatchObject({ name: '首页', hasChildren: false });
    const isystem = sys.find((m: { url: string }) => m.url === '/isystem');
    expect(isystem.hasChildren).toBe(true);
    const subs = (await j(s.get(`sys/permission/getSystemSubmenu?parentId=${isystem.id}`, s.tok.admin))).result;
    expect(subs.map((m: { url: string }) => m.url)).toContain('/isystem/user');
    const batch = (await j(s.get(`sys/permission/getSystemSubmenuBatch?parentIds=${isystem.id}`, s.tok.admin))).result;
    expect(batch[isystem.id].length).toBe(subs.length);

    expect(await j(s.post('sys/permission/add', { name: '测试菜单', menuType: 1, url: '/isystem/probe', component: 'system/ProbeList', parentId: isystem.id }, s.tok.admin))).toMatchObject({ success: true });
    const probe = await s.running.ctx.db.selectFrom('sys_permission').select('id').where('url', '=', '/isystem/probe').executeTakeFirstOrThrow();
    expect(await j(s.post('sys/permission/add', { name: '探测', menuType: 2, parentId: probe.id }, s.tok.admin))).toMatchObject({ success: false, message: '按钮必须填写授权标识' });
    expect(await j(s.post('sys/permission/add', { name: '探测', menuType: 2, parentId: probe.id, perms: 'system:probe;drop' }, s.tok.admin))).toMatchObject({ success: false });
    expect(await j(s.post('sys/permission/add', { name: '探测', menuType: 2, parentId: probe.id, perms: 'system:probe:run' }, s.tok.admin))).toMatchObject({ success: true });
    expect(await j(s.put('sys/permission/edit', { id: probe.id, name: '测试菜单2' }, s.tok.admin))).toMatchObject({ success: true });
    expect(await j(s.put('sys/permission/edit', { id: isystem.id, parentId: probe.id }, s.tok.admin))).toMatchObject({ success: false, message: '上级菜单不能是自己或自己的下级菜单' });
    const list = (await j(s.get('sys/permission/list', s.tok.admin))).result;
    const found = JSON.stringify(list);
    expect(found).toContain('测试菜单2');
    expect(found).toContain('system:probe:run');

    // Data rules: listed, filtered, SQL rules refused.
    expect(await j(s.post('sys/permission/addPermissionRule', { permissionId: probe.id, ruleName: '本部门', ruleColumn: 'orgCode', ruleConditions: 'RIGHT_LIKE', ruleValue: '#{sys_org_code}' }, s.tok.admin))).toMatchObject({ success: true });
    expect(await j(s.post('sys/permission/addPermissionRule', { permissionId: probe.id, ruleName: 'x', ruleConditions: 'USE_SQL_RULES', ruleValue: '1=1' }, s.tok.admin))).toMatchObject({ success: false, message: '不支持自定义SQL规则' });
    const rules = (await j(s.get(`sys/permission/getPermRuleListByPermId?permissionId=${probe.id}`, s.tok.admin))).result;
    expect(rules).toHaveLength(1);
    expect((await j(s.get(`sys/permission/queryPermissionRule?permissionId=${probe.id}&ruleName=不存在`, s.tok.admin))).result).toHaveLength(0);

    expect(await j(s.post('sys/permission/saveRolePermission', { roleId: roleId('teacher'), permissionIds: (await j(s.get(`sys/permission/queryRolePermission?roleId=${roleId('teacher')}`, s.tok.admin))).result.concat(probe.id).join(',') }, s.tok.admin))).toMatchObject({ success: true });
    expect(await j(s.post('sys/role/datarule', { permissionId: probe.id, roleId: roleId('teacher'), dataRuleIds: rules[0].id }, s.tok.admin))).toMatchObject({ success: true });
    const dr = await j(s.get(`sys/role/datarule/${probe.id}/${roleId('teacher')}`, s.tok.admin));
    expect(dr.result.drChecked).toBe(rules[0].id);

    const t = await s.login('teacher');
    expect(await j(s.del(`sys/permission/delete?id=${probe.id}`, s.tok.admin))).toMatchObject({ success: true });
    expect(await alive(t)).toBe(401);
    const left = await s.running.ctx.db.selectFrom('sys_permission').select('id').where('perms', '=', 'system:probe:run').execute();
    expect(left).toHaveLength(0);
    expect(await s.login('teacher', DEMO_PASSWORD)).toBeTruthy();
  });
});
