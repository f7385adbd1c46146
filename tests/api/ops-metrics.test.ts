import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { API, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * GET /actuator/prometheus (issue 32): Prometheus text, default-deny — a user with the metrics
 * permission or the configured bearer token; figures move with the requests made.
 */
const TOKEN = 'scrape-secret-0123456789';
let s: TestServer;
let admin: string;
let teacher: string;
let base: string;

beforeAll(async () => {
  s = await startTestServer({ listen: true, metrics: { token: TOKEN } });
  admin = await s.login('admin');
  teacher = await s.login('teacher');
  const addr = s.running.app.server.address() as { port: number };
  base = `http://127.0.0.1:${addr.port}`;
});
afterAll(() => s?.close());

const scrape = async (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) => {
  const r = await fetch(`${base}${API}/actuator/prometheus`, { headers });
  return { status: r.status, type: r.headers.get('content-type') ?? '', text: await r.text() };
};

/** The value of one sample (`name{labels} value`), 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-zA-Z_:][\w:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[4]);
  }
  return 0;
}

describe('metrics endpoint', () => {
  it('is refused without the permission or the token: anonymous, a wrong token, a teacher', async () => {
    expect((await scrape({})).status).toBe(401);
    expect((await scrape({ authorization: 'Bearer wrong-token' })).status).toBe(401);
    const t = await scrape({ 'x-access-token': teacher });
    expect(t.text).not.toMatch(/http_requests_total/);
    expect(JSON.parse(t.text).code).toBe(510);
  });

  it('counts requests by route pattern and status, with latency, and moves with the requests made', async () => {
    const before = await scrape();
    expect(before.status).toBe(200);
    expect(before.type).toMatch(/^text\/plain/);
    const route = { method: 'GET', route: `${API}/sys/position/list`, status: '200' };
    const n0 = sample(before.text, 'http_requests_total', route);
    const h0 = sample(before.text, 'http_request_duration_seconds_count', { method: 'GET', route: `${API}/sys/position/list` });
    for (let i = 0; i < 3; i++) expect((await fetch(`${base}${API}/sys/position/list?pageNo=${i + 1}`, { headers: { 'x-access-token': admin } })).status).toBe(200);
    // Parameters and the raw URL never become labels: one series per route pattern.
    const miss = await fetch(`${base}${API}/sys/common/static/temp/nothing-${Date.now()}.png`, { headers: { 'x-access-token': admin } });
    expect(miss.status).toBe(404);
    const after = await scrape();
    expect(sample(after.text, 'http_requests_total', route)).toBe(n0 + 3);
    expect(sample(after.text, 'http_request_duration_seconds_count', { method: 'GET', route: `${API}/sys/position/list` })).toBe(h0 + 3);
    expect(sample(after.text, 'http_requests_total', { route: `${API}/sys/common/static/*`, status: '404' })).toBeGreaterThanOrEqual(1);
    expect(after.text).not.toMatch(/nothing-\d+/);
    expect(after.text).not.toMatch(/pageNo=/);
    // An admin (holding the permission) may read it with a session too.
    expect((await scrape({ 'x-access-token': admin })).status).toBe(200);
  });

  it('shows the database connections (pg Pool or PGlite queue), job runs and failures, and websocket connections', async () => {
    const job = await s.running.ctx.db.selectFrom('sys_quartz_job').select('id').where('job_class_name', '=', 'demoHello').executeTakeFirstOrThrow();
    const before = await scrape();
    const runs0 = sample(before.text, 'job_runs_total', { job: 'demoHello', status: 'success' });
    expect((await fetch(`${base}${API}/sys/quartzJob/execute?id=${job.id}`, { headers: { 'x-access-token': admin } })).status).toBe(200);
    // A failing run: a job (another one: one manual run per job and second) whose handler no longer exists.
    const other = await s.running.ctx.db.selectFrom('sys_quartz_job').select('id').where('job_class_name', '=', 'overdueImprovementReminder').executeTakeFirstOrThrow();
    await s.running.ctx.db.updateTable('sys_quartz_job').set({ job_class_name: 'goneHandler' }).where('id', '=', other.id).execute();
    const failed = await (await fetch(`${base}${API}/sys/quartzJob/execute?id=${other.id}`, { headers: { 'x-access-token': admin } })).json();
    expect(failed.message).toMatch(/执行失败/);

    const me = (await (await fetch(`${base}${API}/sys/user/getUserInfo`, { headers: { 'x-access-token': teacher } })).json()).result?.userInfo?.id
      ?? (await s.running.ctx.db.selectFrom('sys_user').select('id').where('username', '=', 'teacher').executeTakeFirstOrThrow()).id;
    const ws = new WebSocket(`ws://127.0.0.1:${new URL(base).port}${API}/websocket/${me}`, [teacher]);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const open = await scrape();
    expect(sample(open.text, 'job_runs_total', { job: 'demoHello', status: 'success' })).toBe(runs0 + 1);
    expect(sample(open.text, 'job_failures_total', { job: 'goneHandler' })).toBe(1);
    expect(sample(open.text, 'websocket_connections')).toBe(1);
    // PGlite: one connection; a pg Pool: the connections it opened (at most 10), some idle.
    const conns = sample(open.text, 'db_pool_connections');
    if (s.running.ctx.dbKind === 'pglite') expect(conns).toBe(1);
    else expect(conns >= 1 && conns <= 10, `pool connections ${conns}`).toBe(true);
    expect(sample(open.text, 'db_pool_idle')).toBeLessThanOrEqual(conns);
    expect(open.text).toMatch(/^db_pool_waiting \d+$/m);
    expect(open.text).toMatch(/^process_resident_memory_bytes \d+/m);
    ws.close();
    await expect.poll(async () => sample((await scrape()).text, 'websocket_connections'), { timeout: 5000, interval: 50 }).toBe(0);
  });
});
