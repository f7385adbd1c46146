import { expect, test, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/template-db.js';
import { accessToken, login } from './helpers';

/**
 * 表单开发 as a config author with no file access and no restart (issue 31), following docs/config-authors.md's
 * online-forms section step by step: a main table 教学检查记录 with a dictionary field and a unique index, its
 * sub-table 检查明细, preview, publish, records with sub-table rows through the generated screen, 编辑 and 版本,
 * copy, export and import.
 */
const doc = readFileSync(join(ROOT, 'docs/config-authors.md'), 'utf8');
const section = doc.slice(doc.indexOf('### A new table and its screen: 表单开发'), doc.indexOf('## As files on the server'));
const USED = [
  '在线开发 / 表单开发', '新增', '表名', '表描述', '表类型', '单表', '字段名', '字段备注', '字典编码', '`eval_grade`', '索引', '索引字段', '索引类型', '唯一', '保存',
  '附表（一对多的子表）', '主表', '`form_jxjc_mx`', '检查明细', '检查内容', '得分', '树表单', '父级字段', '树显示字段', '添加下级', '预览', '示例', '同步数据库',
  '新建数据表 form_jxjc（教学检查记录），字段：', '新建唯一索引', '在线开发 / 教学检查记录', '确定', '检查明细第2行：检查内容不能为空',
  '教学检查记录中已存在检查项目为“教案检查”的记录，不能重复', '编辑', '更多 → 版本', '回滚', '更多 → 复制', '新表名', '更多 → 导出定义', '`<表名>.json`', '导入',
  '数据库中已存在表“form_jxjc”，请换一个表名', '导入的定义不正确：定义.head.id 是未知内容',
];

test('docs/config-authors.md has an online-forms section in the browser path, with the labels used here', () => {
  expect(section.length).toBeGreaterThan(0);
  expect(doc.indexOf('### A new table and its screen: 表单开发')).toBeLessThan(doc.indexOf('## As files on the server'));
  for (const label of USED) expect(section, label).toContain(label);
});

const ok = (p: Page) => p.locator('.ant-popover:visible').getByRole('button', { name: /确\s*定|OK/ });
const row = (p: Page, text: string) => p.locator('tr.ant-table-row').filter({ hasText: text }).first();
/** The row of one table name (表单开发's list). */
const tableRow = (p: Page, name: string) => p.locator('tr.ant-table-row').filter({ has: p.getByRole('cell', { name, exact: true }) });

/** The 新增 / 编辑 dialog of 表单开发: its head fields, the 字段 table and the 索引 table (two editable grids). */
async function defineForm(page: Page, d: Locator, def: { tableName: string; tableTxt: string; sub?: string; fields: Array<Record<string, string | true>>; uniqueIndex?: string }) {
  await d.getByLabel('表名').fill(def.tableName);
  await d.getByLabel('表描述').fill(def.tableTxt);
  if (def.sub) {
    await d.getByRole('combobox', { name: '表类型' }).click({ force: true });
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '附表（一对多的子表）' }).click();
    await d.getByLabel('主表').fill(def.sub);
  }
  const grids = d.locator('.ag-root-wrapper');
  await d.locator('.ant-input-number input').first().fill(String(def.fields.length));
  await d.getByRole('button', { name: /新\s*增/ }).first().click();
  const cell = (grid: number, r: number, col: string) => grids.nth(grid).locator(`.ag-row[row-index="${r}"] [col-id="${col}"]`).first();
  await expect(cell(0, def.fields.length - 1, 'dbFieldName')).toBeVisible();
  const type = async (grid: number, r: number, col: string, text: string) => {
    await cell(grid, r, col).click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  };
  for (const [i, f] of def.fields.entries()) {
    for (const [col, v] of Object.entries(f)) {
      if (v === true) await cell(0, i, col).locator('input[type=checkbox]').check();
      else if (col === 'dbType') {
        await cell(0, i, col).click();
        await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: new RegExp(`^${v}$`) }).click();
      } else await type(0, i, col, v);
    }
  }
  if (def.uniqueIndex) {
    await d.getByRole('button', { name: /新\s*增/ }).nth(1).click();
    await type(1, 0, 'indexName', '检查项目唯一');
    await type(1, 0, 'indexField', def.uniqueIndex);
    await cell(1, 0, 'indexType').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: /^唯一$/ }).click();
  }
  await d.getByRole('button', { name: /^保\s*存$/ }).last().click();
}

test('表单开发: a main table with a sub-table, previewed, published, used with sub-table rows, versioned, copied, exported and imported', async ({ page }) => {
  test.setTimeout(240_000);
  await login(page, 'admin');
  await page.goto('/online/cgform');

  // 1. the main table: a dictionary field and a unique index
  await page.getByRole('button', { name: /新\s*增/ }).first().click();
  let d = page.getByRole('dialog');
  await defineForm(page, d, {
    tableName: 'form_jxjc', tableTxt: '教学检查记录',
    fields: [{ dbFieldName: 'check_item', dbFieldTxt: '检查项目', fieldMustInput: true }, { dbFieldName: 'check_grade', dbFieldTxt: '评价等级', dictField: 'eval_grade' }],
    uniqueIndex: 'check_item',
  });
  await expect(page.getByText('添加成功！')).toBeVisible();
  await expect(d).toHaveCount(0);

  // 2. the sub-table
  await page.getByRole('button', { name: /新\s*增/ }).first().click();
  d = page.getByRole('dialog');
  await defineForm(page, d, {
    tableName: 'form_jxjc_mx', tableTxt: '检查明细', sub: 'form_jxjc',
    fields: [{ dbFieldName: 'content', dbFieldTxt: '检查内容', fieldMustInput: true }, { dbFieldName: 'score', dbFieldTxt: '得分', dbType: '整数' }],
  });
  await expect(page.getByText('添加成功！')).toBeVisible();
  await expect(row(page, 'form_jxjc_mx')).toContainText('附表');
  await expect(row(page, '教学检查记录')).toContainText('主表');

  // 4. preview before publishing: the generated screen over a sample row, the form with the sub-table's tab
  await row(page, '教学检查记录').getByText('预览').click();
  const drawer = page.locator('.ant-drawer:visible');
  await expect(drawer.getByText('预览：生成的页面和一条示例数据')).toBeVisible({ timeout: 20_000 });
  await expect(drawer.getByRole('cell', { name: '优秀' })).toBeVisible(); // the dictionary's text
  await expect(drawer.getByRole('columnheader', { name: '检查项目' })).toBeVisible();
  await expect(drawer.getByText('示例检查项目')).toBeVisible();
  await drawer.getByRole('button', { name: /新\s*增/ }).first().click();
  const pf = page.getByRole('dialog').filter({ hasText: '检查明细' });
  await expect(pf.getByRole('tab', { name: '检查明细' })).toBeVisible();
  await expect(pf.getByRole('columnheader', { name: /检查内容/ })).toBeVisible();
  await pf.getByRole('button', { name: /关\s*闭/ }).click();
  await drawer.locator('.ant-drawer-close').click();

  // 5. publish: the main table, then its sub-table, each read in words first
  await row(page, '教学检查记录').getByText('同步数据库').click();
  await expect(page.locator('.ant-popover:visible')).toContainText('新建数据表 form_jxjc（教学检查记录），字段：检查项目（check_item，文本，长度 50，必填）、评价等级（check_grade，文本，长度 50）');
  await expect(page.locator('.ant-popover:visible')).toContainText('新建唯一索引（检查项目）');
  await ok(page).click();
  await expect(page.getByText('同步数据库成功!')).toBeVisible();
  await row(page, 'form_jxjc_mx').getByText('同步数据库').click();
  await expect(page.locator('.ant-popover:visible')).toContainText('新建数据表 form_jxjc_mx（检查明细）');
  await ok(page).click();
  await expect(page.getByText('同步数据库成功!').last()).toBeVisible();
  await expect(row(page, 'form_jxjc_mx').getByText('同步数据库')).toHaveCount(0);

  // 6. use it: a record with two sub-table rows, saved together
  await page.reload();
  await page.locator('.layout-sider').getByRole('menuitem', { name: '教学检查记录', exact: true }).click();
  await expect(page).toHaveURL(/\/online\/cgformList\/form_jxjc$/);
  await page.getByRole('button', { name: /新\s*增/ }).first().click();
  let f = page.getByRole('dialog');
  await f.getByLabel('检查项目').fill('教案检查');
  await f.getByRole('combobox', { name: '评价等级' }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
  await f.getByRole('tab', { name: '检查明细' }).click();
  const sub = f.locator('.ant-tabs-tabpane-active');
  await sub.getByRole('button', { name: /新\s*增/ }).click();
  await sub.getByRole('button', { name: /新\s*增/ }).click();
  const subRow = (i: number) => sub.locator('tr.ant-table-row').nth(i);
  await subRow(0).locator('input.ant-input').first().fill('教学目标明确');
  await subRow(0).locator('.ant-input-number input').fill('5');
  await subRow(1).locator('.ant-input-number input').fill('4');
  // a missing required cell: marked, nothing saved
  await f.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('子表有必填项未填写')).toBeVisible();
  await expect(subRow(1).locator('input.ant-input-status-error')).toBeVisible();
  await subRow(1).locator('input.ant-input').first().fill('板书清晰');
  await f.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(row(page, '教案检查')).toBeVisible();

  // 编辑 shows the rows again
  await row(page, '教案检查').getByText('编辑').click();
  f = page.getByRole('dialog');
  await f.getByRole('tab', { name: '检查明细' }).click();
  await expect(f.locator('.ant-tabs-tabpane-active tr.ant-table-row')).toHaveCount(2);
  await expect(f.locator('.ant-tabs-tabpane-active input[value="板书清晰"]')).toBeVisible();
  await f.getByRole('button', { name: /关\s*闭/ }).click();

  // a second record with the same 检查项目 breaks the unique index
  await page.getByRole('button', { name: /新\s*增/ }).first().click();
  f = page.getByRole('dialog');
  await f.getByLabel('检查项目').fill('教案检查');
  await f.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('教学检查记录中已存在检查项目为“教案检查”的记录，不能重复')).toBeVisible();
  await f.getByRole('button', { name: /关\s*闭/ }).click();

  // 7. 编辑 and 版本
  await page.goto('/online/cgform');
  await row(page, '教学检查记录').getByText('编辑').click();
  d = page.getByRole('dialog');
  await expect(d.getByLabel('表描述')).toHaveValue('教学检查记录');
  await d.getByLabel('表描述').fill('教学检查记录表');
  await d.getByRole('button', { name: /^保\s*存$/ }).last().click();
  await expect(page.getByText('编辑成功!')).toBeVisible();
  const more = async (text: string, item: string) => {
    await row(page, text).getByText('更多').hover();
    await page.locator('.ant-dropdown:visible').getByText(item, { exact: true }).click();
  };
  await more('教学检查记录表', '版本');
  const versions = page.locator('.ant-drawer:visible');
  await expect(versions.locator('tr.ant-table-row')).toHaveCount(2);
  await expect(versions.locator('tr.ant-table-row').first()).toContainText('当前');
  await versions.locator('tr.ant-table-row').nth(1).getByText('回滚').click();
  await ok(page).click();
  await expect(page.getByText('已回滚到版本 1，请同步数据库')).toBeVisible();
  await expect(versions.locator('tr.ant-table-row')).toHaveCount(3);
  await versions.locator('.ant-drawer-close').click();
  await expect(tableRow(page, 'form_jxjc')).toContainText('主表'); // still the main table of its sub-table
  await expect(page.locator('tr.ant-table-row').filter({ hasText: '教学检查记录表' })).toHaveCount(0);

  // 8. copy, export, import
  await tableRow(page, 'form_jxjc').getByText('更多').hover();
  await page.locator('.ant-dropdown:visible').getByText('复制', { exact: true }).click();
  d = page.getByRole('dialog');
  await d.getByLabel('新表名').fill('form_jxjc_copy');
  await d.getByRole('button', { name: /复\s*制/ }).click();
  await expect(page.getByText('添加成功！')).toBeVisible();
  await expect(tableRow(page, 'form_jxjc_copy')).toContainText('教学检查记录（复制）');
  await expect(tableRow(page, 'form_jxjc_copy')).toContainText('单表');

  const download = page.waitForEvent('download');
  await tableRow(page, 'form_jxjc').getByText('更多').hover();
  await page.locator('.ant-dropdown:visible').getByText('导出定义', { exact: true }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('form_jxjc.json');
  const text = readFileSync((await file.path())!, 'utf8');
  expect(JSON.parse(text)).toMatchObject({ head: { tableName: 'form_jxjc' }, subTables: [{ head: { tableName: 'form_jxjc_mx' } }] });

  const importFile = async (name: string, body: string) => {
    await page.getByRole('button', { name: /导\s*入/ }).first().click();
    const dlg = page.getByRole('dialog');
    await dlg.locator('input[type=file]').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(body) });
    await dlg.getByRole('button', { name: '开始上传' }).click();
  };
  // as it is: the tables exist here
  await importFile('form_jxjc.json', text);
  await expect(page.getByText('数据库中已存在表“form_jxjc”，请换一个表名')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // unsafe content: refused with its path
  const bad = JSON.parse(text) as { head: Record<string, unknown> };
  bad.head.id = 'x';
  await importFile('bad.json', JSON.stringify(bad));
  await expect(page.getByText('导入的定义不正确：定义.head.id 是未知内容，未导入任何内容')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // with the table names replaced throughout: imported with its sub-table
  await importFile('form_jxjc2.json', text.replaceAll('form_jxjc', 'form_jxjc2'));
  await expect(page.getByText('导入成功（含 1 个附表），请同步数据库')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(row(page, 'form_jxjc2_mx')).toContainText('附表');
});

test('a tree form lists its nodes as a tree with 添加下级', async ({ page }) => {
  test.setTimeout(120_000);
  await login(page, 'admin');
  const token = await accessToken(page);
  const call = async (method: 'POST' | 'GET', url: string, body?: unknown) => (await page.request.fetch(`/jeecg-boot/${url}`, { method, headers: { 'X-Access-Token': token }, data: body })).json();
  await page.goto('/online/cgform');
  await page.getByRole('button', { name: /新\s*增/ }).first().click();
  const d = page.getByRole('dialog');
  await d.getByLabel('表名').fill('form_jcz');
  await d.getByLabel('表描述').fill('检查组');
  await d.getByLabel('是').check();
  await d.getByLabel('树显示字段').fill('org_name');
  await d.locator('.ant-input-number input').first().fill('1');
  await d.getByRole('button', { name: /新\s*增/ }).first().click();
  const cell = d.locator('.ag-root-wrapper').first().locator('.ag-row[row-index="0"] [col-id="dbFieldName"]').first();
  await cell.click();
  await page.keyboard.type('org_name');
  await page.keyboard.press('Enter');
  await d.locator('.ag-root-wrapper').first().locator('.ag-row[row-index="0"] [col-id="dbFieldTxt"]').first().click();
  await page.keyboard.type('名称');
  await page.keyboard.press('Enter');
  await d.getByRole('button', { name: /^保\s*存$/ }).last().click();
  await expect(page.getByText('添加成功！')).toBeVisible();
  expect((await call('POST', 'online/cgform/api/doDbSynch/form_jcz/normal')).success).toBe(true);

  await page.goto('/online/cgformList/form_jcz');
  await page.getByRole('button', { name: /新\s*增/ }).first().click();
  let f = page.getByRole('dialog');
  await f.getByLabel('名称').fill('第一检查组');
  await f.getByRole('button', { name: /确\s*定/ }).click();
  await expect(row(page, '第一检查组')).toBeVisible();
  await row(page, '第一检查组').getByText('添加下级').click();
  f = page.getByRole('dialog');
  await f.getByLabel('名称').fill('课堂组');
  await f.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // the child is under its parent: expand it
  await expect(row(page, '课堂组')).toHaveCount(0);
  await row(page, '第一检查组').locator('.ant-table-row-expand-icon').click();
  await expect(row(page, '课堂组')).toBeVisible();
});

test('a teacher cannot open 表单开发 or call its API', async ({ page }) => {
  await login(page, 'teacher');
  await page.goto('/online/cgform');
  await expect(page.getByRole('button', { name: '导入' })).toHaveCount(0);
  const token = await accessToken(page);
  for (const url of ['online/cgform/head/list', 'online/cgform/api/versionList?headId=x', 'online/cgform/api/exportDefinitionFile/x']) {
    const r = await (await page.request.get(`/jeecg-boot/${url}`, { headers: { 'X-Access-Token': token } })).json();
    expect(r, url).toMatchObject({ success: false, code: 510 });
  }
  const r = await (await page.request.post('/jeecg-boot/online/cgform/api/define', { headers: { 'X-Access-Token': token }, data: { tableName: 'form_t' } })).json();
  expect(r).toMatchObject({ success: false, code: 510 });
});
