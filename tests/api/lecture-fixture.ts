import { createSession } from '../../server/auth/session.js';
import { newId } from '../../server/util.js';
import type { ApiAnswer, TestServer } from '../helpers/server.js';

const RECORD = ['list', 'add', 'edit', 'delete', 'queryById', 'submit'].map((o) => `supervisor:lectureRecord:${o}`);
/** The transition buttons of the improvement screens (each transition checks its own, see server/domain/improvement.ts). */
const IMP_BUTTONS = [...['issue', 'submitVerify', 'verify', 'cancel'].map((b) => `improvement:task:${b}`), ...['submit', 'verify', 'cancel'].map((b) => `improvement:subtask:${b}`)];
const IMP = ['task', 'subtask'].flatMap((k) => ['list', 'add', 'edit', 'delete', 'queryById'].map((o) => `improvement:${k}:${o}`));

/** Permission sets of the roles in the lecture tests, as seeded (docs/menus.md), independent of the menu seed. */
export const ROLE_PERMS: Record<string, string[]> = {
  teacher: [...RECORD, 'supervisor:lectureRecord:feedback', 'supervisor:indexScore:list', 'improvement:subtask:list', 'improvement:subtask:queryById', 'improvement:subtask:edit', 'improvement:subtask:submit'],
  secretary: [...RECORD, ...IMP, ...IMP_BUTTONS, 'supervisor:lectureRecord:return', 'supervisor:lectureRecord:confirm', 'supervisor:lectureRecord:viewDepart', 'supervisor:report:list'],
  leader: [...RECORD, ...IMP, ...['issue', 'submitVerify', 'verify', 'cancel'].map((b) => `improvement:task:${b}`), 'improvement:subtask:verify', 'supervisor:lectureRecord:confirm', 'supervisor:lectureRecord:viewDepart', 'supervisor:report:list'],
  supervisor: [...RECORD, ...IMP, ...['issue', 'verify', 'cancel'].map((b) => `improvement:task:${b}`), 'improvement:subtask:verify', 'supervisor:lectureRecord:viewAll', 'supervisor:report:list', 'supervisor:courseSchedule:list'],
};

/** Grants a test role with `perms` to a demo user and returns a session token for them. */
export async function tokenFor(s: TestServer, username: string, perms: string[]): Promise<{ token: string; id: string; orgCode: string }> {
  const db = s.running.ctx.db;
  const u = await db.selectFrom('sys_user').select(['id', 'org_code']).where('username', '=', username).executeTakeFirstOrThrow();
  const roleId = newId();
  await db.insertInto('sys_role').values({ id: roleId, role_name: `lt-${username}`, role_code: `lt_${username}_${roleId.slice(0, 6)}` }).execute();
  const ps = perms.map((p, i) => ({ id: newId(), name: p, perms: p, menu_type: 2, sort_no: i, status: '1', del_flag: 0 }));
  await db.insertInto('sys_permission').values(ps).execute();
  await db.insertInto('sys_role_permission').values(ps.map((p) => ({ id: newId(), role_id: roleId, permission_id: p.id }))).execute();
  await db.insertInto('sys_user_role').values({ id: newId(), user_id: u.id, role_id: roleId }).execute();
  const { token } = await createSession(s.running.ctx, { id: String(u.id), username }, {});
  return { token, id: String(u.id), orgCode: String(u.org_code) };
}

/** The users of a lecture test, each signed in by tokenFor, by name. */
export type Who = Record<string, { token: string; id: string; orgCode: string }>;

/** JSON calls under /jeecg-boot as one of `who` (filled in the file's beforeAll): `call('get', '/path', 'teacher')`. */
export function callsAs(s: TestServer, who: Who) {
  return async (method: 'get' | 'post' | 'put', path: string, user: string, body?: unknown): Promise<ApiAnswer> => {
    const url = `/jeecg-boot${path}`;
    const token = who[user]!.token;
    const r = method === 'get' ? await s.get(url, token) : await s[method](url, body ?? {}, token);
    return r.json() as ApiAnswer;
  };
}
