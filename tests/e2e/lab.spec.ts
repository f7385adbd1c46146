import { expect, test, type Page } from '@playwright/test';
import dayjs from 'dayjs';
import { asUser, rowAction } from './helpers';

/**
 * 实验室预约 in the browser: a teacher books a lab (sections that overlap another booking are refused
 * with the server's message, and the form keeps what was typed); the admin, as lab manager, approves
 * it; the teacher sees it approved.
 */
const rows = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row');
const field = (scope: ReturnType<Page['locator']>, label: string) => scope.locator('.ant-formily-item').filter({ hasText: label });

test('实验室预约: a teacher books a lab, an overlap is refused, the manager approves it', async ({ browser }) => {
  // Seeded: 学科竞赛集训 in 软件工程实验室, sections 9–10, three days ahead (pending).
  const date = dayjs().add(3, 'day').format('YYYY-MM-DD');
  const purpose = `课程设计答疑 ${Date.now() % 100000}`;
  await asUser(browser, 'teacher', async (page) => {
    await page.goto('/lab/reservation');
    await expect(rows(page).first()).toBeVisible({ timeout: 20_000 });
    await page.getByRole('button', { name: /预\s*约/ }).click();
    const form = page.locator('.ant-modal-content').filter({ hasText: '预约事由' });
    await expect(form).toBeVisible();
    const lab = field(form, '实验室');
    await expect(async () => {
      await lab.locator('input').first().fill('软件工程');
      await page.locator('.ant-select-dropdown:visible').getByText('软件工程实验室', { exact: true }).click({ timeout: 3_000 });
      await expect(lab.locator('.ant-select-selection-item')).toHaveText('软件工程实验室', { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await field(form, '使用日期').locator('input').fill(date);
    await field(form, '使用日期').locator('input').press('Enter');
    await field(form, '开始节次').locator('input').fill('10');
    await field(form, '结束节次').locator('input').fill('11');
    await field(form, '人数').locator('input').fill('25');
    await field(form, '预约事由').locator('textarea').fill(purpose);
    await form.getByRole('button', { name: /确\s*定/ }).click();
    await expect(page.getByText(/该时段已有预约：第9-10节（赵婷，待审核）/)).toBeVisible({ timeout: 20_000 });
    await expect(field(form, '预约事由').locator('textarea')).toHaveValue(purpose);
    await field(form, '开始节次').locator('input').fill('11');
    await field(form, '结束节次').locator('input').fill('12');
    await form.getByRole('button', { name: /确\s*定/ }).click();
    await expect(form).toBeHidden({ timeout: 20_000 });
    await expect(rows(page).filter({ hasText: purpose })).toContainText('待审核', { timeout: 20_000 });
  });
  // 实验室预约审批 (issue 28): the lab's manager, then — sections 11-12 are outside opening hours — the department leader, from 我的待办.
  for (const approver of ['secretary', 'leader']) {
    await asUser(browser, approver, async (page) => {
      await page.goto('/workflow/todo');
      const row = rows(page).filter({ hasText: `软件工程实验室 ${date}` }).first();
      await expect(row).toBeVisible({ timeout: 20_000 });
      await rowAction(page, row, '同意');
      const dialog = page.locator('.ant-modal:visible');
      await dialog.getByRole('button', { name: /确\s*定/ }).click();
      await expect(dialog).toBeHidden({ timeout: 20_000 });
    });
  }
  await asUser(browser, 'teacher', async (page) => {
    await page.goto('/lab/reservation');
    await expect(rows(page).filter({ hasText: purpose })).toContainText('已通过', { timeout: 20_000 });
  });
});
