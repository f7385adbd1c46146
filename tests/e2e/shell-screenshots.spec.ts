import { expect, test } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { login, openMenu, userMenu } from './helpers';

// The README screenshots. They go to docs/screenshots/ with UPDATE_SCREENSHOTS=1, else to test-results/.
const dir = process.env.UPDATE_SCREENSHOTS ? 'docs/screenshots' : 'test-results/screenshots';
mkdirSync(dir, { recursive: true });

test('login, home and settings screenshots', async ({ page }) => {
  await page.goto('/user/login');
  await expect(page.getByRole('tab', { name: '账号密码登录' })).toBeVisible();
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: `${dir}/login.png` });

  await login(page, 'admin');
  await openMenu(page, '督导管理', '听课记录');
  await page.locator('.layout-tabs').getByText('首页', { exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/analysis$/);
  await page.waitForLoadState('networkidle');
  await page.mouse.move(700, 700);
  await page.waitForTimeout(800); // menu selection transition
  await page.screenshot({ path: `${dir}/home.png` });

  await userMenu(page, '系统设置', page.locator('.settings-drawer'));
  await page.mouse.move(600, 850);
  await page.waitForTimeout(800);
  await page.screenshot({ path: `${dir}/settings.png` });
});
