import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import dayjs from 'dayjs';
import type { ServerContext } from '../context.js';
import { ok } from '../http/envelope.js';
import { defineEntityHooks } from '../crud/hooks.js';
import { newId, now } from '../util.js';

export const LOG_LOGIN = 1;
export const LOG_OPERATION = 2;

const SECRET_KEY = /pass(word)?|pwd|token|captcha|secret|smscode|sms_code|credential|checkkey/i;
const MAX_PARAM = 2000;

/** Deep copy with secret-looking keys replaced by ******. */
export function maskSecrets(v: unknown, depth = 0): unknown {
  if (depth > 6 || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.slice(0, 50).map((x) => maskSecrets(x, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = SECRET_KEY.test(k) ? '******' : maskSecrets(x, depth + 1);
  return out;
}

/** The URL without secret query parameters (token=...), for logs and traces. */
export function safeUrl(url: string): string {
  const i = url.indexOf('?');
  if (i < 0) return url;
  const params = new URLSearchParams(url.slice(i + 1));
  for (const k of [...params.keys()]) if (SECRET_KEY.test(k)) params.set(k, '******');
  const qs = params.toString();
  return url.slice(0, i) + (qs ? '?' + qs : '');
}

function operateType(method: string, url: string): number {
  if (/importExcel|\/import/i.test(url)) return 5;
  if (/exportXls|\/export/i.test(url)) return 6;
  if (method === 'DELETE' || /\/delete/i.test(url)) return 4;
  if (method === 'PUT' || /\/edit/i.test(url)) return 3;
  if (method === 'POST') return 2;
  return 1;
}

const OPERATE_TEXT: Record<number, string> = { 1: '查询', 2: '添加', 3: '编辑', 4: '删除', 5: '导入', 6: '导出' };

type LogRow = Record<string, unknown>;

/** Log rows are written in batches off the request path (at most 1 s late, flushed on close). */
class LogWriter {
  private queue: LogRow[] = [];
  private timer?: NodeJS.Timeout;
  constructor(private readonly ctx: ServerContext) {}

  push(row: LogRow) {
    this.queue.push(row);
    if (this.queue.length >= 200) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), 1000);
      this.timer.unref();
    }
  }

  async flush() {
    clearTimeout(this.timer);
    this.timer = undefined;
    const rows = this.queue.splice(0);
    if (!rows.length || !this.ctx.ready) return;
    try {
      await this.ctx.db.insertInto('sys_log').values(rows).execute();
    } catch {
      /* losing a log batch must never fail requests */
    }
  }
}

const writers = new WeakMap<object, LogWriter>();
const writerOf = (ctx: ServerContext) => {
  let w = writers.get(ctx.cfg);
  if (!w) writers.set(ctx.cfg, (w = new LogWriter(ctx)));
  return w;
};

/** Writes one log line (e.g. from a job handler or a service). */
export function writeLog(
  ctx: ServerContext,
  entry: { logType: number; logContent: string; username?: string; userid?: string; ip?: string; operateType?: number; tenantId?: number },
) {
  writerOf(ctx).push({
    id: newId(),
    log_type: entry.logType,
    log_content: entry.logContent.slice(0, 1000),
    operate_type: entry.operateType ?? null,
    userid: entry.userid ?? null,
    username: entry.username ?? null,
    ip: entry.ip ?? null,
    tenant_id: entry.tenantId ?? 0,
    create_by: entry.userid ?? null,
    create_time: now(),
  });
}

/** Flushes pending log rows now (tests and shutdown). */
export const flushLogs = (ctx: ServerContext) => writerOf(ctx).flush();

const LOGIN_URLS = ['/sys/login', '/sys/phoneLogin', '/sys/mLogin'];

export async function registerLog(api: FastifyInstance, ctx: ServerContext) {
  const writer = writerOf(ctx);
  const base = ctx.cfg.apiBase;
  // Entity titles by resource path, so "POST /sys/position/add" logs as "职务-添加".
  const titles = [...ctx.entities.byName.values()].filter((e) => e.resource).map((e) => [base + e.resource!, e.title] as const);

  const paramsOf = (req: FastifyRequest) => {
    const body = req.isMultipart?.() ? '[multipart]' : maskSecrets(req.body);
    const text = JSON.stringify({ ...(body !== undefined ? { body } : {}), query: maskSecrets(req.query) });
    return text.length > MAX_PARAM ? text.slice(0, MAX_PARAM) + '…' : text;
  };

  // The login outcome is only in the reply body: keep it for onResponse. Taken before serialisation, so
  // the JSON compression of onSend (server/http/compress.ts) cannot hide it.
  const isLogin = (req: FastifyRequest) => req.method === 'POST' && LOGIN_URLS.some((u) => (req.routeOptions.url ?? '') === base + u);
  api.addHook('preSerialization', async (req, _reply, payload) => {
    if (isLogin(req) && payload && typeof payload === 'object') (req as { loginOutcome?: unknown }).loginOutcome = payload;
    return payload;
  });
  api.addHook('onSend', async (req, _reply, payload) => {
    if (isLogin(req) && typeof payload === 'string' && !(req as { loginOutcome?: unknown }).loginOutcome) {
      try {
        (req as { loginOutcome?: unknown }).loginOutcome = JSON.parse(payload);
      } catch {
        /* not JSON */
      }
    }
    return payload;
  });

  api.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url;
    if (!route || req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return;
    const cost = Math.round(reply.elapsedTime);
    const url = safeUrl(req.url).slice(0, 255);
    const outcome = (req as { loginOutcome?: { success?: boolean; message?: string; result?: { userInfo?: { id?: string; username?: string } } } }).loginOutcome;
    if (LOGIN_URLS.some((u) => route === base + u)) {
      const body = (req.body ?? {}) as { username?: unknown; mobile?: unknown };
      const name = String(outcome?.result?.userInfo?.username ?? body.username ?? body.mobile ?? '').slice(0, 100);
      writer.push({
        id: newId(), log_type: LOG_LOGIN, operate_type: null,
        log_content: outcome?.success ? `用户名: ${name},登录成功！` : `用户名: ${name},登录失败：${outcome?.message ?? reply.statusCode}`.slice(0, 1000),
        userid: outcome?.success ? (outcome.result?.userInfo?.id ?? null) : null, username: name, ip: req.ip,
        method: `${req.method} ${route}`, request_url: url, request_param: paramsOf(req), request_type: req.method,
        cost_time: cost, tenant_id: 0, create_by: name, create_time: now(),
      });
      return;
    }
    const user = req.user;
    if (!user) return; // anonymous writes (captcha checks, failed auth) are not operations
    const op = operateType(req.method, route);
    const title = titles.find(([p]) => route.startsWith(p + '/'))?.[1];
    writer.push({
      id: newId(), log_type: route === base + '/sys/logout' ? LOG_LOGIN : LOG_OPERATION, operate_type: op,
      log_content: route === base + '/sys/logout' ? `用户名: ${user.username},退出成功！` : `${title ? `${title}-${OPERATE_TEXT[op]}` : route.slice(base.length)}`.slice(0, 1000),
      userid: user.id, username: user.realname || user.username, ip: req.ip,
      method: `${req.method} ${route}`.slice(0, 500), request_url: url, request_param: paramsOf(req), request_type: req.method,
      cost_time: cost, tenant_id: user.tenantId, create_by: user.username, create_time: now(),
    });
  });
  api.addHook('onClose', async () => writer.flush());

  // /sys/log/list?keyWord= searches the log content (JeecgBoot contract §9).
  defineEntityHooks('sys_log', {
    listScope(h, qb) {
      const kw = (h.req.query as { keyWord?: unknown }).keyWord;
      return typeof kw === 'string' && kw.trim() ? qb.where('t.log_content', 'ilike', `%${kw.trim().replace(/[\\%_]/g, '\\$&')}%`) : qb;
    },
  });

  /** Home page counters over successful logins. */
  api.get('/sys/loginfo', { config: { auth: 'user' } }, async () => {
    const today = dayjs().format('YYYY-MM-DD');
    const r = await sql<{ total: string; today: string; ips: string }>`
      select count(*) as total,
             count(*) filter (where create_time >= ${today + ' 00:00:00'}) as today,
             count(distinct ip) filter (where create_time >= ${today + ' 00:00:00'}) as ips
      from sys_log where log_type = ${LOG_LOGIN} and log_content like '%登录成功%'`.execute(ctx.db);
    const row = r.rows[0];
    return ok({ totalVisitCount: Number(row?.total ?? 0), todayVisitCount: Number(row?.today ?? 0), todayIp: Number(row?.ips ?? 0) });
  });

  /** The last 7 days of logins for the home page chart. */
  api.get('/sys/visitInfo', { config: { auth: 'user' } }, async () => {
    const start = dayjs().subtract(6, 'day').startOf('day');
    const r = await sql<{ tian: string; visit: string; ip: string }>`
      select to_char(create_time, 'YYYY-MM-DD') as tian, count(*) as visit, count(distinct ip) as ip
      from sys_log where log_type = ${LOG_LOGIN} and log_content like '%登录成功%' and create_time >= ${start.format('YYYY-MM-DD HH:mm:ss')}
      group by 1`.execute(ctx.db);
    const by = new Map(r.rows.map((x) => [x.tian, x]));
    return ok(
      Array.from({ length: 7 }, (_, i) => {
        const d = start.add(i, 'day');
        const hit = by.get(d.format('YYYY-MM-DD'));
        return { visit: Number(hit?.visit ?? 0), ip: Number(hit?.ip ?? 0), tian: d.format('YYYY-MM-DD'), type: d.format('MM-DD') };
      }),
    );
  });

}
