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
 * server restarts; the new screen is used in Chromium.
 */
const PORT = Number(process.env.CONFIG_AUTHOR_PORT ?? 18086);
const BASE = `http://127.0.0.1:${PORT}`;
const API = `${BASE}/jeecg-boot`;

const doc = readFileSync(join(ROOT, 'docs/config-authors.md'), 'utf8');
const blocks = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
const entity = blocks[0]!;
const pageSchema = blocks[1]!;

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
  const signInApi = async () => {
    const r = await fetch(`${API}/sys/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'Observe#2026' }) });
    return ((await r.json()) as { result: { token: string } }).result.token;
  };
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
  expect((await download).suggestedFilename()).toBe('图书管理.xls');

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
  await expect(page.locator('.schema-problems')).toContainText("pages/demo/Broken.json /columns/0：must have required property 'title'");
  // …and the rest of the product works on.
  await go('/demo/book');
  await expect(page.locator('tr.ant-table-row')).toHaveCount(2);
});

async function signInAt(page: Page) {
  await page.goto(`${BASE}/user/login`);
  await page.getByPlaceholder('请输入账户名').fill('admin');
  await page.getByPlaceholder('请输入密码').fill('Observe#2026');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/dashboard/, { timeout: 30_000 });
}
