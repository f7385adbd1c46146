import ExcelJS from 'exceljs';
import { expect, test } from '@playwright/test';
import { accessToken, login } from './helpers';

/** The `importPreview` and `form` action types on their real screens (课表导入, 个人设置 → 修改密码). */

const API = '/jeecg-boot';
const stamp = Date.now().toString(36).slice(-5).toUpperCase();
const TITLES = ['课程号', '课程名称', '课序号', '开课单位', '学分', '教师工号', '教师姓名', '上课班级', '选课人数', '上课时间', '上课地点'];

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('课表');
  ws.addRow(TITLES);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

test('课表导入: a preview shows the summary and the bad rows and writes nothing; 确认导入 writes the good rows', async ({ page }) => {
  test.setTimeout(120_000);
  await login(page, 'admin');
  const headers = { 'X-Access-Token': await accessToken(page) };
  const me = (await (await page.request.get(`${API}/sys/user/list?username=teacher`, { headers })).json()).result.records[0];
  expect(me.workNo).toBeTruthy();
  const code = `E2E${stamp}`;
  const courses = async () => (await (await page.request.get(`${API}/supervisor/course/list?code=${code}`, { headers })).json()).result.total as number;
  const file = {
    name: '课表.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await xlsx([
      [code, `导入测试${stamp}`, '01', '计算机学院', 2, me.workNo, me.realname, `测试班${stamp}`, 30, '1-8周星期二3-4节', `测试楼${stamp}`],
      [`${code}X`, '坏课程', '01', '', '', 'NO_SUCH_NO', '某某', '', 30, '1-16周星期一1-2节', ''],
    ]),
  };

  await page.goto('/timetable/import');
  const open = async () => {
    await page.getByRole('button', { name: '导入课表' }).click({ timeout: 20_000 });
    const dlg = page.getByRole('dialog', { name: '课表导入' });
    await dlg.locator('input[type=file]').setInputFiles(file);
    await dlg.getByRole('button', { name: /预\s*览/ }).click();
    await expect(dlg.locator('.import-summary')).toContainText('新增 1，更新 0');
    return dlg;
  };
  let dlg = await open();
  await expect(dlg.locator('.import-summary')).toContainText('数据行');
  // The bad row is listed and highlighted; 确认导入 is offered only after a preview.
  const bad = dlg.locator('.ant-table-row.import-row-error');
  await expect(bad).toHaveCount(1);
  await expect(bad).toContainText('课表.xlsx');
  await page.screenshot({ path: test.info().outputPath('import-preview.png') });
  await dlg.getByRole('button', { name: /取\s*消/ }).click();
  await expect(dlg).toHaveCount(0);
  expect(await courses()).toBe(0);

  dlg = await open();
  await dlg.getByRole('button', { name: '确认导入' }).click();
  await expect(dlg.getByText(/导入完成：新增教学任务1个/)).toBeVisible({ timeout: 30_000 });
  await expect(dlg.getByRole('button', { name: '确认导入' })).toBeDisabled();
  expect(await courses()).toBe(1);
});

test('修改密码 (a form action): required fields in Chinese; a refused save keeps what was typed and shows the server\'s message', async ({ page }) => {
  await login(page, 'teacher');
  await page.goto('/account/settings/security');
  await page.getByTestId('account-security').getByRole('button', { name: '修改密码' }).click();
  const dlg = page.getByRole('dialog', { name: '修改密码' });
  await dlg.getByRole('button', { name: /确\s*定/ }).click();
  await expect(dlg.getByText('该字段是必填字段').first()).toBeVisible();
  await dlg.getByLabel('旧密码', { exact: true }).fill('not-my-password');
  await dlg.getByLabel('新密码', { exact: true }).fill('Zx#82mQp!v');
  await dlg.getByLabel('确认新密码').fill('Zx#82mQp!v');
  await dlg.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('旧密码输入错误')).toBeVisible();
  await expect(dlg).toBeVisible();
  await expect(dlg.getByLabel('旧密码', { exact: true })).toHaveValue('not-my-password');
  await dlg.getByRole('button', { name: /取\s*消/ }).click();
  await expect(dlg).toHaveCount(0);
});
