import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { accessToken, login } from './helpers';

/** The term dashboard on the home tab (numbers = GET /supervisor/dashboard/summary) and the timetable grid. */
const API = '/jeecg-boot';
const shots = process.env.SHOTS_DIR ?? 'test-results/screenshots';
mkdirSync(shots, { recursive: true });

async function apiGet(page: Page, url: string) {
  const token = await accessToken(page);
  const r = await (await page.request.get(`${API}${url}`, { headers: { 'X-Access-Token': token } })).json();
  expect(r.success, `${url}: ${r.message}`).toBe(true);
  return r.result;
}

const pct = (r: number | null) => (r === null ? '—' : `${Math.round(r * 1000) / 10}%`);

for (const who of ['admin', 'supervisor', 'leader', 'teacher'] as const) {
  test(`home shows the term dashboard of ${who} with the API's numbers`, async ({ page }) => {
    await login(page, who);
    await expect(page).toHaveURL(/\/dashboard\/analysis$/);
    // The home page is a dashboard schema (schemas/pages/dashboard/Analysis.json): panels by key.
    const hello = page.getByTestId('dash-hello');
    await expect(hello).toBeVisible({ timeout: 20_000 });
    const s = await apiGet(page, '/supervisor/dashboard/summary');
    expect(s.term).toBeTruthy();
    await expect(hello).toContainText(`${s.term.name} · 第 ${s.term.week} 周（共 ${s.term.weekCount} 周）`);
    const stat = (key: string) => page.getByTestId(key).locator('.dashboard-value');
    await expect(stat('dash-required')).toHaveText(String(s.mine.required));
    await expect(stat('dash-actual')).toHaveText(String(s.mine.actual));
    await expect(stat('dash-rate')).toHaveText(pct(s.mine.rate));
    await expect(stat('dash-overdue')).toHaveText(String(s.overdueTasks.length));
    // Recent records: same rows, same order.
    const recent = page.getByTestId('dash-recent').locator('tr.ant-table-row');
    await expect(recent).toHaveCount(s.recent.length);
    if (s.recent.length) await expect(recent.first()).toContainText(s.recent[0].courseName);
    await expect(page.getByTestId('dash-overdue-list').locator('tr.ant-table-row')).toHaveCount(s.overdueTasks.length);

    // Department view (not for teachers): a grade chart (echarts canvas) and the completion table.
    if (who === 'teacher') expect(s.department).toEqual([]);
    if (who === 'admin') expect(s.scoreDistribution.length).toBeGreaterThan(0);
    if (s.scoreDistribution.length) await expect(page.getByTestId('score-chart').locator('canvas')).toBeVisible();
    else await expect(page.getByTestId('score-chart')).toHaveCount(0);
    if (s.department.length) await expect(page.getByTestId('dash-departments').locator('tr.ant-table-row').first()).toContainText(s.department[0].departName);
    else await expect(page.getByTestId('dash-departments')).toHaveCount(0);
    await page.mouse.move(700, 10);
    await page.waitForTimeout(1200); // chart animation
    if (s.scoreDistribution.length) {
      // The bars are painted (echarts as the app registers it: core/ui/echarts.ts): pixels in a grade's
      // colour below the legend (the top 40 px).
      const barPixels = await page.getByTestId('score-chart').locator('canvas').evaluate((c: HTMLCanvasElement) => {
        const top = Math.round(40 * (c.height / c.clientHeight));
        const d = c.getContext('2d')!.getImageData(0, top, c.width, c.height - top).data;
        const grades = [[82, 196, 26], [19, 194, 194], [22, 119, 255], [250, 140, 22], [245, 34, 45]];
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (grades.some(([r, g, b]) => d[i] === r && d[i + 1] === g && d[i + 2] === b)) n++;
        return n;
      });
      expect(barPixels).toBeGreaterThan(500);
    }
    await page.screenshot({ path: `${shots}/dashboard-${who}.png` });
    // Drill-down to the records list.
    await page.locator('.ant-card', { hasText: '最近听课记录' }).getByRole('button', { name: '查看全部' }).click();
    await expect(page).toHaveURL(/\/supervisor\/lectureRecord$/);
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
  await page.locator('div.ant-select[aria-label="周次"]').click();
  await page.locator('.ant-select-dropdown:visible').getByText('第 1 周', { exact: true }).click();
  await expect(page).toHaveURL(/week=1/);
  await expect(grid.getByTestId('tt-lesson')).toHaveCount(week1.length);

  // Another kind of timetable asks for its object instead of showing the teacher's lessons under it.
  await page.getByText('班级课表', { exact: true }).click();
  await expect(page.getByText('请选择班级')).toBeVisible();
  await expect(grid).toHaveCount(0);
});

test('the other timetable screens open with their content', async ({ page }) => {
  await login(page, 'admin');
  await page.goto('/timetable/baseInfo');
  for (const tab of ['课程', '班级', '教室', '教学任务']) await expect(page.getByRole('tab', { name: tab, exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('.ant-table-tbody tr.ant-table-row').first()).toBeVisible();
  await page.getByRole('tab', { name: '教室', exact: true }).click();
  await expect(page.locator('.ant-tabs-tabpane-active .ant-table-tbody tr.ant-table-row').first()).toBeVisible();
  await page.goto('/timetable/setTime');
  await expect(page.getByRole('tab', { name: '作息时间', exact: true })).toBeVisible({ timeout: 20_000 });
  await page.goto('/timetable/import');
  await page.getByRole('button', { name: '导入课表' }).click({ timeout: 20_000 });
  await expect(page.getByText('点击或拖拽文件到此处')).toBeVisible();
  await page.getByRole('button', { name: /预\s*览/ }).click();
  await expect(page.getByText('请先选择要导入的文件')).toBeVisible();
  await page.screenshot({ path: `${shots}/timetable-import.png` });
});
