import { expect, test, type Locator, type Page } from '@playwright/test';
import { asUser, rowAction } from './helpers';

/**
 * 审批流程 forms from page schemas (issue 28): a teacher starts 通用审批 from its start form (a `form` page);
 * the leader's 同意 shows the task's form filled with the applicant's values (read-only) and sets 核定金额;
 * the history shows the value.
 */
const rows = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row');
const modal = (page: Page) => page.locator('.ant-modal:visible');
const item = (dialog: Locator, label: string) => dialog.locator('.ant-formily-item').filter({ hasText: label });
const TITLE = `差旅报销${Date.now() % 1000000}`;
const SHOTS = 'test-results/shots/workflow-forms';

test('通用审批: start from its form, approve with the task form (applicant’s values read-only, 核定金额 set), see it in the history', async ({ browser }) => {
  test.setTimeout(180_000);
  await asUser(browser, 'teacher', async (page) => {
    await page.goto('/workflow/apply');
    const process = rows(page).filter({ hasText: '通用审批' });
    await expect(process).toBeVisible({ timeout: 20_000 });
    await rowAction(page, process, '发起');
    const dialog = modal(page);
    await expect(dialog.getByText('通用审批申请')).toBeVisible({ timeout: 20_000 }); // the form page's title
    await item(dialog, '申请标题').locator('input').fill(TITLE);
    // 申请事由 is required (the page says so): 提交申请 without it keeps the dialog and what was typed
    await dialog.getByRole('button', { name: /提交申请/ }).click();
    await expect(item(dialog, '申请事由')).toContainText('该字段是必填字段');
    await expect(item(dialog, '申请标题').locator('input')).toHaveValue(TITLE);
    await item(dialog, '金额').locator('input').fill('2600');
    await item(dialog, '申请事由').locator('textarea').fill('赴京参加教学研讨会');
    await page.screenshot({ path: `${SHOTS}/apply-1440.png` });
    await dialog.getByRole('button', { name: /提交申请/ }).click();
    await expect(page.getByText('申请已提交')).toBeVisible({ timeout: 20_000 });
    await expect(dialog).toBeHidden();
  });

  await asUser(browser, 'leader', async (page) => {
    await page.goto('/workflow/todo');
    const row = rows(page).filter({ hasText: TITLE });
    await expect(row).toBeVisible({ timeout: 20_000 });
    await rowAction(page, row, '同意');
    const dialog = modal(page);
    await expect(dialog.getByText('通用审批审核')).toBeVisible({ timeout: 20_000 });
    // the applicant's values, filled and read-only (drawn as text, no input)
    await expect(item(dialog, '申请标题')).toContainText(TITLE);
    await expect(item(dialog, '申请标题').locator('input')).toHaveCount(0);
    await expect(item(dialog, '申请事由')).toContainText('赴京参加教学研讨会');
    await expect(item(dialog, '申请事由').locator('textarea')).toHaveCount(0);
    await expect(item(dialog, '申请金额')).toContainText('2600');
    // 核定金额 is required: 确定 without it keeps the dialog open
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await expect(item(dialog, '核定金额')).toContainText('该字段是必填字段');
    await item(dialog, '核定金额').locator('input').fill('2000');
    await item(dialog, '意见').locator('textarea').fill('按标准核定');
    await page.screenshot({ path: `${SHOTS}/approve-1440.png` });
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await expect(dialog).toBeHidden({ timeout: 20_000 });
    await expect(rows(page).filter({ hasText: TITLE })).toHaveCount(0, { timeout: 20_000 });
  });

  await asUser(browser, 'teacher', async (page) => {
    await page.goto('/workflow/history');
    const row = rows(page).filter({ hasText: TITLE }).first();
    await expect(row).toContainText('已通过', { timeout: 20_000 }); // 2000 ≤ 10000: no finance step
    await rowAction(page, row, '详情');
    const steps = page.getByTestId('wf-steps');
    await expect(steps).toContainText('核定金额（元）：2000', { timeout: 20_000 });
    await expect(steps).toContainText('申请事由：赴京参加教学研讨会');
    await expect(steps).toContainText('按标准核定');
  });

  // The modeler names forms by picking form pages: the process's start form, the task's form.
  await asUser(browser, 'admin', async (page) => {
    await page.goto('/workflow/model');
    const model = rows(page).filter({ hasText: '通用审批' });
    await expect(model).toBeVisible({ timeout: 20_000 });
    await rowAction(page, model, '设计');
    const modeler = page.getByTestId('wf-modeler');
    await expect(modeler.locator('.djs-container')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('wf-prop-start-form')).toContainText('通用审批申请（workflow/forms/GeneralApply）', { timeout: 20_000 });
    await page.evaluate(() => {
      const m = (window as any).__wfModeler;
      m.get('selection').select(m.get('elementRegistry').get('leader'));
    });
    const picker = page.getByTestId('wf-prop-form');
    await expect(picker).toContainText('通用审批审核（workflow/forms/GeneralReview）');
    await picker.click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await expect(options.filter({ hasText: 'workflow/forms/GeneralApply' })).toBeVisible();
    await expect(options.filter({ hasText: 'workflow/TodoList' })).toHaveCount(0); // only form pages
    await page.screenshot({ path: `${SHOTS}/modeler-1440.png` });
  });
});
