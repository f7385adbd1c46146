import { expect, test, type Page } from '@playwright/test';
import { login, rowAction } from './helpers';

/**
 * 审核评估 in the browser, as the supervisor (the quality office runs the audit work): the index tree
 * is browsed and a 审核重点 added under 2.4 through 添加下级 (a wrong number is refused with the
 * server's message and the form keeps what was typed); an audit item whose self-check found a problem
 * raises an improvement task, pre-filled, that is then listed as 待下发.
 */
const rows = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row');
const row = (page: Page, text: string) => rows(page).filter({ hasText: text });
const field = (scope: ReturnType<Page['locator']>, label: string) => scope.locator('.ant-formily-item').filter({ hasText: label });

test('审核指标: the tree opens level by level, and a 审核重点 is added under 2.4 with its number checked', async ({ page }) => {
  await login(page, 'supervisor');
  await page.goto('/audit/index');
  await expect(rows(page)).toHaveCount(7, { timeout: 20_000 });
  await row(page, '培养过程').locator('.ant-table-row-expand-icon').click();
  await expect(row(page, '课堂教学')).toHaveCount(1, { timeout: 20_000 });
  await row(page, '课堂教学').locator('.ant-table-row-expand-icon').click();
  await expect(row(page, '校院两级听课评课制度的建立与执行情况')).toContainText('审核重点', { timeout: 20_000 });

  await rowAction(page, row(page, '课堂教学'), '添加下级');
  const form = page.locator('.ant-modal-content').filter({ hasText: '上级指标' });
  await expect(form).toBeVisible();
  await expect(field(form, '上级指标')).toContainText('课堂教学');
  const code = field(form, '编号').locator('input');
  await expect(code).toHaveValue('2.4.');
  const name = `课程思政融入课堂教学的情况 ${Date.now() % 100000}`;
  await code.fill('2.5.1');
  await field(form, '指标名称').locator('textarea').fill(name);
  await form.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('编号应以上级编号“2.4.”开头')).toBeVisible({ timeout: 20_000 });
  await expect(field(form, '指标名称').locator('textarea')).toHaveValue(name);
  const number = `2.4.${10 + (Date.now() % 90)}`;
  await code.fill(number);
  await form.getByRole('button', { name: /确\s*定/ }).click();
  await expect(form).toBeHidden({ timeout: 20_000 });

  await page.getByPlaceholder('请输入指标名称').fill(name);
  await page.getByRole('button', { name: /^查\s*询$/ }).click();
  await expect(row(page, name)).toContainText(number, { timeout: 20_000 });
  await expect(row(page, name)).toContainText('审核重点');
});

test('审核要点: an item with a problem raises an improvement task, pre-filled from it', async ({ page }) => {
  await login(page, 'supervisor');
  await page.goto('/audit/item');
  const item = row(page, '听课评价结果的反馈与改进情况');
  await expect(item).toContainText('存在问题', { timeout: 20_000 });
  await expect(item).toContainText('督查组');
  await rowAction(page, item, '发起整改');
  await expect(page).toHaveURL(/\/improvement\/task\?auditItemId=/);
  const form = page.locator('.ant-modal-content').filter({ hasText: '整改期限' });
  await expect(form).toBeVisible({ timeout: 20_000 });
  const title = field(form, '任务标题').locator('input');
  await expect(title).toHaveValue('审核评估 2.4.2 校院两级听课评课制度的建立与执行情况 问题整改');
  await expect(field(form, '来源')).toContainText('审核评估');
  await expect(field(form, '问题描述').locator('textarea')).toHaveValue(/听课完成率未达到要求/);
  await expect(field(form, '责任部门').locator('input')).toHaveValue('教务处');
  const mine = `听课评价反馈整改 ${Date.now() % 100000}`;
  await title.fill(mine);
  await form.getByRole('button', { name: /确\s*定/ }).click();
  await expect(form).toBeHidden({ timeout: 20_000 });
  await page.goto('/improvement/task');
  await expect(row(page, mine)).toContainText('待下发', { timeout: 20_000 });
});
