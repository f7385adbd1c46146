import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { accessToken, login } from './helpers';

/** The term dashboard on the home tab (numbers = GET /supervisor/dashboard/summary) and the timetable grid. */
const API = '/jeecg-boot';
const shots = 'test-results/screenshots';
mkdirSync(shots, { recursive: true });

async function apiGet(page: Page, url: string) {
  const token = await accessToken(page);
  const r = await (await page.request.get(`${API}${url}`, { headers: { 'X-Access-Token': token } })).json();
  expect(r.success, `${url}: ${r.message}`).toBe(true);
  return r.result;
}

const pct = (r: number | null) => (r === null ? '—' : `${Math.round(r * 1000) / 10}%`);

for (const who of ['admin', 'teacher'] as const) {
  test(`home shows the term dashboard of ${who} with the API's numbers`, async ({ page }) => {
    await login(page, who);
    await expect(page).toHaveURL(/\/dashboard\/analysis$/);
    const dash = page.getByTestId('term-dashboard');
    await expect(dash).toBeVisible({ timeout: 20_000 });
    const s = await apiGet(page, '/supervisor/dashboard/summary');
    expect(s.term).toBeTruthy();
    await expect(page.getByTestId('dash-week')).toHaveText(String(s.term.week));
    await expect(page.getByTestId('dash-required')).toHaveText(String(s.mine.required));
    await expect(page.getByTestId('dash-actual')).toHaveText(String(s.mine.actual));
    await expect(page.getByTestId('dash-rate')).toHaveText(pct(s.mine.rate));
    await expect(page.getByTestId('dash-overdue')).toHaveText(String(s.overdueTasks.length));
    // Recent records: same rows, same order.
    const recent = page.getByTestId('dash-recent').locator('tr.ant-table-row');
    await expect(recent).toHaveCount(s.recent.length);
    if (s.recent.length) await expect(recent.first()).toContainText(s.recent[0].courseName);
    await expect(page.getByTestId('dash-overdue-list').locator('tr.ant-table-row')).toHaveCount(s.overdueTasks.length);

    if (who === 'admin') {
      // The school-wide view: a grade chart (echarts canvas) and the department completion table.
      expect(s.scoreDistribution.length).toBeGreaterThan(0);
      await expect(page.getByTestId('score-chart').locator('canvas')).toBeVisible();
      await expect(page.getByTestId('dash-departments').locator('tr.ant-table-row').first()).toBeVisible();
      // Drill-down to the records list.
      await page.mouse.move(700, 10);
      await page.waitForTimeout(500);
      await page.screenshot({ path: `${shots}/dashboard-admin.png` });
      await page.locator('.ant-card', { hasText: '最近听课记录' }).getByRole('button', { name: '查看全部' }).click();
      await expect(page).toHaveURL(/\/supervisor\/lectureRecord$/);
    } else {
      // A teacher sees only their own numbers: no department view.
      expect(s.department).toEqual([]);
      await expect(page.getByTestId('dash-departments')).toHaveCount(0);
      await page.screenshot({ path: `${shots}/dashboard-teacher.png` });
    }
  });
}

test('the timetable grid shows the demo teacher’s lessons', async ({ page }) => {
  await login(page, 'admin');
  const users = await apiGet(page, '/sys/user/queryUserComponentDataWithRole?username=teacher&pageSize=50');
  const teacher = users.records.find((u: { username: string }) => u.username === 'teacher');
  expect(teacher).toBeTruthy();
  const lessons = await apiGet(page, `/supervisor/courseSchedule/timetable?teacherId=${teacher.id}`);
  expect(lessons.length).toBeGreaterThan(0);

  await page.goto(`/timetable/schedule?teacherId=${teacher.id}`);
  const grid = page.getByTestId('timetable-grid');
  await expect(grid).toBeVisible({ timeout: 20_000 });
  await expect(grid.getByTestId('tt-lesson')).toHaveCount(lessons.length);
  await expect(grid).toContainText(lessons[0].courseName);
  // The first lesson sits in its weekday's column (column 0 = sections).
  const first = lessons[0];
  const cell = grid.locator('tbody tr').nth(first.startSection - 1).locator('td', { hasText: first.courseName }).first();
  await expect(cell).toHaveAttribute('rowspan', String(first.endSection - first.startSection + 1));
  await page.screenshot({ path: `${shots}/timetable-teacher.png` });

  // One week only: the grid narrows to that week's lessons.
  const week1 = await apiGet(page, `/supervisor/courseSchedule/timetable?teacherId=${teacher.id}&week=1`);
  await page.getByLabel('周次').click();
  await page.locator('.ant-select-dropdown:visible').getByText('第 1 周', { exact: true }).click();
  await expect(page).toHaveURL(/week=1/);
  await expect(grid.getByTestId('tt-lesson')).toHaveCount(week1.length);
});
