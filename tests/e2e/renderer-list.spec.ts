import { expect, test, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromHoverMenu, confirmPopconfirm } from './helpers';

/**
 * The schema-driven list page (SPEC §4/§8/§9) on the demo list /list/query-list, drawn from
 * schemas/pages/demo/list/query-list.json and bound to the demo_customer entity (50 seeded rows).
 */
export async function signIn(page: Page, username = 'admin', password = 'Observe#2026') {
  await page.goto('/user/login');
  await page.getByPlaceholder('请输入账户名').fill(username);
  await page.getByPlaceholder('请输入密码').fill(password);
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/dashboard/, { timeout: 30_000 });
}

const rows = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row');
const total = (page: Page) => page.locator('.ant-pagination-total-text');
const cellOf = (page: Page, row: number, title: string) =>
  page.locator('.ant-table-thead th').filter({ hasText: title }).first().evaluate((th) => (th as HTMLTableCellElement).cellIndex).then((i) => rows(page).nth(row).locator('td').nth(i));

test.describe.configure({ mode: 'serial' });


/** Clicks an entry of a hover dropdown; a hover that lands while the table re-renders opens nothing, so hover again. */

test('query-list: paging, search, reset, sort, page size, column settings', async ({ page }) => {
  const csp: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|unsafe-eval/i.test(m.text())) csp.push(m.text());
  });
  await signIn(page);
  const lists: URL[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/demo/customer/list')) lists.push(new URL(r.url()));
  });
  await page.goto('/list/query-list');
  await expect(rows(page)).toHaveCount(10);
  await expect(total(page)).toHaveText('1-10 共50条');
  expect(lists.at(-1)!.searchParams.get('column')).toBe('createTime');
  expect(lists.at(-1)!.searchParams.get('order')).toBe('desc');

  // Search (like) returns to page 1 and only matching rows.
  await page.locator('.ant-pagination-item-2').click();
  await expect(total(page)).toHaveText('11-20 共50条');
  await page.getByPlaceholder('请输入客户名称').fill('王');
  // JeecgBoot's query buttons, with their icons; named by their text alone.
  await expect(page.getByRole('button', { name: /^查\s*询$/ }).locator('.anticon-search')).toBeVisible();
  await expect(page.getByRole('button', { name: /^重\s*置$/ }).locator('.anticon-reload')).toBeVisible();
  await page.getByRole('button', { name: /^查\s*询$/ }).click();
  await expect.poll(() => lists.at(-1)!.searchParams.get('name')).toBe('*王*');
  expect(lists.at(-1)!.searchParams.get('pageNo')).toBe('1');
  await expect(total(page)).not.toHaveText(/共50条/);
  await expect(total(page)).toHaveText(/^1-/);
  const n = await rows(page).count();
  expect(n).toBeGreaterThan(0);
  for (let i = 0; i < n; i++) await expect(await cellOf(page, i, '客户名称')).toContainText('王');
  // Reset clears the query and goes back to page 1 with every row.
  await page.getByRole('button', { name: /重\s*置/ }).click();
  await expect(total(page)).toHaveText('1-10 共50条');
  await expect(page.getByPlaceholder('请输入客户名称')).toHaveValue('');

  // 展开 shows the remaining query fields.
  await expect(page.getByText('年龄', { exact: true }).first()).toBeVisible();
  await expect(page.locator('.schema-query').getByText('生日')).toHaveCount(0);
  await page.getByText('展开').click();
  await expect(page.locator('.schema-query').getByText('生日')).toBeVisible();
  // The date range (its picker's code loads when first drawn) searches with _begin/_end.
  const range = page.locator('.schema-query .ant-picker-range');
  await range.locator('input').first().click();
  await range.locator('input').first().fill('2000-01-01');
  await range.locator('input').first().press('Enter');
  await range.locator('input').nth(1).fill('2030-12-31');
  await range.locator('input').nth(1).press('Enter');
  await page.getByRole('button', { name: /^查\s*询$/ }).click();
  await expect.poll(() => lists.at(-1)!.searchParams.get('birthday_begin')).toBe('2000-01-01');
  expect(lists.at(-1)!.searchParams.get('birthday_end')).toBe('2030-12-31');
  await page.getByRole('button', { name: /重\s*置/ }).click();
  await expect(total(page)).toHaveText('1-10 共50条');
  await page.getByText('收起').click();

  // Sorting reloads with column/order.
  await page.locator('.ant-table-thead th').filter({ hasText: '年龄' }).click();
  await expect.poll(() => lists.at(-1)!.searchParams.get('column')).toBe('age');
  expect(lists.at(-1)!.searchParams.get('order')).toBe('asc');
  const ages = async () => {
    const out: number[] = [];
    for (let i = 0; i < 10; i++) out.push(Number(await (await cellOf(page, i, '年龄')).innerText()));
    return out;
  };
  await expect.poll(async () => {
    const a = await ages();
    return a.every((v, i) => i === 0 || a[i - 1]! <= v);
  }).toBe(true);

  // Page sizes 10/20/30.
  await page.locator('.ant-pagination-options .ant-select').click();
  await expect(page.locator('.ant-select-item-option')).toHaveText(['10 条/页', '20 条/页', '30 条/页']);
  await page.locator('.ant-select-item-option').filter({ hasText: '20 条/页' }).click();
  await expect(rows(page)).toHaveCount(20);
  await expect(total(page)).toHaveText('1-20 共50条');
  await expect(page.locator('.ant-pagination-options-quick-jumper input')).toBeVisible();

  // The widget library's advanced query builder sits in the toolbar.
  await page.getByRole('button', { name: '高级查询' }).click();
  await expect(page.getByText('高级查询构造器')).toBeVisible();
  await page.locator('.ant-modal').filter({ hasText: '高级查询构造器' }).locator('.ant-modal-close').click();
  await expect(page.getByText('高级查询构造器')).toBeHidden();

  // Dictionary columns show texts.
  await expect(await cellOf(page, 0, '性别')).toHaveText(/^(男|女)$/);

  // Column settings hide a column.
  await page.getByRole('button', { name: '列设置' }).click();
  await page.locator('.ant-popover').getByLabel('电子邮件').uncheck();
  await expect(page.locator('.ant-table-thead th').filter({ hasText: '电子邮件' })).toHaveCount(0);
  await page.locator('.ant-popover').getByLabel('电子邮件').check();
  await expect(page.locator('.ant-table-thead th').filter({ hasText: '电子邮件' })).toHaveCount(1);
  expect(csp).toEqual([]);
});

test('a menu list page opened directly has its menu, schema and first rows from the request the HTML sent: no request of the app’s own for them', async ({ page }) => {
  const reports: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) reports.push(m.text());
  });
  await signIn(page);
  await page.goto('about:blank'); // the home page's requests stay out of the count
  const asked: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/jeecg-boot/')) asked.push(u.pathname.replace('/jeecg-boot', ''));
  });
  const boot = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/schema/boot'));
  await page.goto('/supervisor/term');
  type Boot = { route: { result: { component: string; list: { url: string; answer: { result: { total: number } } } } }; notices: { result: { anntMsgTotal: number; sysMsgTotal: number } } };
  const { route, notices } = ((await (await boot).json()) as { result: Boot }).result;
  expect(route.result).toMatchObject({ component: 'supervisor/TermList', list: { url: '/supervisor/term/list' } });
  const n = Math.min(10, route.result.list.answer.result.total);
  expect(n).toBeGreaterThan(0);
  await expect(rows(page)).toHaveCount(n);
  await expect(page.locator('.ant-pagination-total-text')).toContainText(`共${route.result.list.answer.result.total}条`);
  // One request, by the inline script: the menu, route, schema and list requests of the app's own never went out,
  // nor the header's notice list (the notice centre's first load; its 6 s poll has not come round yet).
  expect(asked.filter((p) => p === '/schema/boot')).toHaveLength(1);
  expect(asked.filter((p) => ['/sys/permission/getUserPermissionByToken', '/schema/route', '/supervisor/term/list', '/sys/annountCement/listByUser'].includes(p) || p.startsWith('/schema/page/'))).toEqual([]);
  const count = notices.result.anntMsgTotal + notices.result.sysMsgTotal;
  expect(count).toBeGreaterThan(0); // the demo admin has unread notices
  await expect(page.getByTestId('notice-badge').locator('.ant-badge-count')).toHaveAttribute('title', String(count));
  expect(reports).toEqual([]);
});

test('a list page in its shell is styled by the pre-built antd stylesheet: no antd style generated in the browser', async ({ page }) => {
  await signIn(page);
  await page.goto('/supervisor/term');
  await expect(rows(page).first()).toBeVisible();
  await expect(page.locator('.ant-layout-sider')).toBeVisible();
  // @ant-design/cssinjs marks each style sheet it generates with data-css-hash (scripts/antd-styles.tsx pre-builds them).
  expect(await page.locator('style[data-css-hash]').evaluateAll((s) => s.map((e) => e.getAttribute('data-css-hash')))).toEqual([]);
});

test('query-list: add, edit, detail, delete, batch delete, page lowered after delete', async ({ page }) => {
  await signIn(page);
  await page.goto('/list/query-list');
  await expect(total(page)).toHaveText('1-10 共50条');

  // Add: required fields are checked, then saved.
  await page.getByRole('button', { name: /新\s*增/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('新增查询表格', { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(dialog.getByText('该字段是必填字段').first()).toBeVisible();
  await dialog.getByLabel('客户名称').fill('测试客户甲');
  await dialog.getByLabel('客户编号').fill('E2E-001');
  await dialog.getByLabel('手机号码').fill('12345');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(dialog.getByText('请输入正确手机号')).toBeVisible();
  await dialog.getByLabel('手机号码').fill('13912345678');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(total(page)).toHaveText('1-10 共51条');

  // Find it and edit it.
  await page.getByPlaceholder('请输入客户编号').fill('E2E-001');
  await page.getByRole('button', { name: /^查\s*询$/ }).click();
  await expect(rows(page)).toHaveCount(1);
  await rows(page).first().getByText('编辑').click();
  await expect(page.getByRole('dialog').locator('.ant-modal-title')).toHaveText(/^编辑/);
  await expect(page.getByRole('dialog').getByLabel('客户名称')).toHaveValue('测试客户甲');
  await page.getByRole('dialog').getByLabel('客户名称').fill('测试客户乙');
  await page.getByRole('dialog').getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(await cellOf(page, 0, '客户名称')).toHaveText('测试客户乙');

  // Detail: fields disabled, submit disabled.
  await fromHoverMenu(page, rows(page).first().getByText('更多'), '详情');
  await expect(page.getByRole('dialog').locator('.ant-modal-title')).toHaveText('查询表格详情');
  await expect(page.getByRole('dialog').getByLabel('客户名称')).toBeDisabled();
  await expect(page.getByRole('dialog').getByRole('button', { name: /确\s*定/ })).toBeDisabled();
  await page.getByRole('dialog').getByRole('button', { name: /关\s*闭/ }).click();

  // Delete it (row confirm).
  await fromHoverMenu(page, rows(page).first().getByText('更多'), '删除');
  await confirmPopconfirm(page);
  await expect(page.locator('.ant-table-placeholder')).toBeVisible();
  await page.getByRole('button', { name: /重\s*置/ }).click();
  await expect(total(page)).toHaveText('1-10 共50条');

  // Batch delete: confirmation texts, selection cleared, total lowered.
  await rows(page).nth(0).locator('.ant-checkbox-input').check();
  await rows(page).nth(1).locator('.ant-checkbox-input').check();
  await expect(page.getByText('已选择 2 项')).toBeVisible();
  await fromHoverMenu(page, page.getByRole('button', { name: /批量操作/ }), '批量删除');
  await expect(page.locator('.ant-modal-confirm-title')).toHaveText('确认删除');
  await expect(page.locator('.ant-modal-confirm-content')).toHaveText('是否删除选中数据?');
  await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(total(page)).toHaveText('1-10 共48条');
  await expect(page.getByText('已选择 0 项')).toBeVisible();

  // The last page holds 8 rows at size 10 of 48 → delete them all from page 5: page lowered to 4.
  await page.locator('.ant-pagination-item-5').click();
  await expect(total(page)).toHaveText('41-48 共48条');
  await page.locator('.ant-table-thead .ant-checkbox-input').check();
  await fromHoverMenu(page, page.getByRole('button', { name: /批量操作/ }), '批量删除');
  await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(total(page)).toHaveText('31-40 共40条');
  await expect(page.locator('.ant-pagination-item-active')).toHaveText('4');
});

test('query-list: export and import', async ({ page }) => {
  await signIn(page);
  await page.goto('/list/query-list');
  await expect(rows(page).first()).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /导\s*出/ }).click();
  expect((await download).suggestedFilename()).toBe('查询表格.xlsx');

  const dir = mkdtempSync(join(tmpdir(), 'e2e-import-'));
  try {
    // Not Excel: refused by the dialog.
    writeFileSync(join(dir, 'notes.txt'), 'x');
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('客户');
    ws.addRow(['客户名称', '客户编号', '手机号码']);
    ws.addRow(['导入客户', 'IMP-001', '13700000001']);
    const file = join(dir, '客户导入.xlsx');
    writeFileSync(file, Buffer.from(await wb.xlsx.writeBuffer()));

    await page.getByRole('button', { name: /导\s*入/ }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('Import EXCEL')).toBeVisible();
    await expect(dialog.getByRole('button', { name: '开始上传' })).toBeDisabled();
    await dialog.locator('input[type=file]').setInputFiles(join(dir, 'notes.txt'));
    await expect(page.getByText('只能上传 .xls 或 .xlsx 文件')).toBeVisible();
    await dialog.locator('input[type=file]').setInputFiles(file);
    await dialog.getByRole('button', { name: '开始上传' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.getByPlaceholder('请输入客户编号').fill('IMP-001');
    await page.getByRole('button', { name: /^查\s*询$/ }).click();
    await expect(rows(page)).toHaveCount(1);
    await expect(await cellOf(page, 0, '客户名称')).toHaveText('导入客户');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('demo routes are drawn from page schemas (forms run under the CSP without unsafe-eval)', async ({ page }) => {
  const csp: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|unsafe-eval|EvalError/i.test(m.text())) csp.push(m.text());
  });
  page.on('pageerror', (e) => csp.push(e.message));
  await signIn(page);
  const head = await page.request.get('/list/query-list');
  expect(head.headers()['content-security-policy']).toBeTruthy();
  expect(head.headers()['content-security-policy']).not.toContain('unsafe-eval');
  await page.goto('/form/base-form');
  await expect(page.getByText('基础表单').first()).toBeVisible();
  await expect(page.getByText('公开给')).toHaveCount(0);
  await page.getByText('部分公开').click();
  await expect(page.getByText('公开给')).toBeVisible();
  await page.getByRole('button', { name: /提\s*交/ }).click();
  await expect(page.getByText('该字段是必填字段').first()).toBeVisible();
  await page.goto('/result/success');
  await expect(page.getByText('提交成功')).toBeVisible();
  await page.goto('/profile/basic');
  await expect(page.getByText('付小小')).toBeVisible();
  await page.goto('/list/edit-table');
  await expect(page.locator('input[value="张三"]')).toBeVisible();
  await page.goto('/list/user-list');
  await expect(rows(page)).toHaveCount(10);
  await expect(total(page)).toHaveText('1-10 共12条');
  expect(csp).toEqual([]);
});

test('query-list on a phone-width window: every query field takes the whole width', async ({ page }) => {
  await signIn(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/list/query-list');
  const items = page.locator('.schema-query .ant-form-item');
  await expect(items.first()).toBeVisible({ timeout: 20_000 });
  // A phone shows one field until 展开 (the rows come first).
  await page.locator('.schema-query').getByText('展开').click();
  const form = (await page.locator('.schema-query').boundingBox())!;
  const widths = await items.evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().width)));
  expect(widths.length).toBeGreaterThan(1);
  // The columns had no phone width: each field was as narrow as its control (a select ~150 px).
  for (const w of widths) expect(w).toBeGreaterThan(form.width - 30);
});
