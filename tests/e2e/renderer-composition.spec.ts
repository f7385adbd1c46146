import { expect, test } from '@playwright/test';
import { login, openMenu } from './helpers';

/**
 * Composition of page schemas (issue 26): the tabs kind (tabs that are other pages), a row's page in a
 * drawer (a region bound to the row), and the detail kind on a phone. The aside tree, the job runs
 * region and the detail's timeline are walked in admin-config.spec.ts and improvement-flow.spec.ts.
 */
const rows = (scope: import('@playwright/test').Locator) => scope.locator('.ant-table-tbody tr.ant-table-row');

test('基础信息 and 时间设置 are tabs kind pages: each tab is another page schema, drawn when chosen', async ({ page }) => {
  await login(page, 'admin');
  await openMenu(page, '课表管理', '基础信息');
  const tabs = page.locator('.schema-tabs:visible');
  await expect(tabs.getByRole('tab')).toHaveText(['课程', '班级', '教室', '教学任务']);
  const pane = tabs.locator('.ant-tabs-tabpane-active');
  await expect(rows(pane).first()).toBeVisible();
  // An embedded page: the tab is its title (no card title of its own), its query form and actions work.
  await expect(pane.locator('.ant-card-head')).toHaveCount(0);
  await expect(pane.getByText('课程号', { exact: true }).first()).toBeVisible();
  await tabs.getByRole('tab', { name: '教室' }).click();
  await expect(pane.locator('.schema-query')).toContainText('教室');
  await expect(rows(pane).first()).toBeVisible();
  // Only the chosen tab is drawn.
  await expect(tabs.locator('.ant-tabs-tabpane .schema-query')).toHaveCount(1);

  await openMenu(page, '课表管理', '时间设置');
  const time = page.locator('.schema-tabs:visible');
  await expect(time.getByRole('tab')).toHaveText(['学期设置', '作息时间']);
  await time.getByRole('tab', { name: '作息时间' }).click();
  await expect(rows(time.locator('.ant-tabs-tabpane-active')).first()).toBeVisible();
});

test('a task\'s 详情 on a phone: one column of descriptions, the subtasks region and the timeline', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await login(page, 'admin');
  await page.goto('/improvement/task');
  const first = rows(page.locator('body')).first();
  await expect(first).toBeVisible({ timeout: 20_000 });
  const taskNo = (await first.locator('td').filter({ hasText: /^ZG\d+$/ }).first().innerText()).trim();
  await first.getByText('详情', { exact: true }).click();
  const drawer = page.locator('.ant-drawer-content:visible');
  const detail = drawer.locator('.schema-detail');
  await expect(detail.locator('.schema-descriptions')).toContainText(taskNo);
  // Phones: label and value side by side, one item per row, nothing wider than the window.
  const cells = detail.locator('.schema-descriptions tr').first().locator('th, td');
  await expect(cells).toHaveCount(2);
  const width = await detail.evaluate((el) => el.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await expect(detail.locator('.schema-timeline .schema-timeline-item').first()).toContainText('创建');
  // The region is the plain sub-list (no toolbar), bound to this task.
  const region = detail.locator('.schema-section').filter({ hasText: '子任务' });
  await expect(region.locator('.ant-table')).toBeVisible();
  await expect(region.locator('.schema-toolbar')).toHaveCount(0);
});
