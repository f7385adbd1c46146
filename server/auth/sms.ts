import { randomInt } from 'node:crypto';
import dayjs from 'dayjs';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerContext } from '../context.js';
import { BizError } from '../http/envelope.js';
import { fmt, newId, now, sha256 } from '../util.js';

/**
 * A way to deliver text messages. None is configured by default: codes are then not delivered, unless
 * the development flag `smsDevOutbox` puts them into the outbox screen and the log.
 */
export interface SmsGateway {
  name: string;
  send(mobile: string, text: string): Promise<void>;
}

let gateway: SmsGateway | null = null;
export function setSmsGateway(g: SmsGateway | null) {
  gateway = g;
}

export const SMS_TTL_MINUTES = 5;
export const SMS_MAX_TRIES = 5;
const RESEND_SECONDS = 60;
export const MOBILE_RE = /^1[3-9]\d{9}$/;

const codeHash = (mobile: string, code: string) => sha256(`sms:${mobile}:${code}`);

/**
 * Issues a 6-digit code for `mobile` (modes: "0" login, "1" register, "2" forgot password). A second
 * request within the resend interval sends nothing and says nothing (the caller answers the same as for
 * a number without an account).
 */
export async function sendSmsCode(ctx: ServerContext, mobile: string, purpose: string, log: FastifyBaseLogger): Promise<void> {
  const last = await ctx.db
    .selectFrom('sys_sms_outbox')
    .select('created_at')
    .where('mobile', '=', mobile)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (last && dayjs().diff(dayjs(last.created_at as string), 'second') < RESEND_SECONDS) return;
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const text = `您的验证码为 ${code}，${SMS_TTL_MINUTES}分钟内有效，请勿泄露。`;
  await ctx.db
    .insertInto('sys_sms_outbox')
    .values({
      id: newId(),
      mobile,
      purpose,
      // The code stays out of the table, except in development without a gateway (the outbox is then the delivery channel).
      content: gateway ? `验证码短信（${gateway.name}）` : ctx.cfg.smsDevOutbox ? text : '验证码短信（未配置短信网关，未发送）',
      code_hash: codeHash(mobile, code),
      tries: 0,
      expires_at: fmt(dayjs().add(SMS_TTL_MINUTES, 'minute')),
      gateway: gateway?.name ?? 'outbox',
      created_at: now(),
    })
    .execute();
  if (gateway) await gateway.send(mobile, text);
  else if (ctx.cfg.smsDevOutbox) log.info({ mobile, purpose, code }, 'sms code (smsDevOutbox: development only)');
  else log.warn({ purpose }, 'sms code not delivered: no SMS gateway configured');
}

/** Checks a code: the newest unused one for the mobile and purpose, unexpired, within the try limit. Consumed on success. */
export async function verifySmsCode(ctx: ServerContext, mobile: string, purpose: string, code: string): Promise<void> {
  const row = await ctx.db
    .selectFrom('sys_sms_outbox')
    .select(['id', 'code_hash', 'tries', 'expires_at', 'used_at'])
    .where('mobile', '=', mobile)
    .where('purpose', '=', purpose)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row || row.used_at || dayjs().isAfter(dayjs(row.expires_at as string))) throw new BizError('短信验证码已失效，请重新获取');
  if (Number(row.tries) >= SMS_MAX_TRIES) throw new BizError('验证码错误次数过多，请重新获取');
  const good = row.code_hash === codeHash(mobile, String(code ?? '').trim());
  // Conditional updates: two concurrent guesses cannot both use the last try, nor one code log in twice.
  const r = good
    ? await ctx.db.updateTable('sys_sms_outbox').set({ used_at: now() }).where('id', '=', row.id).where('used_at', 'is', null).where('tries', '<', SMS_MAX_TRIES).executeTakeFirst()
    : await ctx.db.updateTable('sys_sms_outbox').set({ tries: sql`tries + 1` }).where('id', '=', row.id).where('tries', '<', SMS_MAX_TRIES).executeTakeFirst();
  if (!good) throw new BizError('短信验证码错误');
  if (!Number(r.numUpdatedRows)) throw new BizError('短信验证码已失效，请重新获取');
}
