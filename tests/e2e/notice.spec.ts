import { expect, request as pwRequest, test, type APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, login } from './helpers';

const API = '/jeecg-boot';

/** An API client signed in as a demo account (own forwarded address: no captcha interplay). */
async function apiAs(baseURL: string, username: string): Promise<{ api: APIRequestContext; token: string; userId: string }> {
  const api = await pwRequest.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': '10.88.0.7' } });
  const r = await (await api.post(`${API}/sys/login`, { data: { username, password: DEMO_PASSWORD } })).json();
  expect(r.code).toBe(200);
  return { api, token: r.result.token, userId: r.result.userInfo.id };
}

test.describe('notice centre and system services', () => {
  test('a notice published by the admin reaches another user\'s open browser through the websocket and is marked read', async ({ page, baseURL }) => {
    const frames: string[] = [];
    page.on('websocket', (ws) => {
      if (ws.url().includes('/websocket/')) ws.on('framereceived', (f) => frames.push(String(f.payload)));
    });
    await login(page, 'teacher');
    const bell = page.getByTestId('notice-bell');
    await expect(bell).toBeVisible();
    // Read whatever is pending so the count starts at zero.
    const teacher = await apiAs(baseURL!, 'teacher');
    await teacher.api.put(`${API}/sys/sysAnnouncementSend/readAll`, { headers: { 'X-Access-Token': teacher.token }, data: {} });
    await page.waitForTimeout(500);

    const admin = await apiAs(baseURL!, 'admin');
    const h = { 'X-Access-Token': admin.token };
    const title = `期中教学检查通知 ${Date.now()}`;
    const add = await (await admin.api.post(`${API}/sys/annountCement/add`, {
      headers: h,
      data: { titile: title, msgContent: '<p>请各位老师<b>按时</b>提交教学材料。</p>', msgCategory: '1', priority: 'H', msgType: 'USER', userIds: `${teacher.userId},`, openType: 'url', openPage: '/dashboard/analysis' },
    })).json();
    expect(add.success).toBe(true);
    const list = await (await admin.api.get(`${API}/sys/annountCement/list?titile=${encodeURIComponent(title)}`, { headers: h })).json();
    const id = list.result.records[0].id as string;
    const published = Date.now();
    expect((await (await admin.api.get(`${API}/sys/annountCement/doReleaseData?id=${id}`, { headers: h })).json()).success).toBe(true);

    // Pushed over the socket (not the 6 s poll): the frame and the badge arrive within about a second.
    await expect.poll(() => frames.some((f) => f.includes(id)), { timeout: 2000 }).toBe(true);
    await expect(page.getByTestId('notice-badge').locator('.ant-badge-count')).toHaveText('1', { timeout: 2000 });
    expect(Date.now() - published).toBeLessThan(2500);

    await bell.click();
    await expect(page.getByRole('tab', { name: '通知(1)' })).toBeVisible();
    await page.getByTestId('notice-item').filter({ hasText: title }).click();
    const detail = page.getByRole('dialog', { name: '通知消息' });
    await expect(detail).toBeVisible();
    await expect(detail).toContainText(title);
    await expect(detail.locator('b')).toHaveText('按时');
    await expect(detail.getByRole('button', { name: '去处理' })).toBeVisible();
    await detail.getByRole('button', { name: /关\s*闭/ }).click();
    await expect(page.getByTestId('notice-badge').locator('.ant-badge-count')).toHaveCount(0);

    // 查看更多 opens my announcements, where it is listed as read.
    // The popover may still be open (or closing) from before: open it until 查看更多 is there to click.
    const more = page.getByRole('button', { name: '查看更多' });
    await expect(async () => {
      if (!(await more.isVisible())) await bell.click();
      await more.click({ timeout: 2_000 });
      await expect(page).toHaveURL(/\/isps\/userAnnouncement$/, { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    const row = page.locator('.ant-table-row').filter({ hasText: title });
    await expect(row).toBeVisible();
    await expect(row).toContainText('已读');

    const mine = await (await teacher.api.get(`${API}/sys/sysAnnouncementSend/getMyAnnouncementSend?pageSize=50`, { headers: { 'X-Access-Token': teacher.token } })).json();
    expect(mine.result.records.find((r: { id: string }) => r.id === id)).toMatchObject({ readFlag: '1' });
    await admin.api.dispose();
    await teacher.api.dispose();
  });

  test('a scheduled job fires and records its run', async ({ baseURL }) => {
    const admin = await apiAs(baseURL!, 'admin');
    const h = { 'X-Access-Token': admin.token };
    const jobs = await (await admin.api.get(`${API}/sys/quartzJob/list?jobClassName=demoHello`, { headers: h })).json();
    const job = jobs.result.records[0];
    const edit = await (await admin.api.put(`${API}/sys/quartzJob/edit`, { headers: h, data: { ...job, cronExpression: '0/5 * * * * ?', parameter: 'e2e', status: 0 } })).json();
    expect(edit.success).toBe(true);
    await expect
      .poll(async () => {
        const runs = await (await admin.api.get(`${API}/sys/quartzJob/runs?jobId=${job.id}`, { headers: h })).json();
        return runs.result.records.find((r: { triggerType: string; status: string }) => r.triggerType === 'cron' && r.status === 'success')?.message;
      }, { timeout: 12_000 })
      .toBe('示例任务执行：e2e');
    expect((await (await admin.api.get(`${API}/sys/quartzJob/pause?id=${job.id}`, { headers: h })).json()).success).toBe(true);
    await admin.api.dispose();
  });

  test('force logout ends a signed-in browser session', async ({ page, baseURL }) => {
    let socketClosed = false;
    page.on('websocket', (ws) => {
      if (ws.url().includes('/websocket/')) ws.on('close', () => (socketClosed = true));
    });
    await login(page, 'secretary');
    const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('Access-Token') ?? '{}') as { value?: string }).value ?? '');
    expect(token).not.toBe('');
    const admin = await apiAs(baseURL!, 'admin');
    const h = { 'X-Access-Token': admin.token };
    const online = await (await admin.api.get(`${API}/sys/online/list?pageSize=100&username=secretary`, { headers: h })).json();
    expect(online.result.records.length).toBeGreaterThan(0);
    for (const r of online.result.records) await admin.api.post(`${API}/sys/online/forceLogout`, { headers: h, data: { id: r.id } });
    // The browser's notice socket is closed by the server (session check within 5 s).
    await expect.poll(() => socketClosed, { timeout: 8000 }).toBe(true);
    // The next request is refused: the shell shows the expiry dialog (SPEC §8) and goes back to sign in.
    await page.reload();
    const expired = page.getByRole('dialog').filter({ hasText: '很抱歉，登录已过期，请重新登录' });
    await expect(expired).toBeVisible({ timeout: 15_000 });
    await expired.getByRole('button', { name: '重新登录' }).click();
    await expect(page).toHaveURL(/\/user\/login/, { timeout: 15_000 });
    await admin.api.dispose();
  });

  test('monitoring pages refresh live for the admin, and the home page draws the 7-day visits', async ({ page }) => {
    await login(page, 'admin');
    await expect(page.getByTestId('visit-chart').locator('canvas')).toBeVisible();
    await page.goto('/monitor/SystemInfo');
    await expect(page.getByTestId('system').getByText('CPU使用率', { exact: true })).toBeVisible();
    await expect(page.getByTestId('system-history').locator('canvas')).toBeVisible();
    const before = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/sys/actuator/system')).length);
    await expect.poll(() => page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/sys/actuator/system')).length), { timeout: 8000 }).toBeGreaterThan(before);
    await page.goto('/monitor/HttpTrace');
    await expect(page.locator('.ant-table-row').first()).toBeVisible();
    await expect(page.locator('.ant-table')).not.toContainText('X-Access-Token');
  });

  test('the admin screens of announcements, jobs and logs list their data', async ({ page }) => {
    await login(page, 'admin');
    await page.goto('/isystem/announcement');
    // Other tests publish notices into the shared database: search rather than rely on page 1.
    await page.getByPlaceholder('请输入标题').fill('欢迎使用督导听课系统');
    await page.getByRole('button', { name: /^查\s*询$/ }).click();
    await expect(page.locator('.ant-table-row').filter({ hasText: '欢迎使用督导听课系统' })).toContainText('已发布');
    await page.goto('/monitor/quartzJob');
    await expect(page.locator('.ant-table-row').filter({ hasText: 'cleanExpiredSessions' })).toContainText('清理过期会话');
    await page.goto('/monitor/log');
    await expect(page.locator('.ant-table-row').filter({ hasText: '用户名: admin,登录成功！' }).first()).toBeVisible();
  });
});
