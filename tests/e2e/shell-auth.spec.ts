import { expect, test } from '@playwright/test';
import { accessToken, confirmLoginChoices, DEMO_PASSWORD, login, submitLogin, userMenu } from './helpers';

test.describe('sign-in and route guard', () => {
  test('the printed address (/) opens the sign-in page, then home after sign-in', async ({ page }) => {
    // The build's scripts and stylesheets arrive compressed (precompressed by the build, vite.config.ts).
    const encodings = new Map<string, string | undefined>();
    page.on('response', (r) => {
      if (/\/assets\/.+\.(js|css)$/.test(r.url())) encodings.set(r.url(), r.headers()['content-encoding']);
    });
    await page.goto('/');
    await expect.poll(() => encodings.size).toBeGreaterThan(3);
    expect([...encodings.values()].filter((e) => e === 'br').length).toBeGreaterThan(3);
    await expect(page).toHaveURL(/\/user\/login/);
    await submitLogin(page, 'teacher');
    await confirmLoginChoices(page);
    await expect(page).toHaveURL(/\/dashboard\/analysis$/);
  });

  test('without a token any page goes to login with the full path as redirect, and sign-in returns there', async ({ page }) => {
    await page.goto('/supervisor/term?x=1');
    await expect(page).toHaveURL(/\/user\/login\?redirect=%2Fsupervisor%2Fterm%3Fx%3D1$/);
    await expect(page.getByRole('tab', { name: '账号密码登录' })).toBeVisible();
    await submitLogin(page, 'admin');
    await confirmLoginChoices(page);
    await expect(page).toHaveURL(/\/supervisor\/term\?x=1$/);
    await expect(page.locator('.layout-tabs .ant-tabs-tab-active')).toContainText('学期管理');
    await expect(page).toHaveTitle('学期管理 - 本科教学质量评估系统·听课子系统');
  });

  test('wrong password is rejected with the server message and no token is kept', async ({ page }) => {
    await page.goto('/user/login');
    await submitLogin(page, 'leader', 'Wrong#Pass1');
    await expect(page.getByRole('alert')).toContainText('用户名或密码错误');
    await expect(page).toHaveURL(/\/user\/login/);
    expect(await accessToken(page)).toBe('');
  });

  test('after repeated failures the browser proves work by itself (no picture to read), and the owner signs in', async ({ page }) => {
    await page.goto('/user/login');
    const answered = () => page.waitForResponse((r) => r.url().endsWith('/sys/login') && r.request().method() === 'POST');
    for (let i = 0; i < 3; i++) {
      await Promise.all([answered(), submitLogin(page, 'leader', `Wrong#Pass${i}`)]);
      await expect(page.getByRole('alert')).toContainText('用户名或密码错误');
    }
    const solved = page.waitForRequest((r) => r.url().endsWith('/sys/login') && (r.postData() ?? '').includes('"altcha"'));
    await submitLogin(page, 'leader', DEMO_PASSWORD);
    await solved;
    await confirmLoginChoices(page);
    await expect(page.locator('.basic-layout')).toBeVisible({ timeout: 20_000 });
    expect(await accessToken(page)).not.toBe('');
  });

  test('with a token, login paths go home; unknown paths go to /404', async ({ page }) => {
    await login(page, 'teacher');
    await expect(page).toHaveURL(/\/dashboard\/analysis$/);
    await expect(page).toHaveTitle('本科教学质量评估系统·听课子系统');
    await page.goto('/user/login');
    await expect(page).toHaveURL(/\/dashboard\/analysis$/);
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByText('抱歉，你访问的页面不存在')).toBeVisible();
  });

  test('logout asks first, then clears the session', async ({ page }) => {
    await login(page, 'supervisor');
    const confirmLogout = page.getByText('真的要注销登录吗 ?');
    const askLogout = () => userMenu(page, '退出登录', confirmLogout);
    await askLogout();
    await page.getByRole('button', { name: /取\s*消/ }).click();
    // The closing dialog must be gone first: else the next ask sees it and clicks its (detaching) 确定.
    await expect(confirmLogout).toBeHidden();
    await expect(page.locator('.basic-layout')).toBeVisible();
    const token = await accessToken(page);
    await askLogout();
    await page.getByRole('button', { name: /确\s*定/ }).click();
    await expect(page).toHaveURL(/\/user\/login/);
    expect(await accessToken(page)).toBe('');
    // The server session is gone too.
    const r = await page.request.get('/jeecg-boot/sys/permission/getUserPermissionByToken', { headers: { 'X-Access-Token': token } });
    expect(r.status()).toBe(401);
    await page.goto('/dashboard/analysis');
    await expect(page).toHaveURL(/\/user\/login\?redirect=%2Fdashboard%2Fanalysis/);
  });

  test('token expiry: 401 shows one modal, 重新登录 goes to sign-in and back', async ({ page }) => {
    await login(page, 'admin', { redirect: '/isystem/user' });
    await expect(page).toHaveURL(/\/isystem\/user$/);
    const token = await accessToken(page);
    // End the session behind the app's back.
    await page.request.post('/jeecg-boot/sys/logout', { headers: { 'X-Access-Token': token } });
    const dialog = page.locator('.ant-modal-confirm');
    // Any call now gets 401: the notice poll may already have hit it; else clearing the cache does.
    page.setDefaultTimeout(5_000);
    if (!(await dialog.isVisible())) await userMenu(page, '清理缓存').catch(() => undefined);
    page.setDefaultTimeout(0);
    await expect(dialog).toHaveCount(1);
    await expect(dialog).toContainText('登录已过期');
    await expect(dialog).toContainText('很抱歉，登录已过期，请重新登录');
    await dialog.getByRole('button', { name: '重新登录' }).click();
    await expect(page).toHaveURL(/\/user\/login\?redirect=%2Fisystem%2Fuser$/);
    await submitLogin(page, 'admin');
    await confirmLoginChoices(page);
    await expect(page).toHaveURL(/\/isystem\/user$/);
  });
});

test('third-party, OAuth2 and registration answer 未启用 cleanly', async ({ page }) => {
  await page.goto('/user/login');
  await page.getByTitle('企业微信').click();
  await expect(page.locator('.ant-message')).toContainText('第三方登录未启用');
  await page.getByRole('link', { name: 'OAuth2' }).click();
  await expect(page).toHaveURL(/\/oauth2-app\/login$/);
  await expect(page.getByText('OAuth2 登录未启用')).toBeVisible();
  await page.goto('/user/register');
  await page.getByPlaceholder('11位手机号').fill('13800000009');
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.locator('.ant-message')).toContainText('用户注册未启用');
  await expect(page.getByRole('button', { name: '获取验证码' })).toBeEnabled();
});

test.describe('each demo account sees its own menu', () => {
  const expectations: Record<string, { has: string[]; not: string[] }> = {
    admin: { has: ['系统管理', '督导管理', '听课统计', '整改管理'], not: [] },
    supervisor: { has: ['督导管理', '听课统计', '整改管理'], not: ['系统管理'] },
    leader: { has: ['听课统计', '整改管理'], not: ['系统管理'] },
    secretary: { has: ['督导管理', '听课统计', '整改管理'], not: ['系统管理'] },
    deptadmin: { has: ['系统管理', '督导管理'], not: ['听课统计'] },
    teacher: { has: ['督导管理', '整改管理'], not: ['系统管理', '听课统计'] },
  };
  for (const [user, e] of Object.entries(expectations)) {
    test(user, async ({ page }) => {
      await login(page, user);
      const sider = page.locator('.layout-sider');
      await expect(sider.getByText('首页', { exact: true })).toBeVisible();
      for (const t of e.has) await expect(sider.getByText(t, { exact: true })).toBeVisible();
      for (const t of e.not) await expect(sider.getByText(t, { exact: true })).toHaveCount(0);
    });
  }
});
