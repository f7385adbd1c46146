import { sql } from 'kysely';
import dayjs from 'dayjs';
import type { ServerContext } from '../context.js';
import { fmt, now } from '../util.js';

/**
 * Login throttling, per account and per address, kept in the database so every API process sees
 * the same counters. Consecutive failures (reset by a success, forgotten after an hour) first
 * require the image captcha, then lock temporarily. An address gets more room than an account
 * (a lecture hall shares one NAT address).
 */
const WINDOW_MINUTES = 60;
const ADDRESS_FACTOR = 5;

const accountKey = (username: string) => `u:${username.trim().toLowerCase().slice(0, 100)}`;
const addressKey = (ip: string) => `ip:${ip.slice(0, 100)}`;

export interface ThrottleState {
  needCaptcha: boolean;
  /** Minutes left when locked (rounded up), else 0. */
  lockedMinutes: number;
}

export async function loginState(ctx: ServerContext, username: string, ip: string): Promise<ThrottleState> {
  const rows = await ctx.db
    .selectFrom('sys_login_attempt')
    .select(['id', 'failures', 'last_fail_at', 'locked_until'])
    .where('id', 'in', [accountKey(username), addressKey(ip)])
    .execute();
  const t = dayjs();
  let needCaptcha = ctx.cfg.login.alwaysCaptcha;
  let lockedMinutes = 0;
  for (const r of rows) {
    const fresh = r.last_fail_at && t.diff(dayjs(r.last_fail_at as string), 'minute', true) < WINDOW_MINUTES;
    if (fresh && Number(r.failures) >= ctx.cfg.login.captchaAfterFailures) needCaptcha = true;
    if (r.locked_until && t.isBefore(dayjs(r.locked_until as string)))
      lockedMinutes = Math.max(lockedMinutes, Math.ceil(dayjs(r.locked_until as string).diff(t, 'minute', true)));
  }
  return { needCaptcha, lockedMinutes };
}

async function bump(ctx: ServerContext, id: string, lockAfter: number) {
  const windowStart = fmt(dayjs().subtract(WINDOW_MINUTES, 'minute'));
  const ts = now();
  const row = await sql<{ failures: number }>`
    insert into sys_login_attempt (id, failures, last_fail_at) values (${id}, 1, ${ts})
    on conflict (id) do update set
      failures = case when sys_login_attempt.last_fail_at < ${windowStart} then 1 else sys_login_attempt.failures + 1 end,
      last_fail_at = ${ts}
    returning failures`.execute(ctx.db);
  const failures = Number(row.rows[0]?.failures ?? 0);
  if (failures >= lockAfter) {
    await ctx.db
      .updateTable('sys_login_attempt')
      .set({ locked_until: fmt(dayjs().add(ctx.cfg.login.lockMinutes * 60, 'second')) })
      .where('id', '=', id)
      .execute();
  }
}

export async function recordFailure(ctx: ServerContext, username: string, ip: string): Promise<void> {
  const n = ctx.cfg.login.lockAfterFailures;
  // Forget stale counters (guessed user names would otherwise pile up).
  const stale = fmt(dayjs().subtract(1, 'day'));
  await ctx.db.deleteFrom('sys_login_attempt').where('last_fail_at', '<', stale).where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now())])).execute();
  await bump(ctx, accountKey(username), n);
  await bump(ctx, addressKey(ip), n * ADDRESS_FACTOR);
}

export async function recordSuccess(ctx: ServerContext, username: string, ip: string): Promise<void> {
  await ctx.db.deleteFrom('sys_login_attempt').where('id', 'in', [accountKey(username), addressKey(ip)]).execute();
}

export const lockMessage = (minutes: number) => `登录失败次数过多，账号已被临时锁定，请${minutes}分钟后再试`;
