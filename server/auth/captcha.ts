import svgCaptcha from 'svg-captcha';
import dayjs from 'dayjs';
import type { ServerContext } from '../context.js';
import { fmt, now, sha256 } from '../util.js';

const TTL_SECONDS = 60;

/** The key the client chose (its Date.now()), stored hashed so the table never reveals live keys. */
export const captchaKeyId = (key: string) => sha256(`captcha:${key}`);

/**
 * A new 4-character image captcha for `key`: stored server-side (shared by every API process),
 * valid 60 s, single use, compared case-insensitively. Returns an SVG data URL.
 */
export async function newCaptcha(ctx: ServerContext, key: string): Promise<string> {
  const c = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0oO1iIlL', color: true, background: '#f5f5f5' });
  await ctx.db.deleteFrom('sys_captcha').where('expires_at', '<', now()).execute();
  const id = captchaKeyId(key);
  const row = { code_hash: sha256(c.text.toLowerCase()), expires_at: fmt(dayjs().add(TTL_SECONDS, 'second')) };
  await ctx.db
    .insertInto('sys_captcha')
    .values({ id, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
  return `data:image/svg+xml;base64,${Buffer.from(c.data).toString('base64')}`;
}

/** Checks and consumes the captcha of `key` (consumed even when wrong: one guess per image). */
export async function checkCaptcha(ctx: ServerContext, key: string | undefined, code: string | undefined): Promise<boolean> {
  if (!key || !code || key.length > 64 || code.length > 16) return false;
  const row = await ctx.db.deleteFrom('sys_captcha').where('id', '=', captchaKeyId(key)).returning(['code_hash', 'expires_at']).executeTakeFirst();
  if (!row || dayjs().isAfter(dayjs(row.expires_at as string))) return false;
  return row.code_hash === sha256(code.trim().toLowerCase());
}
