import { createHash, randomBytes } from 'node:crypto';
import dayjs from 'dayjs';
import { createChallenge } from 'altcha-lib/v1';
import type { ServerContext } from '../context.js';
import { fmt, now, sha256 } from '../util.js';

/**
 * The sign-in challenge: an ALTCHA proof of work (docs/decisions.md "Sign-in challenge"). The client
 * must find the number n ≤ maxnumber with SHA-256(salt + n) = challenge: about maxnumber/2 hashes,
 * invisible for one person signing in, a cost on every guess for a program. No glyphs to read, no
 * external service. Each challenge is stored (`sys_captcha`, shared by every API process) and used
 * once; the row keeps its size, so a small early challenge cannot stand in for a larger one later.
 */
const TTL_SECONDS = 120;
/** The HMAC signature ALTCHA adds is not relied on (the stored row is); a per-process key is enough. */
const SIGNING_KEY = randomBytes(32).toString('hex');

export interface Challenge {
  algorithm: string;
  challenge: string;
  maxnumber?: number;
  salt: string;
  signature: string;
}

const rowId = (challenge: string) => sha256(`pow:${challenge}`);

export async function newChallenge(ctx: ServerContext, maxNumber: number): Promise<Challenge> {
  const c = await createChallenge({ hmacKey: SIGNING_KEY, maxNumber, expires: new Date(Date.now() + TTL_SECONDS * 1000) });
  await ctx.db.deleteFrom('sys_captcha').where('expires_at', '<', now()).execute();
  await ctx.db
    .insertInto('sys_captcha')
    .values({ id: rowId(c.challenge), code_hash: `pow:${maxNumber}`, expires_at: fmt(dayjs().add(TTL_SECONDS, 'second')) })
    .execute();
  return c;
}

/**
 * Checks and consumes a solution (the ALTCHA payload: base64 JSON `{algorithm, challenge, number, salt,
 * signature}`, or the object itself). Valid when the challenge was issued here, is unused, unexpired,
 * at least `minMax` large, and the number solves it.
 */
export async function checkChallenge(ctx: ServerContext, payload: unknown, minMax: number): Promise<boolean> {
  let p: Record<string, unknown>;
  try {
    p = (typeof payload === 'string' ? JSON.parse(Buffer.from(payload.slice(0, 2000), 'base64').toString('utf8')) : payload) as Record<string, unknown>;
  } catch {
    return false;
  }
  if (!p || typeof p !== 'object' || p.algorithm !== 'SHA-256') return false;
  const { challenge, salt, number } = p;
  if (typeof challenge !== 'string' || !/^[0-9a-f]{64}$/.test(challenge) || typeof salt !== 'string' || salt.length > 200) return false;
  if (!Number.isSafeInteger(number) || (number as number) < 0) return false;
  const row = await ctx.db.deleteFrom('sys_captcha').where('id', '=', rowId(challenge)).returning(['code_hash', 'expires_at']).executeTakeFirst();
  if (!row || dayjs().isAfter(dayjs(row.expires_at as string))) return false;
  const size = Number(/^pow:(\d+)$/.exec(String(row.code_hash))?.[1] ?? 0);
  // The state may have grown while the client worked: a challenge a quarter of the current size still counts.
  if (size * 4 < minMax) return false;
  return createHash('sha256').update(`${salt}${number}`).digest('hex') === challenge;
}
