import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/template-db.js';
import { login } from './helpers';

/**
 * A config author with no file access and no restart (issue 31): changes the 听课记录 list in the page
 * designer, sees the preview, saves, the change is live for another user at once, rolls it back, and an
 * invalid schema is refused with its JSON path.
 */
const LIST = '/supervisor/lectureRecord';

// docs/config-authors.md's browser section is the script: every label this test uses is written there.
const doc = readFileSync(join(ROOT, 'docs/config-authors.md'), 'utf8');
const browserPath = doc.slice(doc.indexOf('## In the browser'), doc.indexOf('## As files on the server'));
const USED = ['在线开发 / 页面设计', '/online/design', '选择页面', 'supervisor/LectureRecordList', '列表列', '查询条件', '添加查询条件', '展开', 'JSON', '配置有效', '页面配置有误', '/columns/1/title：应为文本', '预览', '版本说明', '保存', '版本', '对比出厂配置', '恢复出厂配置', '出厂配置已更新', 'design:page:list', '列 2 title：应为文本', 'dashboard/Analysis', '看板面板', '面板 5', '我的完成率', '添加面板', '子表', '基于新默认重新应用', '保留本地版本', '查看出厂配置的变化'];

test('docs/config-authors.md describes the browser path first, with the labels used here', () => {
  expect(doc.indexOf('## In the browser')).toBeGreaterThan(0);
  expect(doc.indexOf('## In the browser')).toBeLessThan(doc.indexOf('## 1. The table'));
  for (const label of USED) expect(browserPath, label).toContain(label);
  for (const label of ['在线开发 / 表单开发', '新增', '表名', '表描述', '字段名', '字段备注', '字典编码', '`eval_grade`', '同步数据库', '新建数据表 form_jxjc（教学检查记录），字段：', '教学检查记录'])
    expect(browserPath, label).toContain(label);
});

async function openDesigner(page: Page, pageId: string) {
  await page.goto('/online/design');
  await expect(page.getByText('请选择一个页面')).toBeVisible();
  await page.getByRole('combobox', { name: '选择页面' }).fill(pageId);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: `（${pageId}）` }).click();
  await expect(page.getByLabel('列 1 字段')).toHaveValue('recordNo');
}

test('the page designer edits the 听课记录 list, live for others, with rollback and path errors', async ({ page, browser }) => {
  test.setTimeout(180_000);
  await login(page, 'admin');
  await openDesigner(page, 'supervisor/LectureRecordList');
  const preview = page.locator('.design-preview');
  await expect(preview.getByRole('columnheader', { name: '周次' })).toBeVisible({ timeout: 20_000 });

  // Columns: rename the first, remove 周次 (the tenth).
  await page.getByLabel('列 1 标题').fill('听课记录号');
  await expect(page.getByLabel('列 10 字段')).toHaveValue('week');
  await page.getByLabel('列 10 删除').click();
  await expect(page.getByLabel('列 10 字段')).not.toHaveValue('week');
  // Query fields: one more.
  await page.getByRole('tab', { name: '查询条件' }).click();
  const before = await page.getByLabel(/^查询条件 \d+ 字段$/).count();
  await page.getByRole('button', { name: '添加查询条件' }).click();
  await page.getByLabel(`查询条件 ${before + 1} 字段`).fill('classroomName');
  await page.getByLabel(`查询条件 ${before + 1} 标签`).fill('上课教室');
  // shown first (the query form shows its first fields; the rest fold under 展开)
  for (let i = before + 1; i > 1; i--) await page.getByLabel(`查询条件 ${i} 上移`).click();
  await expect(page.getByLabel('查询条件 1 字段')).toHaveValue('classroomName');
  // Validated on every change, previewed with real data.
  await expect(page.getByText('配置有效')).toBeVisible();
  await expect(preview.getByRole('columnheader', { name: '听课记录号' })).toBeVisible();
  await expect(preview.getByRole('columnheader', { name: '周次' })).toHaveCount(0);
  await expect(preview.getByText('上课教室')).toBeVisible();
  await expect(preview.getByText(/^TK\d{10,}$/).first()).toBeVisible(); // real records

  // A draft is not live: another user still sees the shipped list.
  const other = await browser.newContext();
  const them = await other.newPage();
  await login(them, 'supervisor', { redirect: LIST });
  await expect(them.getByRole('columnheader', { name: '周次' })).toBeVisible({ timeout: 20_000 });

  await page.getByLabel('版本说明').fill('去掉周次，加教室查询');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('已保存为版本 1')).toBeVisible();
  await expect(page.getByText('使用本地版本 v1')).toBeVisible();

  // Live for the other user on their next visit (no restart, no file).
  await them.reload();
  await expect(them.getByRole('columnheader', { name: '听课记录号' })).toBeVisible({ timeout: 20_000 });
  await expect(them.getByRole('columnheader', { name: '周次' })).toHaveCount(0);
  await expect(them.getByText('上课教室')).toBeVisible();

  // An invalid schema: the error at its JSON path while editing, and the server refuses to save it.
  await page.getByRole('tab', { name: 'JSON' }).click();
  const json = page.getByLabel('页面配置 JSON');
  const doc = JSON.parse(await json.inputValue()) as { columns: Array<Record<string, unknown>> };
  doc.columns[1]!.title = 42;
  await json.fill(JSON.stringify(doc, null, 2));
  const problems = page.locator('.design-problems');
  await expect(problems).toContainText('/columns/1/title');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('页面配置有误，未保存')).toBeVisible();
  await expect(problems).toContainText('/columns/1/title');
  await expect(problems).toContainText('应为文本');
  // the form editor marks the same place
  await page.getByRole('tab', { name: '列表列' }).click();
  await expect(page.locator('.design-field-problems')).toContainText('列 2 title：应为文本');

  // Versions: diff against the shipped default, then roll back to it.
  await page.getByRole('button', { name: '版本' }).click();
  const drawer = page.locator('.ant-drawer:visible');
  await expect(drawer.getByText('去掉周次，加教室查询')).toBeVisible();
  await drawer.getByRole('button', { name: '对比出厂配置' }).click();
  const diff = page.getByRole('dialog', { name: '出厂配置 → 当前草稿' });
  await expect(diff.getByText('/columns/0/title')).toBeVisible();
  await diff.getByRole('button', { name: 'Close' }).click();
  await drawer.getByRole('button', { name: '恢复出厂配置' }).click();
  await page.locator('.ant-popover:visible').getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(page.getByText('已恢复出厂配置（新版本 2）')).toBeVisible();
  await expect(drawer.getByText('v2 当前')).toBeVisible();

  await them.reload();
  await expect(them.getByRole('columnheader', { name: '周次' })).toBeVisible({ timeout: 20_000 });
  await expect(them.getByRole('columnheader', { name: '听课记录号' })).toHaveCount(0);
  await drawer.locator('.ant-drawer-close').click();
  await expect(page.getByRole('button', { name: '恢复出厂配置' })).toBeHidden();

  // A dashboard panel: 首页's 我的完成率 renamed in 看板面板, previewed, saved, live on the other user's 首页.
  await page.getByRole('combobox', { name: '选择页面' }).fill('dashboard/Analysis');
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '（dashboard/Analysis）' }).click();
  await expect(page.getByRole('tab', { name: '看板面板' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('面板 5 标题')).toHaveValue('我的完成率');
  await page.getByLabel('面板 5 标题').fill('本人听课完成率');
  await expect(page.getByText('配置有效')).toBeVisible();
  await expect(preview.getByText('本人听课完成率')).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('已保存为版本 1')).toBeVisible();
  await them.goto('/dashboard/analysis');
  await expect(them.getByText('本人听课完成率')).toBeVisible({ timeout: 20_000 });
  await expect(them.getByText('我的完成率')).toHaveCount(0);
  // and back to the shipped 首页
  await page.getByRole('button', { name: '版本' }).click();
  await drawer.getByRole('button', { name: '恢复出厂配置' }).click();
  await page.locator('.ant-popover:visible').getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(page.getByText('已恢复出厂配置（新版本 2）')).toBeVisible();
  await them.reload();
  await expect(them.getByText('我的完成率')).toBeVisible({ timeout: 20_000 });
  await other.close();
});

// 表单开发 (online forms): tests/e2e/config-authors-forms.spec.ts follows its section of the guide.

test('a teacher cannot open the page designer', async ({ page }) => {
  await login(page, 'teacher');
  await page.goto('/online/design');
  await expect(page.getByText('选择页面')).toHaveCount(0);
  const answer = await page.evaluate(async () => {
    const raw = localStorage.getItem('Access-Token');
    const token = raw ? (JSON.parse(raw) as { value: string }).value : '';
    const r = await fetch('/jeecg-boot/design/pages', { headers: { 'X-Access-Token': token } });
    return (await r.json()) as { success: boolean; code: number };
  });
  expect(answer).toMatchObject({ success: false, code: 510 });
});
