import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { copyTemplate, dropCopy } from '../helpers/template-db.js';
import { call, login, spawnServer, type Proc } from './procs.js';

/**
 * 审批流程 on two API processes (issue 28): the same task completed through both at the same moment is
 * completed once (the task row, then the instance, locked FOR UPDATE), and the next step is created once.
 */
if (!process.env.DATABASE_URL) throw new Error('the cluster tests need DATABASE_URL (a PostgreSQL server); .ci/run provides one');

let a: Proc;
let b: Proc;
let copy: Awaited<ReturnType<typeof copyTemplate>>;

beforeAll(async () => {
  copy = await copyTemplate(inject('dbTemplate'));
  [a, b] = await Promise.all([spawnServer(18285, copy.databaseUrl!), spawnServer(18286, copy.databaseUrl!)]);
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await dropCopy(copy);
});

describe('approval workflow on two servers', () => {
  it('two processes completing the same task at once complete it once', async () => {
    const teacher = await login(a.url, 'teacher');
    const [la, lb] = [await login(a.url, 'leader'), await login(b.url, 'leader')];
    const db = new pg.Client({ connectionString: copy.databaseUrl });
    await db.connect();
    try {
      for (let i = 0; i < 3; i++) {
        const started = await call(a.url, 'POST', '/workflow/instance/start', { token: teacher.token, body: { modelKey: 'contract', title: `合同${i}`, variables: { amount: 1, reason: '集群测试' } } });
        expect(started.json.success, started.json.message).toBe(true);
        const id = started.json.result.id as string;
        const todo = await call(b.url, 'GET', '/workflow/task/todo?pageSize=100', { token: lb.token });
        const task = todo.json.result.records.find((t: any) => t.instanceId === id);
        expect(task?.name).toBe('部门领导审批');
        const answers = await Promise.all([
          call(a.url, 'POST', '/workflow/task/approve', { token: la.token, body: { id: task.id, comment: 'A' } }),
          call(b.url, 'POST', '/workflow/task/approve', { token: lb.token, body: { id: task.id, comment: 'B' } }),
        ]);
        expect(answers.every((x) => x.json.success)).toBe(true);
        expect(answers.filter((x) => x.json.result?.already)).toHaveLength(1);
        const logged = await db.query(`select count(*)::int as n from wf_history where task_id = $1 and event = 'TASK'`, [task.id]);
        expect(logged.rows[0].n).toBe(1);
        const next = await db.query(`select count(*)::int as n from wf_task where instance_id = $1 and element_id = 'finance'`, [id]);
        expect(next.rows[0].n).toBe(1);
        const inst = await db.query(`select rev from wf_instance where id = $1`, [id]);
        expect(inst.rows[0].rev).toBe(2);
      }
    } finally {
      await db.end();
    }
  }, 120_000);
});
