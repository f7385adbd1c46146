import ExcelJS from 'exceljs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { accessToken, login, openMenu, rowAction, submitLogin, confirmLoginChoices, confirmPopconfirm, fromHoverMenu } from './helpers';

/** Role data rules (list and export), the user recycle bin and a role's users, through the admin screens. */

const PASSWORD = 'Zx#82mQp!v';
const stamp = Date.now().toString(36).slice(-5);
const API = '/jeecg-boot';

interface TreeNode {
  key: string;
  title: string;
  children?: TreeNode[];
}
type Json = { success: boolean; message: string; result: any };

async function api(request: APIRequestContext, token: string, method: 'get' | 'post' | 'put' | 'delete', url: string, data?: unknown): Promise<Json> {
  const r = await request[method](`${API}/${url}`, { headers: { 'X-Access-Token': token }, data: data as object });
  return (await r.json()) as Json;
}
const findNode = (nodes: TreeNode[], title: string): TreeNode | undefined => {
  for (const n of nodes) {
    if (n.title === title) return n;
    const hit = findNode(n.children ?? [], title);
    if (hit) return hit;
  }
};


async function createUser(request: APIRequestContext, token: string, username: string, extra: Record<string, unknown> = {}) {
  const r = await api(request, token, 'post', 'sys/user/add', { username, realname: `测试${username}`, password: PASSWORD, confirmPassword: PASSWORD, ...extra });
  expect(r, r.message).toMatchObject({ success: true });
  const list = await api(request, token, 'get', `sys/user/list?username=${username}`);
  return String(list.result.records[0].id);
}

test.describe.configure({ mode: 'serial' });

test('a data rule limits a role to its own department\'s rows in list and export', async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  await login(page, 'admin');
  const admin = await accessToken(page);
  // Setup through the API: a role with 用户管理 + 导出, and a user of that role in 计算机学院.
  const roleName = `数据规则角色${stamp}`;
  expect(await api(request, admin, 'post', 'sys/role/add', { roleName, roleCode: `dr_${stamp}` })).toMatchObject({ success: true });
  const role = (await api(request, admin, 'get', `sys/role/list?roleCode=dr_${stamp}`)).result.records[0];
  const tree = (await api(request, admin, 'get', 'sys/role/queryTreeList')).result.treeList as TreeNode[];
  const sys = findNode(tree, '系统管理')!;
  const users = findNode(sys.children ?? [], '用户管理')!;
  const exp = findNode(users.children ?? [], '导出')!;
  expect(await api(request, admin, 'post', 'sys/permission/saveRolePermission', { roleId: role.id, permissionIds: [sys.key, users.key, exp.key].join(',') })).toMatchObject({ success: true });
  const departs = (await api(request, admin, 'get', 'sys/sysDepart/queryTreeList')).result as TreeNode[];
  const cs = findNode(departs, '计算机学院')! as TreeNode & { orgCode: string };
  const username = `dr${stamp}`;
  await createUser(request, admin, username, { selectedroles: role.id, selecteddeparts: cs.key });

  // Every user the rule allows (本部门及下级部门: org code starting with the user's department).
  const all = (await api(request, admin, 'get', 'sys/user/list?pageSize=1000')).result.records as Array<{ username: string; orgCode: string }>;
  const expected = all.filter((u) => String(u.orgCode ?? '').startsWith(cs.orgCode)).map((u) => u.username).sort();
  expect(expected.length).toBeGreaterThan(1);
  expect(expected.length).toBeLessThan(all.length);

  // Without a rule the role sees every user.
  const userCtx = await browser.newContext();
  const up = await userCtx.newPage();
  await up.goto('/user/login');
  await submitLogin(up, username, PASSWORD);
  await confirmLoginChoices(up);
  const before = await api(request, await accessToken(up), 'get', 'sys/user/list?pageSize=1000');
  expect(before.result.total).toBe(all.length);

  // The admin gives the role the rule 本部门及下级部门用户 on 用户管理 through 角色管理 → 数据规则.
  await openMenu(page, '系统管理', '角色管理');
  await page.locator('.ant-form-item', { hasText: '角色名称' }).first().locator('input').fill(roleName);
  await page.getByRole('button', { name: /^查\s*询$/ }).click();
  const row = page.locator('.ant-table-row', { hasText: roleName });
  await expect(row).toHaveCount(1);
  await rowAction(page, row, '数据规则');
  const panel = page.getByTestId('tree-assign');
  await panel.getByRole('combobox', { name: '菜单' }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '系统管理 / 用户管理' }).click();
  await panel.getByText(/本部门及下级部门用户/).click();
  await page.screenshot({ path: test.info().outputPath('role-data-rule.png') });
  await panel.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('数据规则保存成功！')).toBeVisible();

  // The user's list: only their department's users (a new sign-in is not needed: rules apply per request).
  await up.reload();
  await openMenu(up, '系统管理', '用户管理');
  await expect(up.locator('.ant-pagination-total-text')).toHaveText(new RegExp(`共${expected.length}条`));
  await expect(up.locator('.ant-table-row').first()).toBeVisible();
  const visible = (await api(request, await accessToken(up), 'get', 'sys/user/list?pageSize=1000')).result.records.map((u: { username: string }) => u.username).sort();
  expect(visible).toEqual(expected);

  // The export holds exactly those rows.
  const download = up.waitForEvent('download');
  await up.getByRole('button', { name: /导\s*出/ }).click();
  const file = await download;
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(await file.path());
  const ws = wb.worksheets[0]!;
  const header = (ws.getRow(1).values as unknown[]).map((v) => String(v ?? ''));
  const col = header.indexOf('登录账号');
  expect(col).toBeGreaterThan(0);
  const exported: string[] = [];
  ws.eachRow((r, i) => {
    if (i > 1) exported.push(String(r.getCell(col).value ?? ''));
  });
  expect(exported.sort()).toEqual(expected);
  await userCtx.close();
});

test('deleted users go to the recycle bin; restore lets them sign in, 彻底删除 removes them', async ({ page, request }) => {
  test.setTimeout(120_000);
  await login(page, 'admin');
  const admin = await accessToken(page);
  const keep = `rb${stamp}a`;
  const purge = `rb${stamp}b`;
  const keepId = await createUser(request, admin, keep);
  const purgeId = await createUser(request, admin, purge);
  expect(await api(request, admin, 'delete', `sys/user/deleteBatch?ids=${keepId},${purgeId}`)).toMatchObject({ success: true });
  const signIn = async (u: string) => (await (await request.post(`${API}/sys/login`, { data: { username: u, password: PASSWORD } })).json()) as Json;
  expect((await signIn(keep)).success).toBe(false);

  await openMenu(page, '系统管理', '用户管理');
  await page.getByRole('button', { name: '回收站' }).click();
  const drawer = page.locator('.ant-drawer:visible');
  await expect(drawer.locator('.ant-drawer-title')).toHaveText('用户回收站');
  await drawer.locator('.ant-form-item', { hasText: '账号' }).first().locator('input').fill(`rb${stamp}`);
  await drawer.getByRole('button', { name: /^查\s*询$/ }).click();
  await expect(drawer.locator('.ant-table-row')).toHaveCount(2);
  await page.screenshot({ path: test.info().outputPath('recycle-bin.png') });

  const keepRow = drawer.locator('.ant-table-row', { hasText: keep });
  await keepRow.getByText('还原', { exact: true }).click();
  await confirmPopconfirm(page);
  await expect(page.getByText('还原成功')).toBeVisible();
  await expect(drawer.locator('.ant-table-row')).toHaveCount(1);
  expect((await signIn(keep)).success).toBe(true);

  const purgeRow = drawer.locator('.ant-table-row', { hasText: purge });
  await purgeRow.getByText('彻底删除', { exact: true }).click();
  await confirmPopconfirm(page);
  await expect(page.getByText('彻底删除成功')).toBeVisible();
  await expect(drawer.locator('.ant-table-row')).toHaveCount(0);
  expect((await signIn(purge)).success).toBe(false);
  const bin = await api(request, admin, 'get', `sys/user/recycleBin?pageNo=1&username=${purge}`);
  expect(bin.result.total).toBe(0);
});

test('a role\'s users: add existing users through the picker, remove them singly and in batch', async ({ page, request }) => {
  test.setTimeout(120_000);
  await login(page, 'admin');
  const admin = await accessToken(page);
  const roleName = `用户角色${stamp}`;
  expect(await api(request, admin, 'post', 'sys/role/add', { roleName, roleCode: `ru_${stamp}` })).toMatchObject({ success: true });
  const roleId = (await api(request, admin, 'get', `sys/role/list?roleCode=ru_${stamp}`)).result.records[0].id as string;
  const u1 = `ru${stamp}a`;
  const u2 = `ru${stamp}b`;
  await createUser(request, admin, u1);
  await createUser(request, admin, u2);

  await openMenu(page, '系统管理', '角色管理');
  await page.locator('.ant-form-item', { hasText: '角色名称' }).first().locator('input').fill(roleName);
  await page.getByRole('button', { name: /^查\s*询$/ }).click();
  const row = page.locator('.ant-table-row', { hasText: roleName });
  await expect(row).toHaveCount(1);
  // 用户 opens the role's users in a drawer (the page schema system/RoleUserList bound to { roleId }).
  await rowAction(page, row, '用户');
  const drawer = page.locator('.ant-drawer:visible');
  await expect(drawer.locator('.ant-drawer-title')).toHaveText(`角色用户：${roleName}`);
  await expect(drawer.locator('.ant-table-row')).toHaveCount(0);

  await drawer.getByRole('button', { name: '添加已有用户' }).click();
  const picker = page.getByRole('dialog', { name: '选择用户' });
  await picker.getByPlaceholder(/用户账号/).fill(`ru${stamp}`);
  await picker.getByPlaceholder(/用户账号/).press('Enter');
  await expect(picker.locator('.ant-table-row')).toHaveCount(2);
  for (const u of [u1, u2]) await picker.locator('.ant-table-row', { hasText: u }).locator('.ant-checkbox-input').check();
  await picker.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(drawer.locator('.ant-table-row')).toHaveCount(2);
  await page.screenshot({ path: test.info().outputPath('role-users.png') });
  expect((await api(request, admin, 'get', `sys/user/userRoleList?roleId=${roleId}`)).result.total).toBe(2);

  // Search, then 取消关联 one; then the batch removal of the rest.
  await drawer.getByPlaceholder('用户账号').fill(u1);
  await drawer.getByPlaceholder('用户账号').press('Enter');
  await expect(drawer.locator('.ant-table-row')).toHaveCount(1);
  await drawer.locator('.ant-table-row', { hasText: u1 }).getByText('取消关联').click();
  await confirmPopconfirm(page);
  await expect(drawer.locator('.ant-table-row')).toHaveCount(0);
  await drawer.getByPlaceholder('用户账号').fill('');
  await drawer.getByPlaceholder('用户账号').press('Enter');
  await expect(drawer.locator('.ant-table-row')).toHaveCount(1);
  await drawer.locator('.ant-table-row', { hasText: u2 }).locator('.ant-checkbox-input').check();
  await fromHoverMenu(page, drawer.getByRole('button', { name: /批量操作/ }), '取消关联');
  await page.getByRole('dialog').getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(drawer.locator('.ant-table-row')).toHaveCount(0);
  expect((await api(request, admin, 'get', `sys/user/userRoleList?roleId=${roleId}`)).result.total).toBe(0);
});

test('a department\'s panel: permissions saved, users added and removed', async ({ page, request }) => {
  test.setTimeout(120_000);
  await login(page, 'admin');
  const admin = await accessToken(page);
  const u = `dp${stamp}`;
  const uid = await createUser(request, admin, u);
  await openMenu(page, '系统管理', '部门管理');
  await page.locator('.ant-table-row', { hasText: '某某大学' }).first().locator('.ant-table-row-expand-icon').click();
  const row = page.locator('.ant-table-row', { hasText: '计算机学院' }).first();
  await expect(row).toBeVisible();
  await rowAction(page, row, '部门设置');
  const drawer = page.locator('.ant-drawer:visible');
  await expect(drawer.getByText('计算机学院', { exact: true })).toBeVisible();

  await drawer.getByRole('tab', { name: '部门权限' }).click();
  // 部门权限 is the tabs page's inline tree assignment (system/DepartPanel).
  const perm = drawer.getByTestId('tree-assign');
  await perm.locator('.ant-tree-treenode', { hasText: /^首页$/ }).locator('.ant-tree-checkbox').click();
  await perm.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('保存成功！')).toBeVisible();
  const departId = (await api(request, admin, 'get', 'sys/sysDepart/searchBy?keyWord=计算机学院')).result[0].id as string;
  expect((await api(request, admin, 'get', `sys/permission/queryDepartPermission?departId=${departId}`)).result).toHaveLength(1);

  await drawer.getByRole('tab', { name: '部门用户' }).click();
  await drawer.getByRole('button', { name: '添加已有用户' }).click();
  const picker = page.getByRole('dialog', { name: '选择用户' });
  await picker.getByPlaceholder(/用户账号/).fill(u);
  await picker.getByPlaceholder(/用户账号/).press('Enter');
  await expect(picker.locator('.ant-table-row')).toHaveCount(1);
  await picker.locator('.ant-table-row', { hasText: u }).locator('.ant-checkbox-input').check();
  await picker.getByRole('button', { name: /确\s*定|OK/ }).click();
  await drawer.getByPlaceholder('用户账号').fill(u);
  await drawer.getByPlaceholder('用户账号').press('Enter');
  await expect(drawer.locator('.ant-table-row', { hasText: u })).toHaveCount(1);
  const members = async () => (await api(request, admin, 'get', `sys/user/departUserList?depId=${departId}&username=${u}`)).result.records.map((r: { id: string }) => r.id);
  expect(await members()).toEqual([uid]);
  await drawer.locator('.ant-table-row', { hasText: u }).getByText('取消关联').click();
  await confirmPopconfirm(page);
  await expect(drawer.locator('.ant-table-row', { hasText: u })).toHaveCount(0);
  expect(await members()).toEqual([]);
});

test('a department role: created, granted a menu within the department\'s permissions, assigned; its user sees the menu', async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  await login(page, 'admin');
  const admin = await accessToken(page);
  const departId = (await api(request, admin, 'get', 'sys/sysDepart/searchBy?keyWord=计算机学院')).result[0].id as string;
  // Setup through the API: 计算机学院 may give 系统管理 / 职务管理; a new user of the department.
  const tree = (await api(request, admin, 'get', 'sys/permission/queryTreeList')).result.treeList as TreeNode[];
  const sys = findNode(tree, '系统管理')!;
  const pos = findNode(sys.children ?? [], '职务管理')!;
  expect(await api(request, admin, 'post', 'sys/permission/saveDepartPermission', { departId, permissionIds: `${sys.key},${pos.key}` })).toMatchObject({ success: true });
  const u = `drole${stamp}`;
  await createUser(request, admin, u, { selecteddeparts: departId });
  const roleName = `课程组${stamp}`;

  await openMenu(page, '系统管理', '部门管理');
  await page.locator('.ant-table-row', { hasText: '某某大学' }).first().locator('.ant-table-row-expand-icon').click();
  const row = page.locator('.ant-table-row', { hasText: '计算机学院' }).first();
  await rowAction(page, row, '部门设置');
  const drawer = page.locator('.ant-drawer:visible').first();
  await drawer.getByRole('tab', { name: '部门角色' }).click();
  // The tab is the page schema system/DepartRoleList bound to the department.
  const roles = drawer.locator('.ant-tabs-tabpane-active');
  await roles.getByRole('button', { name: /新\s*增/ }).click();
  const form = page.getByRole('dialog', { name: '新增' });
  await form.getByLabel('部门角色名称').fill(roleName);
  await form.getByLabel('部门角色编码').fill(`cg_${stamp}`);
  await page.screenshot({ path: test.info().outputPath('depart-role-form.png') });
  await form.getByRole('button', { name: /确\s*定|OK/ }).click();
  const roleRow = roles.locator('.ant-table-row', { hasText: roleName });
  await expect(roleRow).toHaveCount(1);
  await page.screenshot({ path: test.info().outputPath('depart-roles.png') });

  // 授权: only the department's permissions are offered.
  await rowAction(page, roleRow, '授权');
  const assign = page.getByTestId('tree-assign');
  await expect(assign.locator('.ant-tree-title')).toHaveText(['系统管理', '职务管理']);
  await page.screenshot({ path: test.info().outputPath('depart-role-grant.png') });
  await assign.locator('.ant-tree-treenode', { hasText: '职务管理' }).locator('.ant-tree-checkbox').click();
  await assign.getByRole('button', { name: '保存并关闭' }).click();
  await expect(page.getByText('保存成功！').first()).toBeVisible();
  await expect(assign).toHaveCount(0);

  // 分配部门角色 to the user on 部门用户.
  await drawer.getByRole('tab', { name: '部门用户' }).click();
  await drawer.getByPlaceholder('用户账号').fill(u);
  await drawer.getByPlaceholder('用户账号').press('Enter');
  const userRow = drawer.locator('.ant-table-row', { hasText: u });
  await expect(userRow).toHaveCount(1);
  await rowAction(page, userRow, '分配部门角色');
  const dlg = page.getByRole('dialog', { name: /分配部门角色/ });
  const box = dlg.getByLabel(roleName);
  // A click during the dialog's opening animation can be lost on a loaded machine: click until checked.
  await expect(async () => {
    if (!(await box.isChecked())) await box.click();
    await expect(box).toBeChecked({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await page.screenshot({ path: test.info().outputPath('depart-role-assign.png') });
  await dlg.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(dlg).toHaveCount(0);

  // The user signs in and sees 职务管理.
  const userCtx = await browser.newContext();
  const up = await userCtx.newPage();
  await login(up, u, { password: PASSWORD });
  await openMenu(up, '系统管理', '职务管理');
  await expect(up.locator('.ant-table').first()).toBeVisible();
  await userCtx.close();
});

test('a department role\'s data rule, ticked on 部门角色 → 数据规则, limits its user to the department\'s rows', async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  await login(page, 'admin');
  const admin = await accessToken(page);
  const cs = (await api(request, admin, 'get', 'sys/sysDepart/searchBy?keyWord=计算机学院')).result[0] as { id: string; orgCode: string };
  // Setup through the API (the screens for it are walked above): 计算机学院 may give 系统管理 / 用户管理;
  // a department role with it; a new user of the department holding the role.
  const tree = (await api(request, admin, 'get', 'sys/permission/queryTreeList')).result.treeList as TreeNode[];
  const sys = findNode(tree, '系统管理')!;
  const users = findNode(sys.children ?? [], '用户管理')!;
  expect(await api(request, admin, 'post', 'sys/permission/saveDepartPermission', { departId: cs.id, permissionIds: `${sys.key},${users.key}` })).toMatchObject({ success: true });
  const roleName = `用户查看${stamp}`;
  expect(await api(request, admin, 'post', 'sys/sysDepartRole/add', { departId: cs.id, roleName, roleCode: `uv_${stamp}` })).toMatchObject({ success: true });
  const role = (await api(request, admin, 'get', `sys/sysDepartRole/list?deptId=${cs.id}&roleName=${encodeURIComponent(roleName)}`)).result.records[0];
  expect(await api(request, admin, 'post', 'sys/sysDepartPermission/saveDeptRolePermission', { roleId: role.id, permissionIds: `${sys.key},${users.key}` })).toMatchObject({ success: true });
  const u = `druv${stamp}`;
  const uid = await createUser(request, admin, u, { selecteddeparts: cs.id });
  expect(await api(request, admin, 'post', 'sys/sysDepartRole/deptRoleUserAdd', { userId: uid, newRoleId: role.id })).toMatchObject({ success: true });
  const all = (await api(request, admin, 'get', 'sys/user/list?pageSize=1000')).result.records as Array<{ orgCode: string }>;
  const expected = all.filter((x) => String(x.orgCode ?? '').startsWith(cs.orgCode)).length;
  expect(expected).toBeLessThan(all.length);

  // 部门管理 → 部门设置 → 部门角色 → 数据规则: 本部门及下级部门用户 on 系统管理 / 用户管理.
  await openMenu(page, '系统管理', '部门管理');
  await page.locator('.ant-table-row', { hasText: '某某大学' }).first().locator('.ant-table-row-expand-icon').click();
  await rowAction(page, page.locator('.ant-table-row', { hasText: '计算机学院' }).first(), '部门设置');
  const drawer = page.locator('.ant-drawer:visible').first();
  await drawer.getByRole('tab', { name: '部门角色' }).click();
  const roleRow = drawer.locator('.ant-tabs-tabpane-active .ant-table-row', { hasText: roleName });
  await expect(roleRow).toBeVisible();
  await rowAction(page, roleRow, '数据规则');
  const panel = page.getByTestId('tree-assign');
  await panel.getByRole('combobox', { name: '菜单' }).click();
  // Only the department's menus with rules are offered.
  await expect(page.locator('.ant-select-dropdown:visible .ant-select-item-option')).toHaveText(['系统管理 / 用户管理']);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').click();
  await panel.getByText(/本部门及下级部门用户/).click();
  await page.screenshot({ path: test.info().outputPath('depart-role-data-rule.png') });
  await panel.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('数据规则保存成功！')).toBeVisible();

  // The user sees only the department's users.
  const userCtx = await browser.newContext();
  const up = await userCtx.newPage();
  await login(up, u, { password: PASSWORD });
  await openMenu(up, '系统管理', '用户管理');
  await expect(up.locator('.ant-pagination-total-text')).toHaveText(new RegExp(`共${expected}条`));
  await userCtx.close();
});
