import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { apiAs as apiClient, asUser, disposeApiClients, login, rowAction } from './helpers';

/**
 * The observation loop at the desk (issue 30), each fix as the role that meets it, against the real
 * server: the supervisor's record form saves a draft or submits (refusing bad scores at the field and
 * naming every missing index), the secretary's 退回 asks for the reason, the teacher opens a real
 * detail view (scores by index, the log with who and when) and confirms from it.
 */
const SHOTS = 'test-results/shots/lecture-loop';
type Row = Record<string, any>;

const apiAs = (baseURL: string, username: string) => apiClient(baseURL, username, '10.88.0.19');
test.afterAll(async () => {
  await disposeApiClients();
});
test.describe.configure({ mode: 'serial' });
mkdirSync(SHOTS, { recursive: true });

const rows = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row');

/** Filters 听课记录 by teacher and course and returns the row of the record number. */
async function findRecord(page: Page, rec: Row) {
  await page.goto('/supervisor/lectureRecord');
  await expect(rows(page).first()).toBeVisible({ timeout: 20_000 });
  await page.locator('.ant-form-item').filter({ hasText: '授课教师姓名' }).locator('input').first().fill(rec.teacherName);
  await page.locator('.ant-form-item').filter({ hasText: '课程名称' }).locator('input').first().fill(rec.courseName);
  await page.getByRole('button', { name: /查\s*询/ }).first().click();
  const row = rows(page).filter({ hasText: rec.recordNo });
  await expect(row).toHaveCount(1, { timeout: 20_000 });
  return row;
}

let record: Row;

test('supervisor: 保存草稿 and 提交 are two buttons; bad scores are refused at the field, kept as typed; 提交 names every missing index, then notifies the teacher', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const sup = await apiAs(baseURL!, 'supervisor');
  const tch = await apiAs(baseURL!, 'teacher');
  // A draft of a lesson of the demo teacher (the lesson picker itself is covered by lecture-flow.spec.ts).
  const mine = (await sup.get(`/supervisor/lectureRecord/list?listenerId=${sup.userId}&pageSize=1000`)).records as Row[];
  const taken = new Set(mine.map((r) => `${r.courseTaskId}|${String(r.lectureDate).slice(0, 10)}`));
  const term = await sup.get('/supervisor/term/current');
  let lesson: Row | undefined;
  for (let w = term.weekCount; w >= 1 && !lesson; w--) {
    const list = (await sup.get(`/supervisor/courseSchedule/lessons?week=${w}&teacherId=${tch.userId}`)) as Row[];
    lesson = list.find((l) => l.lectureDate && !taken.has(`${l.courseTaskId}|${l.lectureDate}`));
  }
  expect(lesson).toBeTruthy();
  const system = await sup.get(`/supervisor/lectureRecord/form?courseTaskId=${lesson!.courseTaskId}`);
  const leaves = (system.indexes as Row[]).filter((i) => (system.leafIds as string[]).includes(i.id));
  const draft = await sup.post('/supervisor/lectureRecord/add', { courseTaskId: lesson!.courseTaskId, scheduleId: lesson!.scheduleId, lectureDate: lesson!.lectureDate, indexScoreList: [] });

  await page.setViewportSize({ width: 1440, height: 900 });
  await login(page, 'supervisor');
  await page.goto('/supervisor/lectureRecord');
  await expect(rows(page).first()).toBeVisible({ timeout: 20_000 });
  // 听课 opens a form that names the thing, with both buttons.
  await page.getByRole('button', { name: /听\s*课/ }).first().click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer.locator('.ant-drawer-title')).toHaveText('新增听课记录');
  await expect(drawer.getByRole('button', { name: '保存草稿' })).toBeVisible();
  await expect(drawer.getByRole('button', { name: '提 交' }).or(drawer.getByRole('button', { name: '提交' }))).toBeVisible();
  await drawer.locator('.ant-drawer-extra').getByRole('button', { name: /关\s*闭/ }).click();
  await expect(drawer).toBeHidden();

  const row = await findRecord(page, draft);
  await rowAction(page, row, '编辑');
  await expect(drawer.locator('.ant-drawer-title')).toHaveText('编辑听课记录');
  const scoring = drawer.getByTestId('index-score-form');
  await expect(scoring.locator('input[aria-label$="得分"]')).toHaveCount(leaves.length);
  const input = (l: Row) => scoring.getByLabel(`${l.name}得分`);
  const field = drawer.locator('.ant-formily-item').filter({ has: page.getByTestId('index-score-form') });

  // Over the maximum and not a number: kept as typed, refused at the field, nothing saved.
  await input(leaves[0]!).fill(String(leaves[0]!.maxScore + 1));
  await input(leaves[1]!).fill('abc');
  await expect(input(leaves[0]!)).toHaveValue(String(leaves[0]!.maxScore + 1));
  await expect(input(leaves[1]!)).toHaveValue('abc');
  await expect(input(leaves[0]!)).toHaveAttribute('aria-invalid', 'true');
  await expect(scoring.getByText(`得分 ${leaves[0]!.maxScore + 1} 超过最高分 ${leaves[0]!.maxScore}`)).toBeVisible();
  await expect(scoring.getByText('得分“abc”不是数字')).toBeVisible();
  const saves: string[] = [];
  page.on('request', (r) => r.url().includes('/supervisor/lectureRecord/edit') && saves.push(r.url()));
  await drawer.getByRole('button', { name: '保存草稿' }).click();
  await expect(field.locator('.ant-formily-item-error-help')).toContainText(`指标“${leaves[1]!.name}”的得分“abc”不是数字`);
  expect(saves).toEqual([]);

  // Three of the items scored: 提交 names every missing one at the field, at once; nothing is sent.
  await input(leaves[0]!).fill(String(leaves[0]!.maxScore));
  await input(leaves[1]!).fill(String(leaves[1]!.maxScore - 1));
  await input(leaves[2]!).fill(String(leaves[2]!.maxScore));
  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  const missing = leaves.slice(3);
  await expect(field.locator('.ant-formily-item-error-help')).toHaveText(`有 ${missing.length} 项指标尚未评分：${missing.map((l) => `“${l.name}”`).join('、')}`);
  await expect(page.locator('.ant-modal-confirm')).toHaveCount(0);
  expect(saves).toEqual([]);
  await drawer.screenshot({ path: `${SHOTS}/form-1440-missing.png` });

  // Scoring the rest clears the message; 提交 asks, then submits through the same code as the row's 提交.
  for (const l of missing) await input(l).fill(String(Math.floor(l.maxScore * 0.9 * 2) / 2));
  await expect(field.locator('.ant-formily-item-error-help')).toHaveCount(0);
  await expect(scoring.getByTestId('score-grade')).toBeVisible();
  await drawer.locator('textarea[aria-label="优点"]').fill('讲解清楚，节奏合适');
  await page.screenshot({ path: `${SHOTS}/form-1440.png` });

  // The same form on a phone: one column, labels above the fields, nothing wider than the screen, the buttons under the form.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(drawer.locator('.ant-drawer-footer').getByRole('button', { name: '保存草稿' })).toBeInViewport();
  await expect(drawer.locator('.ant-drawer-title')).toHaveText('编辑听课记录');
  const fit = () =>
    drawer.evaluate((d) => {
      const body = d.querySelector('.ant-drawer-body') as HTMLElement;
      const cut = [...d.querySelectorAll('.ant-formily-item-label-content')].filter((l) => (l as HTMLElement).scrollWidth > (l as HTMLElement).clientWidth + 1).length;
      const box = d.getBoundingClientRect();
      return { left: box.left, right: box.right, inner: window.innerWidth, scroll: body.scrollWidth, client: body.clientWidth, cut };
    });
  // (The drawer's width eases to the new screen.)
  await expect(async () => {
    const phone = await fit();
    expect(phone.left, JSON.stringify(phone)).toBeGreaterThanOrEqual(0);
    expect(phone.right, JSON.stringify(phone)).toBeLessThanOrEqual(phone.inner + 0.5);
    expect(phone.scroll).toBeLessThanOrEqual(phone.client);
    expect(phone.cut).toBe(0);
  }).toPass({ timeout: 5_000 });
  await page.screenshot({ path: `${SHOTS}/form-390.png` });
  await input(leaves[0]!).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/form-390-scores.png` });
  await page.setViewportSize({ width: 1440, height: 900 });

  await drawer.getByRole('button', { name: /提\s*交/ }).click();
  const confirm = page.locator('.ant-modal-confirm');
  await expect(confirm).toContainText('提交后将通知授课教师');
  await confirm.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(drawer).toBeHidden();
  await expect(page.locator('.ant-message')).toContainText('提交成功！');
  await expect(row).toContainText('已提交');

  record = await sup.get(`/supervisor/lectureRecord/queryById?id=${draft.id}`);
  expect(record.status).toBe('SUBMITTED');
  expect(record.indexScoreList).toHaveLength(leaves.length);
  expect((record.logs as Row[]).map((l) => l.action)).toEqual(['CREATE', 'SUBMIT']);
  // The teacher was told, as by the row action.
  const notes = (await tch.get('/sys/annountCement/listByUser?pageSize=50')) as Row;
  const list = [...((notes.anntMsgList as Row[]) ?? []), ...((notes.sysMsgList as Row[]) ?? [])];
  expect(list.some((n) => String(n.titile).includes(lesson!.courseName) && String(n.titile).includes('新的听课记录'))).toBe(true);

});

test('secretary: 退回 asks for the reason, which goes into the log and to the listener', async ({ browser, baseURL }) => {
  const sec = await apiAs(baseURL!, 'secretary');
  const list = (await sec.get('/supervisor/lectureRecord/list?status=SUBMITTED&pageSize=200')).records as Row[];
  const target = list.find((r) => String(r.listenerOrgCode ?? '').startsWith(sec.orgCode) && r.listenerId !== sec.userId);
  expect(target, 'a submitted record written in the secretary\'s college').toBeTruthy();
  const reason = `第三项评分与文字评价不一致，请核实（${Date.now() % 10000}）`;
  await asUser(browser, 'secretary', async (page) => {
    const row = await findRecord(page, target!);
    await rowAction(page, row, '退回');
    const dialog = page.locator('.ant-modal-content').filter({ has: page.getByTestId('action-form') });
    await expect(dialog).toContainText(`退回听课记录 ${target!.recordNo}`);
    // The reason is required: nothing is sent without it.
    await dialog.getByRole('button', { name: /退\s*回/ }).click();
    await expect(dialog.locator('.ant-formily-item-error-help')).toBeVisible();
    await dialog.locator('textarea').fill(reason);
    await dialog.getByRole('button', { name: /退\s*回/ }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('已退回');
  });
  const after = await sec.get(`/supervisor/lectureRecord/queryById?id=${target!.id}`);
  expect(after.returnReason).toBe(reason);
  expect((after.logs as Row[]).at(-1)).toMatchObject({ action: 'RETURN', comment: reason, operatorName: sec.realname });
  // (The listener's notice carrying the reason is checked in tests/api/lecture-loop.test.ts.)
});

test('teacher: 详情 is the record\'s detail view — lesson, scores by index, total and grade, the log with who and when; 确认 from it', async ({ browser, baseURL }) => {
  expect(record, 'the first test submitted a record').toBeTruthy();
  const sup = await apiAs(baseURL!, 'supervisor');
  await asUser(browser, 'teacher', async (page) => {
    const row = await findRecord(page, record);
    await rowAction(page, row, '详情');
    const drawer = page.locator('.ant-drawer-content');
    await expect(drawer.locator('.ant-drawer-title')).toHaveText(`听课记录 ${record.recordNo}`);
    const head = drawer.locator('.schema-descriptions').first();
    await expect(head).toContainText(record.recordNo);
    await expect(head).toContainText('已提交');
    await expect(head).toContainText(sup.realname);
    await expect(head).toContainText(record.teacherName);
    const lessonBox = drawer.locator('.schema-descriptions').nth(1);
    await expect(lessonBox).toContainText(record.courseName);
    await expect(lessonBox).toContainText(String(record.lectureDate).slice(0, 10));
    await expect(lessonBox).toContainText(record.sectionsText);
    const table = drawer.locator('.schema-record-table');
    for (const s of record.indexScoreList as Row[]) await expect(table).toContainText(s.indexName);
    await expect(table.locator('.schema-record-table-summary')).toContainText(String(record.totalScore));
    const timeline = drawer.locator('.schema-timeline');
    await expect(timeline.locator('.ant-timeline-item')).toHaveCount(2);
    await expect(timeline).toContainText('创建草稿');
    await expect(timeline).toContainText(`提交 ${sup.realname}`);
    await drawer.screenshot({ path: `${SHOTS}/detail-1440.png` });

    // 确认 with an answer, from the detail: the log shows it at once.
    await drawer.getByRole('button', { name: /确\s*认/ }).click();
    const dialog = page.locator('.ant-modal-content').filter({ has: page.getByTestId('action-form') });
    await dialog.locator('textarea').fill('收到，下次课调整板书');
    await dialog.getByRole('button', { name: /确\s*认/ }).click();
    await expect(dialog).toBeHidden();
    await expect(head).toContainText('已确认');
    await expect(timeline.locator('.ant-timeline-item')).toHaveCount(3);
    await expect(timeline).toContainText('收到，下次课调整板书');
    await expect(drawer.locator('.schema-descriptions').nth(3)).toContainText('收到，下次课调整板书');

    // On a phone: the same detail, nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(drawer.locator('.ant-drawer-close')).toBeInViewport();
    await expect(async () => {
      const over = await drawer.evaluate((d) => {
        const body = d.querySelector('.ant-drawer-body') as HTMLElement;
        const table = d.querySelector('.schema-record-table table') as HTMLElement;
        return { scroll: body.scrollWidth, client: body.clientWidth, table: table.getBoundingClientRect().right, right: body.getBoundingClientRect().right };
      });
      expect(over.scroll).toBeLessThanOrEqual(over.client);
      // Every column of the scores, 得分 included, is on the screen.
      expect(over.table).toBeLessThanOrEqual(over.right);
    }).toPass({ timeout: 5_000 });
    await page.screenshot({ path: `${SHOTS}/detail-390.png`, fullPage: false });
    await drawer.locator('.ant-drawer-body').evaluate((b) => b.scrollTo(0, b.scrollHeight));
    await page.screenshot({ path: `${SHOTS}/detail-390-end.png` });
  });
});
