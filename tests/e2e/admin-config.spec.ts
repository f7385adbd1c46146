import { expect, test, type Page } from '@playwright/test';
import { login, openMenu, rowAction } from './helpers';

/** Configuration screens of issue 5: each opens from the admin menu on seeded data; the cron-builder job fires and shows its run. */
test.describe.configure({ mode: 'serial' });

/** SHOTS=<dir> saves a screenshot of each screen (for looking at them). */
const shot = async (page: Page, name: string) => {
  if (process.env.SHOTS) await page.screenshot({ path: `${process.env.SHOTS}/${name}.png` });
};
const visibleRows = (page: Page) => page.locator('.ant-table-row:visible');
const row = (page: Page, text: string) => visibleRows(page).filter({ hasText: text }).first();

test('every configuration screen opens from its menu entry with the seeded data', async ({ page }) => {
  test.setTimeout(180_000);
  await login(page, 'admin');

  await openMenu(page, '系统管理', '编码校验规则');
  await expect(row(page, '教师工号')).toContainText('teacher_work_no');
  await expect(row(page, '课程号')).toBeVisible();
  await shot(page, 'check-rules');

  await openMenu(page, '系统管理', '填值规则');
  const brief = row(page, '督导简报编号');
  await expect(brief).toContainText('DDJB');
  await brief.getByText('测试', { exact: true }).click();
  const year = new Date().getFullYear();
  await expect(page.locator('.ant-message')).toContainText(`下一个编号：DDJB${year}001`);
  await brief.getByText('测试', { exact: true }).click();
  // A preview does not consume the number.
  await expect(page.locator('.ant-message-notice').last()).toContainText(`DDJB${year}001`);

  await openMenu(page, '系统管理', '多数据源');
  await expect(page.locator('.schema-hint:visible')).toContainText('本系统不会连接这些数据库');
  const jw = row(page, '教务系统（只读库）');
  await expect(jw).toContainText('jdbc:oracle');
  await expect(page.locator('body')).not.toContainText('Jw#Reader2026');
  await jw.getByText('编辑', { exact: true }).click();
  const dialog = page.locator('.ant-modal:visible');
  await expect(dialog.getByLabel('数据源名称')).toHaveValue('教务系统（只读库）');
  await expect(dialog.locator('input[type=password]')).toHaveValue('');
  await shot(page, 'data-source-edit');
  await dialog.getByRole('button', { name: /关\s*闭/ }).click();

  await openMenu(page, '系统管理', '网关路由');
  await expect(page.locator('.schema-hint:visible')).toContainText('本系统没有运行网关');
  await expect(row(page, 'supervisor-api')).toContainText('lb://supervisor-service');
  await shot(page, 'gateway');
  // Add one through the form: invalid JSON is refused with a Chinese message, nothing is saved.
  await page.locator('.ant-card:visible').getByRole('button', { name: /新\s*增/ }).click();
  const form = page.locator('.ant-modal:visible');
  await form.getByLabel('路由ID').fill('e2e-route');
  await form.getByLabel('路由名称').fill('端到端测试路由');
  await form.getByLabel('目标地址').fill('lb://e2e-service');
  await form.getByLabel('断言').fill('[{"name":"Path",');
  await form.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.locator('.ant-message')).toContainText('断言（predicates）不是有效的JSON');
  await form.getByLabel('断言').fill('[{"name":"Path","args":{"_genkey_0":"/e2e/**"}}]');
  await form.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.locator('.ant-message')).toContainText('添加成功');
  await expect(row(page, 'e2e-route')).toContainText('端到端测试路由');

  await openMenu(page, '系统管理', '通讯录');
  // A list page with an aside tree (the departments): a node filters the list to its subtree.
  const book = page.locator('.schema-aside-list:visible');
  await expect(book.locator('.ant-table-row').first()).toBeVisible();
  const total = book.locator('.ant-pagination-total-text');
  const all = await total.innerText();
  await book.locator('.ant-tree').getByText('计算机学院', { exact: true }).click();
  await expect(book.locator('.ant-table-row').first()).toContainText('计算机学院');
  await expect(total).not.toHaveText(all);
  const firstName = (await book.locator('.ant-table-row').first().locator('td').first().innerText()).trim();
  await book.getByPlaceholder('请输入姓名查询').fill(firstName);
  await book.getByRole('button', { name: /^查\s*询$/ }).click();
  await expect(async () => {
    const names = await book.locator('.ant-table-row td:first-child').allInnerTexts();
    expect(names.length).toBeGreaterThan(0);
    for (const t of names) expect(t).toContain(firstName);
  }).toPass({ timeout: 15_000 });
  await book.getByPlaceholder('请输入姓名查询').fill('');
  await book.getByRole('button', { name: /^查\s*询$/ }).click();
  // The tree's search keeps the matching departments; choosing the node again shows everyone.
  await book.locator('.schema-aside').getByPlaceholder('搜索').fill('数学');
  await expect(book.locator('.ant-tree').getByText('数学与统计学院', { exact: true })).toBeVisible();
  await expect(book.locator('.ant-tree').getByText('计算机学院', { exact: true })).toHaveCount(0);
  await book.locator('.schema-aside').getByPlaceholder('搜索').fill('');
  await book.locator('.ant-tree').getByText('计算机学院', { exact: true }).click();
  await expect(total).toHaveText(all);
  await shot(page, 'address');

  await openMenu(page, '系统管理', '数据规则');
  await expect(row(page, '本部门及下级部门用户')).toContainText('用户管理');
  await shot(page, 'data-rules');

  await openMenu(page, '系统监控', '数据日志');
  const log = visibleRows(page).filter({ hasText: 'sys_user' }).filter({ has: page.locator('td', { hasText: /^2$/ }) }).first();
  await expect(log).toBeVisible();
  await log.getByText('数据比较', { exact: true }).click();
  const drawer = page.locator('.ant-drawer:visible');
  await expect(drawer.locator('.data-log-changed').filter({ hasText: '座机号' })).toContainText('0571-88206615');
  await expect(drawer).toContainText('个字段不同');
  await shot(page, 'data-log-compare');
  await drawer.locator('.ant-drawer-close').click();
});

test('file storage: upload, image preview, download and delete', async ({ page }) => {
  await login(page, 'admin');
  await openMenu(page, '系统监控', '文件存储');
  await page.getByRole('button', { name: '上传' }).click();
  const dialog = page.locator('.ant-modal:visible');
  // A 1×1 PNG.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  await dialog.locator('input[type=file]').setInputFiles({ name: '听课现场.png', mimeType: 'image/png', buffer: png });
  await expect(dialog.locator('.j-upload-done')).toBeVisible({ timeout: 20_000 });
  await dialog.getByRole('button', { name: /完\s*成/ }).click();
  await expect(page.locator('.ant-message')).toContainText('上传成功！共1个文件');
  const file = row(page, '听课现场.png');
  await expect(file.locator('img')).toBeVisible();
  await expect(file.locator('img')).toHaveAttribute('src', /\/sys\/common\/static\/.*[?]token=ft1\./);
  // The preview really loads (the static route needs a session; <img> sends a file token as ?token=, never the session token).
  await expect.poll(() => file.locator('img').evaluate((i: HTMLImageElement) => i.naturalWidth)).toBeGreaterThan(0);
  await shot(page, 'files');
  const download = page.waitForEvent('download');
  await file.getByText('下载', { exact: true }).click();
  expect((await download).suggestedFilename()).toBe('听课现场.png');
  await file.getByText('删除', { exact: true }).click();
  await page.locator('.ant-popover:visible').getByRole('button', { name: /确\s*定/ }).click();
  await expect(visibleRows(page).filter({ hasText: '听课现场.png' })).toHaveCount(0);
});

test('a job made with the cron builder fires and records its run, then is paused', async ({ page }) => {
  test.setTimeout(180_000);
  await login(page, 'admin');
  await openMenu(page, '系统监控', '定时任务');
  await expect(row(page, '示例任务')).toBeVisible();
  await rowAction(page, row(page, '示例任务'), '编辑');
  const dialog = page.locator('.ant-modal:visible');
  const expr = dialog.getByLabel('Cron表达式');
  await expect(expr).toHaveValue(/^0 0\/5 \* \* \* \?/);
  await dialog.getByRole('tab', { name: '秒' }).click();
  await dialog.getByRole('tabpanel').getByRole('radio', { name: '循环' }).check();
  await dialog.getByLabel('秒-loopStart').fill('0');
  await dialog.getByLabel('秒-loopInterval').fill('5');
  await dialog.getByLabel('秒-loopInterval').blur();
  await dialog.getByRole('tab', { name: '分' }).click();
  await dialog.getByRole('tabpanel').getByRole('radio', { name: '每分' }).check();
  await expect(expr).toHaveValue(/^0\/5 \* \* \* \* \?/);
  await shot(page, 'job-cron');
  await dialog.getByRole('radio', { name: '正常' }).check();
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.locator('.ant-message')).toContainText('编辑成功');
  await expect(row(page, '示例任务')).toContainText('正常');

  await row(page, '示例任务').getByText('执行记录', { exact: true }).click();
  // 执行记录: the run list (system/JobRunList) as a region of the job, in a drawer.
  const drawer = page.locator('.ant-drawer:visible');
  await expect(drawer.locator('.ant-drawer-title')).toContainText('0/5 * * * * ?');
  // A timed run appears with its outcome (刷新 reloads the region's list).
  const run = drawer.locator('.ant-table-row').filter({ hasText: '定时触发' }).filter({ hasText: '成功' }).first();
  await expect(async () => {
    await drawer.getByRole('button', { name: /^刷\s*新$/ }).click();
    await expect(run).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 40_000 });
  await expect(run).toContainText('示例任务执行');
  await expect(run.locator('.ant-tag')).toHaveText('成功');
  await shot(page, 'job-runs');
  await drawer.locator('.ant-drawer-close').click();

  // The list shows the last run and the next one; then the job is paused.
  await page.reload();
  await expect(row(page, '示例任务')).toContainText('成功');
  await row(page, '示例任务').getByText('停止', { exact: true }).click();
  await page.locator('.ant-popover:visible').getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.locator('.ant-message')).toContainText('暂停定时任务成功');
  await expect(row(page, '示例任务')).toContainText('停止');
});
