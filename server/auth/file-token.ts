import { createHmac, timingSafeEqual } from 'node:crypto';
import { sha256 } from '../util.js';

/**
 * File tokens: what a browser puts in `?token=` where it cannot send a header (`<img src>`, download
 * links). Never the session token. A file token is `ft1.<sessionId>.<expiry>.<signature>`, the signature
 * an HMAC-SHA256 over purpose, session and expiry, keyed by the session's stored token hash — so it is
 * bound to that user's session (revoked with it), to the one purpose "file", and to a short lifetime; it
 * cannot be turned back into the session token, and every API process can check it without a shared key.
 */
export const FILE_TOKEN_SECONDS = 15 * 60;
/** Expiries are rounded to this step, so the URLs of one page stay the same for a while (no image reloads). */
const STEP_SECONDS = 5 * 60;
const PURPOSE = 'file';

const sign = (tokenHash: string, sessionId: string, exp: number) =>
  createHmac('sha256', tokenHash).update(`${PURPOSE}:${sessionId}:${exp}`).digest('base64url');

/** A file token for the session whose raw token is `sessionToken`: valid 10 to 15 minutes. */
export function issueFileToken(sessionToken: string, sessionId: string, nowMs = Date.now()): { token: string; expiresAt: number } {
  const exp = Math.floor(nowMs / 1000 / STEP_SECONDS) * STEP_SECONDS + FILE_TOKEN_SECONDS;
  return { token: `ft1.${sessionId}.${exp}.${sign(sha256(sessionToken), sessionId, exp)}`, expiresAt: exp * 1000 };
}

export function parseFileToken(token: string): { sessionId: string; exp: number; sig: string } | null {
  const m = /^ft1\.([A-Za-z0-9_-]{1,64})\.(\d{10})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  return { sessionId: m[1]!, exp: Number(m[2]), sig: m[3]! };
}

/** Whether `sig` is the session's signature for `exp`, and `exp` not past. */
export function fileTokenValid(tokenHash: string, sessionId: string, exp: number, sig: string, nowMs = Date.now()): boolean {
  if (exp * 1000 < nowMs || exp * 1000 > nowMs + (FILE_TOKEN_SECONDS + 60) * 1000) return false;
  const want = Buffer.from(sign(tokenHash, sessionId, exp));
  const got = Buffer.from(sig);
  return want.length === got.length && timingSafeEqual(want, got);
}
