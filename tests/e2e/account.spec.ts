import { expect, test } from '@playwright/test';
import { accessToken, login, userMenu } from './helpers';

/** 个人中心 / 个人设置 on the teacher's own profile. */

const stamp = Date.now().toString(36).slice(-4);
const NEW_NAME = `王磊${stamp}`;

// The e2e specs share one database: the demo teacher's profile is put back afterwards, or later specs
// (which look the teacher up by name) would see the edited one.
const SELF = '/jeecg-boot/sys/user/login/setting';
let restore: (() => Promise<unknown>) | undefined;
test.afterEach(async () => {
  const r = restore;
  restore = undefined;
  await r?.();
});

test('the teacher edits their own base settings, reloads and sees them; the header shows the new name', async ({ page }) => {
  await login(page, 'teacher');
  const headers = { 'X-Access-Token': await accessToken(page) };
  const before = (await (await page.request.get(`${SELF}/getUserData`, { headers })).json()).result;
  restore = async () => {
    const u = before.userInfo;
    await page.request.put(`${SELF}/userEdit`, { headers, data: { realname: u.realname, email: u.email ?? '', phone: u.phone ?? '', sex: u.sex } });
    await page.request.put(`${SELF}/notify`, { headers, data: before.notify });
  };
  // 个人中心 is a dashboard page schema (account/center/Index): a profile card and two lists of one answer.
  const centre = page.getByTestId('account-profile');
  await userMenu(page, '个人中心', centre);
  await expect(page).toHaveURL(/\/account\/center$/);
  await expect(centre.locator('.dashboard-profile-name')).toHaveText('王磊');
  await expect(centre.getByText('teacher', { exact: true })).toBeVisible();
  await expect(centre.getByText('教师', { exact: true })).toBeVisible();
  await expect(centre.getByText('讲师', { exact: true })).toBeVisible();
  await expect(centre.getByText('计算机学院', { exact: true })).toHaveClass(/ant-tag-blue/);
  // The recent records (course（teacher）, date · listener · number · score, status tag) and notices (read or not).
  const records = page.getByTestId('account-records').locator('.ant-list-item');
  await expect(records.first()).toContainText(/（.+）/);
  await expect(records.first()).toContainText(/\d{4}-\d{2}-\d{2} · 听课人 .+ · 编号 TK\d+/);
  await expect(records.first().locator('.ant-tag')).toHaveText(/已提交|已确认|已退回|已归档|草稿/);
  await expect(page.getByTestId('account-notices').locator('.ant-list-item .ant-tag').first()).toHaveText(/已读|未读/);
  await page.screenshot({ path: test.info().outputPath('account-center.png') });

  // 个人设置 is a form page (page schema account/settings/Index) over the own profile.
  await page.goto('/account/settings');
  await expect(page).toHaveURL(/\/account\/settings\/base$/);
  const form = page.getByTestId('account-base');
  await expect(form.getByLabel('姓名')).toHaveValue('王磊');
  // A bad e-mail is refused in the form and nothing is saved.
  await form.getByLabel('邮箱').fill('not-an-email');
  await page.getByRole('button', { name: '更新基本信息' }).click();
  await expect(page.getByText('请输入正确的邮箱')).toBeVisible();

  await form.getByLabel('姓名').fill(NEW_NAME);
  await form.getByLabel('邮箱').fill(`wl${stamp}@example.edu.cn`);
  await form.getByLabel('手机号码').fill('13912345678');
  await form.getByLabel('女').check();
  await page.getByRole('button', { name: '更新基本信息' }).click();
  await expect(page.getByText('保存成功！')).toBeVisible();
  await expect(page.getByTestId('user-menu')).toContainText(NEW_NAME);
  await page.screenshot({ path: test.info().outputPath('account-settings-base.png') });

  await page.reload();
  await expect(page.getByTestId('account-base').getByLabel('姓名')).toHaveValue(NEW_NAME);
  await expect(page.getByTestId('account-base').getByLabel('邮箱')).toHaveValue(`wl${stamp}@example.edu.cn`);
  await expect(page.getByTestId('account-base').getByLabel('女')).toBeChecked();
  await expect(page.getByTestId('user-menu')).toContainText(NEW_NAME);

  // The other panels: notification switches persist on the profile; binding shows 未启用.
  const settings = page.locator('.form-page');
  await settings.getByRole('menuitem', { name: '新消息通知' }).click();
  const sys = page.getByRole('switch', { name: '系统消息' });
  await expect(sys).toBeChecked();
  await sys.click();
  await expect(sys).not.toBeChecked();
  await settings.getByRole('menuitem', { name: '账号绑定' }).click();
  await expect(settings.getByText('未启用').first()).toBeVisible();
  await settings.getByRole('menuitem', { name: '安全设置' }).click();
  await expect(settings.getByTestId('account-security').getByLabel('密保手机')).toHaveValue('13912345678');
  await page.screenshot({ path: test.info().outputPath('account-settings-security.png') });

  await page.goto('/account/settings/notification');
  await expect(page.getByRole('switch', { name: '系统消息' })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: '待办任务' })).toBeChecked();

  await page.goto('/account/center');
  await expect(page.getByTestId('account-profile').locator('.dashboard-profile-name')).toHaveText(NEW_NAME);
});

test('the demo teacher\'s profile is back to its seeded values for the specs that follow', async ({ request, baseURL }) => {
  const r = await request.post(`${baseURL}/jeecg-boot/sys/login`, { data: { username: 'teacher', password: 'Observe#2026' } });
  expect((await r.json()).result.userInfo.realname).toBe('王磊');
});
