import type { FastifyInstance } from 'fastify';
import { hostname } from 'node:os';
import type { ServerContext } from '../../context.js';
import { BizError, ok, page } from '../../http/envelope.js';
import { defineEntityHooks } from '../../crud/hooks.js';
import { fmt, newId, now } from '../../util.js';
import { nextRuns, parseCron, validateCron, type ParsedCron } from './cron.js';
import { jobHandler, jobHandlers } from './handlers.js';
import { observeJobRun } from '../../ops/metrics.js';

const PERM = 'system:quartzJob';
export const JOB_RUNNING = 0;
export const JOB_STOPPED = -1;
/** A firing more than this late (server was down or busy) is skipped, not caught up. */
const MISFIRE_MS = 60_000;
const RELOAD_MS = 10_000;

interface Scheduled {
  id: string;
  name: string;
  cronText: string;
  cron: ParsedCron;
  next?: Date;
}

type JobRow = { id: string; job_class_name: string; cron_expression: string; parameter: string | null; status: number };

/**
 * One scheduler loop per process. Each due firing is claimed by inserting its run row with the
 * unique key (job, fire time, trigger): whichever process inserts it runs it, so a firing runs once
 * however many processes share the database. The job row is re-read before running, so pause,
 * edit and delete take effect at once everywhere.
 */
export class Scheduler {
  private jobs = new Map<string, Scheduled>();
  private tick?: NodeJS.Timeout;
  private lastLoad = 0;
  private running = new Set<string>();
  readonly node = `${hostname()}:${process.pid}`;
  stopped = false;

  constructor(private readonly ctx: ServerContext) {}

  start() {
    this.tick = setInterval(() => void this.onTick().catch(() => undefined), 1000);
    this.tick.unref();
  }

  async stop() {
    this.stopped = true;
    clearInterval(this.tick);
  }

  /** Reloads the active jobs (also called after every change through the API). */
  async reload() {
    if (!this.ctx.ready) return;
    this.lastLoad = Date.now();
    const rows = (await this.ctx.db.selectFrom('sys_quartz_job').selectAll().where('status', '=', JOB_RUNNING).execute()) as JobRow[];
    const fresh = new Map<string, Scheduled>();
    for (const r of rows) {
      const old = this.jobs.get(r.id);
      if (old && old.cronText === r.cron_expression && old.name === r.job_class_name) {
        fresh.set(r.id, old);
        continue;
      }
      try {
        const cron = parseCron(r.cron_expression, this.ctx.cfg.timezone);
        fresh.set(r.id, { id: r.id, name: r.job_class_name, cronText: r.cron_expression, cron, next: nextRuns(cron, new Date(), 1)[0] });
      } catch {
        /* an invalid stored expression (written before validation) simply never fires */
      }
    }
    this.jobs = fresh;
  }

  private async onTick() {
    if (!this.ctx.ready || this.stopped) return;
    if (Date.now() - this.lastLoad > RELOAD_MS) await this.reload();
    const t = Date.now();
    for (const j of this.jobs.values()) {
      if (!j.next || j.next.getTime() > t) continue;
      const fire = j.next;
      j.next = nextRuns(j.cron, new Date(t), 1)[0];
      if (t - fire.getTime() > MISFIRE_MS) continue;
      void this.fire(j.id, fire, 'cron').catch(() => undefined);
    }
  }

  /** Claims and runs one firing; returns the run row id, or undefined when another process has it. */
  async fire(jobId: string, fireTime: Date, trigger: 'cron' | 'manual'): Promise<string | undefined> {
    const db = this.ctx.db;
    const job = (await db.selectFrom('sys_quartz_job').selectAll().where('id', '=', jobId).executeTakeFirst()) as JobRow | undefined;
    if (!job || (trigger === 'cron' && Number(job.status) !== JOB_RUNNING)) return undefined;
    const runId = newId();
    const claimed = await db
      .insertInto('sys_job_run')
      .values({
        id: runId, job_id: jobId, job_class_name: job.job_class_name, fire_time: fmt(fireTime), trigger_type: trigger,
        start_time: now(), status: 'running', node: this.node,
      })
      .onConflict((oc) => oc.columns(['job_id', 'fire_time', 'trigger_type']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!claimed) return undefined;
    const handler = jobHandler(job.job_class_name);
    const started = Date.now();
    let status = 'success';
    let message: string;
    if (this.running.has(jobId)) {
      status = 'skipped';
      message = '上一次执行尚未结束，本次跳过';
    } else if (!handler) {
      status = 'fail';
      message = `任务处理器“${job.job_class_name}”不存在`;
    } else {
      this.running.add(jobId);
      try {
        message = (await handler.run(this.ctx, job.parameter ?? '')) ?? '';
      } catch (e) {
        status = 'fail';
        message = (e instanceof BizError ? e.message : `执行出错：${(e as Error).message}`) || '执行出错';
      } finally {
        this.running.delete(jobId);
      }
    }
    observeJobRun(this.ctx.cfg, job.job_class_name, status);
    const end = now();
    await db
      .updateTable('sys_job_run')
      .set({ end_time: end, cost_time: Date.now() - started, status, message: message.slice(0, 1000) })
      .where('id', '=', runId)
      .execute();
    const scheduled = this.jobs.get(jobId);
    await db
      .updateTable('sys_quartz_job')
      .set({ last_run_time: end, last_run_status: status, ...(scheduled?.next ? { next_run_time: fmt(scheduled.next) } : {}) })
      .where('id', '=', jobId)
      .execute();
    return runId;
  }
}

const schedulers = new WeakMap<object, Scheduler>();
export function schedulerOf(ctx: ServerContext): Scheduler {
  let s = schedulers.get(ctx.cfg);
  if (!s || s.stopped) schedulers.set(ctx.cfg, (s = new Scheduler(ctx)));
  return s;
}

const nextRunText = (ctx: ServerContext, cronText: string) => {
  const d = nextRuns(parseCron(cronText, ctx.cfg.timezone), new Date(), 1)[0];
  return d ? fmt(d) : null;
};

export async function registerJobs(api: FastifyInstance, ctx: ServerContext) {
  const scheduler = schedulerOf(ctx);
  api.addHook('onReady', async () => scheduler.start());
  api.addHook('onClose', async () => scheduler.stop());

  defineEntityHooks('sys_quartz_job', {
    beforeSave(_h, row, mode, old) {
      const name = String(row.jobClassName ?? old?.jobClassName ?? '');
      if (!jobHandler(name)) throw new BizError(`任务类名“${name.slice(0, 100)}”不存在，请从已注册的任务中选择`);
      const cronText = String(row.cronExpression ?? old?.cronExpression ?? '').trim();
      validateCron(cronText, ctx.cfg.timezone);
      row.cronExpression = cronText;
      const status = Number(row.status ?? old?.status ?? JOB_STOPPED);
      if (status !== JOB_RUNNING && status !== JOB_STOPPED) throw new BizError('状态只能是0（正常）或-1（停止）');
      row.status = status;
      row.nextRunTime = status === JOB_RUNNING ? nextRunText(ctx, cronText) : null;
      if (mode === 'add') row.lastRunStatus = null;
    },
    async beforeDelete(h, rows) {
      await h.db.deleteFrom('sys_job_run').where('job_id', 'in', rows.map((r) => String(r.id))).execute();
    },
    decorateRows(_h, rows) {
      const titles = new Map(jobHandlers().map((x) => [x.name, x.title]));
      return rows.map((r) => ({ ...r, jobClassName_dictText: titles.get(String(r.jobClassName)) ?? String(r.jobClassName) }));
    },
  });
  // The list reflects changes made through the generic add/edit/delete at once.
  api.addHook('onResponse', async (req) => {
    if (req.method !== 'GET' && req.routeOptions.url?.startsWith(`${ctx.cfg.apiBase}/sys/quartzJob/`)) await scheduler.reload().catch(() => undefined);
  });

  const jobById = async (q: unknown) => {
    const id = (q as { id?: unknown }).id;
    if (typeof id !== 'string' || !id) throw new BizError('参数id不能为空');
    const job = await ctx.db.selectFrom('sys_quartz_job').selectAll().where('id', '=', id).executeTakeFirst();
    if (!job) throw new BizError('未找到对应数据');
    return job as JobRow;
  };

  const setStatus = async (job: JobRow, status: number) => {
    await ctx.db
      .updateTable('sys_quartz_job')
      .set({ status, next_run_time: status === JOB_RUNNING ? nextRunText(ctx, job.cron_expression) : null, update_time: now() })
      .where('id', '=', job.id)
      .execute();
    await scheduler.reload();
  };

  api.get('/sys/quartzJob/pause', { config: { auth: `${PERM}:pause` } }, async (req) => {
    await setStatus(await jobById(req.query), JOB_STOPPED);
    return ok(null, '暂停定时任务成功');
  });

  api.get('/sys/quartzJob/resume', { config: { auth: `${PERM}:resume` } }, async (req) => {
    const job = await jobById(req.query);
    validateCron(job.cron_expression, ctx.cfg.timezone);
    await setStatus(job, JOB_RUNNING);
    return ok(null, '恢复定时任务成功');
  });

  /** Runs a job once now (waits for it, so the answer carries the outcome). */
  api.get('/sys/quartzJob/execute', { config: { auth: `${PERM}:execute` } }, async (req) => {
    const job = await jobById(req.query);
    const runId = await scheduler.fire(job.id, new Date(), 'manual');
    if (!runId) throw new BizError('该任务刚刚已执行，请稍后再试');
    const run = await ctx.db.selectFrom('sys_job_run').select(['status', 'message']).where('id', '=', runId).executeTakeFirstOrThrow();
    if (run.status !== 'success') throw new BizError(`执行失败：${String(run.message ?? '')}`);
    return ok(null, '执行成功!');
  });

  /** Run history of one job (newest first). */
  api.get('/sys/quartzJob/runs', { config: { auth: `${PERM}:list` } }, async (req) => {
    const q = req.query as Record<string, string | undefined>;
    const pageNo = Math.max(Number(q.pageNo) || 1, 1);
    const pageSize = Math.min(Math.max(Number(q.pageSize) || 10, 1), 100);
    let qb = ctx.db.selectFrom('sys_job_run');
    if (q.jobId) qb = qb.where('job_id', '=', q.jobId);
    const [{ n }] = (await qb.select((eb) => eb.fn.countAll<string>().as('n')).execute()) as [{ n: string }];
    const rows = await qb
      .select([
        'id', 'job_id as jobId', 'job_class_name as jobClassName', 'fire_time as fireTime', 'trigger_type as triggerType',
        'start_time as startTime', 'end_time as endTime', 'cost_time as costTime', 'status', 'message', 'node',
      ])
      .orderBy('fire_time', 'desc')
      .orderBy('start_time', 'desc')
      .limit(pageSize)
      .offset((pageNo - 1) * pageSize)
      .execute();
    return ok(page(rows, Number(n), pageNo, pageSize));
  });

  /** The registered handlers, for the job form's select. */
  api.get('/sys/quartzJob/handlers', { config: { auth: [`${PERM}:add`, `${PERM}:edit`, `${PERM}:list`] } }, async () => ok(jobHandlers()));

  /** Validates a cron expression and previews its next runs (cron builder). */
  api.get('/sys/quartzJob/checkCron', { config: { auth: [`${PERM}:add`, `${PERM}:edit`] } }, async (req) => {
    const cron = validateCron((req.query as { cron?: unknown }).cron, ctx.cfg.timezone);
    return ok(nextRuns(cron, new Date(), 10).map(fmt));
  });
}
