import { expect, test, type Page } from '@playwright/test';
import { DEMO_PASSWORD, login, openMenu, submitLogin, userMenu } from './helpers';

const tabs = (page: Page) => page.locator('.layout-tabs .ant-tabs-tab');
const tab = (page: Page, title: string) => page.locator('.layout-tabs .ant-tabs-tab', { hasText: title });
const activeTab = (page: Page) => page.locator('.layout-tabs .ant-tabs-tab-active');

/**
 * Runs a tab's context-menu action until `done` holds: while the page below is still drawing, the
 * menu can close before the click lands, or a click can land on a closing menu and do nothing. The menu
 * opened for another tab (or still closing) would act on the wrong tab, so the action is only clicked
 * while the menu is open for this tab (the tab carries `tab-menu-open`) and no other menu is visible.
 * Every action used here is safe to repeat.
 */
async function tabAction(page: Page, title: string, action: string, done: () => Promise<void>) {
  const label = tab(page, title).locator('.tab-label');
  const menus = page.locator('.ant-dropdown:visible');
  await expect(async () => {
    if (!/\btab-menu-open\b/.test((await tab(page, title).getAttribute('class')) ?? '')) {
      if (await menus.count()) await page.keyboard.press('Escape');
      await expect(menus).toHaveCount(0, { timeout: 2_000 });
      await label.click({ button: 'right', timeout: 2_000 });
    }
    await expect(menus).toHaveCount(1, { timeout: 2_000 });
    await menus.getByText(action, { exact: true }).click({ timeout: 2_000 });
    await done();
  }).toPass({ timeout: 30_000 });
}
const showsTabs = (page: Page, titles: string[]) => () => expect(tabs(page)).toHaveText(titles, { timeout: 3_000 });

test.describe('tabbed layout', () => {
  test('open, close rules, context menu and refresh', async ({ page }) => {
    await login(page, 'admin');
    await expect(tabs(page)).toHaveCount(1);
    await expect(activeTab(page)).toHaveText('首页');
    // Home has no close button.
    await expect(tab(page, '首页').locator('.ant-tabs-tab-remove')).toHaveCount(0);

    await openMenu(page, '督导管理', '学期管理');
    await openMenu(page, '督导管理', '教室管理');
    await openMenu(page, '督导管理', '课程管理');
    await expect(tabs(page)).toHaveText(['首页', '学期管理', '教室管理', '课程管理']);
    await expect(page).toHaveURL(/\/supervisor\/course$/);
    await expect(page.locator('.layout-breadcrumb')).toContainText('督导管理');
    await expect(page.locator('.layout-breadcrumb')).toContainText('课程管理');

    // Revisiting a tab activates it; it is not added again.
    await openMenu(page, '督导管理', '学期管理');
    await expect(tabs(page)).toHaveCount(4);
    await expect(activeTab(page)).toHaveText('学期管理');

    // Closing the active tab selects its neighbour.
    await tab(page, '学期管理').locator('.ant-tabs-tab-remove').click();
    await expect(tabs(page)).toHaveText(['首页', '教室管理', '课程管理']);
    await expect(activeTab(page)).toHaveText('首页');
    await expect(page).toHaveURL(/\/dashboard\/analysis$/);

    // Close right of 首页 keeps only 首页.
    await openMenu(page, '督导管理', '班级管理');
    await tabAction(page, '教室管理', '关闭右侧', showsTabs(page, ['首页', '教室管理']));
    await expect(activeTab(page)).toHaveText('教室管理');

    await openMenu(page, '督导管理', '学期管理');
    await openMenu(page, '督导管理', '作息时间');
    await tabAction(page, '学期管理', '关闭左侧', showsTabs(page, ['首页', '学期管理', '作息时间']));
    await tabAction(page, '学期管理', '关闭其他', showsTabs(page, ['首页', '学期管理']));
    await expect(activeTab(page)).toHaveText('学期管理');
    await expect(page).toHaveURL(/\/supervisor\/term$/);

    // Refresh re-creates the page (its DOM node is replaced).
    const pane = page.locator('.page-pane').first();
    await pane.evaluate((el) => el.setAttribute('data-marker', 'old'));
    await tabAction(page, '学期管理', '刷新', () => expect(page.locator('.page-pane[data-marker="old"]')).toHaveCount(0, { timeout: 3_000 }));
    await expect(page.locator('.page-pane')).toHaveCount(1);
  });

  test('many tabs: the bar scrolls to the active tab and marks the edges with tabs beyond them', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 700 });
    await login(page, 'admin');
    const entries = ['学期管理', '作息时间', '教室管理', '班级管理', '课程管理', '教学任务', '排课管理', '评价指标', '指标分值', '听课任务要求', '听课记录'];
    for (const entry of entries) await openMenu(page, '督导管理', entry);
    const nav = page.locator('.layout-tabs .ant-tabs-nav');
    const wrap = nav.locator('.ant-tabs-nav-wrap');
    // The last tab opened is active and in view; the first ones are hidden to the left.
    await expect(nav).toHaveClass(/tabs-more-left/);
    await expect(nav).not.toHaveClass(/tabs-more-right/);
    const inView = async (title: string) => {
      const [t, w] = [(await tab(page, title).boundingBox())!, (await wrap.boundingBox())!];
      return t.x >= w.x - 1 && t.x + t.width <= w.x + w.width + 1;
    };
    expect(await inView('听课记录')).toBe(true);
    expect(await inView('首页')).toBe(false);
    // The wheel scrolls the bar back to 首页.
    await wrap.hover();
    await page.mouse.wheel(0, -3000);
    await expect(nav).toHaveClass(/tabs-more-right/);
    await expect(nav).not.toHaveClass(/tabs-more-left/);
    expect(await inView('首页')).toBe(true);
    // 更多 lists every open tab; picking a hidden one opens it and scrolls it into view.
    await nav.getByRole('button', { name: '更多标签页' }).click();
    const more = page.locator('.ant-dropdown:visible .ant-dropdown-menu-item');
    await expect(more).toHaveCount(entries.length + 1);
    expect(await inView('听课任务要求')).toBe(false);
    await more.filter({ hasText: '听课任务要求' }).click();
    await expect(page).toHaveURL(/\/supervisor\/requireTask/);
    await expect.poll(() => inView('听课任务要求')).toBe(true);
  });

  test('the home tab and the last tab cannot be closed', async ({ page }) => {
    await login(page, 'teacher');
    await tabAction(page, '首页', '关闭其他', showsTabs(page, ['首页']));
    // Keyboard / programmatic close of home is refused with a message.
    await page.goto('/account/center');
    await expect(tabs(page)).toHaveText(['个人中心']);
    await tab(page, '个人中心').locator('.ant-tabs-tab-remove').click();
    await expect(page.locator('.ant-message')).toContainText('这是最后一页，不能再关闭了！');
    await expect(tabs(page)).toHaveText(['个人中心']);
  });
});

test('settings are persisted across reload', async ({ page }) => {
  await login(page, 'admin');
  const drawer = page.locator('.settings-drawer');
  await userMenu(page, '系统设置', drawer);
  await expect(drawer).toBeVisible();
  await drawer.getByRole('radio', { name: '酱紫' }).click();
  await drawer.getByRole('radio', { name: '亮色菜单风格' }).click();
  await drawer.getByRole('switch', { name: '固定 Header' }).click();
  // Turning off the fixed header turns off auto-hide too (and disables it).
  await expect(drawer.getByRole('switch', { name: '下滑时隐藏 Header' })).not.toBeChecked();
  await expect(drawer.getByRole('switch', { name: '下滑时隐藏 Header' })).toBeDisabled();
  await drawer.getByRole('switch', { name: '色弱模式' }).click();
  await expect(page.locator('body')).toHaveClass(/colorWeak/);
  await page.reload();
  await expect(page.locator('.basic-layout')).toBeVisible();
  await expect(page.locator('body')).toHaveClass(/colorWeak/);
  await expect(page.locator('.layout-sider')).toHaveClass(/ant-layout-sider-light/);
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('APP_SETTINGS') ?? '{}'));
  expect(saved).toMatchObject({ primaryColor: '#722ED1', navTheme: 'light', fixedHeader: false, autoHideHeader: false, colorWeak: true });
  // The primary colour reaches antd's tokens.
  await userMenu(page, '系统设置', page.locator('.settings-drawer'));
  const btn = page.locator('.settings-drawer').getByRole('button', { name: '保存配置' });
  await expect(btn).toHaveCSS('background-color', 'rgb(114, 46, 209)');
  await btn.click();
  await expect(page.locator('.ant-message')).toContainText('保存成功');
  // Top navigation mode moves the menu into the header.
  await page.locator('.settings-drawer').getByRole('radio', { name: '顶部栏导航' }).click();
  await page.reload();
  await expect(page.locator('.layout-header .ant-menu-horizontal')).toBeVisible();
  await expect(page.locator('.layout-sider')).toHaveCount(0);
});

test.describe('password change dialog', () => {
  test('every rule has its message', async ({ page }) => {
    await login(page, 'leader');
    const dlg = page.locator('.ant-modal', { hasText: '修改密码' });
    await userMenu(page, '密码修改', dlg);
    const err = dlg.locator('.ant-form-item-explain-error');
    await dlg.getByRole('button', { name: /确\s*定/ }).click();
    await expect(err).toContainText(['请输入旧密码!', '请输入新密码', '请确认新密码!']);

    const pw = dlg.getByPlaceholder('请输入新密码');
    const newPwErrors = dlg.locator('.ant-form-item', { has: page.getByPlaceholder('请输入新密码') }).locator('.ant-form-item-explain-error');
    const cases: [string, string][] = [
      ['short1A', '密码长度需要在8-32位，数字、小写字母、大写字母、特殊字符，至少包含三种'],
      ['alllowercase', '密码长度需要在8-32位，数字、小写字母、大写字母、特殊字符，至少包含三种'],
      ['Leader#2026x', '密码不能包含用户名'],
      ['Zaaa#9081x', '不能包含3个及以上相同或字典连续字符'],
      ['Xabc#9081y', '不能包含3个及以上相同或字典连续字符'],
      ['Gqwe#9081y', '不能包含3个及以上键盘连续字符'],
    ];
    for (const [value, message] of cases) {
      await pw.fill(value);
      await expect(newPwErrors.filter({ hasText: message })).toBeVisible();
    }
    await pw.fill('Gp#7x2Lm9q');
    await expect(newPwErrors).toHaveCount(0);
    await dlg.getByPlaceholder('请确认新密码').fill('Gp#7x2Lm9r');
    await expect(dlg).toContainText('两次输入的密码不一样！');

    // A wrong old password is refused by the server and nothing is lost.
    await dlg.getByPlaceholder('请确认新密码').fill('Gp#7x2Lm9q');
    await dlg.getByPlaceholder('请输入旧密码').fill('Not#TheOld1');
    await dlg.getByRole('button', { name: /确\s*定/ }).click();
    await expect(page.locator('.ant-message')).toContainText('旧密码输入错误');
    await expect(dlg).toBeVisible();
    await expect(pw).toHaveValue('Gp#7x2Lm9q');
  });
});

test('department choice at sign-in and department switch', async ({ page, request }) => {
  // Give deptadmin a second department (as admin, through the API).
  const login0 = await (await request.post('/jeecg-boot/sys/login', { data: { username: 'admin', password: DEMO_PASSWORD } })).json();
  const h = { 'X-Access-Token': login0.result.token as string };
  const user = (await (await request.get('/jeecg-boot/sys/user/list?username=deptadmin', { headers: h })).json()).result.records[0];
  const mine = (await (await request.get(`/jeecg-boot/sys/user/userDepartList?userId=${user.id}`, { headers: h })).json()).result as { key: string }[];
  const root = (await (await request.get('/jeecg-boot/sys/sysDepart/queryTreeList', { headers: h })).json()).result[0];
  if (!mine.some((d) => d.key === root.id)) {
    const r = await (await request.put('/jeecg-boot/sys/user/edit', { headers: h, data: { id: user.id, selecteddeparts: [...mine.map((d) => d.key), root.id].join(',') } })).json();
    expect(r.success, r.message).toBe(true);
  }

  // Sign-in asks which department.
  await page.goto('/user/login');
  await submitLogin(page, 'deptadmin');
  await expect(page.getByText('登录信息确认')).toBeVisible();
  await page.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('请选择登录部门', { exact: true }).last()).toBeVisible();
  await page.locator('.ant-form-item', { hasText: '请选择登录部门' }).locator('.ant-select').click();
  await page.locator('.ant-select-dropdown:visible').getByText('计算机学院', { exact: true }).click();
  await page.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.locator('.basic-layout')).toBeVisible();
  const orgCode = () => page.evaluate(() => JSON.parse(localStorage.getItem('Login_Userinfo') ?? '{}').value?.orgCode);
  expect(await orgCode()).toBe('A01A04');

  // Switch dialog: preselects the current department; switching stores the new one.
  const dlg = page.locator('.ant-modal', { hasText: '切换部门' });
  await userMenu(page, '切换部门', dlg);
  await expect(dlg.locator('.ant-select-selection-item')).toHaveText('计算机学院');
  await dlg.locator('.ant-select').click();
  await page.locator('.ant-select-dropdown:visible').getByText(root.departName, { exact: true }).click();
  await dlg.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.locator('.ant-message')).toContainText('部门切换成功');
  await expect(dlg).toBeHidden();
  expect(await orgCode()).toBe(root.orgCode);
  await expect(page.locator('.basic-layout')).toBeVisible();
});

test('the boot spinner shows only when the app takes longer than 0.4 s to start', async ({ page }) => {
  // The app's scripts held back: the page stays on its boot spinner.
  await page.route(/\/assets\/.+\.js$/, () => undefined);
  await page.goto('/user/login', { waitUntil: 'commit' });
  const spinner = page.locator('.boot-spin');
  // [ms since the spinner's animation started (its first 0.4 s are its delay), its opacity]
  const state = () => spinner.evaluate((el) => [Number(el.getAnimations()[0]?.currentTime ?? -1), Number(getComputedStyle(el).opacity)] as const);
  const [at, opacity] = await state();
  if (at < 400) expect(opacity, `${at} ms in`).toBe(0); // a fast start draws no spinner
  await expect.poll(async () => (await state())[1], { timeout: 3_000 }).toBe(1);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});
