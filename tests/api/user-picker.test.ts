import { describe, expect, it } from 'vitest';
import { fileTestServer } from '../helpers/server.js';
import { CS_COLLEGE, departId, roleId } from '../../server/seed/data/org.js';

/** The user-by-department picker (JSelectUserByDep) against /sys/user/queryUserComponentDataWithRole. */
const s = fileTestServer(['admin', 'teacher']);

type U = { id: string; username: string; realname: string; sex: number };
const j = async (p: Promise<{ json(): any }>) => (await p).json();
const picker = async (query: string) => {
  const body = await j(s.get(`sys/user/queryUserComponentDataWithRole?${query}&pageSize=500`, s.tok.teacher));
  expect(body.success).toBe(true);
  return body.result as { records: U[]; total: number };
};
/** Usernames holding a role (administrator's role-user list). */
const holders = async (code: string) => new Set(((await j(s.get(`sys/user/userRoleList?roleId=${roleId(code)}&pageSize=500`, s.tok.admin))).result.records as U[]).map((u) => u.username));
/** Usernames in a department. */
const members = async (dep: string) => new Set(((await j(s.get(`sys/user/queryUserByDepId?id=${dep}`, s.tok.teacher))).result as U[]).map((u) => u.username));

describe('user picker by department', () => {
  it('the 教师 preselection (roleCode=teacher) returns only teachers of the chosen department', async () => {
    const dep = departId(CS_COLLEGE);
    const { records, total } = await picker(`departId=${dep}&roleCode=teacher`);
    const names = records.map((u) => u.username);
    expect(names).toEqual(expect.arrayContaining(['teacher', 'teacher2']));
    expect(names).not.toContain('leader');
    expect(names).not.toContain('secretary');
    expect(names).not.toContain('deptadmin');
    expect(total).toBe(records.length);
    const [teachers, inDep] = [await holders('teacher'), await members(dep)];
    for (const n of names) {
      expect(teachers.has(n), `${n} is a teacher`).toBe(true);
      expect(inDep.has(n), `${n} is in the department`).toBe(true);
    }
    // Every teacher of the department is offered.
    expect(names.length).toBe([...inDep].filter((n) => teachers.has(n)).length);
    // Same answer through roleId; the other role labels filter too.
    const byId = await picker(`departId=${dep}&roleId=${roleId('teacher')}`);
    expect(byId.records.map((u) => u.username).sort()).toEqual([...names].sort());
    expect((await picker(`departId=${dep}&roleCode=leader`)).records.map((u) => u.username)).toEqual(['leader']);
    expect((await picker(`departId=${dep}&roleCode=secretary`)).records.map((u) => u.username)).toEqual(['secretary']);
  });

  it('filters by sex; an unknown role code matches nobody', async () => {
    const dep = departId(CS_COLLEGE);
    const women = await picker(`departId=${dep}&roleCode=teacher&sex=2`);
    expect(women.records.length).toBeGreaterThan(0);
    expect(women.records.every((u) => Number(u.sex) === 2)).toBe(true);
    expect(women.records.map((u) => u.username)).toContain('teacher2');
    expect(women.records.map((u) => u.username)).not.toContain('teacher');
    expect((await picker(`departId=${dep}&roleCode=no_such_role`)).total).toBe(0);
    // Injection-looking codes are plain values.
    expect((await picker(`roleCode=${encodeURIComponent("teacher' or '1'='1")}`)).total).toBe(0);
  });
});

describe('naming the users a picker holds', () => {
  it('getMultiUser answers by usernames or by ids, picker-safe fields only', async () => {
    const byName = (await j(s.get('sys/user/getMultiUser?username=leader,teacher', s.tok.teacher))).result as U[];
    expect(byName.map((u) => u.realname).sort()).toEqual(['李明华', '王磊'].sort());
    const byId = (await j(s.get(`sys/user/getMultiUser?id=${byName.map((u) => u.id).join(',')}`, s.tok.teacher))).result as Array<U & { password?: string; salt?: string }>;
    expect(byId.map((u) => u.username).sort()).toEqual(['leader', 'teacher']);
    expect(byId.every((u) => u.password === undefined && u.salt === undefined)).toBe(true);
    expect((await j(s.get('sys/user/getMultiUser?id=', s.tok.teacher))).result).toEqual([]);
  });
});

describe('one search box for a responsible person (JSearchUser)', () => {
  it('keyword finds a user by name, account, 工号 or id, active users only', async () => {
    const find = async (kw: string) => (await picker(`keyword=${encodeURIComponent(kw)}`)).records.map((u) => u.username);
    expect(await find('王磊')).toContain('teacher');
    expect(await find('teacher2')).toEqual(['teacher2']);
    expect(await find('T0000006')).toEqual(['teacher']);
    const id = ((await j(s.get('sys/user/getMultiUser?username=leader', s.tok.teacher))).result as U[])[0]!.id;
    expect(await find(id)).toEqual(['leader']);
    expect(await find('%')).toEqual([]); // LIKE wildcards are plain characters
    const frozen = await j(s.put('sys/user/frozenBatch', { ids: id, status: 2 }, s.tok.admin));
    expect(frozen.success, frozen.message).toBe(true);
    expect(await find('李明华')).not.toContain('leader');
  });
});
