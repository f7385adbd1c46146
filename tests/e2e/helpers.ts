import { weekOf } from '../../shared/rules';
import { expect, request as pwRequest, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';

/** Shared e2e helpers (keep small and stable: other specs import them). */
export const DEMO_PASSWORD = 'Observe#2026';
export const DEMO_ACCOUNTS = ['admin', 'supervisor', 'leader', 'secretary', 'deptadmin', 'teacher'] as const;
export type DemoAccount = (typeof DEMO_ACCOUNTS)[number];

/** Fills and submits the account tab of the sign-in page (already open). */
export async function submitLogin(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.getByPlaceholder('请输入账户名').fill(username);
  await page.getByPlaceholder('请输入密码').fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

/** If sign-in asks for tenant / department, takes the first of each. */
export async function confirmLoginChoices(page: Page) {
  const step = page.getByText('登录信息确认');
  const layout = page.locator('.basic-layout');
  await expect(step.or(layout).first()).toBeVisible({ timeout: 20_000 });
  if (!(await step.isVisible())) return;
  for (const label of ['请选择登录租户', '请选择登录部门']) {
    const field = page.locator('.ant-form-item', { hasText: label }).locator('.ant-select');
    if (await field.count()) {
      await field.click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
    }
  }
  await page.getByRole('button', { name: /确\s*定/ }).click();
}

/** Signs in as a demo account from the sign-in page (optionally with a redirect) and waits for the main layout. */
export async function login(page: Page, username: DemoAccount | string = 'admin', opts: { redirect?: string; password?: string } = {}) {
  await page.goto(opts.redirect ? `/user/login?redirect=${encodeURIComponent(opts.redirect)}` : '/user/login');
  await submitLogin(page, username, opts.password ?? DEMO_PASSWORD);
  await confirmLoginChoices(page);
  await expect(page.locator('.basic-layout')).toBeVisible({ timeout: 20_000 });
}

/** The stored access token (localStorage, SPEC §9 key). */
export async function accessToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    const raw = localStorage.getItem('Access-Token');
    return raw ? (JSON.parse(raw) as { value: string }).value : '';
  });
}

/** Opens an entry of the header user menu by its text; with `opened`, retries until that shows (a click on a closing menu does nothing). */
export async function userMenu(page: Page, item: string, opened?: Locator) {
  const entry = page.locator('.ant-dropdown:visible').getByText(item, { exact: true });
  // A hover that lands while the header is still re-rendering opens nothing, and hovering again where the
  // pointer already is fires no new mouseenter: on a retry leave the trigger first, then hover again.
  let attempt = 0;
  await expect(async () => {
    if (opened && (await opened.isVisible())) return; // a slow earlier click got there after all
    if (attempt++) await page.mouse.move(0, 0);
    await page.getByTestId('user-menu').hover({ timeout: 2_000 });
    await expect(entry).toBeVisible({ timeout: 2_000 });
    if (!opened) return;
    await entry.click({ timeout: 2_000 });
    await expect(opened).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  if (!opened) await entry.click();
}

/** Opens a menu screen through the sidebar: parent submenu title, then the entry. */
export async function openMenu(page: Page, parent: string, entry: string) {
  const sider = page.locator('.layout-sider');
  const item = sider.getByRole('menuitem', { name: entry, exact: true });
  // A click that lands while the menu re-renders (the previous page still drawing) can be lost: until
  // the entry is the selected one, open its branch if needed and click again.
  await expect(async () => {
    if (!(await item.isVisible())) await sider.getByText(parent, { exact: true }).click({ timeout: 2_000 });
    await item.click({ timeout: 2_000 });
    await expect(item).toHaveClass(/ant-menu-item-selected/, { timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
}

/** Clicks `entry` of the hover menu opened by `trigger` (the hover is retried — a hover during a re-render opens nothing). */
export async function fromHoverMenu(page: Page, trigger: Locator, entry: string) {
  const item = page.locator('.ant-dropdown-menu:visible').getByText(entry, { exact: true });
  let attempt = 0;
  await expect(async () => {
    if (attempt++) await page.mouse.move(0, 0);
    await trigger.hover({ timeout: 2_000 });
    await item.click({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/**
 * Confirms the open Popconfirm (确定). A click that lands while the popup is still appearing can be
 * lost; a confirm closes it, so while it stays open the click is repeated.
 */
export async function confirmPopconfirm(page: Page) {
  const pop = page.locator('.ant-popconfirm:visible');
  await expect(pop).toHaveCount(1);
  await expect(async () => {
    if (await pop.count()) await pop.getByRole('button', { name: /确\s*定|OK/ }).click({ timeout: 2_000 });
    await expect(pop).toHaveCount(0, { timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
}

/** Clicks a table row's action by label: inline, or the entry of the row's 更多 menu. */
export async function rowAction(page: Page, row: Locator, label: string) {
  const inline = row.locator('.ant-space-item, a, button').getByText(label, { exact: true });
  if (await inline.count()) return inline.first().click();
  await fromHoverMenu(page, row.getByText('更多'), label);
}

/** Runs `fn` in a browser context of its own, signed in as `user`. */
export async function asUser(browser: Browser, user: string, fn: (page: Page) => Promise<void>) {
  const ctx = await browser.newContext();
  try {
    const page = await ctx.newPage();
    await login(page, user);
    await fn(page);
  } finally {
    await ctx.close();
  }
}

/**
 * The phone check of a screen (issue 30): no horizontal scrolling (the document is no wider than the
 * screen) and no clipped label — among labels, buttons, headings, tags, tabs, menu entries and dialog
 * titles that are shown, none whose content is wider than its box. `what` names the screen in the failure.
 */
export async function expectFitsPhone(page: Page, what: string) {
  const r = await page.evaluate(() => {
    const se = document.scrollingElement as HTMLElement;
    const selector =
      'label, button, h1, h2, h3, h4, .ant-btn, .ant-form-item-label, .ant-formily-item-label-content, .ant-tag, .ant-tabs-tab, .ant-menu-title-content, .ant-card-head-title, .ant-modal-title, .ant-drawer-title, .ant-result-title, .ant-descriptions-item-label';
    const clipped: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      const box = el.getBoundingClientRect();
      if (!box.width || !box.height || getComputedStyle(el).visibility === 'hidden') continue;
      if (el.scrollWidth > el.clientWidth + 1) clipped.push(`${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 2).join('.')} “${(el.textContent ?? '').trim().slice(0, 30)}” ${el.scrollWidth}>${el.clientWidth}`);
    }
    return { scrollWidth: se.scrollWidth, clientWidth: se.clientWidth, clipped };
  });
  expect(r.scrollWidth, `${what}: the page scrolls sideways (${r.scrollWidth} > ${r.clientWidth})`).toBeLessThanOrEqual(r.clientWidth);
  expect(r.clipped, `${what}: clipped labels`).toEqual([]);
}

type ApiRow = Record<string, any>;
const apiClients: APIRequestContext[] = [];

/**
 * An API client signed in as `username`, for a test's set-up and checks beside the browser. `get` and
 * `post` expect success and return `result`; `raw` returns the whole answer. Each spec file gives its own
 * client address (`ip`) so per-address sign-in limits of one file never reach another; call
 * `disposeApiClients()` in afterAll.
 */
export async function apiAs(baseURL: string, username: string, ip = '10.88.0.31') {
  const API = '/jeecg-boot';
  const api = await pwRequest.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': ip } });
  apiClients.push(api);
  const r = await (await api.post(`${API}/sys/login`, { data: { username, password: DEMO_PASSWORD } })).json();
  expect(r.code).toBe(200);
  const headers = { 'X-Access-Token': r.result.token as string };
  const check = (url: string, res: ApiRow) => (expect(res.success, `${url}: ${res.message}`).toBe(true), res.result);
  return {
    userId: r.result.userInfo.id as string,
    realname: r.result.userInfo.realname as string,
    orgCode: r.result.userInfo.orgCode as string,
    get: async (url: string) => check(url, await (await api.get(`${API}${url}`, { headers })).json()),
    post: async (url: string, data: unknown) => check(url, await (await api.post(`${API}${url}`, { headers, data })).json()),
    raw: async (url: string) => (await (await api.get(`${API}${url}`, { headers })).json()) as ApiRow,
  };
}

export async function disposeApiClients() {
  for (const c of apiClients.splice(0)) await c.dispose();
}

/** Today and the time in the school's zone (the server's, config timezone). */
export function schoolNow() {
  const d = new Date();
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
  const [h, m] = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Shanghai', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d).split(':').map(Number);
  return { date, minutes: h! * 60 + m! };
}
const hhmm = (min: number) => `${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}:00`;

type ApiClient = Awaited<ReturnType<typeof apiAs>>;

/**
 * A lesson on now for a phone test, so the test does not depend on the wall clock being in class hours: a
 * room of a campus of its own (`code`, `building`, `campus` name the test's rows), a section time around the
 * present minute, and a schedule line today for a course task of another teacher that `sup` has not observed
 * today. Returns the room, the task, the index form's leaves (in order), today and the QR code's URL.
 */
export async function lessonOnNow(admin: ApiClient, sup: ApiClient, o: { code: string; building: string; campus: string; section: number }) {
  const term = await admin.get('/supervisor/term/current');
  const { date, minutes } = schoolNow();
  const week = weekOf(term.startDate, date);
  expect(week, `today ${date} must fall in the current term ${term.name}`).toBeGreaterThanOrEqual(1);
  expect(week).toBeLessThanOrEqual(term.weekCount);
  const weekday = ((new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7) + 1;
  const tag = Date.now().toString(36).slice(-6).toUpperCase();
  const campus = `${o.campus}${tag}`;
  await admin.post('/supervisor/classroom/add', { code: `${o.code}${tag}`, name: `${o.building}${tag.slice(-3)}`, campus, building: o.building, capacity: 60 });
  const room = ((await admin.get(`/supervisor/classroom/list?code=${o.code}${tag}`)).records as ApiRow[])[0]!;
  await admin.post('/supervisor/sectionTime/add', { campus, season: 'WINTER', sectionNo: o.section, name: `第${o.section}节`, beginTime: hhmm(Math.max(0, minutes - 60)), endTime: hhmm(Math.min(23 * 60 + 59, minutes + 60)) });
  const mine = (await sup.get(`/supervisor/lectureRecord/list?listenerId=${sup.userId}&lectureDate=${date}&pageSize=1000`)).records as ApiRow[];
  const tasks = (await admin.get(`/supervisor/courseTask/list?termId=${term.id}&pageSize=200`)).records as ApiRow[];
  const task = tasks.find((t) => t.teacherId && t.teacherId !== sup.userId && !String(t.teacherIds ?? '').includes(sup.userId) && !mine.some((r) => r.courseTaskId === t.id));
  expect(task).toBeTruthy();
  await admin.post('/supervisor/courseSchedule/add', { taskId: task!.id, weekday, startSection: o.section, endSection: o.section, weeks: String(week), classroomId: room.id });
  const system = await sup.get(`/supervisor/lectureRecord/form?courseTaskId=${task!.id}`);
  const leaves = (system.indexes as ApiRow[]).filter((i) => (system.leafIds as string[]).includes(i.id));
  return { room, task: task!, leaves, date, scanUrl: `/lecture/scan?room=${room.id}` };
}
