import { sql } from 'kysely';
import dayjs from 'dayjs';
import type { ServerContext } from '../context.js';
import { fmt, now } from '../util.js';

/**
 * Password sign-in throttling, per account and per address, kept in the database so every API
 * process sees the same counters (`sys_login_attempt`: failures within the window, and the earliest
 * time of the next password attempt in `locked_until`). There is no hard lock:
 * - past `captchaAfterFailures` an account's password attempts need the proof-of-work challenge
 *   (server/auth/challenge.ts), which grows with the failures;
 * - past `delayAfterFailures` the next attempt must wait 1 s, doubling per failure, at most
 *   `maxDelaySeconds`; an attempt inside the wait is refused before the password is checked;
 * - an address gets the same treatment with far larger thresholds (`address…`): a campus NAT address
 *   carries thousands of users, and a few typos there must not slow anybody else;
 * - SMS-code sign-in is not throttled here (its codes have their own try limit), so the owner of an
 *   account under attack can still sign in; a success clears the account's counter.
 */
const accountKey = (username: string) => `u:${username.trim().toLowerCase().slice(0, 100)}`;
const addressKey = (ip: string) => `ip:${ip.slice(0, 100)}`;

export interface ThrottleState {
  /** The attempt must carry a solved challenge of at least this size (0: none needed). */
  challengeMax: number;
  /** Seconds before a password attempt is allowed (0: now). */
  waitSeconds: number;
}

interface Row {
  id: string;
  failures: number;
  last_fail_at: string | null;
  locked_until: string | null;
}

/** Seconds an account (or address) waits after `failures` failures, 0 below the threshold. */
export function delayAfter(failures: number, threshold: number, maxSeconds: number, step = 1): number {
  if (failures < threshold) return 0;
  return Math.min(maxSeconds, 2 ** Math.min(30, Math.floor((failures - threshold) / step)));
}

function rules(ctx: ServerContext, id: string) {
  const c = ctx.cfg.login;
  return id.startsWith('ip:')
    ? { captchaAfter: c.addressCaptchaAfterFailures, delayAfterN: c.addressDelayAfterFailures, max: c.addressMaxDelaySeconds, step: 10, grow: 30 }
    : { captchaAfter: c.captchaAfterFailures, delayAfterN: c.delayAfterFailures, max: c.maxDelaySeconds, step: 1, grow: 2 };
}

/** The state of a password attempt for `username` from `ip`: the challenge size it needs, and how long it must wait. */
export async function loginState(ctx: ServerContext, username: string, ip: string): Promise<ThrottleState> {
  const rows = (await ctx.db
    .selectFrom('sys_login_attempt')
    .select(['id', 'failures', 'last_fail_at', 'locked_until'])
    .where('id', 'in', [accountKey(username), addressKey(ip)])
    .execute()) as Row[];
  const t = dayjs();
  const window = ctx.cfg.login.windowMinutes;
  let challengeMax = ctx.cfg.login.alwaysCaptcha ? ctx.cfg.login.challengeMaxNumber : 0;
  let waitSeconds = 0;
  for (const r of rows) {
    const fresh = r.last_fail_at && t.diff(dayjs(r.last_fail_at), 'minute', true) < window;
    if (!fresh) continue;
    const f = Number(r.failures);
    const rule = rules(ctx, r.id);
    if (f >= rule.captchaAfter)
      challengeMax = Math.max(challengeMax, ctx.cfg.login.challengeMaxNumber * 2 ** Math.min(4, Math.floor((f - rule.captchaAfter) / rule.grow)));
    if (r.locked_until && t.isBefore(dayjs(r.locked_until))) waitSeconds = Math.max(waitSeconds, Math.ceil(dayjs(r.locked_until).diff(t, 'second', true)));
  }
  return { challengeMax, waitSeconds };
}

/**
 * Called right before the password is checked (after any challenge): every counter of the attempt that
 * is in its delay phase gives up its slot — the next attempt waits as long again — through a
 * conditional update, so parallel requests cannot all slip through between two failures. False when
 * another request took the slot first.
 */
export async function claimAttempt(ctx: ServerContext, username: string, ip: string): Promise<boolean> {
  const rows = (await ctx.db
    .selectFrom('sys_login_attempt')
    .select(['id', 'failures', 'last_fail_at', 'locked_until'])
    .where('id', 'in', [accountKey(username), addressKey(ip)])
    .execute()) as Row[];
  const t = dayjs();
  for (const r of rows) {
    const rule = rules(ctx, r.id);
    const d = delayAfter(Number(r.failures), rule.delayAfterN, rule.max, rule.step);
    if (!d || !(r.last_fail_at && t.diff(dayjs(r.last_fail_at), 'minute', true) < ctx.cfg.login.windowMinutes)) continue;
    const claimed = await ctx.db
      .updateTable('sys_login_attempt')
      .set({ locked_until: fmt(t.add(d, 'second')) })
      .where('id', '=', r.id)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', fmt(t))]))
      .executeTakeFirst();
    if (!Number(claimed.numUpdatedRows)) return false;
  }
  return true;
}

async function bump(ctx: ServerContext, id: string) {
  const windowStart = fmt(dayjs().subtract(ctx.cfg.login.windowMinutes, 'minute'));
  const ts = now();
  const row = await sql<{ failures: number }>`
    insert into sys_login_attempt (id, failures, last_fail_at) values (${id}, 1, ${ts})
    on conflict (id) do update set
      failures = case when sys_login_attempt.last_fail_at < ${windowStart} then 1 else sys_login_attempt.failures + 1 end,
      last_fail_at = ${ts}
    returning failures`.execute(ctx.db);
  const rule = rules(ctx, id);
  const d = delayAfter(Number(row.rows[0]?.failures ?? 0), rule.delayAfterN, rule.max, rule.step);
  if (d) await ctx.db.updateTable('sys_login_attempt').set({ locked_until: fmt(dayjs().add(d, 'second')) }).where('id', '=', id).execute();
}

export async function recordFailure(ctx: ServerContext, username: string, ip: string): Promise<void> {
  // Forget stale counters (guessed user names would otherwise pile up).
  const stale = fmt(dayjs().subtract(Math.max(ctx.cfg.login.windowMinutes, 60 * 24), 'minute'));
  await ctx.db.deleteFrom('sys_login_attempt').where('last_fail_at', '<', stale).where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now())])).execute();
  await bump(ctx, accountKey(username));
  await bump(ctx, addressKey(ip));
}

/**
 * A successful sign-in (password or SMS code) clears the account's counter. Never the address's: an
 * attacker with one account of their own could otherwise reset it between guesses; it fades with the window.
 */
export async function recordSuccess(ctx: ServerContext, username: string): Promise<void> {
  await ctx.db.deleteFrom('sys_login_attempt').where('id', '=', accountKey(username)).execute();
}

export const waitMessage = (seconds: number) =>
  `登录尝试过于频繁，请${seconds >= 60 ? `${Math.ceil(seconds / 60)}分钟` : `${seconds}秒`}后再试（也可使用手机验证码登录）`;
