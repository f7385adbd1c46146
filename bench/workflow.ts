import { type Figure, log, summarize } from './lib.js';
import { API, freshCopy, login, startServer } from './server.js';

/**
 * 审批流程 (issue 28): with 1,000 running instances (the seeded 合同审批, each waiting at the department
 * leader), 20 concurrent users read their to-do list (p95 ≤ 50 ms) and complete tasks (p95 ≤ 100 ms; each
 * completion is a full engine step: lock, recover, resume, signal, state written back, next task and notice).
 * Runs on a fresh copy of the small seeded PGlite database.
 */
const INSTANCES = Number(process.env.BENCH_WF_INSTANCES ?? 1000);
const USERS = 20;
const READS = 600;
const COMPLETIONS = 400;

async function post(url: string, token: string, path: string, body: unknown) {
  const r = await fetch(`${url}${API}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-access-token': token }, body: JSON.stringify(body) });
  return (await r.json()) as { success: boolean; message: string; result: any };
}

/** `total` requests from `users` clients back to back; returns each request's milliseconds. */
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

export async function benchWorkflow(): Promise<Figure[]> {
  const target = freshCopy('workflow');
  const server = await startServer(target, 18287, { WORKFLOW_TIMER_MS: '60000' });
  try {
    const teacher = await login(server.url, 'teacher');
    const leader = await login(server.url, 'leader');
    log(`starting ${INSTANCES} instances`);
    await closedLoop(4, INSTANCES, async (i) => {
      const r = await post(server.url, teacher, '/workflow/instance/start', { modelKey: 'contract', title: `合同${i}`, variables: { amount: i } });
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
    const reads = summarize(await closedLoop(USERS, READS, async (i) => void (await todo(1 + (i % 5)))));
    // The tasks to complete, fetched beforehand (the bench times the completion only).
    const ids: string[] = [];
    for (let p = 1; ids.length < COMPLETIONS; p++) {
      const r = await fetch(`${server.url}${API}/workflow/task/todo?pageNo=${p}&pageSize=100`, { headers: { 'x-access-token': leader } });
      ids.push(...((await r.json()) as { result: { records: Array<{ id: string }> } }).result.records.map((x) => x.id));
    }
    const completes = summarize(
      await closedLoop(USERS, COMPLETIONS, async (i) => {
        const r = await post(server.url, leader, '/workflow/task/approve', { id: ids[i], comment: '同意' });
        if (!r.success) throw new Error(r.message);
      }),
    );
    return [
      { name: `to-do list p95 (${first.total} open, ${USERS} users)`, value: Math.round(reads.p95), unit: 'ms', budget: 50 },
      { name: 'to-do list p50', value: Math.round(reads.p50), unit: 'ms' },
      { name: `complete task p95 (${USERS} users)`, value: Math.round(completes.p95), unit: 'ms', budget: 100 },
      { name: 'complete task p50', value: Math.round(completes.p50), unit: 'ms' },
    ];
  } finally {
    await server.stop();
  }
}
