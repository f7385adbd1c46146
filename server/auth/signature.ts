import { createHash } from 'node:crypto';
import dayjs from 'dayjs';
import { sql } from 'kysely';
import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import { BizError } from '../http/envelope.js';
import { fmt, now } from '../util.js';

/**
 * JeecgBoot request signing (jeecg-contract §11): off by default (`signature.enabled`). It is a
 * compatibility feature, not a security boundary. Checked only on these paths (below the API base).
 */
export const SIGN_URLS = [
  '/sys/dict/getDictItems/*', '/sys/dict/loadDict/*', '/sys/dict/loadDictOrderByValue/*', '/sys/dict/loadDictItem/*', '/sys/dict/loadTreeData',
  '/sys/api/queryTableDictItemsByCode', '/sys/api/queryFilterTableDictInfo', '/sys/api/queryTableDictByKeys',
  '/sys/api/translateDictFromTable', '/sys/api/translateDictFromTableByKeys', '/sys/sms',
];
const MAX_SKEW_MS = 5 * 60 * 1000;
const FAIL = 'Sign签名校验失败！';
const REPLAYED = '该签名请求已使用过，不能重复提交，请重新发起请求';
/** Expired nonces are swept at most this often (by the request that notices). */
const SWEEP_MS = 60_000;
let lastSweep = 0;

/**
 * Each signed request is accepted once (issue 27 rule 9): its signature, timestamp and path are recorded
 * in `sys_sign_nonce` (primary key = their SHA-256) until the timestamp leaves the accepted window; a
 * second identical request inside the window finds the row and is refused. One INSERT … ON CONFLICT DO
 * NOTHING, so two servers sharing the database agree. Returns false for a replay.
 */
export async function claimNonce(ctx: ServerContext, sign: string, ts: string, path: string, t: number): Promise<boolean> {
  const id = createHash('sha256').update(`${sign.toUpperCase()}\n${ts}\n${path}`).digest('hex');
  if (Date.now() - lastSweep > SWEEP_MS) {
    lastSweep = Date.now();
    await ctx.db.deleteFrom('sys_sign_nonce').where('expires_at', '<', now()).execute();
  }
  const r = await sql`insert into sys_sign_nonce (id, expires_at) values (${id}, ${fmt(new Date(t + MAX_SKEW_MS + 1000))}) on conflict (id) do nothing returning id`.execute(ctx.db);
  return r.rows.length === 1;
}

export function needsSignature(path: string): boolean {
  return SIGN_URLS.some((u) => (u.endsWith('/*') ? path.startsWith(u.slice(0, -1)) && path.length > u.length - 1 : path === u));
}

/** The signature of a request's parameters: MD5(JSON of sorted params + secret), upper case. */
export function computeSign(params: Record<string, unknown>, secret: string): string {
  const sorted: Record<string, string> = {};
  for (const k of Object.keys(params).sort()) {
    if (k === '_t') continue;
    const v = params[k];
    sorted[k] = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  return createHash('md5').update(JSON.stringify(sorted) + secret).digest('hex').toUpperCase();
}

function timestampMs(raw: string): number {
  if (/^\d{14}$/.test(raw)) return dayjs(`${raw.slice(0, 4)}-${raw.slice(4, 6)}-${raw.slice(6, 8)} ${raw.slice(8, 10)}:${raw.slice(10, 12)}:${raw.slice(12)}`).valueOf();
  return /^\d{10,13}$/.test(raw) ? Number(raw) : NaN;
}

/** A preHandler: refuses a signed-path request whose X-Sign or X-TIMESTAMP is missing, stale or wrong. */
export function signatureCheck(ctx: ServerContext) {
  return async (req: FastifyRequest) => {
    if (!ctx.cfg.signature.enabled) return;
    const [pathOnly = ''] = req.url.split('?');
    const path = pathOnly.startsWith(ctx.cfg.apiBase) ? pathOnly.slice(ctx.cfg.apiBase.length) : pathOnly;
    if (!needsSignature(path)) return;
    if (ctx.cfg.signature.secret.length < 16) throw new BizError('请求签名已开启，但未配置签名密钥 signature.secret（至少16个字符），请联系管理员');
    const sign = req.headers['x-sign'];
    const ts = req.headers['x-timestamp'];
    if (typeof sign !== 'string' || typeof ts !== 'string') throw new BizError(FAIL);
    const t = timestampMs(ts);
    if (!Number.isFinite(t) || Math.abs(Date.now() - t) > MAX_SKEW_MS) throw new BizError(FAIL);
    const params: Record<string, unknown> = { ...((req.query as Record<string, unknown>) ?? {}) };
    if (req.method !== 'GET' && req.body && typeof req.body === 'object' && !Array.isArray(req.body)) Object.assign(params, req.body);
    const last = decodeURIComponent(path.split('/').pop() ?? '');
    if (last.includes(',')) params['x-path-variable'] = last;
    if (computeSign(params, ctx.cfg.signature.secret) !== sign.toUpperCase()) throw new BizError(FAIL);
    if (!(await claimNonce(ctx, sign, ts, path, t))) throw new BizError(REPLAYED);
  };
}
