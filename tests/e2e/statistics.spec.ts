import { expect, test, type Locator, type Page } from '@playwright/test';
import { accessToken, login } from './helpers';

/**
 * The statistics screens' summaries (widgets/statistics/ReportSummary, the list renderer's `header`):
 * the cards equal the API's answers, the charts are drawn, and a number opens the records behind it.
 */
type Row = Record<string, any>;
const SHOTS = process.env.E2E_SHOTS ?? 'test-results';

async function api(page: Page, url: string): Promise<any> {
  const token = await accessToken(page);
  const r = await (await page.request.get(`/jeecg-boot${url}`, { headers: { 'X-Access-Token': token } })).json();
  expect(r.success, `${url}: ${r.message}`).toBe(true);
  return r.result;
}
const pct = (r: number) => `${Math.round(r * 1000) / 10}%`;
/** The active tab's page (other tabs stay in the DOM, hidden). */
const pane = (page: Page) => page.locator('.page-pane:visible');
/** The list's own table (the summary above it has one too). */
const listTable = (page: Page) => pane(page).locator('.ant-card-body > .ant-table-wrapper').last();
const total = (page: Page) => pane(page).locator('.ant-pagination-total-text').last();

/** Signs in and opens a statistics screen until its summary shows. */
async function openSummary(page: Page, user: string, path: string) {
  await page.setViewportSize({ width: 1366, height: 900 });
  await login(page, user);
  await summary(page, path);
}

async function summary(page: Page, path: string) {
  await page.goto(path);
  await expect(pane(page).getByTestId('report-summary')).toBeVisible({ timeout: 20_000 });
}

/** Follows a number's drill-down link: the records list it opens has exactly that many rows. */
async function drill(page: Page, link: Locator, url: RegExp) {
  await expect(link).toBeVisible({ timeout: 20_000 });
  // The number and the link it opens, read together; the click goes to that very link.
  const { n, href } = await link.evaluate((a: HTMLAnchorElement) => ({ n: Number(a.textContent), href: a.getAttribute('href')! }));
  await pane(page).locator(`a.stat-drill[href="${href}"]`).click();
  await expect(page).toHaveURL(url);
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(href);
  await expect(total(page)).toContainText(`共${n}条`, { timeout: 20_000 });
  return n;
}

/** Pixels of a chart's canvas that are not background: proves something was drawn. */
async function inked(page: Page, testId: string): Promise<number> {
  return pane(page).getByTestId(testId).locator('canvas').first().evaluate((c: HTMLCanvasElement) => {
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i]! > 0) n++;
    return n;
  });
}

/** CSS position (relative to the canvas) of the topmost pixel of `rgb` below `minY` CSS px: a bar of that colour. */
async function pixelOf(page: Page, testId: string, rgb: [number, number, number], minY: number) {
  return pane(page).getByTestId(testId).locator('canvas').first().evaluate(
    (c: HTMLCanvasElement, [rgb, minY]) => {
      const dpr = c.width / c.getBoundingClientRect().width;
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      for (let y = Math.ceil(minY * dpr); y < c.height; y++)
        for (let x = 0; x < c.width; x++) {
          const i = (y * c.width + x) * 4;
          if (Math.abs(d[i]! - rgb[0]) < 4 && Math.abs(d[i + 1]! - rgb[1]) < 4 && Math.abs(d[i + 2]! - rgb[2]) < 4 && d[i + 3]! > 250)
            return { x: x / dpr + 3, y: y / dpr + 3 };
        }
      return null;
    },
    [rgb, minY] as const,
  );
}

test.describe.configure({ mode: 'serial' });

test('听课频次: the cards equal /coverage and /frequencyByDepart, the weekly chart is drawn, numbers open their records', async ({ page }) => {
  test.setTimeout(120_000);
  await openSummary(page, 'admin', '/statistics/frequency');
  const cov = await api(page, '/supervisor/report/coverage');
  const depts = (await api(page, '/supervisor/report/frequencyByDepart')) as Row[];
  const heads = depts.reduce((a, d) => a + d.headcount, 0);
  const done = depts.reduce((a, d) => a + d.completed, 0);
  await expect(pane(page).getByTestId('stat-coverage')).toHaveText(`${cov.observed} / ${cov.teaching}`);
  await expect(pane(page).getByTestId('stat-coverage-rate')).toHaveText(pct(cov.rate));
  await expect(pane(page).getByTestId('stat-headcount')).toHaveText(String(heads));
  await expect(pane(page).getByTestId('stat-completed')).toHaveText(String(done));
  await expect(pane(page).getByTestId('stat-rate')).toHaveText(pct(done / heads));
  await expect(pane(page).getByTestId('weekly-chart').locator('canvas')).toBeVisible();
  await expect.poll(() => inked(page, 'weekly-chart'), { timeout: 10_000 }).toBeGreaterThan(2000);
  await page.screenshot({ path: `${SHOTS}/statistics-frequency-admin.png`, fullPage: true });

  // A department's 应听人数 opens the per-person list of that department (数学与统计学院: no sub-departments).
  const math = depts.find((d) => d.departName === '数学与统计学院')!;
  await pane(page).getByTestId('dept-table').locator('tr', { hasText: '数学与统计学院' }).locator('td').nth(1).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/statistics/frequency\\?departId=${math.departId}`));
  await expect(total(page)).toContainText(`共${math.headcount}条`, { timeout: 20_000 });

  // 实听 of a person opens that person's records: the same count.
  const n = await drill(page, listTable(page).locator('a.stat-drill').first(), /\/statistics\/performance\/detail\?userId=\w+&side=listener/);
  expect(n).toBeGreaterThan(0);
});

test('听课成绩: the cards equal the API, the grade chart switches grouping, a number and a bar open their records', async ({ page }) => {
  test.setTimeout(120_000);
  await openSummary(page, 'admin', '/statistics/performance');
  const perf = (await api(page, '/supervisor/report/performance')) as Row[];
  const dist = (await api(page, '/supervisor/report/gradeDistribution?by=depart')) as Row[];
  const n = perf.reduce((a, r) => a + r.count, 0);
  const graded = dist.reduce((a, r) => a + r.total, 0);
  const excellent = dist.reduce((a, r) => a + (r.EXCELLENT ?? 0), 0);
  await expect(pane(page).getByTestId('stat-teachers')).toHaveText(String(perf.length));
  await expect(pane(page).getByTestId('stat-avg')).toHaveText(String(Math.round((perf.reduce((a, r) => a + r.avg * r.count, 0) / n) * 100) / 100));
  await expect(pane(page).getByTestId('stat-excellent')).toHaveText(pct(excellent / graded));
  await expect.poll(() => inked(page, 'grade-chart'), { timeout: 10_000 }).toBeGreaterThan(2000);
  await expect(listTable(page).locator('thead th', { hasText: '去极值平均' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/statistics-performance-admin.png`, fullPage: true });

  // 按职称 asks the server again and redraws.
  const byTitle = page.waitForResponse((r) => r.url().includes('gradeDistribution') && r.url().includes('by=title'));
  await pane(page).getByTestId('grade-by').getByText('按职称').click();
  await byTitle;
  await expect.poll(() => inked(page, 'grade-chart'), { timeout: 10_000 }).toBeGreaterThan(2000);
  await pane(page).getByTestId('grade-by').getByText('按部门').click();
  await page.waitForTimeout(800); // the redraw animation

  // The topmost 优秀 bar (green, below the legend) is the first department with 优秀 records: it opens them.
  const first = dist.find((r) => r.EXCELLENT)!;
  const at = await pixelOf(page, 'grade-chart', [82, 196, 26], 40);
  expect(at).not.toBeNull();
  await pane(page).getByTestId('grade-chart').locator('canvas').first().click({ position: at! });
  // The drill-down counts the term shown selected (the current one).
  await expect(page).toHaveURL(new RegExp(`/statistics/performance/detail\\?side=teacher&grade=EXCELLENT&termId=\\w+&departId=${first.departId}`));
  await expect(total(page)).toContainText(`共${first.EXCELLENT}条`, { timeout: 20_000 });

  // 被听次数 of a teacher opens that teacher's records: the same count.
  await page.goto('/statistics/performance');
  await drill(page, listTable(page).locator('a.stat-drill').first(), /\/statistics\/performance\/detail\?teacherId=\w+&side=teacher/);
});

test('the list rows do not move once drawn: the summary above them appears with them, at its final size', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await login(page, 'admin');
  // Every distinct top of the list's first row, frame by frame, from the page's start.
  await page.addInitScript(() => {
    const tops: number[] = ((window as unknown as { __tops: number[] }).__tops = []);
    const frame = () => {
      const row = document.querySelector('.page-pane .ant-card-body > .ant-table-wrapper:last-child tr.ant-table-row');
      const y = row && Math.round(row.getBoundingClientRect().top);
      if (y !== null && tops[tops.length - 1] !== y) tops.push(y);
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  for (const [path, chart] of [['/statistics/performance', 'grade-chart'], ['/statistics/frequency', 'weekly-chart']] as const) {
    await page.goto(path);
    await expect.poll(() => inked(page, chart), { timeout: 20_000 }).toBeGreaterThan(2000);
    expect(await page.evaluate(() => (window as unknown as { __tops: number[] }).__tops), path).toHaveLength(1);
  }
});

test('as leader: the summaries show the leader department only', async ({ page }) => {
  test.setTimeout(120_000);
  await openSummary(page, 'leader', '/statistics/frequency');
  const cov = await api(page, '/supervisor/report/coverage');
  await expect(pane(page).getByTestId('stat-coverage')).toHaveText(`${cov.observed} / ${cov.teaching}`);
  await expect.poll(() => inked(page, 'weekly-chart'), { timeout: 10_000 }).toBeGreaterThan(2000);
  await page.screenshot({ path: `${SHOTS}/statistics-frequency-leader.png`, fullPage: true });
  await summary(page, '/statistics/performance');
  await expect.poll(() => inked(page, 'grade-chart'), { timeout: 10_000 }).toBeGreaterThan(2000);
  await page.screenshot({ path: `${SHOTS}/statistics-performance-leader.png`, fullPage: true });
});
