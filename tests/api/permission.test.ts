import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { readFileSync } from 'node:fs';
import { menusMarkdown } from '../../server/seed/data/menus-doc.js';
import { fileTestServer } from '../helpers/server.js';
import { MENU_TREE, type MenuSeed } from '../../server/seed/data/menus.js';
import { runSeeds } from '../../server/seed/index.js';
import { seedSteps } from '../../server/seed/steps.js';
import { syncMenus } from '../../server/seed/menus.js';

const s = fileTestServer();

interface Node {
  id: string;
  path: string;
  name: string;
  component: string;
  route: string;
  hidden?: boolean;
  redirect?: string;
  children?: Node[];
  meta: { title: string; keepAlive: boolean; internalOrExternal: boolean; componentName: string; permissionList?: Array<{ action: string }> };
}
const flat = (ns: Node[]): Node[] => ns.flatMap((n) => [n, ...flat(n.children ?? [])]);
const perms = async (user: string) => (await s.get('sys/permission/getUserPermissionByToken', await s.login(user))).json();

describe('GET /sys/permission/getUserPermissionByToken', () => {
  it('answers {menu, auth, allAuth, sysSafeMode} in the contract shape, 首页 first', async () => {
    const b = await perms('admin');
    expect(b.success).toBe(true);
    expect(Object.keys(b.result).sort()).toEqual(['allAuth', 'auth', 'menu', 'sysSafeMode']);
    expect(b.result.sysSafeMode).toBe(false);
    const menu: Node[] = b.result.menu;
    expect(menu[0]).toMatchObject({ path: '/dashboard/analysis', component: 'dashboard/Analysis', route: '1', meta: { title: '首页' } });
    const term = flat(menu).find((n) => n.path === '/supervisor/term')!;
    expect(term).toMatchObject({ name: 'supervisor-term', component: 'supervisor/TermList', route: '1', meta: { title: '学期管理', componentName: 'TermList', keepAlive: false, internalOrExternal: false } });
    expect(term.meta.permissionList!.map((p) => p.action)).toEqual(expect.arrayContaining(['supervisor:term:add', 'supervisor:term:edit', 'supervisor:term:deleteBatch']));
    expect(typeof term.id).toBe('string');
    // Every screen area of SPEC §2 is in the admin's menu.
    const titles = menu.map((n) => n.meta.title);
    for (const t of ['首页', '督导管理', '听课统计', '整改管理', '审核评估', '实验室管理', '审批流程', '在线文档', '课表管理', '消息中心', '系统监控', '系统管理', '在线开发', '个人页'])
      expect(titles).toContain(t);
    expect(menu.find((n) => n.meta.title === '个人页')!.hidden).toBe(true);
    expect(menu.find((n) => n.meta.title === '系统管理')!.hidden).toBeUndefined();
    expect(b.result.auth[0]).toEqual({ action: expect.any(String), type: '1', describe: expect.any(String) });
    expect(b.result.allAuth[0]).toEqual({ action: expect.any(String), type: '1', describe: expect.any(String), status: '1' });
    const actions = new Set(b.result.auth.map((a: { action: string }) => a.action));
    expect(actions.has('system:user:add')).toBe(true);
    expect(actions.has('improvement:task:verify')).toBe(true);
  });

  it('the tree holds every seeded screen with its component', async () => {
    const nodes = flat((await perms('admin')).result.menu);
    const walk = (ms: MenuSeed[]): MenuSeed[] => ms.flatMap((m) => [m, ...walk(m.children ?? [])]);
    for (const m of walk(MENU_TREE)) expect(nodes.find((n) => n.path === m.url)?.component, m.url).toBe(m.component);
  });

  it('a teacher sees only their screens and buttons', async () => {
    const b = await perms('teacher');
    const nodes = flat(b.result.menu);
    const paths = nodes.map((n) => n.path);
    expect(paths).toEqual(expect.arrayContaining(['/dashboard/analysis', '/supervisor/lectureRecord', '/improvement/subtask', '/account/center']));
    expect(paths).not.toContain('/isystem/user');
    expect(paths).not.toContain('/supervisor/term');
    const actions = b.result.auth.map((a: { action: string }) => a.action);
    expect(actions).toContain('supervisor:lectureRecord:feedback');
    expect(actions).not.toContain('supervisor:lectureRecord:return');
    expect(actions).not.toContain('supervisor:lectureRecord:viewAll');
    expect(actions).not.toContain('system:user:add');
    // allAuth is every button of the system, whoever asks.
    expect(b.result.allAuth.length).toBe((await perms('admin')).result.allAuth.length);
  });

  it('a container whose children are all hidden becomes hidden', async () => {
    const db = s.running.ctx.db;
    const parent = await db.selectFrom('sys_permission').select('id').where('url', '=', '/audit').executeTakeFirstOrThrow();
    const before = (await perms('admin')).result.menu.find((n: Node) => n.path === '/audit');
    expect(before.hidden).toBeUndefined();
    await db.updateTable('sys_permission').set({ hidden: true }).where('parent_id', '=', parent.id).where('menu_type', '=', 1).execute();
    try {
      const after = (await perms('admin')).result.menu.find((n: Node) => n.path === '/audit');
      expect(after.hidden).toBe(true);
      expect(after.children.every((c: Node) => c.hidden)).toBe(true);
    } finally {
      await db.updateTable('sys_permission').set({ hidden: false }).where('parent_id', '=', parent.id).execute();
    }
  });

  it('a denied call answers code 510', async () => {
    const t = await s.login('teacher');
    const r = await s.get('sys/online/list', t);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ success: false, code: 510 });
    expect((await s.get('sys/sms/outbox', t)).json().code).toBe(510);
  });
});

describe('route table', () => {
  it('every route declares public, user or permission codes', () => {
    const routes = s.running.routes;
    expect(routes.length).toBeGreaterThan(20);
    const undeclared = routes.filter((r) => r.auth === undefined || (Array.isArray(r.auth) && !r.auth.length) || r.auth === '');
    expect(undeclared.map((r) => `${r.method} ${r.url}`)).toEqual([]);
    const login = routes.find((r) => r.url.endsWith('/sys/login') && r.method === 'POST');
    expect(login?.auth).toBe('public');
    expect(routes.find((r) => r.url.endsWith('/sys/permission/getUserPermissionByToken'))?.auth).toBe('user');
  });

  it('every permission code a route declares is seeded (add new codes to server/seed/data/menus.ts)', async () => {
    const seeded = new Set((await s.running.ctx.db.selectFrom('sys_permission').select('perms').where('perms', 'is not', null).execute()).flatMap((r) => String(r.perms).split(',')));
    const unseeded: string[] = [];
    for (const r of s.running.routes) {
      if (r.auth === 'public' || r.auth === 'user' || r.auth === undefined) continue;
      for (const c of Array.isArray(r.auth) ? r.auth : [r.auth]) if (!seeded.has(c)) unseeded.push(`${r.method} ${r.url} → ${c}`);
    }
    expect(unseeded).toEqual([]);
  });
});

describe('docs/menus.md', () => {
  it('is current (regenerate: npx tsx server/seed/data/menus-doc.ts > docs/menus.md)', () => {
    expect(readFileSync(new URL('../../docs/menus.md', import.meta.url), 'utf8')).toBe(menusMarkdown());
  });
});

describe('seed', () => {
  it('a second run adds nothing twice', async () => {
    const db = s.running.ctx.db;
    const count = async () =>
      Object.fromEntries(
        await Promise.all(
          ['sys_permission', 'sys_role', 'sys_role_permission', 'sys_user', 'sys_depart', 'sys_user_role', 'sys_user_depart', 'sys_dict_item'].map(async (t) => [
            t,
            Number((await db.selectFrom(t).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
          ]),
        ),
      );
    const before = await count();
    expect(before.sys_user).toBeGreaterThanOrEqual(200);
    expect(await runSeeds(s.running.ctx)).toEqual([]);
    // Forget the Foundation's steps and run them again: the steps themselves are idempotent.
    const menuStep = seedSteps.find((x) => x.name.startsWith('menus@'))!;
    const mine = ['dicts-base', 'admin-user', 'demo-org', menuStep.name];
    await sql`delete from seed_log where name in (${sql.join(mine)})`.execute(db);
    expect((await runSeeds(s.running.ctx)).sort()).toEqual([...mine].sort());
    expect(await count()).toEqual(before);
  });

  it('a new entity permission prefix gets its codes on the next menu sync, granted to admin only', async () => {
    const ctx = s.running.ctx;
    const extra = { name: 'zz_probe', table: 'zz_probe', title: '探针', resource: '/zz/probe', permission: 'zz:probe', operations: ['list', 'add'] as Array<'list' | 'add'>, fields: [{ name: 'id', type: 'string' as const, length: 32, primary: true }] };
    const byName = new Map(ctx.entities.byName);
    byName.set(extra.name, extra);
    const entities = { ...ctx.entities, byName };
    await syncMenus({ ...ctx, entities });
    await syncMenus({ ...ctx, entities });
    const rows = await ctx.db.selectFrom('sys_permission').select(['perms', 'parent_id']).where('perms', 'like', 'zz:probe:%').execute();
    expect(rows.map((r) => r.perms).sort()).toEqual(['zz:probe:add', 'zz:probe:list']);
    const admin = await perms('admin');
    expect(admin.result.auth.map((a: { action: string }) => a.action)).toContain('zz:probe:list');
    const teacher = await perms('teacher');
    expect(teacher.result.auth.map((a: { action: string }) => a.action)).not.toContain('zz:probe:list');
  });

  it('seeds the demo university: colleges with leaders and secretaries, hierarchical orgCodes', async () => {
    const db = s.running.ctx.db;
    const departs = await db.selectFrom('sys_depart').select(['depart_name', 'org_code', 'parent_id', 'id']).execute();
    const byName = new Map(departs.map((d) => [d.depart_name as string, d]));
    expect(byName.get('质量评估中心')!.org_code).toBe('A01A01A01');
    expect(byName.get('质量评估中心')!.parent_id).toBe(byName.get('教务处')!.id);
    for (const d of departs) if (d.parent_id) expect(String(d.org_code).startsWith(String(departs.find((p) => p.id === d.parent_id)!.org_code))).toBe(true);
    const rows = await db
      .selectFrom('sys_user_role as ur')
      .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
      .innerJoin('sys_user as u', 'u.id', 'ur.user_id')
      .select(['r.role_code', 'u.org_code'])
      .execute();
    for (const college of ['A01A04', 'A01A05', 'A01A06', 'A01A07', 'A01A08', 'A01A09', 'A01A10', 'A01A11']) {
      expect(rows.some((r) => r.role_code === 'leader' && r.org_code === college), college).toBe(true);
      expect(rows.some((r) => r.role_code === 'secretary' && r.org_code === college), college).toBe(true);
    }
    expect(rows.filter((r) => r.role_code === 'supervisor').length).toBeGreaterThanOrEqual(5);
    expect(rows.filter((r) => r.role_code === 'teacher').length).toBeGreaterThan(150);
  });
});

describe('GET /schema/route (where a path leads, for the early requests of a first visit)', () => {
  const route = async (path: string, user = 'admin') => (await s.get(`schema/route?path=${encodeURIComponent(path)}`, await s.login(user))).json();

  it('answers the menu component at the path with its page schema, as the menu would route it', async () => {
    const b = await route('/supervisor/term/');
    expect(b).toMatchObject({ success: true, result: { component: 'supervisor/TermList', schema: { kind: expect.any(String), title: expect.any(String) } } });
    const page = (await s.get('schema/page/supervisor/TermList', await s.login('admin'))).json();
    expect(b.result.schema).toEqual(page.result);
    // 个人中心 (a static route every user has) is a page schema too (a dashboard).
    expect((await route('/account/center')).result).toMatchObject({ component: 'account/center/Index', schema: { kind: 'dashboard', title: '个人中心' } });
  });

  it('refuses a path outside the user’s menu, and malformed paths', async () => {
    expect(await route('/isystem/user')).toMatchObject({ success: true, result: { component: 'system/UserList' } });
    expect(await route('/isystem/user', 'teacher')).toMatchObject({ success: false, code: 404, message: '菜单中没有该路径：/isystem/user' });
    expect(await route('/no/such/page')).toMatchObject({ success: false, code: 404 });
    expect(await route('system/user')).toMatchObject({ success: false, code: 400, message: '路径参数有误' });
    expect((await s.get('schema/route', await s.login('admin'))).json()).toMatchObject({ success: false, code: 400 });
    expect((await s.get(`schema/route?path=%2Fsupervisor%2Fterm&search=${'x'.repeat(2001)}`, await s.login('admin'))).json()).toMatchObject({ success: false, code: 400, message: '查询参数有误' });
  });

  it('with the page URL’s search, a list page’s answer carries its first list request, answered as the page would be (data scope included)', async () => {
    const withRows = async (user: string, search: string) =>
      (await s.get(`schema/route?path=%2Fsupervisor%2FlectureRecord&search=${encodeURIComponent(search)}`, await s.login(user))).json();
    for (const user of ['admin', 'teacher']) {
      const b = await withRows(user, '?pageSize=20');
      expect(b.result.component).toBe('supervisor/LectureRecordList');
      const { url, params, answer } = b.result.list;
      expect(url).toBe('/supervisor/lectureRecord/list');
      expect(params).toMatchObject({ pageNo: 1, pageSize: 20, column: expect.any(String), order: expect.any(String), field: expect.stringContaining('recordNo') });
      // The same request made by the user themselves gets the same answer.
      const own = (await s.get(`${url.replace(/^\//, '')}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`, await s.login(user))).json();
      expect(own.success).toBe(true);
      expect(answer.result.total).toBe(own.result.total);
      expect(answer.result.records.map((r: { id: string }) => r.id)).toEqual(own.result.records.map((r: { id: string }) => r.id));
    }
    // The teacher's rows are their own records only (the list's data scope), fewer than the admin's.
    const admin = (await withRows('admin', '')).result.list.answer.result;
    const teacher = (await withRows('teacher', '')).result.list.answer.result;
    expect(teacher.total).toBeGreaterThan(0);
    expect(teacher.total).toBeLessThan(admin.total);
    // Without `search`, or for a page that is not a list, no rows.
    expect((await route('/supervisor/lectureRecord')).result.list).toBeUndefined();
    const centre = (await s.get('schema/route?path=%2Faccount%2Fcenter&search=', await s.login('admin'))).json().result;
    expect(centre).toMatchObject({ component: 'account/center/Index', schema: { kind: 'dashboard' } });
    expect(centre.list).toBeUndefined();
    // A dashboard page: its schema, no rows.
    const monitor = (await s.get('schema/route?path=%2Fmonitor%2FSystemInfo&search=', await s.login('admin'))).json().result;
    expect(monitor).toMatchObject({ component: 'modules/monitor/SystemInfo', schema: { kind: 'dashboard' } });
    expect(monitor.list).toBeUndefined();
  });

  it('a one-widget page with `widgetLoad` (扫码听课): its first GET with the URL’s named parameters, answered as the widget’s own request', async () => {
    const room = (await s.get('supervisor/classroom/list?pageSize=1', await s.login('admin'))).json().result.records[0];
    const b = (await s.get(`schema/route?path=%2Flecture%2Fscan&search=${encodeURIComponent(`?room=${room.id}&x=1`)}`, await s.login('supervisor'))).json();
    expect(b.result).toMatchObject({ component: 'lecture/Scan', list: { url: '/supervisor/lectureRecord/scan', params: { room: room.id } } });
    const own = (await s.get(`supervisor/lectureRecord/scan?room=${room.id}`, await s.login('supervisor'))).json();
    expect(b.result.list.answer.success).toBe(true);
    expect(b.result.list.answer.result.room).toEqual(own.result.room);
    expect(b.result.list.answer.result.date).toBe(own.result.date);
  });
});

describe('GET /schema/boot (a first visit’s early requests in one)', () => {
  const boot = async (path: string, search: string, user: string) =>
    (await s.get(`schema/boot?path=${encodeURIComponent(path)}&search=${encodeURIComponent(search)}`, await s.login(user))).json();
  const own = async (url: string, user: string) => (await s.get(url, await s.login(user))).json();
  const timeless = (envelope: unknown) => JSON.parse(JSON.stringify(envelope, (k, v) => (k === 'timestamp' ? undefined : v)));

  it('answers the menu, where the path leads (with its first rows) and the notice list as the three requests themselves answer them', async () => {
    for (const user of ['admin', 'teacher']) {
      const b = await boot('/supervisor/lectureRecord', '?pageSize=20', user);
      expect(b.success).toBe(true);
      const token = await s.login(user);
      const [permissions, route, notices] = await Promise.all(
        ['sys/permission/getUserPermissionByToken', 'schema/route?path=%2Fsupervisor%2FlectureRecord&search=%3FpageSize%3D20', 'sys/annountCement/listByUser?pageSize=5'].map(
          async (url) => (await s.get(url, token)).json(),
        ),
      );
      expect(timeless(b.result.permissions)).toEqual(timeless(permissions));
      expect(timeless(b.result.route)).toEqual(timeless(route));
      expect(timeless(b.result.notices)).toEqual(timeless(notices));
    }
    // The teacher's rows within it are their own only (the list's data scope).
    const admin = (await boot('/supervisor/lectureRecord', '', 'admin')).result.route.result.list.answer.result;
    const teacher = (await boot('/supervisor/lectureRecord', '', 'teacher')).result.route.result.list.answer.result;
    expect(teacher.total).toBeLessThan(admin.total);
  });

  it('a part its own request refuses comes as that refusal, the others still answered; no session, no answer', async () => {
    const b = await boot('/isystem/user', '', 'teacher');
    expect(timeless(b.result.route)).toEqual(timeless(await own('schema/route?path=%2Fisystem%2Fuser', 'teacher')));
    expect(b.result.route).toMatchObject({ success: false, code: 404, message: '菜单中没有该路径：/isystem/user' });
    expect(b.result.permissions).toMatchObject({ success: true, result: { menu: expect.any(Array) } });
    expect(b.result.notices).toMatchObject({ success: true, result: { anntMsgTotal: expect.any(Number) } });
    expect((await boot('no/slash', '', 'admin')).result.route).toMatchObject({ success: false, code: 400, message: '路径参数有误' });
    const anonymous = await s.get('schema/boot?path=%2Fsupervisor%2Fterm&search=');
    expect(anonymous.statusCode).toBe(401);
  });
});
