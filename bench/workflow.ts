import { type Figure, log, summarize } from './lib.js';
import { readFileSync } from 'node:fs';
import { API, freshCopy, freshPostgres, load, login, serverPid, startServer } from './server.js';

/**
 * 审批流程 (issue 28): with 1,000 running instances (the seeded 合同审批, each waiting at the department
 * leader), 20 concurrent users read their to-do list (p95 ≤ 50 ms) and complete tasks (p95 ≤ 100 ms; each
 * completion is a full engine step: lock, recover, resume, signal, state written back, next task and notice).
 * Runs on a fresh copy of the small seeded PGlite database, or with BENCH_WORKFLOW_DATABASE_URL on a PostgreSQL
 * server, in that database, which the bench drops, creates and seeds on every run.
 */
export const WORKFLOW_PG = process.env.BENCH_WORKFLOW_DATABASE_URL;
const INSTANCES = Number(process.env.BENCH_WF_INSTANCES ?? 1000);
const USERS = 20;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PERIOD_MS = 1000;

async function post(url: string, token: string, path: string, body: unknown) {
  const r = await fetch(`${url}${API}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-access-token': token }, body: JSON.stringify(body) });
  return (await r.json()) as { success: boolean; message: string; result: any };
}

/** `total` requests from `users` clients back to back (setting up the instances). */
async function closedLoop(users: number, total: number, once: (i: number) => Promise<void>) {
  const times: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: users }, async () => {
      for (let i = next++; i < total; i = next++) {
        const t = performance.now();
        await once(i);
        times.push(performance.now() - t);
      }
    }),
  );
  return times;
}

/**
 * CPU time (ms, user + system) the API process has used so far: per request it tells what the server spends,
 * which the machine's other load hardly changes (latency on a shared machine mostly measures waiting for a core).
 * PostgreSQL's own work is in its server's processes, not counted here.
 */
function cpuMs(pid: number): number {
  const st = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(st[11]) + Number(st[12])) * 10;
}

export async function benchWorkflow(): Promise<Figure[]> {
  const target = WORKFLOW_PG ? await freshPostgres(WORKFLOW_PG) : freshCopy('workflow');
  const server = await startServer(target, Number(process.env.BENCH_WORKFLOW_PORT ?? 18287), { WORKFLOW_TIMER_MS: '60000' });
  try {
    const teacher = await login(server.url, 'teacher');
    const leader = await login(server.url, 'leader');
    log(`starting ${INSTANCES} instances`);
    await closedLoop(4, INSTANCES, async (i) => {
      const r = await post(server.url, teacher, '/workflow/instance/start', { modelKey: 'contract', title: `合同${i}`, variables: { amount: i, reason: '压测' } });
      if (!r.success) throw new Error(r.message);
    });
    const todo = async (page: number) => {
      const r = await fetch(`${server.url}${API}/workflow/task/todo?pageNo=${page}&pageSize=10`, { headers: { 'x-access-token': leader } });
      const j = (await r.json()) as { success: boolean; result: { records: Array<{ id: string }>; total: number } };
      if (!j.success) throw new Error('todo failed');
      return j.result;
    };
    const first = await todo(1);
    log(`leader's to-do: ${first.total}`);
    const pid = serverPid(server.child);
    let cpu = cpuMs(pid);
    const reads = await load(USERS, SECONDS, async (i) => void (await todo(1 + (i % 5))), PERIOD_MS);
    const readsClosed = await load(USERS, 5, async (i) => void (await todo(1 + (i % 5))));
    const readCpu = (cpuMs(pid) - cpu) / (reads.lat.length + readsClosed.lat.length);
    // The tasks to complete, fetched beforehand (the bench times the completion only).
    const ids: string[] = [];
    for (let p = 1; ids.length < 900; p++) {
      const r = await fetch(`${server.url}${API}/workflow/task/todo?pageNo=${p}&pageSize=100`, { headers: { 'x-access-token': leader } });
      ids.push(...((await r.json()) as { result: { records: Array<{ id: string }> } }).result.records.map((x) => x.id));
    }
    let k = 0;
    const approve = async () => {
      const r = await post(server.url, leader, '/workflow/task/approve', { id: ids[k++], comment: '同意' });
      if (!r.success) throw new Error(r.message);
    };
    cpu = cpuMs(pid);
    const completes = await load(USERS, SECONDS, approve, PERIOD_MS);
    const completesClosed = await load(USERS, 5, approve);
    const completeCpu = (cpuMs(pid) - cpu) / (completes.lat.length + completesClosed.lat.length);
    const rp = summarize(reads.lat);
    const cp = summarize(completes.lat);
    return [
      { name: `to-do list, ${USERS} users × 1 req/s p95 (${first.total} open)`, value: Math.round(rp.p95), unit: 'ms', budget: 50 },
      { name: `to-do list, ${USERS} users × 1 req/s p50`, value: Math.round(rp.p50), unit: 'ms' },
      { name: `to-do list, ${USERS} clients back to back: throughput`, value: Math.round(readsClosed.rps), unit: 'req/s' },
      { name: 'to-do list: API process CPU per request', value: Math.round(readCpu * 10) / 10, unit: 'ms' },
      { name: `complete task, ${USERS} users × 1 req/s p95`, value: Math.round(cp.p95), unit: 'ms', budget: 100 },
      { name: `complete task, ${USERS} users × 1 req/s p50`, value: Math.round(cp.p50), unit: 'ms' },
      { name: `complete task, ${USERS} clients back to back: throughput`, value: Math.round(completesClosed.rps), unit: 'req/s' },
      { name: 'complete task: API process CPU per request', value: Math.round(completeCpu * 10) / 10, unit: 'ms' },
      { name: 'errors', value: reads.errors + readsClosed.errors + completes.errors + completesClosed.errors, unit: '', budget: 0 },
    ];
  } finally {
    await server.stop();
  }
}
