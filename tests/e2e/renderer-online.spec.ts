import { expect, test, type Page } from '@playwright/test';
import { rowAction, confirmPopconfirm } from './helpers';

/**
 * An online form (cgform) defined through the API and opened from a menu entry is drawn by the
 * same list renderer: columns/query/form from getColumns + getQueryInfo, data from getData, form
 * CRUD on /online/cgform/api/form/{code}.
 */
const API = `http://127.0.0.1:${process.env.E2E_PORT ?? 18080}/jeecg-boot`;

async function call<T = any>(method: string, url: string, token?: string, body?: unknown): Promise<{ success: boolean; message: string; result: T }> {
  const r = await fetch(`${API}${url}`, {
    method,
    headers: { ...(token ? { 'x-access-token': token } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await r.json()) as never;
}
const signInApi = async () => (await call<{ token: string }>('POST', '/sys/login', undefined, { username: 'admin', password: 'Observe#2026' })).result.token;

async function signIn(page: Page) {
  await page.goto('/user/login');
  await page.getByPlaceholder('请输入账户名').fill('admin');
  await page.getByPlaceholder('请输入密码').fill('Observe#2026');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/dashboard/, { timeout: 30_000 });
}

test('an online form is rendered by the schema renderer', async ({ page }) => {
  test.setTimeout(120_000);
  const token = await signInApi();
  const code = `ol_visit_${Date.now() % 100000}`;
  const added = await call('POST', '/online/cgform/api/addAll', token, {
    head: { tableName: code, tableTxt: '来访登记', tableType: 1, isPage: 'Y', isCheckbox: 'Y' },
    fields: [
      { dbFieldName: 'visitor', dbFieldTxt: '来访人', dbType: 'string', dbLength: 50, isShowForm: 1, isShowList: 1, isQuery: 1, fieldMustInput: '1' },
      { dbFieldName: 'sex', dbFieldTxt: '性别', dbType: 'int', dictField: 'sex', fieldShowType: 'list', isShowForm: 1, isShowList: 1, isQuery: 1 },
      { dbFieldName: 'remark', dbFieldTxt: '备注', dbType: 'string', dbLength: 200, isShowForm: 1, isShowList: 1 },
    ],
  });
  expect(added.success, added.message).toBe(true);
  expect((await call('POST', `/online/cgform/api/doDbSynch/${code}/normal`, token)).success).toBe(true);
  expect((await call('POST', '/sys/permission/add', token, { name: '来访登记', menuType: 0, url: `/online/cgformList/${code}`, component: 'modules/online/cgform/auto/OnlCgformAutoList', sortNo: 99 })).success).toBe(true);
  const tree = await call<Array<Record<string, any>>>('GET', '/sys/permission/list', token);
  const find = (ns: Array<Record<string, any>>): Record<string, any> | undefined => {
    for (const n of ns) {
      if (n.url === `/online/cgformList/${code}`) return n;
      const hit = find(n.children ?? []);
      if (hit) return hit;
    }
    return undefined;
  };
  const menuId = find(tree.result)!.id as string;
  const roleId = (await call<{ records: Array<{ id: string }> }>('GET', '/sys/role/list?roleCode=admin', token)).result.records[0]!.id;
  const held = (await call<string[]>('GET', `/sys/permission/queryRolePermission?roleId=${roleId}`, token)).result;
  expect((await call('POST', '/sys/permission/saveRolePermission', token, { roleId, permissionIds: [...held, menuId].join(','), lastpermissionIds: '' })).success).toBe(true);

  await signIn(page);
  await page.goto(`/online/cgformList/${code}`);
  const card = page.locator('.ant-card').filter({ hasText: '来访登记' });
  await expect(card.locator('.ant-table-thead')).toContainText('来访人');
  await expect(card.locator('.ant-table-thead')).toContainText('性别');
  await expect(card.locator('.ant-table-placeholder')).toBeVisible();

  // Add through the generated form (required field checked, dictionary radio/select).
  await page.getByRole('button', { name: /新\s*增/ }).click();
  const d = page.getByRole('dialog');
  await d.getByRole('button', { name: /确\s*定/ }).click();
  await expect(d.getByText('该字段是必填字段')).toBeVisible();
  await d.getByLabel('来访人').fill('赵老师');
  await d.getByLabel('备注').fill('听课交流');
  await d.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.locator('tr.ant-table-row')).toHaveCount(1);
  await expect(page.locator('tr.ant-table-row').first()).toContainText('赵老师');

  // Search, then delete (DELETE /online/cgform/api/form/{code}/{id}).
  await page.getByPlaceholder('请输入来访人').fill('赵');
  await page.getByRole('button', { name: /^查\s*询$/ }).click();
  await expect(page.locator('tr.ant-table-row')).toHaveCount(1);
  await rowAction(page, page.locator('tr.ant-table-row').first(), '删除');
  await confirmPopconfirm(page);
  await expect(page.locator('.ant-table-placeholder')).toBeVisible();
});
