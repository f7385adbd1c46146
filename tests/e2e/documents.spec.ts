import { expect, test, type Browser, type Page } from '@playwright/test';
import { accessToken, login } from './helpers';

/**
 * 在线文档 (issue 29) in Chromium: two people edit one document at once — one types Chinese through IME
 * composition (CDP), the other builds a table — each sees the other's text and named caret within 1 s;
 * a reload keeps the merged text; a named version is restored; a document attached to an improvement
 * task opens from the task. (Killing the server mid-edit is covered by tests/api/documents-kill.test.ts
 * with a real Yjs client against a server process killed with SIGKILL: the shared e2e server cannot be killed.)
 */
async function api(page: Page, method: 'GET' | 'POST', url: string, data?: unknown) {
  const token = await accessToken(page);
  const r = await page.request.fetch(`/jeecg-boot${url}`, { method, headers: { 'X-Access-Token': token }, data });
  const body = await r.json();
  expect(body.success, body.message).toBe(true);
  return body.result;
}

async function person(browser: Browser, username: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await login(page, username);
  return { context, page };
}

const editor = (p: Page) => p.getByTestId('doc-editor');

test('two editors at once: Chinese IME and a table, named carets, reload keeps the merge, a version restored', async ({ browser }) => {
  test.setTimeout(120_000);
  const a = await person(browser, 'secretary');
  const b = await person(browser, 'leader');
  try {
    const { id } = await api(a.page, 'POST', '/docs/document/add', { title: `协同编辑 ${Date.now() % 100000}` });
    const leaderId = (await api(b.page, 'GET', '/sys/user/getUserInfo')).userInfo.id as string;
    await api(a.page, 'POST', '/docs/share/add', { docId: id, targetType: 'user', targetId: leaderId, level: 'edit' });

    await Promise.all([a.page.goto(`/document/edit?id=${id}`), b.page.goto(`/document/edit?id=${id}`)]);
    for (const p of [a.page, b.page]) await expect(p.getByTestId('doc-sync')).toHaveText('已保存', { timeout: 20_000 });

    // A: Chinese through IME composition (pinyin shown while composing, then committed).
    await editor(a.page).click();
    const cdp = await a.context.newCDPSession(a.page);
    for (const pinyin of ['t', 'ti', 'ting', 'ting k', 'ting ke']) await cdp.send('Input.imeSetComposition', { text: pinyin, selectionStart: pinyin.length, selectionEnd: pinyin.length });
    await cdp.send('Input.insertText', { text: '听课' });
    for (const pinyin of ['z', 'zong', 'zong j', 'zong jie']) await cdp.send('Input.imeSetComposition', { text: pinyin, selectionStart: pinyin.length, selectionEnd: pinyin.length });
    await cdp.send('Input.insertText', { text: '总结：课堂互动良好' });
    await expect(editor(a.page)).toContainText('听课总结：课堂互动良好');
    // B sees it within 1 s, with A's named caret.
    await expect(editor(b.page)).toContainText('听课总结：课堂互动良好', { timeout: 1_000 });
    await expect(b.page.locator('.collaboration-carets__label', { hasText: '陈静' })).toBeVisible({ timeout: 1_000 });

    // B: a table at the end, formatted (bold header text).
    await editor(b.page).click();
    await b.page.keyboard.press('Control+End');
    await b.page.getByTestId('tb-table').click();
    await b.page.locator('.ant-dropdown-menu:visible').getByText('插入表格（3×3）').click();
    await b.page.keyboard.type('Score');
    await b.page.keyboard.press('Shift+Home');
    await b.page.getByTestId('tb-bold').click();
    await b.page.keyboard.press('End');
    await b.page.keyboard.press('Tab');
    await b.page.keyboard.type('Grade A');
    await expect(editor(a.page).locator('table')).toContainText('Grade A', { timeout: 1_000 });
    await expect(editor(a.page).locator('table th strong, table th b').first()).toBeVisible({ timeout: 1_000 });
    await expect(a.page.locator('.collaboration-carets__label', { hasText: '李明华' })).toBeVisible({ timeout: 1_000 });
    // A's Chinese text was neither lost nor doubled.
    await expect(editor(b.page)).toContainText('听课总结：课堂互动良好');
    expect((await editor(b.page).innerText()).split('听课总结').length).toBe(2);

    // Both saved; a reload shows the merged text.
    for (const p of [a.page, b.page]) await expect(p.getByTestId('doc-sync')).toHaveText('已保存');
    await a.page.reload();
    await expect(editor(a.page)).toContainText('听课总结：课堂互动良好', { timeout: 20_000 });
    await expect(editor(a.page).locator('table')).toContainText('Grade A');

    // A named version, a later edit, then the version restored (as a new version).
    await a.page.getByRole('button', { name: '保存版本' }).click();
    await a.page.getByTestId('version-name').fill('评审稿');
    await a.page.locator('.ant-modal-confirm').getByRole('button', { name: /保\s*存/ }).click();
    await expect(a.page.getByText('版本已保存')).toBeVisible();
    await editor(a.page).click();
    await a.page.keyboard.press('Control+End');
    await a.page.keyboard.press('Enter');
    await a.page.keyboard.type('this line goes away');
    await expect(editor(b.page)).toContainText('this line goes away', { timeout: 1_000 });
    await a.page.getByRole('button', { name: /^版\s*本$/ }).click();
    const row = a.page.getByTestId('version-row').filter({ hasText: '评审稿' });
    await row.getByText('查看').click();
    await a.page.getByRole('tab', { name: '与当前比较' }).click();
    await expect(a.page.getByTestId('version-diff')).toContainText('+ this line goes away');
    await a.page.getByRole('button', { name: '还原此版本' }).click();
    await a.page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定|OK/ }).click();
    await expect(a.page.getByText('已还原为新版本')).toBeVisible();
    for (const p of [a.page, b.page]) {
      await expect(editor(p)).not.toContainText('this line goes away', { timeout: 5_000 });
      await expect(editor(p)).toContainText('听课总结：课堂互动良好');
    }
  } finally {
    await a.context.close();
    await b.context.close();
  }
});

test('a document attached to an improvement task opens from the task', async ({ page }) => {
  await login(page, 'secretary');
  const tasks = await api(page, 'GET', '/improvement/task/list?pageSize=1');
  const task = tasks.records[0] as { id: string; title: string };
  const { id } = await api(page, 'POST', '/docs/document/add', { templateId: 'host', hostType: 'imp_task', hostId: task.id });
  await page.goto('/improvement/task');
  const row = page.locator('.ant-table-row', { hasText: task.title }).first();
  await row.getByText('详情', { exact: true }).click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer.getByRole('heading', { name: '佐证文档' })).toBeVisible({ timeout: 20_000 });
  const link = drawer.locator('.ant-table-row', { hasText: '整改报告' }).first();
  await link.getByText('打开', { exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/document/edit\\?id=${id}`));
  await expect(editor(page)).toContainText('三、整改措施', { timeout: 20_000 });
});
