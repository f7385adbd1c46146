import { expect, test, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTemplate, ROOT } from '../helpers/template-db.js';
import { rowAction, confirmPopconfirm } from './helpers';

/**
 * docs/config-authors.md, followed literally: the entity and page schema are the JSON blocks of
 * that page, written into a scratch copy of schemas/; the menu entry is added through the API; the
 * server restarts; the new screen is used in Chromium. Section 5 (a record screen: tabs, a detail view, a
 * bound sub-list, a dashboard section) is followed the same way: its JSON blocks go into the files it names.
 */
const PORT = Number(process.env.CONFIG_AUTHOR_PORT ?? 18086);
const BASE = `http://127.0.0.1:${PORT}`;
const API = `${BASE}/jeecg-boot`;

const doc = readFileSync(join(ROOT, 'docs/config-authors.md'), 'utf8');
const blocks = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
const entity = blocks[0]!;
const pageSchema = blocks[1]!;

/**
 * Section 5's JSON blocks by the file each is written to: the last `schemas/….json` the text before
 * the block names.
 */
function sectionFiles(section: string): Map<string, Record<string, unknown>> {
  const files = new Map<string, Record<string, unknown>>();
  let file: string | undefined;
  section.split(/```json\n([\s\S]*?)```/).forEach((part, i) => {
    if (i % 2 === 0) file = [...part.matchAll(/`(schemas\/[\w/]+\.json)`/g)].pop()?.[1] ?? file;
    else files.set(file!, JSON.parse(part) as Record<string, unknown>);
  });
  return files;
}
const composed = sectionFiles(doc.slice(doc.indexOf('\n## 5.')));

let scratch: string;
let server: ChildProcess | undefined;

async function start(dataDir: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: dataDir, SCHEMAS_DIR: join(scratch, 'schemas') };
  delete env.DATABASE_URL;
  server = spawn(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      if ((await fetch(`${API}/actuator/health`)).ok) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline || server.exitCode !== null) throw new Error('config-author server did not start');
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function stop() {
  if (!server || server.exitCode !== null) return;
  const s = server;
  s.kill('SIGTERM');
  await new Promise((r) => s.once('exit', r));
}

async function call<T = any>(method: string, url: string, token: string, body?: unknown): Promise<{ success: boolean; message: string; result: T }> {
  const r = await fetch(`${API}${url}`, {
    method,
    headers: { 'x-access-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await r.json()) as never;
}

function findIn(tree: Array<Record<string, any>>, pred: (n: Record<string, any>) => boolean): Record<string, any> | undefined {
  for (const n of tree) {
    if (pred(n)) return n;
    const hit = findIn(n.children ?? [], pred);
    if (hit) return hit;
  }
  return undefined;
}

test.describe.configure({ mode: 'serial' });
test.setTimeout(240_000);

test.beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'config-author-'));
  cpSync(join(ROOT, 'schemas'), join(scratch, 'schemas'), { recursive: true });
  // Step 1 and 2 of the guide.
  mkdirSync(join(scratch, 'schemas/entities/demo'), { recursive: true });
  writeFileSync(join(scratch, 'schemas/entities/demo/demo_book.json'), JSON.stringify(entity, null, 2));
  mkdirSync(join(scratch, 'schemas/pages/demo'), { recursive: true });
  writeFileSync(join(scratch, 'schemas/pages/demo/BookList.json'), JSON.stringify(pageSchema, null, 2));
  // A mistaken page: reported, shown as an error page; the rest works on.
  writeFileSync(join(scratch, 'schemas/pages/demo/Broken.json'), JSON.stringify({ kind: 'list', title: '坏页面', resource: '/demo/book', columns: [{ dataIndex: 'title' }] }));
  const template = await ensureTemplate();
  cpSync(template, join(scratch, 'data'), { recursive: true });
  await start(join(scratch, 'data'));
});

test.afterAll(async () => {
  await stop();
  rmSync(scratch, { recursive: true, force: true });
});

test('a config author adds a screen without code', async ({ page }) => {
  // Step 3: the menu entries, through the API.
  let token = await signInApi();
  for (const [name, component, url] of [['图书管理', 'demo/BookList', '/demo/book'], ['坏页面', 'demo/Broken', '/demo/broken']] as const) {
    const added = await call('POST', '/sys/permission/add', token, { name, menuType: 0, url, component, sortNo: 99 });
    expect(added.success, added.message).toBe(true);
  }
  const tree = await call<Array<Record<string, any>>>('GET', '/sys/permission/list', token);
  const ids = ['demo/BookList', 'demo/Broken'].map((c) => findIn(tree.result, (n) => n.component === c)?.id as string);
  expect(ids.every(Boolean)).toBe(true);
  const roles = await call<{ records: Array<{ id: string }> }>('GET', '/sys/role/list?roleCode=admin', token);
  const roleId = roles.result.records[0]!.id;
  const held = await call<string[]>('GET', `/sys/permission/queryRolePermission?roleId=${roleId}`, token);
  const saved = await call('POST', '/sys/permission/saveRolePermission', token, { roleId, permissionIds: [...held.result, ...ids].join(','), lastpermissionIds: '' });
  expect(saved.success, saved.message).toBe(true);
  token = await signInApi(); // a grant change ends the role's sessions

  // The bad page is reported with file, JSON path and reason.
  const broken = await call('GET', '/schema/page/demo/Broken', token);
  expect(broken.success).toBe(false);
  expect(broken.message).toContain('pages/demo/Broken.json /columns/0');

  // Step 4: restart.
  await stop();
  await start(join(scratch, 'data'));

  page.setDefaultNavigationTimeout(60_000);
  const go = (p: string) => page.goto(`${BASE}${p}`);
  await signInAt(page);
  await page.locator('.ant-menu').getByText('图书管理').click();
  await expect(page).toHaveURL(`${BASE}/demo/book`);
  const card = page.locator('.ant-card').filter({ hasText: '图书管理' });
  await expect(card.locator('.ant-table-placeholder')).toBeVisible();

  // Add two books.
  for (const [title, author, pages] of [['三体', '刘慈欣', '302'], ['活着', '余华', '191']]) {
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const d = page.getByRole('dialog');
    await d.getByLabel('书名').fill(title!);
    await d.getByLabel('作者').fill(author!);
    await d.getByLabel('页数').fill(pages!);
    await d.getByRole('button', { name: /确\s*定/ }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  }
  await expect(page.locator('.ant-pagination-total-text')).toHaveText('1-2 共2条');

  // Edit.
  await page.locator('tr.ant-table-row').filter({ hasText: '活着' }).getByText('编辑').click();
  await page.getByRole('dialog').getByLabel('作者').fill('余华（著）');
  await page.getByRole('dialog').getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.locator('tr.ant-table-row').filter({ hasText: '余华（著）' })).toHaveCount(1);

  // Search.
  await page.getByPlaceholder('请输入书名').fill('三');
  await page.getByRole('button', { name: /^查\s*询$/ }).click();
  await expect(page.locator('tr.ant-table-row')).toHaveCount(1);
  await expect(page.locator('tr.ant-table-row').first()).toContainText('刘慈欣');
  await page.getByRole('button', { name: /重\s*置/ }).click();
  await expect(page.locator('tr.ant-table-row')).toHaveCount(2);

  // Export.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /导\s*出/ }).click();
  expect((await download).suggestedFilename()).toBe('图书管理.xlsx');

  // Import.
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('图书');
  ws.addRow(['书名', '作者', '页数']);
  ws.addRow(['围城', '钱钟书', 359]);
  const file = join(scratch, '图书.xlsx');
  writeFileSync(file, Buffer.from(await wb.xlsx.writeBuffer()));
  await page.getByRole('button', { name: /导\s*入/ }).click();
  await page.getByRole('dialog').locator('input[type=file]').setInputFiles(file);
  await page.getByRole('dialog').getByRole('button', { name: '开始上传' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.locator('.ant-pagination-total-text')).toHaveText('1-3 共3条');
  await expect(page.locator('tr.ant-table-row').filter({ hasText: '钱钟书' })).toHaveCount(1);

  // Delete.
  const row = page.locator('tr.ant-table-row').filter({ hasText: '围城' });
  await rowAction(page, row, '删除');
  await confirmPopconfirm(page);
  await expect(page.locator('.ant-pagination-total-text')).toHaveText('1-2 共2条');

  // A changed page schema shows on the next load, without rebuild or restart.
  const changed = { ...pageSchema, title: '图书管理（修订）' };
  writeFileSync(join(scratch, 'schemas/pages/demo/BookList.json'), JSON.stringify(changed, null, 2));
  await go('/demo/book');
  await expect(page.locator('.ant-card-head-title').filter({ hasText: '图书管理（修订）' })).toBeVisible();

  // The mistaken page shows its error; the product works on.
  await go('/demo/broken');
  await expect(page.getByText('页面配置有误', { exact: true })).toBeVisible();
  await expect(page.locator('.schema-problems')).toContainText("pages/demo/Broken.json /columns/0：缺少必填属性“title”");
  // …and the rest of the product works on.
  await go('/demo/book');
  await expect(page.locator('tr.ant-table-row')).toHaveCount(2);
});

test('section 5: a record screen with tabs, a detail view, a bound sub-list and figures', async ({ page }) => {
  // The files of section 5, written where the guide says; BookList.json gains the `actions` key.
  const names = [
    'schemas/entities/demo/demo_loan.json',
    'schemas/pages/demo/LoanList.json',
    'schemas/pages/demo/BookLoanStats.json',
    'schemas/pages/demo/BookDetail.json',
    'schemas/pages/demo/BookView.json',
    'schemas/pages/demo/BookList.json',
  ];
  expect([...composed.keys()].sort()).toEqual([...names].sort());
  for (const name of names) {
    const json = name.endsWith('BookList.json') ? { ...pageSchema, ...composed.get(name) } : composed.get(name);
    writeFileSync(join(scratch, name), JSON.stringify(json, null, 2));
  }
  // Restart (the new entity's table and permission codes).
  await stop();
  await start(join(scratch, 'data'));

  // The books of the first test; another book's loan, which 三体's screen must not show.
  const token = await signInApi();
  const books = await call<{ records: Array<{ id: string; title: string }> }>('GET', '/demo/book/list?pageSize=50', token);
  const bookId = (title: string) => books.result.records.find((b) => b.title === title)!.id;
  const other = await call('POST', '/demo/loan/add', token, { bookId: bookId('活着'), borrower: '王五', loanDate: '2026-03-02', days: 7 });
  expect(other.success, other.message).toBe(true);

  page.setDefaultNavigationTimeout(60_000);
  await signInAt(page);
  await page.goto(`${BASE}/demo/book`);
  const open = async (title: string) => {
    const row = page.locator('tr.ant-table-row').filter({ hasText: title });
    await expect(row.getByText('查看', { exact: true })).toBeVisible();
    await rowAction(page, row, '查看');
    const drawer = page.locator('.ant-drawer-content').filter({ hasText: `图书：${title}` });
    await expect(drawer).toBeVisible();
    return drawer;
  };

  // 5.7 (1): 基本信息 — the book's fields in their formats, and the figures (no loans yet).
  let drawer = await open('三体');
  await expect(drawer.getByRole('tab', { name: '基本信息', selected: true })).toBeVisible();
  const item = (label: string) => drawer.locator('.schema-descriptions .ant-descriptions-item-label', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::*[1]');
  await expect(item('书名')).toHaveText('三体');
  await expect(item('作者')).toHaveText('刘慈欣');
  await expect(item('页数')).toHaveText('302 页');
  await expect(item('录入人')).toHaveText('admin');
  await expect(item('录入时间')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  await expect(drawer.getByTestId('loan-count')).toContainText('0 次');

  // 5.7 (2): 借阅记录 — only this book's loans (none yet: 王五's loan is 活着's); two loans added.
  await drawer.getByRole('tab', { name: '借阅记录' }).click();
  const loans = drawer.locator('tr.ant-table-row');
  await expect(drawer.locator('.ant-table-placeholder')).toBeVisible();
  for (const [who, date, days] of [['张三', '2026-03-01', '14'], ['李四', '2026-03-20', '10']] as const) {
    await drawer.getByRole('button', { name: '新增借阅' }).click();
    const d = page.locator('.ant-modal-content').filter({ hasText: '新增' });
    await d.getByLabel('借阅人').fill(who);
    await d.getByLabel('借出日期').fill(date);
    await d.getByLabel('借出日期').press('Enter');
    await d.getByLabel('借阅天数').fill(days);
    await d.getByRole('button', { name: /确\s*定/ }).click();
    await expect(d).toHaveCount(0);
    await expect(loans.filter({ hasText: who })).toHaveCount(1);
  }
  await expect(loans).toHaveCount(2);
  await expect(loans.first()).toContainText('2026-03-20'); // newest loan first
  await expect(loans.filter({ hasText: '王五' })).toHaveCount(0);
  // The saved loans carry the book's id, though the form never showed it.
  const saved = await call<{ records: Array<{ borrower: string; bookId: string }> }>('GET', '/demo/loan/list?borrower=张三', token);
  expect(saved.result.records.map((r) => r.bookId)).toEqual([bookId('三体')]);

  // 5.7 (3): back on 基本信息, the figures count them.
  await drawer.getByRole('tab', { name: '基本信息' }).click();
  await expect(drawer.getByTestId('loan-count')).toContainText('2 次');
  await expect(drawer.getByTestId('loan-days')).toContainText('24 天');
  await expect(drawer.getByTestId('loan-avg')).toContainText('12.0');
  await expect(drawer.getByTestId('loan-chart').locator('canvas')).toBeVisible();

  // Another book's screen: its own loan and figures only.
  await drawer.locator('.ant-drawer-close').click();
  await expect(drawer).toHaveCount(0);
  drawer = await open('活着');
  await expect(drawer.getByTestId('loan-count')).toContainText('1 次');
  await expect(drawer.getByTestId('loan-days')).toContainText('7 天');
  await drawer.getByRole('tab', { name: '借阅记录' }).click();
  await expect(drawer.locator('tr.ant-table-row')).toHaveCount(1);
  await expect(drawer.locator('tr.ant-table-row')).toContainText('王五');

  // On a phone the 960 px drawer fits the screen (its close button and tabs stay reachable).
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(async () => (await drawer.boundingBox())?.x).toBeGreaterThanOrEqual(0);
  expect((await drawer.boundingBox())!.width).toBeLessThanOrEqual(390);
  await drawer.locator('.ant-drawer-close').click();
  await expect(drawer).toHaveCount(0);
});

async function signInApi() {
  const r = await fetch(`${API}/sys/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'Observe#2026' }) });
  return ((await r.json()) as { result: { token: string } }).result.token;
}

async function signInAt(page: Page) {
  await page.goto(`${BASE}/user/login`);
  await page.getByPlaceholder('请输入账户名').fill('admin');
  await page.getByPlaceholder('请输入密码').fill('Observe#2026');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/dashboard/, { timeout: 30_000 });
}

test('section 6: a shipped file changes under a version saved in the page designer', async ({ page }) => {
  page.setDefaultNavigationTimeout(60_000);
  await signInAt(page);
  const pick = async () => {
    await page.goto(`${BASE}/online/design`);
    await page.getByRole('combobox', { name: '选择页面' }).fill('demo/BookList');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '（demo/BookList）' }).click();
    await expect(page.getByLabel('列 3 字段')).toHaveValue('pages');
  };
  // The quality office renames 页数 in the browser.
  await pick();
  await page.getByLabel('列 3 标题').fill('页码');
  await expect(page.getByText('配置有效')).toBeVisible();
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('已保存为版本 1')).toBeVisible();

  // The upgrade: the shipped file gains a column (no restart: files are re-read when they change).
  const file = join(scratch, 'schemas/pages/demo/BookList.json');
  const shipped = JSON.parse(readFileSync(file, 'utf8')) as { columns: unknown[] };
  // the column the guide's section 6 names
  const column = JSON.parse(/`(\{ "dataIndex"[^`]*\})`/.exec(doc.slice(doc.indexOf('\n## 6.')))![1]!) as Record<string, unknown>;
  expect(column).toEqual({ dataIndex: 'createTime', title: '录入时间', widget: 'cell:date' });
  shipped.columns.push(column);
  writeFileSync(file, JSON.stringify(shipped, null, 2));

  // 页面设计 names the page; the designer shows what the upgrade changed and re-applies the local change on it.
  await page.goto(`${BASE}/online/design`);
  await expect(page.locator('.design-upgraded-pages')).toContainText('demo/BookList');
  await pick();
  const notice = page.locator('.design-shipped-notice');
  await expect(notice).toContainText('出厂配置已更新');
  await notice.getByRole('button', { name: '查看出厂配置的变化' }).click();
  const diff = page.getByRole('dialog', { name: /出厂配置的变化/ });
  await expect(diff.getByText('/columns/3')).toBeVisible();
  await expect(diff).toContainText('录入时间');
  await diff.getByRole('button', { name: 'Close' }).click();
  await notice.getByRole('button', { name: '基于新默认重新应用' }).click();
  await expect(page.getByText('已基于新默认重新应用（新版本 2）')).toBeVisible();
  await expect(notice).toHaveCount(0);

  // The list has both: the author's 页码 and the upgrade's 录入时间.
  await page.goto(`${BASE}/demo/book`);
  await expect(page.getByRole('columnheader', { name: '页码' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: '录入时间' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: '页数' })).toHaveCount(0);
});
