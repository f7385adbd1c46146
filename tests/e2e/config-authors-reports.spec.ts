import { expect, test, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/template-db.js';
import { accessToken, confirmPopconfirm, login, openMenu, rowAction } from './helpers';

/**
 * 报表配置 in the browser (issue 31): a config author builds a report of lecture records per department and
 * grade (count) with a bar chart, previews it with a parameter, saves it, generates its menu, opens it from
 * the menu, exports it and opens a record from it — following docs/config-authors.md's section literally.
 */
const doc = readFileSync(join(ROOT, 'docs/config-authors.md'), 'utf8');
const section = doc.slice(doc.indexOf('### A report: 报表配置'), doc.indexOf('## As files on the server'));
const NAME = '各部门听课等级统计';
const CODE = 'lecture_dept_grade';
const USED = ['在线开发 / 报表配置', '新增', '报表设计', '预览', '报表名称', NAME, '报表编码', `\`${CODE}\``, '数据来源', '主实体', '听课记录（sup_lecture_record）', '授课教师部门（部门）', '授课教师部门·部门名称', '添加列', '标题', '分组统计', '添加统计', '计数', '听课次数', '明细列', '条件与参数', '添加条件', '运行时询问', '排序列', '降序', '柱状图', '分类列', '数值列', '保存', '生成菜单', '导出', '明细', '查询', '详情', 'online:cgreport:design'];

test('docs/config-authors.md has the online-reports section in the browser part, with the labels used here', () => {
  expect(doc.indexOf('### A report: 报表配置')).toBeGreaterThan(doc.indexOf('## In the browser'));
  expect(doc.indexOf('### A report: 报表配置')).toBeLessThan(doc.indexOf('## As files on the server'));
  for (const label of USED) expect(section, label).toContain(label);
});

/** Picks an option of an antd Select (by its test id) by the option's text. */
async function choose(page: Page, select: Locator, option: string | RegExp, search?: string) {
  await select.click();
  if (search) await page.keyboard.type(search);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).first().click();
}

test('a config author builds, previews, saves and publishes a report, then opens a record from it', async ({ page }) => {
  test.setTimeout(180_000);
  await login(page, 'admin');
  // 1. 在线开发 / 报表配置 → 新增 opens 报表设计
  await openMenu(page, '在线开发', '报表配置');
  await page.getByRole('button', { name: /新\s*增/ }).click();
  const b = page.getByTestId('report-builder');
  await expect(page.locator('.ant-drawer-title').getByText('报表设计')).toBeVisible();
  await expect(b.getByTestId('report-preview')).toContainText('选择主实体和列后在这里预览');
  // 2. name and code
  await b.getByTestId('report-name').fill(NAME);
  await b.getByTestId('report-code').fill(CODE);
  // 3. 主实体 听课记录, relation 授课教师部门
  await choose(page, b.getByTestId('report-entity'), '听课记录（sup_lecture_record）', 'sup_lecture_record');
  await b.getByTestId('report-joins').getByText('授课教师部门（部门）').click();
  // 4. columns: the department's name and the grade
  await b.getByTestId('report-columns').getByRole('button', { name: '添加列' }).click();
  await choose(page, b.getByTestId('report-column-field-0'), '授课教师部门·部门名称', '部门名称');
  await b.getByTestId('report-column-0').getByPlaceholder('标题').fill('部门');
  await b.getByTestId('report-columns').getByRole('button', { name: '添加列' }).click();
  await choose(page, b.getByTestId('report-column-field-1'), /^等级$/, '等级');
  // the preview lists records one by one so far
  await expect(b.getByTestId('report-preview').getByRole('columnheader', { name: '部门' })).toBeVisible({ timeout: 15_000 });
  // 5. 计数 as 听课次数, 明细列
  await b.getByTestId('report-aggregates').getByRole('button', { name: '添加统计' }).click();
  await b.getByTestId('report-aggregate-label-0').fill('听课次数');
  await choose(page, b.getByTestId('report-detail'), /^记录编号$/, '记录编号');
  await choose(page, b.getByTestId('report-detail'), /^授课教师姓名$/, '授课教师姓名');
  await page.keyboard.press('Escape');
  // 6. a parameter asked at run time: 等级
  await b.getByTestId('report-filters').getByRole('button', { name: '添加条件' }).click();
  await choose(page, b.getByTestId('report-filter-field-0'), /^等级$/, '等级');
  // 7. order by 听课次数 (降序), bar chart of 听课次数 by 部门
  await choose(page, b.getByTestId('report-order'), '听课次数');
  await choose(page, b.getByTestId('report-chart-type'), '柱状图');
  await choose(page, b.getByTestId('report-chart-x'), /^部门$/);
  await choose(page, b.getByTestId('report-chart-series'), '听课次数');
  await page.keyboard.press('Escape');

  // 8. the preview: parameter, chart, grouped table
  const preview = b.getByTestId('report-preview');
  await expect(preview.getByTestId('report-chart')).toBeVisible({ timeout: 15_000 });
  await expect(preview.getByRole('columnheader', { name: '听课次数' })).toBeVisible();
  await expect(preview.locator('.ant-table-row').first()).toBeVisible();
  const total = async (where: Locator) => Number(/共 (\d+) 行/.exec((await where.locator('.ant-pagination-total-text').textContent()) ?? '')?.[1]);
  await expect(preview.locator('.ant-pagination-total-text')).toBeVisible();
  const allRows = await total(preview);
  await choose(page, preview.getByRole('combobox', { name: '等级' }).locator('xpath=ancestor::div[contains(@class,"ant-select")][1]'), '优秀');
  await preview.getByRole('button', { name: /查\s*询/ }).click();
  await expect(async () => {
    const n = await total(preview);
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(allRows);
  }).toPass({ timeout: 10_000 });
  for (const cell of await preview.locator('.ant-table-row td:nth-child(2)').allTextContents()) expect(cell).toBe('优秀');
  await b.getByTestId('report-save').click();
  await expect(page.getByText('保存成功')).toBeVisible();

  // 9. 生成菜单, then reload: 在线开发 has the report
  const row = page.locator('tr.ant-table-row').filter({ hasText: CODE });
  await expect(row).toBeVisible();
  await rowAction(page, row, '生成菜单');
  await confirmPopconfirm(page);
  await expect(page.getByText(`已生成菜单：在线开发 / ${NAME}`)).toBeVisible();
  await page.reload();
  await expect(async () => {
    await page.locator('.layout-sider').getByText(NAME).click({ timeout: 2_000 });
    await expect(page).toHaveURL(new RegExp(`/online/report/${CODE}$`), { timeout: 3_000 });
  }).toPass({ timeout: 20_000 });

  // 10. the report screen: parameters, chart, table, export, 明细 → a record
  const view = page.getByTestId('report-view');
  await expect(page.locator('.ant-card-head-title').getByText(NAME)).toBeVisible();
  await expect(view.getByTestId('report-chart')).toBeVisible({ timeout: 15_000 });
  await expect(view.getByRole('button', { name: /查\s*询/ })).toBeVisible();
  const first = view.locator('.ant-table-row').first();
  await expect(first).toBeVisible();
  const count = Number((await first.locator('td').nth(2).textContent())?.trim());
  expect(count).toBeGreaterThan(0);
  const download = page.waitForEvent('download');
  await view.getByRole('button', { name: /导\s*出/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${NAME}.xlsx`);
  const head = readFileSync((await file.path())!).subarray(0, 2).toString();
  expect(head).toBe('PK');

  await first.getByTestId('report-drill').click();
  const drawer = page.locator('.ant-drawer-content').filter({ hasText: '明细' });
  await expect(drawer.locator('.ant-table-row')).toHaveCount(Math.min(count, 20), { timeout: 10_000 });
  const link = drawer.getByTestId('report-record-link').first();
  const recordNo = (await link.textContent())!.trim();
  expect(recordNo).toMatch(/^TK\d+/);
  await link.click();
  await expect(page).toHaveURL(/\/supervisor\/lectureRecord\?open=/);
  await expect(page.locator('.ant-drawer-content:visible')).toContainText(recordNo, { timeout: 15_000 });
});

test('a teacher cannot open the builder or call its API', async ({ page }) => {
  await login(page, 'teacher');
  await page.goto('/online/cgreport');
  await expect(page.getByTestId('report-builder')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /新\s*增/ })).toHaveCount(0);
  const token = await accessToken(page);
  const answer = await page.evaluate(async (t) => {
    const r = await fetch('/jeecg-boot/online/cgreport/design/model', { headers: { 'X-Access-Token': t } });
    return (await r.json()) as { success: boolean; code: number };
  }, token);
  expect(answer).toMatchObject({ success: false, code: 510 });
});
