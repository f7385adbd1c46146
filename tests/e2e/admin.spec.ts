import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { accessToken, login, openMenu, rowAction, submitLogin, confirmPopconfirm } from './helpers';

/** System administration screens: create a teacher, sign in as them, grant a menu through 授权. */

const PASSWORD = 'Zx#82mQp!v';
const stamp = Date.now().toString(36).slice(-6);
const USERNAME = `t_${stamp}`;
const REALNAME = `测试教师${stamp}`;
const ROLE_CODE = `r_${stamp}`;
const ROLE_NAME = `测试角色${stamp}`;

interface MenuNode {
  meta?: { title?: string };
  name?: string;
  path?: string;
  children?: MenuNode[];
}
const paths = (nodes: MenuNode[]): string[] => nodes.flatMap((n) => [String(n.path), ...paths(n.children ?? [])]).sort();

async function menuPaths(request: APIRequestContext, token: string): Promise<string[]> {
  const r = await request.get('/jeecg-boot/sys/permission/getUserPermissionByToken', { headers: { 'X-Access-Token': token } });
  const body = (await r.json()) as { success: boolean; result: { menu: MenuNode[] } };
  expect(body.success).toBe(true);
  return paths(body.result.menu);
}

const item = (page: Page, label: string) => page.locator('.ant-drawer:visible .ant-formily-item').filter({ hasText: label });

test.describe.configure({ mode: 'serial' });

test('admin creates a teacher in 计算机学院 who then sees exactly the teacher menus', async ({ page, browser }) => {
  await login(page, 'admin');
  await openMenu(page, '系统管理', '用户管理');
  await expect(page.locator('.ant-card-head-title', { hasText: '用户管理' })).toBeVisible();
  await expect(page.locator('.ant-table-row').first()).toBeVisible();

  await page.getByRole('button', { name: /新\s*增/ }).click();
  const drawer = page.locator('.ant-drawer:visible');
  await item(page, '用户账号').locator('input').fill(USERNAME);
  await item(page, '用户姓名').locator('input').fill(REALNAME);
  // A weak password first: the server's policy message shows and nothing is saved.
  await item(page, '登录密码').locator('input').fill('123456');
  await item(page, '确认密码').locator('input').fill('123456');
  await item(page, '角色分配').locator('.ant-select').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^教师$/ }).click();
  await page.keyboard.press('Escape');
  await item(page, '所属部门').getByRole('button', { name: '选择' }).click();
  const picker = page.getByRole('dialog', { name: '选择部门' });
  await picker.locator('.ant-tree-node-content-wrapper', { hasText: /^计算机学院$/ }).click();
  await picker.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(item(page, '所属部门').locator('input')).toHaveValue('计算机学院');
  await page.screenshot({ path: test.info().outputPath('admin-user-form.png') });
  await drawer.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('密码长度需要在8-32位，数字、小写字母、大写字母、特殊字符，至少包含三种')).toBeVisible();

  await item(page, '登录密码').locator('input').fill(PASSWORD);
  await item(page, '确认密码').locator('input').fill(PASSWORD);
  await drawer.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.locator('.ant-drawer:visible')).toHaveCount(0);

  await page.locator('.ant-form-item', { hasText: '账号' }).first().locator('input').fill(USERNAME);
  await page.getByRole('button', { name: /^查\s*询$/ }).click();
  const row = page.locator('.ant-table-row', { hasText: USERNAME });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(REALNAME);
  await expect(row).toContainText('计算机学院');
  await page.screenshot({ path: test.info().outputPath('admin-user-list.png') });

  // The new user signs in (own browser context) and gets the same menus as the demo teacher.
  const ctxNew = await browser.newContext();
  const p2 = await ctxNew.newPage();
  await login(p2, USERNAME, { password: PASSWORD });
  const mine = await menuPaths(p2.request, await accessToken(p2));
  const ctxT = await browser.newContext();
  const p3 = await ctxT.newPage();
  await login(p3, 'teacher');
  const teachers = await menuPaths(p3.request, await accessToken(p3));
  expect(mine.length).toBeGreaterThan(0);
  expect(mine).toEqual(teachers);
  await expect(p2.locator('.layout-sider')).not.toContainText('系统管理');
  await p2.screenshot({ path: test.info().outputPath('admin-new-teacher.png') });
  await ctxNew.close();
  await ctxT.close();
});

test('a role granted one more menu through 授权 shows it to its user after signing in again', async ({ page, browser }) => {
  await login(page, 'admin');
  await openMenu(page, '系统管理', '角色管理');
  await page.getByRole('button', { name: /新\s*增/ }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('角色名称').fill(ROLE_NAME);
  await dialog.getByLabel('角色编码').fill(ROLE_CODE);
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.locator('.ant-form-item', { hasText: '角色名称' }).first().locator('input').fill(ROLE_NAME);
  await page.getByRole('button', { name: /^查\s*询$/ }).click();
  const row = page.locator('.ant-table-row', { hasText: ROLE_CODE });
  await expect(row).toHaveCount(1);
  await row.getByText('授权', { exact: true }).click();
  const tree = page.getByTestId('tree-assign');
  await expect(tree).toBeVisible();
  await tree.locator('.ant-tree-treenode', { hasText: /^职务管理$/ }).locator('.ant-tree-checkbox').first().click();
  await page.screenshot({ path: test.info().outputPath('admin-authorize.png') });
  await tree.getByRole('button', { name: '保存并关闭' }).click();
  await expect(page.getByText('保存成功！')).toBeVisible();

  // Give the role to the teacher created above (edit: the form preloads the current roles and departments).
  await openMenu(page, '系统管理', '用户管理');
  await page.locator('.ant-form-item', { hasText: '账号' }).first().locator('input').fill(USERNAME);
  await page.getByRole('button', { name: /^查\s*询$/ }).click();
  const urow = page.locator('.ant-table-row', { hasText: USERNAME });
  await expect(urow).toHaveCount(1);
  await urow.getByText('编辑', { exact: true }).click();
  await expect(item(page, '角色分配')).toContainText('教师');
  await expect(item(page, '所属部门').locator('input')).toHaveValue('计算机学院');
  await item(page, '角色分配').locator('.ant-select').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: ROLE_NAME }).click();
  await page.keyboard.press('Escape');
  await page.locator('.ant-drawer:visible').getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.locator('.ant-drawer:visible')).toHaveCount(0);

  const ctx = await browser.newContext();
  const p2 = await ctx.newPage();
  await login(p2, USERNAME, { password: PASSWORD });
  await openMenu(p2, '系统管理', '职务管理');
  await expect(p2.locator('.ant-card-head-title', { hasText: '职务管理' })).toBeVisible();
  await p2.screenshot({ path: test.info().outputPath('admin-granted-menu.png') });
  await ctx.close();
});

test('departments refuse deleting one with children; the menu tree edits the menu fields', async ({ page }) => {
  await login(page, 'admin');
  await openMenu(page, '系统管理', '部门管理');
  const root = page.locator('.ant-table-row').first();
  await expect(root).toBeVisible();
  await root.getByText('删除', { exact: true }).click();
  await confirmPopconfirm(page);
  await expect(page.getByText(/下还有子部门，不能删除/)).toBeVisible();
  await expect(root).toBeVisible();

  // 添加下级 prefills the parent; the new leaf can be deleted.
  const child = `测试科室${stamp}`;
  await root.getByText('添加下级', { exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator('.ant-formily-item', { hasText: '上级部门' }).locator('input')).not.toHaveValue('');
  await dialog.getByLabel('机构名称').fill(child);
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText('添加成功！')).toBeVisible();
  const added = page.locator('.ant-table-row', { hasText: child });
  // The reloaded tree starts collapsed: expand the root until the new child shows.
  await expect(async () => {
    const collapsed = root.locator('.ant-table-row-expand-icon-collapsed');
    if (await collapsed.count()) await collapsed.click();
    await expect(added).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await page.screenshot({ path: test.info().outputPath('admin-depart.png') });
  await added.getByText('删除', { exact: true }).click();
  await confirmPopconfirm(page);
  await expect(page.getByText('删除部门成功')).toBeVisible();
  await expect(added).toHaveCount(0);

  await openMenu(page, '系统管理', '菜单管理');
  const row = page.locator('.ant-table-row', { hasText: '系统管理' }).first();
  await expect(row).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('admin-permission-list.png') });
  await row.getByText('编辑', { exact: true }).click();
  await expect(page.locator('.ant-drawer:visible').getByRole('textbox', { name: '名称', exact: true })).toHaveValue('系统管理');
  await expect(item(page, '菜单类型').getByRole('radio', { name: '一级菜单' })).toBeChecked();
  for (const label of ['菜单类型', '访问路径', '前端组件', '菜单图标', '排序', '隐藏路由', '是否缓存路由', '聚合路由', '打开方式']) await expect(item(page, label).first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('admin-permission-edit.png') });
  await page.locator('.ant-drawer:visible').getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('编辑成功!')).toBeVisible();
  await expect(page.locator('.ant-drawer:visible')).toHaveCount(0);
});

test('admin freezes, unfreezes and resets the password of the new user', async ({ page, browser }) => {
  await login(page, 'admin');
  await openMenu(page, '系统管理', '用户管理');
  await page.locator('.ant-form-item', { hasText: '账号' }).first().locator('input').fill(USERNAME);
  await page.getByRole('button', { name: /^查\s*询$/ }).click();
  const row = page.locator('.ant-table-row', { hasText: USERNAME });
  await expect(row).toHaveCount(1);
  const more = (label: string) => rowAction(page, row, label);

  await more('冻结');
  await confirmPopconfirm(page);
  await expect(row).toContainText('冻结');
  const ctx = await browser.newContext();
  const p2 = await ctx.newPage();
  await p2.goto('/user/login');
  await submitLogin(p2, USERNAME, PASSWORD);
  await expect(p2.locator('.ant-message-notice, .ant-alert-error').first()).toBeVisible();
  await expect(p2.locator('.basic-layout')).toHaveCount(0);

  await more('解冻');
  await confirmPopconfirm(page);
  await expect(row).toContainText('正常');

  const NEW_PASSWORD = 'Kv@73nRq#w';
  // 密码 is a `form` action: the account shown, both passwords required, the confirmation must match.
  await more('密码');
  const dlg = page.getByRole('dialog', { name: '修改密码' });
  await expect(dlg.getByLabel('用户账号')).toHaveValue(USERNAME);
  await expect(dlg.getByLabel('用户账号')).toBeDisabled();
  await dlg.getByRole('button', { name: /确\s*定/ }).click();
  await expect(dlg.getByText('请输入登录密码', { exact: true })).toBeVisible();
  await expect(dlg.getByText('请重新输入登录密码', { exact: true })).toBeVisible();
  await dlg.getByLabel('登录密码').fill(NEW_PASSWORD);
  await dlg.getByLabel('确认密码').fill(`${NEW_PASSWORD}x`);
  await dlg.getByRole('button', { name: /确\s*定/ }).click();
  await expect(dlg.getByText('两次输入的密码不一样！')).toBeVisible();
  await dlg.getByLabel('确认密码').fill(NEW_PASSWORD);
  await dlg.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('密码修改成功！')).toBeVisible();
  await login(p2, USERNAME, { password: NEW_PASSWORD });
  await ctx.close();
});
