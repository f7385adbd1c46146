import { execSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from './helpers';

/**
 * The widget library in Chromium. Widgets are driven through the static Storybook build, served by
 * the test under the app's own origin (/__sb/…), so `?live=1` stories talk to the real server.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const SB = join(ROOT, 'storybook-static');
const MIME: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.woff2': 'font/woff2', '.png': 'image/png' };

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

// The stories are served by page.route; the app's offline service worker (registered by any app page in a
// production build) would answer those requests itself and bypass the route, so none is allowed here.
test.use({ serviceWorkers: 'block' });

test.beforeAll(() => {
  test.setTimeout(180_000);
  const built = existsSync(join(SB, 'index.json')) ? statSync(join(SB, 'index.json')).mtimeMs : 0;
  if (built < Math.max(newest(join(ROOT, 'widgets')), newest(join(ROOT, '.storybook')))) execSync('npx storybook build --quiet', { cwd: ROOT, stdio: 'ignore' });
});

async function story(page: Page, id: string, live = false) {
  await page.route('**/__sb/**', (route) => {
    const path = decodeURIComponent(new URL(route.request().url()).pathname.replace(/^\/__sb\/?/, '')) || 'index.html';
    const file = join(SB, path);
    if (!file.startsWith(SB) || !existsSync(file) || statSync(file).isDirectory()) return route.fulfill({ status: 404, body: '' });
    return route.fulfill({ status: 200, body: readFileSync(file), contentType: MIME[extname(file)] ?? 'application/octet-stream' });
  });
  await page.goto(`/__sb/iframe.html?id=${encodeURIComponent(id)}&viewMode=story${live ? '&live=1' : ''}`);
}

async function signIn(page: Page) {
  const r = await page.request.post('/jeecg-boot/sys/login', { data: { username: 'admin', password: DEMO_PASSWORD } });
  const body = (await r.json()) as { result: { token: string; userInfo: unknown } };
  expect(body.result.token).toBeTruthy();
  await page.goto('/__sb/none');
  await page.evaluate(({ token, user }) => {
    const expire = Date.now() + 3_600_000;
    localStorage.setItem('Access-Token', JSON.stringify({ value: token, expire }));
    localStorage.setItem('Login_Userinfo', JSON.stringify({ value: user, expire }));
  }, { token: body.result.token, user: body.result.userInfo });
}

const cell = (page: Page, row: number | string, col: string) => page.locator(`.ag-row[row-index="${row}"] [col-id="${col}"]`);
const output = (page: Page) => page.getByTestId('value');

test('editable table: 1,000 rows — virtual rows, edit, validate, add, drag, delete, statistics', async ({ page }) => {
  test.setTimeout(180_000);
  await story(page, '可编辑表格-jeditabletable--rows-1000');
  // Always-edit: text cells are input look-alikes that become inputs when focused, pickers are boxes that open on one click.
  await expect(cell(page, 0, 'name').locator('.j-cell-input')).toHaveText('教师1', { timeout: 30_000 });
  await expect(cell(page, 0, 'sex')).toHaveText('男');
  await expect(cell(page, 0, 'sex')).toHaveClass(/j-cell-boxed/);
  // Only rows near the viewport are in the DOM, and no text input until a cell is focused.
  expect(await page.locator('.ag-row[row-index]').count()).toBeLessThan(60);
  await expect(page.locator('.ag-cell.j-cell-live input')).toHaveCount(0);
  await expect(cell(page, 'b-0', '__seq')).toHaveText('合计');
  await expect(cell(page, 'b-0', 'score')).toHaveText('79,800');
  await expect(cell(page, 'b-1', 'score')).toHaveText('79.8');

  // Edit a score: the footer follows.
  await cell(page, 0, 'score').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('100');
  await page.keyboard.press('Enter');
  await expect(cell(page, 'b-0', 'score')).toHaveText('79,840');

  // Validate on input: an invalid mobile shows the error while typing, then on the cell.
  await cell(page, 1, 'mobile').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('12345');
  await expect(page.locator('.j-cell-input-error')).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(cell(page, 1, 'mobile')).toHaveClass(/j-cell-error/);
  await page.getByTestId('get-values').click();
  await expect(output(page)).toHaveText('校验失败: 手机号格式不正确');
  await cell(page, 1, 'mobile').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('13912345678');
  await page.keyboard.press('Enter');
  await expect(cell(page, 1, 'mobile')).not.toHaveClass(/j-cell-error/);

  // Add a row (appended), then a second click inside 1500 ms is refused.
  await page.getByRole('button', { name: '新 增' }).click();
  await page.getByRole('button', { name: '新 增' }).click();
  await expect(page.getByText('操作太快了，请稍后再试')).toBeVisible();
  await page.getByTestId('get-values').click();
  await expect(output(page)).toHaveText('校验失败: 请输入姓名'); // the new row has no name
  const last = page.locator('.j-editable-table .ag-grid-viewport');
  await last.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(cell(page, 1000, 'name')).toBeVisible();
  await cell(page, 1000, 'name').click();
  await page.keyboard.type('新教');
  // Tab moves into the next cell's input; typing goes straight in; Shift+Tab comes back.
  await page.keyboard.press('Tab');
  await expect(cell(page, 1000, 'code').locator('input')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(cell(page, 1000, 'name').locator('input')).toBeFocused();
  await page.keyboard.press('End');
  await page.keyboard.type('师');
  await page.keyboard.press('Enter');
  // Reading the values moves the focus out of the grid and shows the named row was written: a grid
  // that still holds the focus scrolls back to its focused cell when its data update lands.
  await page.getByTestId('get-values').click();
  await expect(output(page)).toHaveText('共 1001 行; 删除 ; 首行 教师1 序号 1');

  // Drag row 1 below row 2: orderNum renumbered from 1.
  const handle = cell(page, 0, '__drag').locator('.ag-drag-handle');
  const target = cell(page, 1, 'name');
  // After the scroll back to the top the grid may briefly hold a recycled copy of a row.
  await expect(async () => {
    await last.evaluate((el) => (el.scrollTop = 0));
    await expect(handle).toHaveCount(1, { timeout: 1000 });
    await expect(target).toHaveCount(1, { timeout: 1000 });
  }).toPass();
  const a = (await handle.boundingBox())!;
  const b = (await target.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + 5, a.y + 20, { steps: 5 });
  await page.mouse.move(b.x + 10, b.y + b.height - 5, { steps: 10 });
  await page.mouse.up();
  await expect(cell(page, 0, 'name').locator('.j-cell-input')).toHaveText('教师2');
  await page.getByTestId('get-values').click();
  await expect(output(page)).toHaveText('共 1001 行; 删除 ; 首行 教师2 序号 1');

  // Select two rows and delete them: saved ids go to the delete list.
  await cell(page, 0, 'ag-Grid-SelectionColumn').locator('input').check();
  await cell(page, 1, 'ag-Grid-SelectionColumn').locator('input').check();
  await expect(page.getByTestId('selection')).toHaveText('selected:2');
  await page.getByRole('button', { name: '删 除' }).click();
  await page.getByRole('button', { name: /确\s*定|OK/ }).click();
  await page.getByTestId('get-values').click();
  await expect(output(page)).toHaveText(/^共 999 行; 删除 r2,r1; /);
});

test('editable table: always-edit inputs vs click-to-edit; tags and number rules while typing', async ({ page }) => {
  await story(page, '可编辑表格-jeditabletable--edit-modes');
  const always = page.getByTestId('always');
  const click = page.getByTestId('click');
  const at = (t: typeof always, row: number, col: string) => t.locator(`.ag-row[row-index="${row}"] [col-id="${col}"]`);

  // Always-edit: cells show input look-alikes; one click puts the caret in a real input, typing goes straight in.
  await expect(at(always, 0, 'name').locator('.j-cell-input')).toHaveText('王磊', { timeout: 30_000 });
  await expect(always.locator('input')).toHaveCount(0);
  await at(always, 0, 'name').click({ position: { x: 30, y: 20 } });
  const name = at(always, 0, 'name').locator('input');
  await expect(name).toBeFocused();
  await expect(name).toHaveValue('王磊');
  expect(await name.evaluate((i: HTMLInputElement) => i.selectionStart)).toBe(1); // the caret where the text was clicked
  // ↓ and Tab put the caret in the next cell's input; leaving an input brings the look-alike back.
  await page.keyboard.press('ArrowDown');
  await expect(at(always, 1, 'name').locator('input')).toBeFocused();
  await expect(always.locator('input')).toHaveCount(1);
  await expect(at(always, 0, 'name').locator('.j-cell-input')).toHaveText('王磊');
  await page.keyboard.press('Tab');
  await expect(at(always, 1, 'score').locator('input')).toBeFocused();
  await page.keyboard.press('Tab');
  const kw = at(always, 1, 'keywords').locator('input');
  await expect(kw).toBeFocused();
  await expect(kw).toHaveValue('');
  await page.keyboard.type('abcdef');
  await expect(kw).toHaveValue('ab;cd;ef;'); // the SPEC §5 tags rule while typing
  await page.keyboard.press('Backspace');
  await page.keyboard.type(';g');
  await expect(kw).toHaveValue('ab;cd;ef;g');
  await at(always, 1, 'score').click();
  const score = at(always, 1, 'score').locator('input');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('7a.5x');
  await expect(score).toHaveValue('7.5'); // the number rule
  await page.keyboard.press('Enter');
  await expect(score).toHaveValue('7.5');
  // A required name emptied: marked while typing; Escape restores it.
  await at(always, 0, 'name').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Backspace');
  await expect(at(always, 0, 'name').locator('.j-cell-input')).toHaveClass(/j-cell-input-error/);
  await page.keyboard.press('Escape');
  await expect(name).toHaveValue('王磊');
  await expect(at(always, 0, 'name').locator('.j-cell-input')).not.toHaveClass(/j-cell-input-error/);
  await always.getByRole('button', { name: '获取值' }).click();
  await expect(page.getByTestId('always-value')).toHaveText(
    JSON.stringify([{ name: '王磊', score: 90, keywords: 'ab;cd;', sex: '1' }, { name: '赵婷', score: 7.5, keywords: 'ab;cd;ef;g', sex: '2' }]),
  );

  // Click-to-edit: values, no inputs, until a click opens the editor; a click outside closes it.
  await expect(at(click, 0, 'name')).toHaveText('王磊');
  await expect(click.locator('.ag-center-cols-container input')).toHaveCount(0);
  await expect(at(click, 0, 'keywords').locator('.j-cell-tag')).toHaveText(['ab', 'cd']);
  await at(click, 0, 'keywords').click();
  const editor = at(click, 0, 'keywords').locator('input.j-cell-editor');
  await expect(editor).toBeFocused();
  await expect(editor).toHaveValue('ab;cd;');
  await page.keyboard.type('efg');
  await expect(editor).toHaveValue('ab;cd;ef;g');
  await click.locator('h4').click();
  await expect(click.locator('.ag-center-cols-container input')).toHaveCount(0);
  await expect(at(click, 0, 'keywords').locator('.j-cell-tag')).toHaveText(['ab', 'cd', 'ef', 'g']);
  // A printable key on a focused cell opens the editor with that key.
  await at(click, 1, 'name').click();
  await page.keyboard.press('Escape');
  await expect(at(click, 1, 'name').locator('input')).toHaveCount(0);
  await at(click, 1, 'name').focus();
  await page.keyboard.press('L');
  await expect(at(click, 1, 'name').locator('input.j-cell-editor')).toHaveValue('L');
  await page.keyboard.type('i');
  await page.keyboard.press('Enter');
  await expect(at(click, 1, 'name')).toHaveText('Li');
  await click.getByRole('button', { name: '获取值' }).click();
  await expect(page.getByTestId('click-value')).toHaveText(
    JSON.stringify([{ name: '王磊', score: 90, keywords: 'ab;cd;ef;g', sex: '1' }, { name: 'Li', score: 85, keywords: '', sex: '2' }]),
  );
});

test('dictionary select and user picker against the real API', async ({ page }) => {
  await signIn(page);
  await story(page, '字典-dictionary-widgets--select', true);
  await page.locator('.ant-select').click({ timeout: 30_000 });
  await page.locator('.ant-select-item-option').filter({ hasText: '女' }).click();
  await expect(output(page)).toHaveText('值: "2"');

  await story(page, '选择器-pickers--user', true);
  await page.getByRole('button', { name: '选择' }).click({ timeout: 30_000 });
  const modal = page.locator('.ant-modal-content');
  await expect(modal.getByText('选择用户')).toBeVisible();
  await expect(modal.locator('.ant-table-row').first()).toBeVisible();
  await modal.getByPlaceholder('请输入用户账号').fill('teacher');
  await modal.getByPlaceholder('请输入用户账号').press('Enter');
  const row = modal.locator('.ant-table-row').filter({ has: page.getByRole('cell', { name: 'teacher', exact: true }) });
  await row.click();
  await modal.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(output(page)).toHaveText('值: "teacher"');
  // Stores the username, shows the realname.
  await expect(page.getByPlaceholder('请选择用户')).toHaveValue('王磊');
});

test('user picker by department against the real API: 教师 preselected, only teachers of the chosen department', async ({ page }) => {
  await signIn(page);
  await story(page, '选择器-pickers--user-by-dep', true);
  await page.getByRole('button', { name: '选择' }).click({ timeout: 30_000 });
  const modal = page.locator('.ant-modal-content');
  await expect(modal.getByRole('radio', { name: '教师' })).toBeChecked();
  const requests: string[] = [];
  page.on('request', (r) => r.url().includes('queryUserComponentDataWithRole') && requests.push(r.url()));
  await modal.locator('.ant-tree-treenode').filter({ hasText: '某某大学' }).locator('.ant-tree-switcher').click();
  await modal.locator('.ant-tree-title').filter({ hasText: /^计算机学院$/ }).click();
  const names = modal.locator('.ant-table-row td:nth-child(2)');
  // Other specs may add teachers to 计算机学院 (the e2e database is shared): the demo teachers are there, nobody else of the college.
  const others = ['leader', 'secretary', 'deptadmin', 'supervisor', 'admin'];
  await expect(async () => {
    const got = await names.allTextContents();
    expect(got).toEqual(expect.arrayContaining(['teacher', 'teacher2']));
    expect(got.filter((n) => others.includes(n))).toEqual([]);
  }).toPass({ timeout: 15_000 });
  expect(requests.at(-1)).toContain('roleCode=teacher');
  await modal.getByText('部门领导').click();
  await expect(async () => {
    const got = await names.allTextContents();
    expect(got).toContain('leader');
    expect(got.filter((n) => n.startsWith('teacher'))).toEqual([]);
  }).toPass({ timeout: 15_000 });
});

test('file upload against the real API; the token flag decides the X-Access-Token header', async ({ page }) => {
  await signIn(page);
  const tokenOf = async (act: () => Promise<void>) => {
    const req = page.waitForRequest((r) => r.url().includes('/sys/common/upload') && r.method() === 'POST');
    await act();
    return (await req).headerValue('x-access-token');
  };
  const file = { name: 'observation.txt', mimeType: 'text/plain', buffer: Buffer.from('听课记录附件') };
  await story(page, '上传-uploads--file', true);
  expect(await tokenOf(() => page.locator('input[type=file]').setInputFiles(file))).toBeTruthy();
  await expect(page.locator('.j-upload-done')).toBeVisible();
  await expect(output(page)).toHaveText(/^值: "demo\/.+"$/);

  // token={false}: no header, so the server refuses the anonymous upload and the file shows the error.
  await story(page, '上传-uploads--file-without-token', true);
  expect(await tokenOf(() => page.locator('input[type=file]').setInputFiles(file))).toBeNull();
  await expect(page.locator('.j-upload-error')).toBeVisible();
  await expect(output(page)).toHaveText('值: null');
});

test('cron builder: parts, cascades, day/week exclusion and the preview', async ({ page }) => {
  await story(page, 'cron-cron-builder--builder');
  const expr = page.getByLabel('Cron表达式');
  await expect(expr).toHaveValue('0 0/5 * * * ? *', { timeout: 30_000 });
  await expect(page.locator('.j-cron-preview div')).toHaveCount(11);
  await page.getByRole('tab', { name: '时' }).click();
  await page.getByRole('tabpanel').getByRole('checkbox', { name: '08' }).check();
  await expect(expr).toHaveValue('0 0/5 8 * * ? *');
  await page.getByRole('tab', { name: '周' }).click();
  await page.getByRole('tabpanel').getByRole('checkbox', { name: '周一' }).check();
  await expect(expr).toHaveValue('0 0/5 8 ? * 2 *');
  await page.getByRole('tab', { name: '日' }).click();
  await page.getByRole('tabpanel').getByText('本月最后一天').click();
  await expect(expr).toHaveValue('0 0/5 8 L * ? *');
  await expect(page.locator('.j-cron-preview div').nth(1)).toHaveText(/^\d{4}-\d{2}-\d{2} 08:\d{2}:00$/);
});
