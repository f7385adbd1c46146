/**
 * Issue 27 rule 9, the parts after hostile-roles.test.ts: page schemas and the permission trees only for
 * the caller's menu; files only for who sees the record that owns them; a per-user upload quota; signed
 * requests that cannot be replayed. Each attack is refused with nothing changed; positive controls show
 * the legitimate use still works.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { API, fileTestServer, type ApiAnswer } from '../helpers/server.js';
import { computeSign } from '../../server/auth/signature.js';

const s = fileTestServer(['admin', 'supervisor', 'secretary', 'leader', 'teacher', 'deptadmin']);
const { tok } = s;
const db = () => s.running.ctx.db;

type Env = ApiAnswer;
const j = async (r: Promise<{ json(): unknown }>) => (await r).json() as Env;
const roleId = async (code: string) => String((await db().selectFrom('sys_role').select('id').where('role_code', '=', code).executeTakeFirstOrThrow()).id);
const permByUrl = async (url: string) => String((await db().selectFrom('sys_permission').select('id').where('url', '=', url).where('menu_type', '<>', 2).executeTakeFirstOrThrow()).id);
const count = async (table: string) => Number((await db().selectFrom(table).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
/** Grants a role some permission rows for the duration of `fn` (ids prefixed for cleanup). */
async function withGrant(role: string, permIds: string[], fn: () => Promise<void>) {
  const rid = await roleId(role);
  const rows = permIds.map((p, i) => ({ id: `r9g${String(i).padStart(3, '0')}${role}`.padEnd(32, '0').slice(0, 32), role_id: rid, permission_id: p }));
  await db().insertInto('sys_role_permission').values(rows).execute();
  try {
    await fn();
  } finally {
    await db().deleteFrom('sys_role_permission').where('id', 'in', rows.map((r) => r.id)).execute();
  }
}

describe('rule 9: page schemas only for screens in the caller’s menu', () => {
  const page = (id: string, who: string) => s.get(`schema/page/${id}`, tok[who]);

  it('a teacher asking for an administrator’s page gets the unknown-page answer', async () => {
    const unknown = await page('system/NoSuchPage', 'teacher');
    for (const id of ['system/UserList', 'system/RoleList', 'system/PermissionList', 'audit/AuditItemList', 'timetable/SetTime']) {
      const r = await page(id, 'teacher');
      expect(r.statusCode, id).toBe(unknown.statusCode);
      const b = r.json() as Env & { timestamp?: unknown };
      expect(b, id).toEqual({ ...(unknown.json() as Env), message: `页面配置不存在：${id}`, timestamp: b.timestamp });
      expect(JSON.stringify(b)).not.toContain('columns');
    }
    // The list of pages names none of them.
    const list = (await j(s.get('schema/pages', tok.teacher))).result as Array<{ id: string }>;
    const ids = list.map((p) => p.id);
    expect(ids).not.toContain('system/UserList');
    expect(ids).not.toContain('system/PermissionList');
    expect(ids).toContain('supervisor/LectureRecordList');
    // Nor does the boot/route fast path lead there.
    const route = await j(s.get(`schema/route?path=${encodeURIComponent('/isystem/user')}`, tok.teacher));
    expect(route.success).toBe(false);
    const boot = await j(s.get(`schema/boot?path=${encodeURIComponent('/isystem/user')}&search=`, tok.teacher));
    expect(boot.result.route?.result?.schema ?? null).toBeNull();
  });

  it('positive controls: own screens, embedded and linked pages, static pages; the administrator reads all', async () => {
    for (const id of ['supervisor/LectureRecordList', 'dashboard/Analysis', 'system/MyAnnouncement', 'demo/list/query-list'])
      expect((await j(page(id, 'teacher'))).success, id).toBe(true);
    // A row link of the lecture record list opens the improvement task list (发起整改).
    expect((await j(page('improvement/TaskList', 'teacher'))).success).toBe(true);
    // The user list embeds the recycle bin (a tab): the department administrator reads both.
    expect((await j(page('system/UserList', 'deptadmin'))).success).toBe(true);
    expect((await j(page('system/UserRecycleBin', 'deptadmin'))).success).toBe(true);
    expect((await j(page('system/RoleList', 'deptadmin'))).success).toBe(true);
    expect((await j(page('system/PermissionList', 'deptadmin'))).success).toBe(false);
    const route = await j(s.get(`schema/route?path=${encodeURIComponent('/supervisor/lectureRecord')}`, tok.teacher));
    expect(route.result.schema).toBeTruthy();
    for (const id of ['system/PermissionList', 'system/UserList', 'audit/AuditItemList']) expect((await j(page(id, 'admin'))).success, id).toBe(true);
  });

  it('a granted menu opens its page and the pages it embeds at once; revoking closes them (no stale cache)', async () => {
    expect((await j(page('timetable/SetTime', 'teacher'))).success).toBe(false);
    expect((await j(page('supervisor/TermList', 'teacher'))).success).toBe(false);
    await withGrant('teacher', [await permByUrl('/timetable/setTime')], async () => {
      expect((await j(page('timetable/SetTime', 'teacher'))).success).toBe(true);
      // Embedded as a tab of 时间设置.
      expect((await j(page('supervisor/TermList', 'teacher'))).success).toBe(true);
    });
    expect((await j(page('timetable/SetTime', 'teacher'))).success).toBe(false);
    expect((await j(page('supervisor/TermList', 'teacher'))).success).toBe(false);
  });
});

describe('rule 9: the permission trees show only the caller’s own screens', () => {
  it('a teacher cannot read any permission tree', async () => {
    for (const u of ['sys/permission/queryTreeList', 'sys/role/queryTreeList', 'sys/permission/list', 'sys/permission/getSystemMenuList'])
      expect((await j(s.get(u, tok.teacher))).code, u).toBe(510);
  });

  it('a role administrator who is not the system administrator sees only the rows they hold', async () => {
    // The department administrator's role is given 授权 on roles and the menu screen, to show the mechanism.
    const grants = (await db().selectFrom('sys_permission').select('id').where('perms', 'in', ['system:role:authorize', 'system:permission:list']).execute()).map((r) => String(r.id));
    const hidden = await permByUrl('/isystem/dict');
    const auditMenu = await permByUrl('/audit/item');
    const userMenu = await permByUrl('/isystem/user');
    const live = Number((await db().selectFrom('sys_permission').select(sql<string>`count(*)`.as('n')).where('del_flag', '=', 0).executeTakeFirstOrThrow()).n);
    const before = await db().selectFrom('sys_permission').selectAll().orderBy('id').execute();
    await withGrant('deptadmin', grants, async () => {
      const da = await s.login('deptadmin');
      const flat = (nodes: any[]): string[] => nodes.flatMap((n) => [String(n.key ?? n.id), ...flat(n.children ?? [])]);
      for (const u of ['sys/role/queryTreeList', 'sys/permission/queryTreeList']) {
        const r = await j(s.get(u, da));
        expect(r.success, u).toBe(true);
        const keys = flat(r.result.treeList);
        expect(keys, u).toContain(userMenu);
        for (const id of [hidden, auditMenu]) {
          expect(keys, u).not.toContain(id);
          expect(r.result.ids, u).not.toContain(id);
        }
      }
      const list = flat((await j(s.get('sys/permission/list', da))).result);
      expect(list).toContain(userMenu);
      expect(list).not.toContain(hidden);
      const top = (await j(s.get('sys/permission/getSystemMenuList', da))).result as any[];
      expect(top.map((t) => t.id)).not.toContain(await permByUrl('/audit'));
      const sys = top.find((t) => t.url === '/isystem');
      const sub = (await j(s.get(`sys/permission/getSystemSubmenu?parentId=${sys.id}`, da))).result as any[];
      expect(sub.map((r) => r.id)).toContain(userMenu);
      expect(sub.map((r) => r.id)).not.toContain(hidden);
    });
    expect(await db().selectFrom('sys_permission').selectAll().orderBy('id').execute()).toEqual(before);
    // Positive control: the system administrator's tree has every row.
    const all = await j(s.get('sys/role/queryTreeList', tok.admin));
    expect(all.result.ids).toContain(hidden);
    expect(all.result.ids.length).toBe(live);
  });
});

// --- files -------------------------------------------------------------------------------------------

function multipart(name: string, data: Buffer, biz = 'temp') {
  const boundary = '----rule9' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="biz"\r\n\r\n${biz}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const upload = async (who: string, name: string, data: Buffer, biz = 'temp') => j(s.call({ method: 'POST', url: 'sys/common/upload', token: tok[who], ...multipart(name, data, biz) }));
/** Uploads a small text file and returns its stored path. */
const stored = async (who: string, biz: string, text: string) => {
  const r = await upload(who, `${biz}.txt`, Buffer.from(text), biz);
  expect(r.success, r.message).toBe(true);
  return String(r.message);
};
const download = (url: string, who: string) => s.get(`${API}/sys/common/static/${url}`, tok[who]);
const readable = async (url: string, who: string) => {
  const r = await download(url, who);
  if (r.statusCode === 200 && !String(r.headers['content-type']).includes('json')) return true;
  const b = r.json() as Env;
  expect(b.success).toBe(false);
  expect(b.message).toBe('文件不存在');
  return false;
};

describe('rule 9: files only for who sees the record that owns them', () => {
  const math = 'A01A05%';
  const cs = 'A01A04%';

  it('lecture record photos: another college’s record is refused, one’s own college’s is served', async () => {
    const foreign = await db().selectFrom('sup_lecture_record').select('id').where('status', '=', 'SUBMITTED').where('teacher_org_code', 'like', math).where('listener_org_code', 'like', math).limit(1).executeTakeFirstOrThrow();
    const own = await db().selectFrom('sup_lecture_record').select('id').where('status', '=', 'SUBMITTED').where('teacher_org_code', 'like', cs).where('listener_org_code', 'like', cs).limit(1).executeTakeFirstOrThrow();
    const f1 = await stored('admin', 'lecture', 'math photo');
    const f2 = await stored('admin', 'lecture', 'cs photo');
    await db().updateTable('sup_lecture_record').set({ photos: `${f1}` }).where('id', '=', foreign.id).execute();
    await db().updateTable('sup_lecture_record').set({ photos: `x/other.png,${f2}` }).where('id', '=', own.id).execute();
    const files = await db().selectFrom('sys_file').selectAll().orderBy('id').execute();
    for (const who of ['secretary', 'leader', 'teacher', 'deptadmin']) expect(await readable(f1, who), who).toBe(false);
    // Positive controls: the CS secretary and leader see their college's record; the supervisor and admin every college's.
    expect(await readable(f2, 'secretary')).toBe(true);
    expect(await readable(f2, 'leader')).toBe(true);
    expect(await readable(f1, 'supervisor')).toBe(true);
    expect(await readable(f1, 'admin')).toBe(true);
    expect((await download(f2, 'secretary')).body).toBe('cs photo');
    expect(await db().selectFrom('sys_file').selectAll().orderBy('id').execute()).toEqual(files);
  });

  it('improvement evidence: a leader cannot read another college’s task or transition evidence', async () => {
    const foreign = await db().selectFrom('imp_task').select('id').where('status', '=', 'SUBMITTED').where('resp_org_code', 'not like', cs).limit(1).executeTakeFirstOrThrow();
    const own = await db().selectFrom('imp_task').select('id').where('status', '<>', 'DRAFT').where('resp_org_code', 'like', cs).limit(1).executeTakeFirstOrThrow();
    const f1 = await stored('admin', 'improvement', 'foreign evidence');
    const f2 = await stored('admin', 'improvement', 'own evidence');
    const f3 = await stored('admin', 'improvement', 'foreign log evidence');
    await db().updateTable('imp_task').set({ attachments: f1 }).where('id', '=', foreign.id).execute();
    await db().updateTable('imp_task').set({ attachments: f2 }).where('id', '=', own.id).execute();
    await db().updateTable('imp_action_log').set({ attachments: f3 }).where('target_id', '=', foreign.id).where('seq', '=', 1).execute();
    for (const f of [f1, f3]) for (const who of ['leader', 'secretary', 'teacher']) expect(await readable(f, who), `${who} ${f}`).toBe(false);
    expect(await readable(f2, 'leader')).toBe(true);
    expect(await readable(f1, 'supervisor')).toBe(true);
    expect(await readable(f3, 'supervisor')).toBe(true);
  });

  it('audit evidence: readable by the audit roles only', async () => {
    const item = await db().selectFrom('audit_item').select('id').limit(1).executeTakeFirstOrThrow();
    const f = await stored('admin', 'audit', 'audit evidence');
    await db().updateTable('audit_item').set({ attachments: f }).where('id', '=', item.id).execute();
    for (const who of ['teacher', 'secretary', 'deptadmin']) expect(await readable(f, who), who).toBe(false);
    expect(await readable(f, 'supervisor')).toBe(true);
    expect(await readable(f, 'leader')).toBe(true);
  });

  it('a file no record refers to: its uploader and the administrator; an avatar: every signed-in user', async () => {
    const f = await stored('teacher', 'temp', 'my draft upload');
    expect(await readable(f, 'teacher')).toBe(true);
    expect(await readable(f, 'admin')).toBe(true);
    for (const who of ['secretary', 'leader', 'supervisor']) expect(await readable(f, who), who).toBe(false);
    const avatar = await stored('teacher', 'avatar', 'face');
    await db().updateTable('sys_user').set({ avatar }).where('username', '=', 'teacher').execute();
    for (const who of ['secretary', 'leader', 'deptadmin', 'supervisor']) expect(await readable(avatar, who), who).toBe(true);
    expect((await download(avatar, 'leader')).body).toBe('face');
    expect((await s.get(`${API}/sys/common/static/${avatar}`)).statusCode).toBe(401);
  });

  it('announcement images: the recipients of a published announcement, not others', async () => {
    const all = await stored('admin', 'jeditor', 'image for everyone');
    const some = await stored('admin', 'jeditor', 'image for the supervisor');
    const draft = await stored('admin', 'jeditor', 'image of a draft');
    const sup = await db().selectFrom('sys_user').select('id').where('username', '=', 'supervisor').executeTakeFirstOrThrow();
    const img = (u: string) => `<p><img src="${API}/sys/common/static/${u}"></p>`;
    const base = { titile: 'rule9', msg_category: '1', del_flag: '0', priority: 'L', tenant_id: 0 };
    await db().insertInto('sys_announcement').values([
      { ...base, id: 'rule9annt00000000000000000000001', msg_content: img(all), msg_type: 'ALL', send_status: '1', send_time: '2026-10-01 10:00:00' },
      { ...base, id: 'rule9annt00000000000000000000002', msg_content: img(some), msg_type: 'USER', user_ids: `${sup.id},`, send_status: '1', send_time: '2026-10-01 10:00:00' },
      { ...base, id: 'rule9annt00000000000000000000003', msg_content: img(draft), msg_type: 'ALL', send_status: '0' },
    ]).execute();
    await db().insertInto('sys_announcement_send').values({ id: 'rule9send00000000000000000000001', annt_id: 'rule9annt00000000000000000000002', user_id: sup.id, read_flag: '0' }).execute();
    expect(await readable(all, 'teacher')).toBe(true);
    expect(await readable(some, 'supervisor')).toBe(true);
    expect(await readable(some, 'teacher')).toBe(false);
    expect(await readable(draft, 'teacher')).toBe(false);
    expect(await readable(draft, 'admin')).toBe(true);
  });
});

describe('rule 9: a per-user upload quota', () => {
  const filesUnder = (dir: string, prefix = ''): string[] =>
    existsSync(dir)
      ? readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.name === '.tmp' ? [] : d.isDirectory() ? filesUnder(join(dir, d.name), `${prefix}${d.name}/`) : [`${prefix}${d.name}`]))
      : [];

  it('an upload past the quota is refused in Chinese and stores nothing; within it, it is stored', async () => {
    const cfg = s.running.ctx.cfg.upload;
    const saved = cfg.quotaBytesPerUser;
    const used = Number((await db().selectFrom('sys_file').select(sql<string>`coalesce(sum(file_size), 0)`.as('n')).where('create_by', '=', 'secretary').executeTakeFirstOrThrow()).n);
    cfg.quotaBytesPerUser = used + 3 * 1024 * 1024;
    try {
      const ok = await upload('secretary', 'a.bin', Buffer.alloc(2 * 1024 * 1024, 1));
      expect(ok.success, ok.message).toBe(true);
      const rows = await count('sys_file');
      const files = filesUnder(s.cfg.uploadDir);
      const r = await upload('secretary', 'b.bin', Buffer.alloc(2 * 1024 * 1024, 2));
      expect(r.success).toBe(false);
      expect(r.message).toMatch(/^您的上传空间已满（已用.*MB，上限.*MB），请删除不用的文件/);
      expect(await count('sys_file')).toBe(rows);
      expect(filesUnder(s.cfg.uploadDir)).toEqual(files);
      // Another user is not affected by the secretary's quota.
      expect((await upload('leader', 'c.bin', Buffer.alloc(2 * 1024 * 1024, 3))).success).toBe(true);
    } finally {
      cfg.quotaBytesPerUser = saved;
    }
  });
});

describe('rule 9: signed requests cannot be replayed', () => {
  const SECRET = 'rule9-signature-secret-0123';
  it('the same signed request a second time is refused; a new one is served; expired nonces are swept', async () => {
    const cfg = s.running.ctx.cfg;
    const saved = cfg.signature;
    cfg.signature = { enabled: true, secret: SECRET };
    try {
      await db().insertInto('sys_sign_nonce').values({ id: 'expired-nonce', expires_at: '2020-01-01 00:00:00' }).execute();
      const ts = String(Date.now());
      const headers = { 'x-sign': computeSign({}, SECRET), 'x-timestamp': ts };
      const first = (await s.get(`${API}/sys/dict/getDictItems/sex`, tok.teacher, headers)).json() as Env;
      expect(first.success, first.message).toBe(true);
      expect(await db().selectFrom('sys_sign_nonce').select('id').where('id', '=', 'expired-nonce').executeTakeFirst()).toBeUndefined();
      const nonces = await db().selectFrom('sys_sign_nonce').selectAll().orderBy('id').execute();
      const replay = (await s.get(`${API}/sys/dict/getDictItems/sex`, tok.teacher, headers)).json() as Env;
      expect(replay.success).toBe(false);
      expect(replay.message).toContain('已使用过');
      // Even by another user.
      expect(((await s.get(`${API}/sys/dict/getDictItems/sex`, tok.admin, headers)).json() as Env).success).toBe(false);
      expect(await db().selectFrom('sys_sign_nonce').selectAll().orderBy('id').execute()).toEqual(nonces);
      // A fresh timestamp (a new request) is served.
      const again = (await s.get(`${API}/sys/dict/getDictItems/sex`, tok.teacher, { ...headers, 'x-timestamp': String(Date.now() + 1) })).json() as Env;
      expect(again.success, again.message).toBe(true);
    } finally {
      cfg.signature = saved;
    }
  });
});
