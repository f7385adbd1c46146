import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import WebSocket from 'ws';
import { copyTemplate, dropCopy } from '../helpers/template-db.js';
import { API, call, login, spawnServer, type Proc } from './procs.js';

/**
 * Two API processes on one PostgreSQL server (DESIGN §2 scale-out, §7 reliability): sessions,
 * logout, notice push and scheduled jobs behave as one system.
 */
if (!process.env.DATABASE_URL) throw new Error('the cluster tests need DATABASE_URL (a PostgreSQL server); .ci/run provides one');

let a: Proc;
let b: Proc;
let dbUrl: string;
let copy: Awaited<ReturnType<typeof copyTemplate>>;

beforeAll(async () => {
  copy = await copyTemplate(inject('dbTemplate'));
  dbUrl = copy.databaseUrl!;
  [a, b] = await Promise.all([spawnServer(18191, dbUrl), spawnServer(18192, dbUrl)]);
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await dropCopy(copy);
});

describe('two servers, one PostgreSQL', () => {
  it('a session made on one server works on the other, and logout on one ends it on both', async () => {
    const { token } = await login(a.url, 'teacher');
    const onB = await call(b.url, 'GET', '/sys/permission/getUserPermissionByToken', { token });
    expect(onB.status).toBe(200);
    expect(onB.json.success).toBe(true);
    expect(onB.json.result.menu.length).toBeGreaterThan(0);

    const out = await call(b.url, 'POST', '/sys/logout', { token });
    expect(out.json.success).toBe(true);
    for (const s of [a, b]) {
      const after = await call(s.url, 'GET', '/sys/permission/getUserPermissionByToken', { token });
      expect(after.status).toBe(401);
    }
  });

  it('a notice published through one server reaches a websocket on the other, and its notice list past its cache', async () => {
    const admin = await login(a.url, 'admin');
    const teacher = await login(b.url, 'teacher');
    const ws = new WebSocket(`ws://127.0.0.1:${b.port}${API}/websocket/${teacher.userId}`, [teacher.token]);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const received = new Promise<any>((resolve) => {
      ws.on('message', (data) => {
        const msg = JSON.parse(String(data));
        if (msg.cmd === 'topic' || msg.cmd === 'user') resolve(msg);
      });
    });
    const title = `集群通知 ${Date.now()}`;
    // The header's poll on B, read through B's cache before the notice exists.
    const unread = async () => ((await call(b.url, 'GET', '/sys/annountCement/listByUser?pageSize=50', { token: teacher.token })).json.result.anntMsgList as Array<{ titile: string }>).map((n) => n.titile);
    expect(await unread()).not.toContain(title);
    const add = await call(a.url, 'POST', '/sys/annountCement/add', {
      token: admin.token,
      body: { titile: title, msgContent: '<p>两台服务器共享一个数据库</p>', msgType: 'ALL', priority: 'M', msgCategory: '1' },
    });
    expect(add.json.success).toBe(true);
    const list = await call(a.url, 'GET', `/sys/annountCement/list?titile=${encodeURIComponent(title)}`, { token: admin.token });
    const id = list.json.result.records[0].id as string;
    const started = Date.now();
    const rel = await call(a.url, 'GET', `/sys/annountCement/doReleaseData?id=${id}`, { token: admin.token });
    expect(rel.json.success).toBe(true);
    const msg = await Promise.race([received, new Promise((_, rej) => setTimeout(() => rej(new Error('no push within 2 s')), 2000))]);
    expect((msg as { msgId: string }).msgId).toBe(id);
    expect(Date.now() - started).toBeLessThan(2000);
    await expect.poll(unread, { timeout: 1000, interval: 50 }).toContain(title);
    ws.close();
  });

  it('a write through one server is seen by the other at once, past its cached totals and dictionaries', async () => {
    const admin = await login(a.url, 'admin');
    const token = admin.token;
    const total = async (s: Proc) => (await call(s.url, 'GET', '/sys/position/list?pageSize=10', { token })).json.result.total as number;
    const dictTexts = async (s: Proc) => ((await call(s.url, 'GET', '/sys/dict/queryAllDictItems', { token })).json.result.sex ?? []).map((d: { text: string }) => d.text);
    // Prime B's read cache (list total, dictionaries), then write through A.
    const before = await total(b);
    expect(await total(b)).toBe(before);
    expect(await dictTexts(b)).not.toContain('集群测试项');
    const code = `C${Date.now()}`;
    const add = await call(a.url, 'POST', '/sys/position/add', { token, body: { code, name: '集群职务', postRank: '1' } });
    expect(add.json.success, add.json.message).toBe(true);
    const sex = (await call(a.url, 'GET', '/sys/dict/list?dictCode=sex', { token })).json.result.records[0];
    const item = await call(a.url, 'POST', '/sys/dictItem/add', { token, body: { dictId: sex.id, itemText: '集群测试项', itemValue: '9', sortOrder: 9, status: 1 } });
    expect(item.json.success, item.json.message).toBe(true);
    // B is told through NOTIFY: well within a second, long before the caches' own time limits (10 s, 60 s).
    const started = Date.now();
    await expect.poll(() => total(b), { timeout: 1000, interval: 50 }).toBe(before + 1);
    await expect.poll(() => dictTexts(b), { timeout: 1000, interval: 50 }).toContain('集群测试项');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a scheduled job fires once per firing across both servers', async () => {
    const admin = await login(a.url, 'admin');
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    try {
      // jobClassName is unique (contract): reuse the seeded demoHello job, every 5 s.
      const { rows } = await db.query(`select * from sys_quartz_job where job_class_name = 'demoHello'`);
      const job = rows[0];
      const edit = await call(a.url, 'PUT', '/sys/quartzJob/edit', {
        token: admin.token,
        body: { id: job.id, jobClassName: 'demoHello', cronExpression: '0/5 * * * * ?', parameter: 'cluster', description: job.description },
      });
      expect({ ok: edit.json.success, message: edit.json.message }).toEqual({ ok: true, message: expect.any(String) });
      const res = await call(b.url, 'GET', `/sys/quartzJob/resume?id=${job.id}`, { token: admin.token });
      expect({ ok: res.json.success, message: res.json.message }).toEqual({ ok: true, message: expect.any(String) });
      await new Promise((r) => setTimeout(r, 12_500));
      await call(a.url, 'GET', `/sys/quartzJob/pause?id=${job.id}`, { token: admin.token });
      const runs = await db.query(`select fire_time, count(*)::int as n from sys_job_run where job_id = $1 and trigger_type <> 'manual' group by fire_time`, [job.id]);
      expect(runs.rows.length).toBeGreaterThanOrEqual(2);
      for (const r of runs.rows) expect(r.n).toBe(1);
      // The handler's effect (one log line per run) happened once per firing, not once per process.
      await new Promise((r) => setTimeout(r, 1500)); // logs are written in batches, at most 1 s late
      const effects = await db.query(`select count(*)::int as n from sys_log where log_content = '示例任务执行：cluster'`);
      expect(effects.rows[0].n).toBe(runs.rows.length);
    } finally {
      await db.end();
    }
  }, 40_000);
});
