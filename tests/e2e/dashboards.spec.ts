import { expect, test, type Page } from '@playwright/test';
import { accessToken, login } from './helpers';

/**
 * The dashboard kind (renderer/Dashboard.tsx) on real screens: page filters, shared and polled panel
 * requests, charts drawn; list polling; the workplace and monitor dashboards; the 页面不存在 fallback.
 */
const API = '/jeecg-boot';

async function apiGet(page: Page, url: string) {
  const token = await accessToken(page);
  const r = await (await page.request.get(`${API}${url}`, { headers: { 'X-Access-Token': token } })).json();
  expect(r.success, `${url}: ${r.message}`).toBe(true);
  return r.result;
}

/** Requests the page has made to a url so far (resource timing). */
const requestsTo = (page: Page, part: string) => page.evaluate((p) => performance.getEntriesByType('resource').filter((e) => e.name.includes(p)).map((e) => e.name), part);

test('the home dashboard: one shared request, the term filter re-asks every panel, the grade chart is drawn', async ({ page }) => {
  await login(page, 'admin');
  await expect(page.getByTestId('dash-hello')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('score-chart').locator('canvas')).toBeVisible();
  // Nine panels read the summary: one request (per term).
  expect((await requestsTo(page, '/supervisor/dashboard/summary')).length).toBe(1);
  const current = await apiGet(page, '/supervisor/term/current');
  const terms = (await apiGet(page, '/supervisor/term/list?pageSize=50')).records as Array<{ id: string; name: string }>;
  const other = terms.find((t) => t.id !== current.id)!;
  const filter = page.locator('.dashboard-filters .ant-select');
  await expect(filter).toContainText(current.name);

  await filter.click();
  await page.locator('.ant-select-dropdown:visible').getByText(other.name, { exact: true }).click();
  await expect.poll(() => requestsTo(page, `termId=${other.id}`)).toHaveLength(1);
  const s = await apiGet(page, `/supervisor/dashboard/summary?termId=${other.id}`);
  if (s.term) await expect(page.getByTestId('dash-hello')).toContainText(other.name);
  await expect(page.getByTestId('dash-recent').locator('tr.ant-table-row')).toHaveCount(s.recent?.length ?? 0);
});

test('the workplace shows my to-dos, my observations and only the shortcuts I may open', async ({ page }) => {
  await login(page, 'teacher');
  await page.goto('/dashboard/workplace');
  const w = await apiGet(page, '/supervisor/dashboard/workplace');
  await expect(page.getByTestId('wp-todos').locator('.dashboard-value')).toHaveText(String(w.todoTotal), { timeout: 20_000 });
  await expect(page.getByTestId('wp-required').locator('.dashboard-value')).toHaveText(String(w.mine.required));
  const todos = page.getByTestId('wp-todo-list').locator('.ant-list-item');
  await expect(todos).toHaveCount(w.todos.length);
  expect(w.todos.length).toBeGreaterThan(0); // the seeded teacher has records to confirm
  await expect(todos.first()).toContainText(`${w.todos[0].count} 项`);
  await expect(page.getByTestId('wp-tasks').locator('tr.ant-table-row')).toHaveCount(w.tasks.length);
  await expect(page.getByTestId('wp-notices').locator('.ant-list-item')).toHaveCount(w.notices.length);
  // Shortcuts: the teacher's menu has the records, not the statistics.
  const shortcuts = page.getByTestId('wp-shortcuts');
  await expect(shortcuts.getByRole('button', { name: '听课记录' })).toBeVisible();
  await expect(shortcuts.getByRole('button', { name: '听课统计' })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screenshots/workplace-teacher.png' });
  // A to-do leads to its screen.
  await todos.first().getByRole('link').or(todos.first().locator('a')).first().click();
  await expect(page).toHaveURL(new RegExp(`${w.todos[0].url}$`));
});

test('the monitor dashboard draws its gauge and charts and polls while visible', async ({ page }) => {
  await login(page, 'admin');
  await page.goto('/dashboard/monitor');
  await expect(page.getByTestId('mon-cpu').locator('.dashboard-value')).toHaveText(/%$/, { timeout: 20_000 });
  await expect(page.getByTestId('mon-cpu-gauge').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('mon-load').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('mon-database')).toContainText('数据库大小');
  const http = await apiGet(page, '/sys/actuator/http');
  expect(http.sockets).toEqual(expect.any(Number));
  // Four panels read /sys/actuator/system: one request each time, again after the refresh interval.
  expect((await requestsTo(page, '/sys/actuator/system')).length).toBe(1);
  await expect.poll(() => requestsTo(page, '/sys/actuator/system').then((r) => r.length), { timeout: 20_000 }).toBe(2);
  // A hidden tab stops polling; showing it again asks at once.
  await page.evaluate(() => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  const hiddenAt = (await requestsTo(page, '/sys/actuator/system')).length;
  await page.evaluate(() => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await expect.poll(() => requestsTo(page, '/sys/actuator/system').then((r) => r.length)).toBe(hiddenAt + 1);
  // Leaving the page stops its polling: the tab is closed, nothing is asked any more.
  await page.screenshot({ path: 'test-results/screenshots/monitor.png' });
});

test('the monitoring screens draw their disk gauges, status pie, latency chart and table', async ({ page }) => {
  await login(page, 'admin');
  await page.goto('/monitor/Disk');
  const disks = await apiGet(page, '/sys/actuator/redis/queryDiskInfo');
  await expect(page.getByTestId('disks').locator('.ant-progress')).toHaveCount(disks.length, { timeout: 20_000 });
  await expect(page.getByTestId('disks')).toContainText(disks[0].name);
  await page.goto('/monitor/TomcatInfo');
  await expect(page.getByTestId('http')).toContainText('请求总数');
  await expect(page.getByTestId('http-status').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('http-history').locator('canvas')).toBeVisible();
  await page.goto('/monitor/RedisInfo');
  await expect(page.getByTestId('database-tables').locator('tr.ant-table-row').first()).toBeVisible({ timeout: 20_000 });
});

test('a polled list re-asks its page quietly: no spinner, the rows stay', async ({ page }) => {
  await login(page, 'admin');
  await page.goto('/monitor/onlineUser');
  const rows = page.locator('.ant-table-row');
  await expect(rows.first()).toBeVisible({ timeout: 20_000 });
  const first = (await requestsTo(page, '/sys/online/list')).length;
  // Watch for the table's loading spinner from now on.
  await page.evaluate(() => {
    (window as unknown as { spun: boolean }).spun = false;
    new MutationObserver(() => {
      if (document.querySelector('.ant-table-wrapper .ant-spin-spinning')) (window as unknown as { spun: boolean }).spun = true;
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await expect.poll(() => requestsTo(page, '/sys/online/list').then((r) => r.length), { timeout: 20_000 }).toBeGreaterThan(first);
  await expect(rows.first()).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { spun: boolean }).spun)).toBe(false);
});

test('其他接口权限 lists its permission codes; a screen that does not exist names no internal component', async ({ page }) => {
  await login(page, 'admin');
  await page.goto('/isystem/unassigned');
  await expect(page.getByTestId('unassigned').locator('tr.ant-table-row').first()).toContainText(':', { timeout: 20_000 });
  // A menu entry whose component no page schema or screen provides (every seeded entry has one now).
  const token = await accessToken(page);
  const call = async (method: 'GET' | 'POST', url: string, data?: unknown) => {
    const r = await (await page.request.fetch(`${API}${url}`, { method, data, headers: { 'X-Access-Token': token } })).json();
    expect(r.success, `${url}: ${r.message}`).toBe(true);
    return r.result;
  };
  const url = `/demo/missing${Date.now() % 100000}`;
  await call('POST', '/sys/permission/add', { name: '缺少页面', menuType: 0, url, component: 'demo/NoSuchScreen', sortNo: 99 });
  const find = (ns: Array<Record<string, any>>): Record<string, any> | undefined => {
    for (const n of ns) {
      const hit = n.url === url ? n : find(n.children ?? []);
      if (hit) return hit;
    }
    return undefined;
  };
  const menuId = find(await call('GET', '/sys/permission/list'))!.id as string;
  const roleId = (await call('GET', '/sys/role/list?roleCode=admin')).records[0]!.id as string;
  const held = (await call('GET', `/sys/permission/queryRolePermission?roleId=${roleId}`)) as string[];
  await call('POST', '/sys/permission/saveRolePermission', { roleId, permissionIds: [...held, menuId].join(','), lastpermissionIds: '' });
  // Changing the role's grants ends its sessions: sign in again.
  await page.evaluate(() => localStorage.clear());
  await login(page, 'admin');
  await page.goto(url);
  await expect(page.getByText('页面不存在')).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('.ant-result')).not.toContainText('NoSuchScreen');
  await expect(page.getByText('建设中')).toHaveCount(0);
});
