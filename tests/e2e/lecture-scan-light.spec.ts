import { expect, test, type Page } from '@playwright/test';
import { apiAs, disposeApiClients, expectFitsPhone, lessonOnNow, login } from './helpers';

/**
 * The light entry of 扫码听课 (app/scan.tsx, docs/decisions.md): a classroom's QR URL opened directly on a phone
 * is answered with scan.html — the same page schema and widget without the main shell — signed out it goes
 * to sign-in with the URL kept; signed in the lesson on now is ready to score; the offline shell keeps this
 * page, so the tab reopened without network is the same light page with its draft (未同步), which syncs when
 * the network returns.
 */
type Row = Record<string, any>;

test.afterAll(async () => {
  await disposeApiClients();
});
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 });


/** The page is the light entry: its own script, no main layout. */
async function expectLight(page: Page) {
  await expect(page.getByTestId('lecture-mobile')).toBeVisible({ timeout: 20_000 });
  expect(await page.evaluate(() => [...document.scripts].some((s) => /\/assets\/scan-[\w-]+\.js$/.test(s.src)))).toBe(true);
  await expect(page.locator('.basic-layout')).toHaveCount(0);
}

test('phone: a QR URL opened directly draws the form without the shell, reopens offline with its draft, syncs online', async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  const admin = await apiAs(baseURL!, 'admin', '10.88.0.47');
  const sup = await apiAs(baseURL!, 'supervisor', '10.88.0.47');
  const { task, leaves, date, scanUrl } = await lessonOnNow(admin, sup, { code: 'LT', building: '致远楼', campus: '轻入口校区', section: 6 });

  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1, locale: 'zh-CN', timezoneId: 'Asia/Shanghai', reducedMotion: 'reduce' });
  try {
    // Signed out: the light page sends the visitor to sign-in, keeping the URL.
    let page = await ctx.newPage();
    await page.goto(scanUrl);
    await expect(page).toHaveURL(/\/user\/login\?redirect=%2Flecture%2Fscan%3Froom%3D/);
    await login(page, 'supervisor');

    // Signed in, the QR URL opened directly: the light page, the lesson on now, scored.
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(scanUrl);
    await expectLight(page);
    await expect(page.locator('.lm-course')).toHaveText(task!.courseName);
    await expect(page.locator('input.lm-score')).toHaveCount(leaves.length);
    const box = (p: Page, l: Row) => p.getByLabel(`${l.name}得分`, { exact: true });
    await box(page, leaves[0]!).fill(String(leaves[0]!.maxScore));
    await expect(page.getByTestId('score-total')).toHaveText(String(leaves[0]!.maxScore));
    // The remarks are drawn right after the scores.
    await expect(page.getByLabel('优点')).toBeVisible();
    await expect(page.getByTestId('sync-state')).toHaveText('已同步', { timeout: 15_000 });
    await expectFitsPhone(page, '扫码听课（轻入口）');
    expect(problems, 'no script error or CSP refusal').toEqual([]);

    // The offline shell holds this light page.
    await page.waitForFunction(async () => !!navigator.serviceWorker?.controller && !!(await caches.match('/__scan')), undefined, { timeout: 30_000 });
    await ctx.setOffline(true);
    await box(page, leaves[1]!).fill(String(leaves[1]!.maxScore));
    await expect(page.getByTestId('sync-state')).toHaveText('未同步');
    await page.close();

    // Reopened without network: the same light page, with the draft.
    page = await ctx.newPage();
    await page.goto(scanUrl);
    await expectLight(page);
    await expect(page.getByTestId('sync-state')).toHaveText('未同步');
    await expect(box(page, leaves[1]!)).toHaveValue(String(leaves[1]!.maxScore));
    await expect(page.getByTestId('score-total')).toHaveText(String(leaves[0]!.maxScore + leaves[1]!.maxScore));

    // Back online: synced — one draft record with both scores.
    await ctx.setOffline(false);
    await expect(page.getByTestId('sync-state')).toHaveText('已同步', { timeout: 20_000 });
    const recs = (await sup.get(`/supervisor/lectureRecord/list?listenerId=${sup.userId}&courseTaskId=${task!.id}&lectureDate=${date}&pageSize=100`)).records as Row[];
    expect(recs).toHaveLength(1);
    expect(Number(recs[0]!.totalScore)).toBe(leaves[0]!.maxScore + leaves[1]!.maxScore);
  } finally {
    await ctx.close();
  }
});
