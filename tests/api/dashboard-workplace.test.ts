import { describe, expect, it } from 'vitest';
import { fileTestServer } from '../helpers/server.js';

/** GET /supervisor/dashboard/workplace: the signed-in user's own to-dos, observations, tasks and notices. */
const s = fileTestServer(['admin', 'supervisor', 'leader', 'teacher']);
const { tok } = s;
type Answer = { success: boolean; code: number; message: string; result: any };
const get = async (path: string, u?: string) => (await s.get(`/jeecg-boot${path}`, u ? tok[u] : undefined)).json() as Answer;
const post = async (path: string, body: unknown, u: string) => (await s.post(`/jeecg-boot${path}`, body, tok[u])).json() as Answer;
const todo = (r: Answer, key: string) => (r.result.todos as Array<{ key: string; count: number }>).find((t) => t.key === key)?.count ?? 0;

describe('workplace', () => {
  it('answers every signed-in user (and nobody else) with the current term and their own figures', async () => {
    expect((await get('/supervisor/dashboard/workplace')).code).toBe(401);
    for (const u of Object.keys(tok)) {
      const r = await get('/supervisor/dashboard/workplace', u);
      expect(r.success, `${u}: ${r.message}`).toBe(true);
      expect(r.result.term.code).toBe('2026-2027-1');
      expect(r.result.mine).toMatchObject({ required: expect.any(Number), actual: expect.any(Number) });
      expect(r.result.todoTotal).toBe(r.result.todos.reduce((a: number, t: { count: number }) => a + t.count, 0));
      for (const t of r.result.todos) expect(t.count).toBeGreaterThan(0);
    }
    // The same figures as the home page's for the same user.
    const home = await get('/supervisor/dashboard/summary', 'supervisor');
    expect((await get('/supervisor/dashboard/workplace', 'supervisor')).result.mine).toEqual(home.result.mine);
  });

  it("counts the records awaiting the teacher's confirmation, and only the teacher's", async () => {
    const me = (await get('/sys/user/getUserInfo', 'teacher')).result.userInfo.id as string;
    const list = await get('/supervisor/lectureRecord/list?pageSize=200&status=SUBMITTED', 'teacher');
    const mine = (list.result.records as Array<{ id: string; teacherId: string; status: string }>).filter((r) => r.teacherId === me && r.status === 'SUBMITTED');
    const before = await get('/supervisor/dashboard/workplace', 'teacher');
    expect(todo(before, 'recordsToConfirm')).toBe(mine.length);
    expect(mine.length).toBeGreaterThan(0);
    const supervisorBefore = todo(await get('/supervisor/dashboard/workplace', 'supervisor'), 'recordsToConfirm');

    const c = await post('/supervisor/lectureRecord/confirm', { id: mine[0]!.id }, 'teacher');
    expect(c.success, c.message).toBe(true);
    expect(todo(await get('/supervisor/dashboard/workplace', 'teacher'), 'recordsToConfirm')).toBe(mine.length - 1);
    expect(todo(await get('/supervisor/dashboard/workplace', 'supervisor'), 'recordsToConfirm')).toBe(supervisorBefore);
  });

  it('lists only improvement tasks the user issued or handles, and their notices with the unread count', async () => {
    const me = (await get('/sys/user/getUserInfo', 'leader')).result.userInfo.id as string;
    const r = await get('/supervisor/dashboard/workplace', 'leader');
    for (const t of r.result.tasks as Array<{ id: string; role: string }>) {
      const full = (await get(`/improvement/task/queryById?id=${t.id}`, 'admin')).result;
      expect([full.respPersonId, full.issuerId]).toContain(me);
      expect(t.role).toBe(full.respPersonId === me ? '整改' : '下发');
    }
    const notices = r.result.notices as Array<{ title: string; readFlag: string }>;
    expect(notices.length).toBeGreaterThan(0);
    const unread = todo(r, 'unreadNotices');
    expect(unread).toBeGreaterThanOrEqual(notices.filter((n) => n.readFlag === '0').length);
  });

  it('answers for another term when asked', async () => {
    const terms = (await get('/supervisor/term/list?pageSize=50', 'admin')).result.records as Array<{ id: string; code: string }>;
    const other = terms.find((t) => t.code !== '2026-2027-1');
    expect(other).toBeTruthy();
    const r = await get(`/supervisor/dashboard/workplace?termId=${other!.id}`, 'supervisor');
    expect(r.result.term.id).toBe(other!.id);
  });
});
