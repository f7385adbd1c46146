import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiAs, asUser, confirmPopconfirm, disposeApiClients, rowAction } from './helpers';

/**
 * 合同审批 from its business screen (issue 28): a draft contract is submitted from 合同管理 (提交审批); the
 * department leader sees the count in the header, opens 我的待办 from it and approves (the count drops by
 * the push); 财务 approves; two signers countersign; 合同管理 then shows the contract 生效 and its approval.
 */
const rows = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row');
const modal = (page: Page) => page.locator('.ant-modal:visible');
const ok = (scope: Locator) => scope.getByRole('button', { name: /确\s*定/ }).click();
const NO = `HT-E2E-${Date.now() % 1_000_000}`;
const SHOTS = process.env.SHOTS_DIR ?? 'test-results/shots/workflow';

test.afterAll(disposeApiClients);

async function approveFromTodo(page: Page, viaHeader = false) {
  if (viaHeader) {
    const badge = page.getByTestId('todo-count');
    await expect(badge).toBeVisible({ timeout: 20_000 });
    await badge.click();
    await expect(page).toHaveURL(/\/workflow\/todo/);
  } else await page.goto('/workflow/todo');
  const row = rows(page).filter({ hasText: NO }).first();
  await expect(row).toBeVisible({ timeout: 20_000 });
  await rowAction(page, row, '同意');
  const dialog = modal(page);
  await expect(dialog).toBeVisible();
  await ok(dialog);
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await expect(rows(page).filter({ hasText: NO })).toHaveCount(0, { timeout: 20_000 });
}

test('合同审批 from 合同管理: submit, leader from the header count, finance, countersign of two, 生效', async ({ browser, baseURL }) => {
  test.setTimeout(240_000);
  const admin = await apiAs(baseURL!, 'admin', '10.88.0.61');
  const lab = (await admin.get('/lab/catalogue/list?code=SY-A301')).records[0];
  await admin.post('/lab/contract/add', { contractNo: NO, partyName: '华东检测有限公司', partyType: 'OUTER', labId: lab.id, amount: 86000, signDate: '2026-11-20', status: 'DRAFT' });

  await asUser(browser, 'admin', async (page) => {
    await page.goto('/lab/contract');
    const row = rows(page).filter({ hasText: NO });
    await expect(row).toContainText('草稿', { timeout: 20_000 });
    await rowAction(page, row, '提交审批');
    await confirmPopconfirm(page);
    await expect(row).toContainText('审批中', { timeout: 20_000 });
    await rowAction(page, row, '审批进度');
    const view = page.locator('.ant-drawer:visible');
    await expect(view).toContainText('部门领导审批', { timeout: 20_000 });
    await expect(view).toContainText('审批中');
  });

  await asUser(browser, 'leader', async (page) => {
    await page.goto('/');
    const badge = page.getByTestId('todo-count');
    await expect(badge).toBeVisible({ timeout: 20_000 });
    const before = Number(await badge.getAttribute('data-count'));
    expect(before).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/header-todo-count-1440.png` });
    await approveFromTodo(page, true);
    // The completion pushes `todo` over the notice socket: the header count drops without a reload.
    await expect(badge).toHaveAttribute('data-count', String(before - 1), { timeout: 20_000 });
  });
  await asUser(browser, 'deptadmin', (page) => approveFromTodo(page));
  await asUser(browser, 'supervisor', (page) => approveFromTodo(page));
  await asUser(browser, 'admin', async (page) => {
    await approveFromTodo(page);
    await page.goto('/lab/contract');
    const row = rows(page).filter({ hasText: NO });
    await expect(row).toContainText('生效', { timeout: 20_000 });
    await rowAction(page, row, '审批进度');
    const view = page.locator('.ant-drawer:visible');
    await expect(view).toContainText('已通过', { timeout: 20_000 });
    await expect(page.getByTestId('wf-steps')).toContainText('财务审核');
    await expect(page.getByTestId('wf-steps')).toContainText('会签');
    await expect(page.getByTestId('wf-diagram').locator('.djs-container')).toBeVisible({ timeout: 30_000 });
    await page.screenshot({ path: `${SHOTS}/contract-approval-1440.png` });
  });
});
