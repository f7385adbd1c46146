import { sql } from 'kysely';
import dayjs from 'dayjs';
import type { ServerContext } from '../../context.js';
import { fmt } from '../../util.js';
import { LOG_OPERATION, writeLog } from '../log.js';

/**
 * A job handler: what a scheduled job runs. Jobs name a handler by its registered key
 * (`jobClassName` on the wire), never a class or module typed by a user. Returns a short
 * outcome text stored in the run history; throwing marks the run failed.
 */
export interface JobHandler {
  /** Shown in the job form's handler select. */
  title: string;
  run(ctx: ServerContext, parameter: string): Promise<string | void>;
}

const handlers = new Map<string, JobHandler>();

/** Registers a handler under a stable key (other modules may add theirs at registration time). */
export function registerJobHandler(name: string, handler: JobHandler): void {
  if (!/^[A-Za-z][A-Za-z0-9_.]{1,100}$/.test(name)) throw new Error(`bad job handler name ${name}`);
  handlers.set(name, handler);
}

export const jobHandler = (name: string) => handlers.get(name);
export const jobHandlers = () => [...handlers.entries()].map(([name, h]) => ({ name, title: h.title }));

registerJobHandler('cleanExpiredSessions', {
  title: '清理过期会话',
  async run(ctx) {
    // Sessions revoked or expired more than a day ago are of no further use (the online list shows live ones).
    const cutoff = fmt(dayjs().subtract(1, 'day').toDate());
    const r = await ctx.db
      .deleteFrom('sys_session')
      .where((eb) => eb.or([eb('revoked_at', '<', cutoff), eb('expires_at', '<', cutoff)]))
      .executeTakeFirst();
    return `清理会话${Number(r.numDeletedRows)}条`;
  },
});

registerJobHandler('cleanJobRuns', {
  title: '清理90天前的任务执行记录',
  async run(ctx, parameter) {
    const days = Math.min(Math.max(Number(parameter) || 90, 1), 3650);
    const r = await ctx.db.deleteFrom('sys_job_run').where('fire_time', '<', fmt(dayjs().subtract(days, 'day').toDate())).executeTakeFirst();
    return `清理执行记录${Number(r.numDeletedRows)}条`;
  },
});

registerJobHandler('overdueImprovementReminder', {
  title: '整改任务逾期提醒',
  async run(ctx) {
    // The improvement module registers its own reminder under this key once it exists; until then nothing is due.
    const exists = await sql<{ t: string | null }>`select to_regclass('public.improvement_task')::text as t`.execute(ctx.db);
    if (!exists.rows[0]?.t) return '整改模块未启用，无需提醒';
    return '整改模块未提供提醒实现';
  },
});

registerJobHandler('demoHello', {
  title: '示例任务（写一条日志）',
  async run(ctx, parameter) {
    const text = `示例任务执行：${parameter ? parameter.slice(0, 200) : 'hello'}`;
    writeLog(ctx, { logType: LOG_OPERATION, logContent: text, username: 'system', operateType: 1 });
    return text;
  },
});
