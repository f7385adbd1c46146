import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { fileTestServer } from '../helpers/server.js';

/**
 * Cached reads (server/db/read-cache.ts) never hide a write: list totals, a user's permissions and
 * the dictionaries follow writes made in any way — CRUD, raw SQL, inside a transaction.
 */
const s = fileTestServer(['admin']);

const total = async () => (await s.get('sys/position/list?pageSize=10', s.tok.admin)).json().result.total as number;

describe('read cache', () => {
  it('a list total follows a write made in raw SQL inside a transaction', async () => {
    const before = await total();
    expect(await total()).toBe(before); // cached now
    await s.running.ctx.db.transaction().execute(async (trx) => {
      await sql`insert into sys_position (id, code, name, post_rank, tenant_id, create_by, create_time) values ('rc-1', 'RC1', '缓存职务', '1', 0, 'admin', '2026-11-01 08:00:00')`.execute(trx);
    });
    expect(await total()).toBe(before + 1);
    await s.running.ctx.db.deleteFrom('sys_position').where('id', '=', 'rc-1').execute();
    expect(await total()).toBe(before);
  });

  it("a user's permissions follow a write to their role's grants (the route guard uses them)", async () => {
    const teacher = await s.login('teacher');
    const list = async () => (await s.get('supervisor/lectureRecord/list?pageSize=1', teacher)).json() as { success: boolean; code: number };
    expect(await list()).toMatchObject({ success: true });
    expect(await list()).toMatchObject({ success: true }); // the permissions are cached now
    const db = s.running.ctx.db;
    const grants = await db
      .selectFrom('sys_role_permission as rp')
      .innerJoin('sys_user_role as ur', 'ur.role_id', 'rp.role_id')
      .innerJoin('sys_user as u', 'u.id', 'ur.user_id')
      .innerJoin('sys_permission as p', 'p.id', 'rp.permission_id')
      .selectAll('rp')
      .where('u.username', '=', 'teacher')
      .where('p.perms', '=', 'supervisor:lectureRecord:list')
      .execute();
    expect(grants.length).toBeGreaterThan(0);
    await db.deleteFrom('sys_role_permission').where('id', 'in', grants.map((g) => g.id)).execute();
    try {
      expect(await list()).toMatchObject({ success: false, code: 510 });
    } finally {
      await db.insertInto('sys_role_permission').values(grants).execute();
    }
    expect(await list()).toMatchObject({ success: true });
  });

  it('the dictionaries follow an item added through the API', async () => {
    const texts = async () => ((await s.get('sys/dict/queryAllDictItems', s.tok.admin)).json().result.sex as { text: string }[]).map((d) => d.text);
    expect(await texts()).not.toContain('缓存测试');
    const sex = (await s.get('sys/dict/list?dictCode=sex', s.tok.admin)).json().result.records[0];
    const add = (await s.post('sys/dictItem/add', { dictId: sex.id, itemText: '缓存测试', itemValue: '8', sortOrder: 8, status: 1 }, s.tok.admin)).json();
    expect(add.success, add.message).toBe(true);
    expect(await texts()).toContain('缓存测试');
  });
});
