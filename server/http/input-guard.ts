import type { FastifyInstance } from 'fastify';
import { BizError } from './envelope.js';

/**
 * One scan of every request's query, path parameters and JSON body before any handler (and before the
 * schemas) runs, so that input no column can hold gets a clear Chinese refusal on every route —
 * hand-written lists included — instead of a database error:
 * - NUL characters (PostgreSQL text cannot hold them);
 * - numbers past the signed 64-bit range, or not finite (`1e309`), as JSON numbers or as numeric
 *   query/path values (`pageNo=9223372036854775808`); page numbers and sizes past a billion;
 * - date-shaped strings that name no real day or time (`2024-02-30`, `2024-13-01 25:61`).
 * Data errors the scan cannot foresee are still answered cleanly by the error handler (SQLSTATE class 22).
 */
const INT64_MAX = 9223372036854775807n;
const NUMERIC = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
const INTEGER = /^[-+]?\d+$/;
const DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const PAGING = new Set(['pageNo', 'pageSize']);
const MAX_PAGING = 1_000_000_000;
const MAX_DEPTH = 64;

export const NUL_MESSAGE = '请求参数包含非法字符（NUL），已拒绝';
export const RANGE_MESSAGE = '数值超出允许范围，已拒绝';

const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** Whether a date-shaped string names a real date and time; null when it is not date-shaped. */
export function realDate(s: string): boolean | null {
  const m = DATE.exec(s);
  if (!m) return null;
  const [y, mo, d, h = '0', mi = '0', se = '0'] = m.slice(1).map((x) => x ?? undefined) as string[];
  const Y = Number(y), M = Number(mo), D = Number(d);
  if (Y < 1 || M < 1 || M > 12 || D < 1 || D > daysIn(Y, M)) return false;
  return Number(h) < 24 && Number(mi) < 60 && Number(se) < 60;
}

function outOfRange(n: number): boolean {
  return !Number.isFinite(n) || Math.abs(n) > 9.2e18;
}

function checkString(v: string, where: string, key: string, numericText: boolean): void {
  if (v.includes('\u0000')) throw new BizError(NUL_MESSAGE);
  if (v.length <= 40 && /^\d{4}-/.test(v) && realDate(v.trim()) === false) throw new BizError(`日期或时间不存在：${key ? `${key}=` : ''}${v}`);
  if (!numericText || v.length > 400 || !NUMERIC.test(v)) return;
  const tooBig = INTEGER.test(v) ? (v.replace(/^[-+]/, '').replace(/^0+/, '').length > 19 || BigInt(v.replace(/^\+/, '')) > INT64_MAX || BigInt(v.replace(/^\+/, '')) < -INT64_MAX - 1n) : outOfRange(Number(v));
  if (tooBig) throw new BizError(`${RANGE_MESSAGE}：${key || where}`);
  if (PAGING.has(key) && Math.abs(Number(v)) > MAX_PAGING) throw new BizError(`${key === 'pageNo' ? '页码 pageNo' : '每页条数 pageSize'}超出允许范围`);
}

function scan(v: unknown, where: string, key: string, numericText: boolean, depth: number): void {
  if (depth > MAX_DEPTH) throw new BizError('请求数据嵌套过深，已拒绝');
  if (typeof v === 'string') return checkString(v, where, key, numericText);
  if (typeof v === 'number') {
    if (outOfRange(v)) throw new BizError(`${RANGE_MESSAGE}：${key || where}`);
    if (PAGING.has(key) && Math.abs(v) > MAX_PAGING) throw new BizError(`${key === 'pageNo' ? '页码 pageNo' : '每页条数 pageSize'}超出允许范围`);
    return;
  }
  if (!v || typeof v !== 'object') return;
  if (Array.isArray(v)) {
    for (const x of v) scan(x, where, key, numericText, depth + 1);
    return;
  }
  // Data only: buffers, streams and multipart file parts are left to their handlers. (Query objects have
  // a prototype of their own, so the test is on what the value does, not on its prototype.)
  if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer || v instanceof Date) return;
  const o = v as Record<string, unknown>;
  if (typeof o.pipe === 'function' || typeof o.toBuffer === 'function' || typeof o.on === 'function') return;
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (k.includes('\u0000')) throw new BizError(NUL_MESSAGE);
    scan(x, where, k, numericText, depth + 1);
  }
}

/** Scans one request's inputs; throws the refusal. */
export function scanRequest(req: { query?: unknown; params?: unknown; body?: unknown; url: string }): void {
  if (req.url.includes('%00')) throw new BizError(NUL_MESSAGE);
  scan(req.query, 'query', '', true, 0);
  scan(req.params, 'path', '', true, 0);
  scan(req.body, 'body', '', false, 0);
}

export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => scanRequest(req));
}
