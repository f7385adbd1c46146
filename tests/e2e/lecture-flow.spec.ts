import { expect, request as pwRequest, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { DEMO_PASSWORD, login } from './helpers';

/**
 * The lecture-observation flow in the browser: a supervisor records a lesson of the demo teacher
 * through the record form (lesson picker + index scoring), submits it, the reports count it, and the
 * teacher reads and confirms it.
 */
const API = '/jeecg-boot';
type Row = Record<string, any>;

interface Client {
  token: string;
  userId: string;
  realname: string;
  get: (url: string) => Promise<Row>;
  post: (url: string, data: unknown) => Promise<Row>;
}
const contexts: APIRequestContext[] = [];
async function apiAs(baseURL: string, username: string): Promise<Client> {
  const api = await pwRequest.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': '10.88.0.9' } });
  contexts.push(api);
  const r = await (await api.post(`${API}/sys/login`, { data: { username, password: DEMO_PASSWORD } })).json();
  expect(r.code).toBe(200);
  const token = r.result.token as string;
  return {
    token,
    userId: r.result.userInfo.id,
    realname: r.result.userInfo.realname,
    get: async (url) => {
      const res = await (await api.get(`${API}${url}`, { headers: { 'X-Access-Token': token } })).json();
      expect(res.success, `${url}: ${res.message}`).toBe(true);
      return res.result;
    },
    post: async (url, data) => {
      const res = await (await api.post(`${API}${url}`, { headers: { 'X-Access-Token': token }, data })).json();
      expect(res.success, `${url}: ${res.message}`).toBe(true);
      return res.result;
    },
  };
}
test.afterAll(async () => {
  for (const c of contexts) await c.dispose();
});

/** The record created by the first test (the improvement test raises a task from it). */
let recorded: { id: string; recordNo: string } | undefined;

const rows = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row');

test.describe.configure({ mode: 'serial' });

test('supervisor records, scores and submits a lesson of the teacher; reports count it; the teacher confirms it', async ({ page, browser, baseURL }) => {
  test.setTimeout(180_000);
  const sup = await apiAs(baseURL!, 'supervisor');
  const tch = await apiAs(baseURL!, 'teacher');
  const admin = await apiAs(baseURL!, 'admin');

  // A lesson of the demo teacher that the supervisor has not recorded yet (same task + date is refused).
  const term = await sup.get('/supervisor/term/current');
  const mine = (await sup.get(`/supervisor/lectureRecord/list?listenerId=${sup.userId}&pageSize=1000`)).records as Row[];
  const taken = new Set(mine.map((r) => `${r.courseTaskId}|${String(r.lectureDate).slice(0, 10)}`));
  let lesson: Row | undefined;
  for (let w = 1; w <= term.weekCount && !lesson; w++) {
    const list = (await sup.get(`/supervisor/courseSchedule/lessons?week=${w}&teacherId=${tch.userId}`)) as Row[];
    lesson = list.find((l) => l.lectureDate && !taken.has(`${l.courseTaskId}|${l.lectureDate}`));
  }
  expect(lesson, 'the demo teacher has a lesson in the timetable').toBeTruthy();
  const system = await sup.get(`/supervisor/lectureRecord/form?courseTaskId=${lesson!.courseTaskId}`);
  const leaves = (system.indexes as Row[]).filter((i) => (system.leafIds as string[]).includes(i.id));
  // 85 % of each maximum, rounded down to 0.5.
  const scores = leaves.map((l) => Math.floor(l.maxScore * 0.85 * 2) / 2);
  const expectedTotal = Math.round(scores.reduce((a, b) => a + b, 0) * 100) / 100;
  const band = [...(system.gradeBands as Row[])].sort((a, b) => b.min - a.min).find((b) => expectedTotal >= b.min)!;

  const freqBefore = ((await admin.get('/supervisor/report/frequency')) as Row[]).find((r) => r.userId === sup.userId);
  const perfBefore = ((await admin.get('/supervisor/report/performance')) as Row[]).find((r) => r.teacherId === tch.userId);

  // ---- the supervisor fills the form in the browser ----
  await login(page, 'supervisor');
  await page.goto('/supervisor/lectureRecord');
  await expect(rows(page).first()).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: /听\s*课/ }).first().click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer.getByTestId('lesson-picker')).toBeVisible();
  await expect(drawer.getByText('请先从课表选择课次，再按指标评分')).toBeVisible();

  // Saving without a lesson is refused in the form; nothing is sent.
  await drawer.locator('.ant-drawer-extra').getByRole('button', { name: /确\s*定/ }).click();
  await expect(drawer.locator('.ant-formily-item').filter({ hasText: '教学任务' }).locator('.ant-formily-item-error-help')).toBeVisible();
  await expect(drawer).toBeVisible();

  await drawer.getByRole('button', { name: '选择课次' }).click();
  const modal = page.locator('.ant-modal-content').filter({ hasText: '从课表选择课次' });
  const dateInput = modal.locator('.ant-picker input');
  await dateInput.click();
  await dateInput.fill(lesson!.lectureDate);
  await dateInput.press('Enter');
  await modal.getByPlaceholder('教师 / 课程 / 教室 / 课程号').fill(tch.realname);
  await modal.getByRole('button', { name: /查\s*询/ }).click();
  const lessonRow = modal.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: lesson!.courseName }).filter({ hasText: lesson!.lectureDate });
  await expect(lessonRow.first()).toBeVisible();
  await expect(modal.locator('.ant-table-tbody tr.ant-table-row').filter({ hasNotText: tch.realname })).toHaveCount(0);
  await modal.screenshot({ path: 'test-results/lecture-lesson-picker.png' });
  await lessonRow.first().getByText('选择', { exact: true }).click();
  await expect(modal).toBeHidden();

  const facts = drawer.getByTestId('lesson-facts');
  await expect(facts).toContainText(tch.realname);
  await expect(facts).toContainText(lesson!.courseName);
  await expect(drawer.locator('.ant-formily-item').filter({ hasText: '听课日期' }).locator('input')).toHaveValue(lesson!.lectureDate);

  await drawer.screenshot({ path: 'test-results/lecture-form-top.png' });
  // Choose an option and check it took (a click during the dropdown's opening animation can be lost).
  const choose = async (label: string, option: string) => {
    const item = drawer.locator('.ant-formily-item').filter({ hasText: label });
    await expect(async () => {
      await item.locator('.ant-select').click();
      await page.locator('.ant-select-dropdown:visible').getByText(option, { exact: true }).click({ timeout: 2_000 });
      await expect(item.locator('.ant-select-selection-item')).toHaveText(option, { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
  };
  await choose('听课类型', '跟踪听课');
  await choose('听课方式', '线上');

  const scoring = drawer.getByTestId('index-score-form');
  await expect(scoring.locator('input[aria-label$="得分"]')).toHaveCount(leaves.length);
  await scoring.getByLabel(`${leaves[0]!.name}得分`).fill(String(leaves[0]!.maxScore + 5));
  await scoring.getByLabel(`${leaves[0]!.name}得分`).blur();
  await expect(scoring.getByLabel(`${leaves[0]!.name}得分`)).toHaveValue(leaves[0]!.maxScore.toFixed(2)); // clamped to the maximum
  for (const [i, l] of leaves.entries()) {
    const input = scoring.getByLabel(`${l.name}得分`);
    await input.fill(String(scores[i]));
    await input.blur();
  }
  await expect(scoring.getByTestId('score-total')).toHaveText(String(expectedTotal));
  await expect(scoring.getByTestId('score-grade')).toHaveText(band.label);

  await drawer.locator('textarea[aria-label="优点"]').fill('教学设计清晰，互动充分');
  await drawer.locator('textarea[aria-label="存在问题"]').fill('板书略显凌乱');
  await drawer.locator('textarea[aria-label="改进建议"]').fill('提前规划板书结构');
  await drawer.locator('.ant-formily-item').filter({ hasText: '需整改' }).locator('.ant-switch').click();
  await drawer.screenshot({ path: 'test-results/lecture-form.png' });

  await drawer.getByRole('button', { name: /确\s*定/ }).click();
  await expect(drawer).toBeHidden();
  const created = ((await sup.get(`/supervisor/lectureRecord/list?listenerId=${sup.userId}&courseTaskId=${lesson!.courseTaskId}&pageSize=100`)).records as Row[]).find(
    (r) => String(r.lectureDate).slice(0, 10) === lesson!.lectureDate,
  )!;
  expect(created).toBeTruthy();
  expect(created.status).toBe('DRAFT');
  expect(Number(created.totalScore)).toBe(expectedTotal);
  expect(created.lectureType).toBe('TRACK');
  expect(created.mode).toBe('ONLINE');
  expect(created.scheduleId).toBe(lesson!.scheduleId);
  expect(created.needImprove === true || created.needImprove === 1 || created.needImprove === '1').toBe(true);

  // Submit from the list row.
  const row = rows(page).filter({ hasText: created.recordNo });
  await expect(row).toHaveCount(1);
  // Editing the draft shows the picked lesson and the saved scores.
  await row.getByText('编辑', { exact: true }).click();
  await expect(drawer.getByTestId('lesson-facts')).toContainText(lesson!.courseName);
  await expect(drawer.getByTestId('score-total')).toHaveText(String(expectedTotal));
  await expect(drawer.getByLabel(`${leaves[1]!.name}得分`)).toHaveValue(scores[1]!.toFixed(2));
  await drawer.locator('.ant-drawer-extra').getByRole('button', { name: /关\s*闭/ }).click();
  await expect(drawer).toBeHidden();
  await row.getByText('提交', { exact: true }).click();
  await page.locator('.ant-popover:visible').getByRole('button', { name: /确\s*定/ }).click();
  await expect(row).toContainText('已提交');
  await expect(row).toContainText(band.label);
  await expect(row).toContainText(String(expectedTotal));

  const rec = await sup.get(`/supervisor/lectureRecord/queryById?id=${created.id}`);
  expect(rec.status).toBe('SUBMITTED');
  expect(rec.grade).toBe(band.grade);
  expect((rec.indexScoreList as Row[]).map((s) => Number(s.score)).sort()).toEqual([...scores].sort());

  // Reports count it.
  const freqAfter = ((await admin.get('/supervisor/report/frequency')) as Row[]).find((r) => r.userId === sup.userId)!;
  expect(freqAfter.actual).toBe((freqBefore?.actual ?? 0) + 1);
  expect(freqAfter.online).toBe((freqBefore?.online ?? 0) + 1);
  const perfAfter = ((await admin.get('/supervisor/report/performance')) as Row[]).find((r) => r.teacherId === tch.userId)!;
  expect(perfAfter.count).toBe((perfBefore?.count ?? 0) + 1);
  const detail = await admin.get(`/supervisor/report/detail?teacherId=${tch.userId}&side=teacher&pageSize=1000`);
  const listed = ((detail.records ?? detail) as Row[]).find((r) => r.id === created.id);
  expect(Number(listed?.totalScore)).toBe(expectedTotal);

  // ---- the observed teacher reads and confirms it ----
  const ctx = await browser.newContext();
  const tp = await ctx.newPage();
  try {
    await login(tp, 'teacher');
    await tp.goto('/supervisor/lectureRecord');
    const trow = rows(tp).filter({ hasText: created.recordNo });
    await expect(trow).toHaveCount(1, { timeout: 20_000 });
    await trow.getByText('详情', { exact: true }).click();
    const detailDrawer = tp.locator('.ant-drawer-content');
    await expect(detailDrawer.getByTestId('lesson-facts')).toContainText(lesson!.courseName);
    await expect(detailDrawer.getByTestId('score-total')).toHaveText(String(expectedTotal));
    await expect(detailDrawer.locator('input[aria-label$="得分"]').first()).toBeDisabled();
    await detailDrawer.locator('.ant-drawer-extra').getByRole('button', { name: /关\s*闭/ }).click();
    await trow.getByText('确认', { exact: true }).click();
    await tp.locator('.ant-popover:visible').getByRole('button', { name: /确\s*定/ }).click();
    await expect(trow).toContainText('已确认');
  } finally {
    await ctx.close();
  }
  expect((await sup.get(`/supervisor/lectureRecord/queryById?id=${created.id}`)).status).toBe('CONFIRMED');
  recorded = { id: created.id, recordNo: created.recordNo };
});


/** Signs in as `user` in a fresh browser context, runs `fn`, closes the context. */
async function asUser(browser: Browser, user: string, fn: (page: Page) => Promise<void>) {
  const ctx = await browser.newContext();
  try {
    const page = await ctx.newPage();
    await login(page, user);
    await fn(page);
  } finally {
    await ctx.close();
  }
}

/** Runs a confirmed row action (under 更多 when not shown inline) and waits for the row's new status text. */
async function rowAction(page: Page, rowText: string, label: string, status: string) {
  const row = rows(page).filter({ hasText: rowText });
  await expect(row).toHaveCount(1, { timeout: 20_000 });
  const inline = row.getByText(label, { exact: true });
  if (await inline.count()) await inline.click();
  else {
    await row.getByText('更多').hover();
    await page.locator('.ant-dropdown:visible').getByText(label, { exact: true }).click();
  }
  await page.locator('.ant-popover:visible').getByRole('button', { name: /确\s*定/ }).click();
  await expect(row).toContainText(status);
}

test('leader raises an improvement task from the record and issues it on the task screen; secretary and teacher walk it to closure', async ({ page, browser, baseURL }) => {
  test.setTimeout(240_000);
  expect(recorded, 'the record of the previous test').toBeTruthy();
  const rec = recorded!;
  const leader = await apiAs(baseURL!, 'leader');
  const secretary = await apiAs(baseURL!, 'secretary');
  const tch = await apiAs(baseURL!, 'teacher');

  // The flagged record offers 发起整改 to the leader, leading to the task screen.
  await login(page, 'leader');
  await page.goto('/supervisor/lectureRecord');
  const recRow = rows(page).filter({ hasText: rec.recordNo });
  await expect(recRow).toHaveCount(1, { timeout: 20_000 });
  await recRow.getByText('更多').hover();
  await page.locator('.ant-dropdown:visible').getByText('发起整改', { exact: true }).click();
  await expect(page).toHaveURL(/\/improvement\/task/);

  // The task screen has no prefill yet: the task is created from the server's prefill through the API.
  const pre = await leader.get(`/improvement/task/prefill?recordId=${rec.id}`);
  expect(pre.sourceId).toBe(rec.id);
  expect(pre.description).toBe('板书略显凌乱');
  const title = `${pre.title}（${rec.recordNo}）`;
  const task = await leader.post('/improvement/task/add', { ...pre, title });
  expect(task.status).toBe('DRAFT');

  await page.goto('/improvement/task');
  await rowAction(page, title, '下发', '已下发');
  // The rest goes through the API: with the seeded grants the task screen offers the secretary no 签收
  // (needs improvement:task:list) and the leader no 验收通过/销号 (needs improvement:task:verify).
  const step = (kind: 'task' | 'subtask', who: Client, id: string, action: string, comment = '') => who.post(`/improvement/${kind}/transition`, { id, action, comment });
  expect((await step('task', secretary, task.id, 'ACCEPT')).status).toBe('ACCEPTED');
  // Split: the secretary assigns a subtask to the observed teacher.
  const subTitle = `改进板书设计（${rec.recordNo}）`;
  const sub = await secretary.post('/improvement/subtask/add', { taskId: task.id, title: subTitle, assigneeId: tch.userId, deadline: pre.deadline });
  expect((await leader.get(`/improvement/task/queryById?id=${task.id}`)).status).toBe('IN_PROGRESS');
  expect((await step('subtask', secretary, sub.id, 'ISSUE')).status).toBe('ISSUED');
  expect((await step('subtask', tch, sub.id, 'ACCEPT')).status).toBe('ACCEPTED');
  expect((await step('subtask', tch, sub.id, 'SUBMIT', '已重新设计板书结构')).status).toBe('SUBMITTED');
  expect((await step('subtask', secretary, sub.id, 'VERIFY', '通过')).status).toBe('VERIFIED');
  expect((await step('task', secretary, task.id, 'SUBMIT', '整改完成')).status).toBe('SUBMITTED');
  expect((await step('task', leader, task.id, 'VERIFY', '整改到位')).status).toBe('VERIFIED');
  expect((await step('task', leader, task.id, 'CLOSE')).status).toBe('CLOSED');

  // The screens show the outcome: the leader's task list and the teacher's subtask list.
  await page.goto('/improvement/task');
  await expect(rows(page).filter({ hasText: title })).toContainText('已销号', { timeout: 20_000 });
  await asUser(browser, 'teacher', async (p) => {
    await p.goto('/improvement/subtask');
    await expect(rows(p).filter({ hasText: subTitle })).toContainText('已验收', { timeout: 20_000 });
  });

  const full = await leader.get(`/improvement/task/queryById?id=${task.id}`);
  expect(full.status).toBe('CLOSED');
  expect((full.logs as Row[]).map((l) => l.action)).toEqual(['CREATE', 'ISSUE', 'ACCEPT', 'SPLIT', 'SUBMIT', 'VERIFY', 'CLOSE']);
  expect((full.subtasks as Row[]).find((x) => x.id === sub.id)?.status).toBe('VERIFIED');
});
