import { mkdirSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { apiAs, confirmLoginChoices, disposeApiClients, expectFitsPhone, lessonOnNow, submitLogin } from './helpers';

/**
 * In the classroom on a phone (issue 30), at 390×844 with touch: a supervisor scans a classroom's QR
 * code (opens the URL it encodes) while signed out, signs in and lands on the lesson on now in that room,
 * scores it, loses the network and keeps scoring, closes the tab and opens it again offline (the draft is
 * there, 未同步), comes back online (已同步) and submits: exactly one record exists. The lesson "on now"
 * is made for the test (a room, a section time around the present minute, a schedule line for today),
 * so the test does not depend on the wall clock being in class hours. Every screen fits the phone.
 */
// A test run writes nothing tracked: screenshots go under test-results, or to docs/screenshots when UPDATE_SCREENSHOTS=1 asks for the docs' copies.
const SHOTS = process.env.UPDATE_SCREENSHOTS ? 'docs/screenshots' : 'test-results/shots/lecture-phone';
type Row = Record<string, any>;

test.afterAll(async () => {
  await disposeApiClients();
});
mkdirSync(SHOTS, { recursive: true });


test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 });

test('phone: scan a classroom code, score, lose the network, reopen the tab, come back online, submit — one record', async ({ browser, baseURL }) => {
  test.setTimeout(240_000);
  const admin = await apiAs(baseURL!, 'admin');
  const sup = await apiAs(baseURL!, 'supervisor');

  // ---- a lesson on now: a room of its own campus, a section time around now, a schedule line today ----
  const { room, task, leaves, date, scanUrl } = await lessonOnNow(admin, sup, { code: 'E2E', building: '明德楼', campus: '测试校区', section: 5 });

  // The server sees it as the lesson on now in that room.
  const scan = await sup.get(`/supervisor/lectureRecord/scan?room=${room.id}`);
  expect(scan.current?.courseTaskId, JSON.stringify(scan)).toBe(task!.id);
  expect(leaves.length).toBeGreaterThan(3);
  const scoreOf = (l: Row, i: number) => Math.max(0, l.maxScore - (i % 3)); // a spread of whole scores

  // ---- the QR code's URL, signed out: sign-in keeps the target ----
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1, locale: 'zh-CN', timezoneId: 'Asia/Shanghai', reducedMotion: 'reduce' });
  try {
    let page = await ctx.newPage();
    await page.goto(scanUrl);
    await expect(page).toHaveURL(/\/user\/login\?redirect=/);
    await expect(page.getByPlaceholder('请输入账户名')).toBeVisible();
    await expectFitsPhone(page, '登录');
    await page.screenshot({ path: `${SHOTS}/phone-1-login.png` });
    await submitLogin(page, 'supervisor');
    await confirmLoginChoices(page);
    await expect(page).toHaveURL(new RegExp(`/lecture/scan\\?room=${room.id}`), { timeout: 20_000 });

    // ---- the lesson on now in that room, ready to score ----
    const form = page.getByTestId('lecture-mobile');
    await expect(form).toBeVisible({ timeout: 20_000 });
    await expect(form.locator('.lm-course')).toHaveText(task!.courseName);
    await expect(form).toContainText(room.name);
    await expect(form.locator('input.lm-score')).toHaveCount(leaves.length);
    await expect(form.locator('input.lm-score').first()).toHaveAttribute('inputmode', 'decimal');
    await expectFitsPhone(page, '扫码听课');
    // Touch targets: every score box and the bar's buttons are at least 44 px high.
    const small = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.lecture-mobile input.lm-score, .lecture-mobile .lm-bar button')].filter((e) => e.getBoundingClientRect().height < 44).length,
    );
    expect(small).toBe(0);
    await page.screenshot({ path: `${SHOTS}/phone-2-lesson.png` });

    const box = (p: Page, l: Row) => p.getByLabel(`${l.name}得分`, { exact: true });
    const total = (n: number) => leaves.slice(0, n).reduce((a, l, i) => a + scoreOf(l, i), 0);
    const half = Math.ceil(leaves.length / 2);
    for (let i = 0; i < half; i++) {
      await box(page, leaves[i]!).fill(String(scoreOf(leaves[i]!, i)));
      // The running total follows each score, in the bar that stays on screen.
      await expect(page.getByTestId('score-total')).toHaveText(String(total(i + 1)));
    }
    await expect(page.getByTestId('score-bar')).toBeInViewport();
    await expect(page.getByTestId('sync-state')).toHaveText('已同步', { timeout: 15_000 });
    await page.getByLabel('实到人数').fill('42');
    await expect(page.getByTestId('sync-state')).toHaveText('已同步', { timeout: 15_000 });
    await page.screenshot({ path: `${SHOTS}/phone-3-scoring.png` });

    // The offline shell (public/sw.js) controls the page and holds the app's page by now.
    await page.waitForFunction(async () => !!navigator.serviceWorker?.controller && !!(await caches.match('/__shell')), undefined, { timeout: 20_000 });

    // ---- the network goes: scoring goes on, kept on the phone ----
    await ctx.setOffline(true);
    await expect(page.getByText('网络已断开')).toBeVisible();
    for (let i = half; i < leaves.length - 1; i++) await box(page, leaves[i]!).fill(String(scoreOf(leaves[i]!, i)));
    await page.getByLabel('优点').fill('板书清楚，互动充分');
    await expect(page.getByTestId('sync-state')).toHaveText('未同步');
    await expect(page.getByTestId('score-total')).toHaveText(String(total(leaves.length - 1)));
    await page.screenshot({ path: `${SHOTS}/phone-4-offline.png` });

    // ---- the tab is closed and opened again, still offline: the draft is there, 未同步 ----
    await page.close();
    page = await ctx.newPage();
    await page.goto(scanUrl);
    await expect(page.getByTestId('lecture-mobile')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('sync-state')).toHaveText('未同步');
    await expect(box(page, leaves[leaves.length - 2]!)).toHaveValue(String(scoreOf(leaves[leaves.length - 2]!, leaves.length - 2)));
    await expect(page.getByLabel('优点')).toHaveValue('板书清楚，互动充分');
    await expect(page.getByLabel('实到人数')).toHaveValue('42');
    const last = leaves[leaves.length - 1]!;
    // One-handed: 下一项 in the bar goes to the index still unscored; the keypad types there.
    await page.getByTestId('score-bar').getByRole('button', { name: '下一项' }).click();
    await expect(box(page, last)).toBeFocused();
    await page.keyboard.type(String(scoreOf(last, leaves.length - 1)));
    await expect(page.getByTestId('score-total')).toHaveText(String(total(leaves.length)));
    await expect(page.getByTestId('score-grade')).toBeVisible();
    await expectFitsPhone(page, '扫码听课（离线重开）');
    await page.screenshot({ path: `${SHOTS}/phone-5-reopened-offline.png` });

    // ---- back online: synced, then submitted ----
    await ctx.setOffline(false);
    await expect(page.getByTestId('sync-state')).toHaveText('已同步', { timeout: 20_000 });
    await page.getByTestId('score-bar').getByRole('button', { name: /提\s*交/ }).click();
    const confirm = page.locator('.ant-modal-confirm');
    await expect(confirm).toContainText('提交后将通知授课教师');
    await expectFitsPhone(page, '提交确认');
    await confirm.getByRole('button', { name: /提\s*交/ }).click();
    await expect(page.getByText('已提交', { exact: true })).toBeVisible({ timeout: 20_000 });
    await expectFitsPhone(page, '已提交');
    await page.screenshot({ path: `${SHOTS}/phone-6-submitted.png` });

    // Exactly one record of that lesson, submitted, with every score.
    const recs = (await sup.get(`/supervisor/lectureRecord/list?listenerId=${sup.userId}&courseTaskId=${task!.id}&lectureDate=${date}&pageSize=100`)).records as Row[];
    expect(recs).toHaveLength(1);
    expect(recs[0]!.status).toBe('SUBMITTED');
    expect(Number(recs[0]!.totalScore)).toBe(total(leaves.length));
    expect(recs[0]!.actualCount).toBe(42);

    // ---- 今日听课 and 我的听课记录 on the phone ----
    await page.goto('/supervisor/lectureToday');
    await expect(page.locator('.ant-table-row, .ant-list-item, [data-testid="list-card"]').first()).toBeVisible({ timeout: 20_000 });
    await expectFitsPhone(page, '今日听课');
    await page.screenshot({ path: `${SHOTS}/phone-7-today.png` });
    // 我的听课记录 as cards: the new record, its 详情 drawer fills the phone.
    await page.goto('/supervisor/lectureRecord');
    const card = page.getByTestId('list-card').filter({ hasText: recs[0]!.recordNo });
    await expect(card).toBeVisible({ timeout: 20_000 });
    await expectFitsPhone(page, '听课记录');
    // The rows come first: one query field, the others behind 展开.
    const query = page.locator('.ant-form').filter({ has: page.getByRole('button', { name: /查\s*询/ }) }).first();
    await expect(query.locator('.ant-form-item-label:visible')).toHaveCount(1);
    await query.getByText('展开').click();
    await expect.poll(() => query.locator('.ant-form-item-label:visible').count()).toBeGreaterThan(1);
    await query.getByText('收起').click();
    await page.screenshot({ path: `${SHOTS}/phone-8-records.png` });
  } finally {
    await ctx.close();
  }

  // ---- the observed teacher, on a phone: reads the notice, opens the record from it, asks for a review ----
  const rec = (await sup.get(`/supervisor/lectureRecord/list?listenerId=${sup.userId}&courseTaskId=${task!.id}&lectureDate=${date}`)).records[0] as Row;
  const username = ((await admin.get(`/sys/user/queryById?id=${rec.teacherId}`)) as Row).username as string;
  expect(username).toBeTruthy();
  const reason = '第二项评分与课堂实际不符，请复核';
  await onPhone(browser, username, async (tp) => {
    await tp.goto('/isps/userAnnouncement');
    const notice = tp.getByTestId('list-card').filter({ hasText: rec.courseName }).first();
    await expect(notice).toBeVisible({ timeout: 20_000 });
    await expectFitsPhone(tp, '我的消息');
    await tp.screenshot({ path: `${SHOTS}/phone-9-teacher-notices.png` });
    await notice.getByText('查看', { exact: true }).click();
    const detail = tp.getByTestId('notice-detail');
    await expect(detail).toContainText(rec.recordNo);
    await expectFitsPhone(tp, '消息详情（教师）');
    await detail.getByTestId('notice-target').click();
    await expect(tp).toHaveURL(new RegExp(`/supervisor/lectureRecord\\?open=${rec.id}`));
    const drawer = tp.locator('.ant-drawer-content').last();
    await expect(drawer.locator('.ant-drawer-title')).toHaveText(`听课记录 ${rec.recordNo}`, { timeout: 20_000 });
    await expect(drawer.locator('.schema-descriptions').first()).toContainText(rec.teacherName, { timeout: 20_000 });
    await expect(drawer.locator('.schema-record-table')).toBeVisible();
    // 佐证文档 inside the record: cards on a phone (a table's columns were cut at the drawer's edge).
    await expect(drawer.getByTestId('list-cards')).toBeVisible();
    await expect(drawer.getByRole('button', { name: '列设置' })).toHaveCount(0);
    await expectDrawerFillsPhone(tp);
    await expectFitsPhone(tp, '听课记录详情（教师）');
    await tp.screenshot({ path: `${SHOTS}/phone-10-teacher-detail.png` });

    await drawer.getByRole('button', { name: '申请复核' }).click();
    const dialog = actionDialog(tp);
    await expect(dialog).toContainText(`申请复核听课记录 ${rec.recordNo}`);
    await dialog.locator('textarea').fill(reason);
    await expectDialogFillsPhone(tp);
    await expectFitsPhone(tp, '申请复核（教师）');
    await tp.screenshot({ path: `${SHOTS}/phone-11-teacher-appeal.png` });
    await dialog.getByRole('button', { name: /申请复核/ }).click();
    await expect(dialog).toBeHidden();
    await expect(drawer.locator('.schema-descriptions').first()).toContainText('复核中');
    await expect(drawer.locator('.schema-timeline')).toContainText(reason);
    await expect(drawer.getByRole('button', { name: '申请复核' })).toHaveCount(0);
    await expectFitsPhone(tp, '复核中（教师）');
  });

  // ---- the quality office (a 校级督导 who did not observe the lesson), on a phone: 复核 → 修改评价 ----
  const before = await sup.get(`/supervisor/lectureRecord/queryById?id=${rec.id}`);
  expect(before.status).toBe('REVIEWING');
  const office = await apiAs(baseURL!, QUALITY_OFFICE);
  expect(office.userId).not.toBe(sup.userId);
  const amended = leaves[1]!;
  const was = Number((before.indexScoreList as Row[]).find((s) => s.indexId === amended.id)!.score);
  expect(was).toBeGreaterThan(0);
  const opinion = '经核实，第二项减 1 分';
  await onPhone(browser, QUALITY_OFFICE, async (qp) => {
    await qp.goto(`/supervisor/lectureRecord?open=${rec.id}`);
    const drawer = qp.locator('.ant-drawer-content').last();
    await expect(drawer.locator('.ant-drawer-title')).toHaveText(`听课记录 ${rec.recordNo}`, { timeout: 20_000 });
    await expect(drawer.locator('.schema-timeline')).toContainText(reason);
    await expectFitsPhone(qp, '复核中（质量办）');
    await drawer.getByRole('button', { name: /^复\s*核$/ }).click();
    const dialog = actionDialog(qp);
    await expect(dialog).toContainText(`复核听课记录 ${rec.recordNo}`);
    await dialog.getByLabel('修改评价').check();
    const score = dialog.getByLabel(`${amended.name}得分`);
    await expect(score).toHaveValue(String(was));
    await score.fill(String(was - 1));
    await dialog.locator('textarea').first().fill(opinion);
    await expectDialogFillsPhone(qp);
    await expectFitsPhone(qp, '复核 → 修改评价（质量办）');
    await qp.screenshot({ path: `${SHOTS}/phone-12-amend.png` });
    await dialog.getByRole('button', { name: '提交复核结论' }).click();
    await expect(dialog).toBeHidden();
    await expect(drawer.locator('.schema-timeline')).toContainText('复核：修改评价');
  });
  const after = await sup.get(`/supervisor/lectureRecord/queryById?id=${rec.id}`);
  expect(after.status).toBe('SUBMITTED');
  expect(Number(after.totalScore)).toBe(Number(before.totalScore) - 1);

  // The quality office raises an improvement task from the record and issues it to the teacher.
  const pre = await sup.get(`/improvement/task/prefill?recordId=${rec.id}`);
  expect(pre.respPersonId).toBe(rec.teacherId);
  const imp = await sup.post('/improvement/task/add', { ...pre, deadline: pre.deadline ?? '2099-01-01' });
  await sup.post('/improvement/task/transition?action=ISSUE', { id: imp.id });

  // ---- the teacher, on the phone again: the amended result, then 我的整改任务 as cards ----
  await onPhone(browser, username, async (tp) => {
    await tp.goto(`/supervisor/lectureRecord?open=${rec.id}`);
    const drawer = tp.locator('.ant-drawer-content').last();
    await expect(drawer.locator('.ant-drawer-title')).toHaveText(`听课记录 ${rec.recordNo}`, { timeout: 20_000 });
    const head = drawer.locator('.schema-descriptions').first();
    await expect(head).toContainText(String(after.totalScore));
    const timeline = drawer.locator('.schema-timeline');
    await expect(timeline).toContainText('复核：修改评价');
    await expect(timeline).toContainText(opinion);
    await expect(timeline).toContainText(`总分 ${before.totalScore} →`);
    await expectDrawerFillsPhone(tp);
    await expectFitsPhone(tp, '复核后的记录（教师）');
    await timeline.scrollIntoViewIfNeeded();
    await tp.screenshot({ path: `${SHOTS}/phone-13-amended.png` });
    await tp.goto('/improvement/myTask');
    const card = tp.getByTestId('list-card').filter({ hasText: imp.taskNo });
    await expect(card).toBeVisible({ timeout: 20_000 });
    await expect(card.getByText('签收', { exact: true })).toBeVisible();
    await expectFitsPhone(tp, '我的整改任务（教师）');
    await tp.screenshot({ path: `${SHOTS}/phone-14-my-tasks.png` });
  });
});

/** A 校级督导 of the quality centre (server/seed/org.ts: the third generated staff member) — not the listener. */
const QUALITY_OFFICE = 't20030003';
const actionDialog = (p: Page) => p.locator('.ant-modal-content').filter({ has: p.getByTestId('action-form') });

/** Signs in on a phone of its own (390×844, touch) and runs `fn`. */
async function onPhone(browser: Browser, username: string, fn: (p: Page) => Promise<void>) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1, locale: 'zh-CN', timezoneId: 'Asia/Shanghai', reducedMotion: 'reduce' });
  try {
    const p = await ctx.newPage();
    await p.goto('/user/login');
    await submitLogin(p, username);
    await confirmLoginChoices(p);
    await expect(p.locator('.basic-layout')).toBeVisible({ timeout: 20_000 });
    await fn(p);
  } finally {
    await ctx.close();
  }
}
/** The record's drawer takes the phone's whole width. */
async function expectDrawerFillsPhone(p: Page) {
  const b = await p.locator('.ant-drawer-content-wrapper').last().boundingBox();
  expect(b!.x).toBeLessThanOrEqual(0.5);
  expect(b!.width).toBeGreaterThanOrEqual(389);
}
/** An action's dialog on a phone: the screen's width, its buttons (≥ 44 px) on screen. */
async function expectDialogFillsPhone(p: Page) {
  const d = actionDialog(p);
  // Measured once the opening animation (a zoom) is over.
  await expect.poll(async () => (await d.boundingBox())!.width, { message: 'the dialog is as wide as the screen' }).toBeGreaterThanOrEqual(389);
  expect((await d.boundingBox())!.x, 'the dialog starts at the screen edge').toBeLessThanOrEqual(0.5);
  const buttons = d.locator('.ant-modal-footer button');
  await expect(buttons.last()).toBeInViewport();
  // Polled: the buttons' boxes grow to their size with the dialog's opening zoom.
  await expect.poll(async () => Math.min(...(await buttons.evaluateAll((bs) => bs.map((x) => x.getBoundingClientRect().height)))), { message: 'a 44 px touch target' }).toBeGreaterThanOrEqual(44);
}
