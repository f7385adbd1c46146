import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import websocket from '@fastify/websocket';
import fastifyStatic from '@fastify/static';
import { registerAssets } from './http/assets.js';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import type { ServerContext } from './context.js';
import { BizError, fail } from './http/envelope.js';
import { isDatabaseUnavailable } from './db/index.js';
import { installGuard, undeclared, type DeclaredRoute } from './http/guard.js';
import { registerModules } from './modules.js';
import { installRateLimits } from './http/limits.js';
import { installInputGuard } from './http/input-guard.js';
import { installJsonCompression } from './http/compress.js';

/**
 * The product's CSP. Frames: the page may be framed only by itself (`frame-ancestors 'self'`, which
 * also covers X-Frame-Options), and it frames only its own origin plus the configured `frameSources`.
 */
export function cspOf(frameSources: string[] = []): string {
  const frames = ["'self'", ...frameSources.filter((s) => /^https?:\/\/[^\s;,']+$/.test(s))].join(' ');
  return (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
    `font-src 'self' data:; connect-src 'self' ws: wss:; frame-src ${frames}; frame-ancestors 'self'; object-src 'none'; base-uri 'self'; form-action 'self'`
  );
}
export const CSP = cspOf();

/**
 * The CSP of an index page: its inline scripts (core/session/early-requests.ts, inlined by the build)
 * are allowed by their SHA-256 hashes, nothing else inline.
 */
export function indexCsp(html: string, csp = CSP): string {
  const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`);
  return hashes.length ? csp.replace("script-src 'self'", `script-src 'self' ${hashes.join(' ')}`) : csp;
}

/** Client paths answered with a light entry's page (dist/scan.html: app/scan.tsx) instead of the main shell's. */
const LIGHT_ENTRIES = new Set(['/lecture/scan']);

/** Query parameters whose values never reach a log line. */
const SECRET_PARAMS = /([?&](?:token|access_token|x-access-token|password|captcha|smscode|altcha)=)[^&#]*/gi;
export const redactUrl = (url: string) => url.replace(SECRET_PARAMS, '$1[REDACTED]');

export interface BuiltApp {
  app: FastifyInstance;
  routes: DeclaredRoute[];
}

/**
 * Builds the HTTP server: security headers, the route guard, every module's routes under the
 * context path, and the SPA. Database work is not done here (see start.ts), so the server can
 * answer health checks while it migrates and seeds.
 */
export async function buildApp(ctx: ServerContext, opts: { logger?: boolean; logStream?: { write(line: string): void } } = {}): Promise<BuiltApp> {
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: ctx.cfg.logLevel,
            ...(opts.logStream ? { stream: opts.logStream } : {}),
            // Tokens stay out of the log: headers that carry them, and secret query parameters of the URL.
            redact: ['req.headers["x-access-token"]', 'req.headers.authorization', 'req.headers.cookie', 'req.headers["sec-websocket-protocol"]', 'req.headers["x-sign"]', 'res.headers["x-file-token"]'],
            serializers: {
              req: (req: { method: string; url: string; hostname?: string; ip?: string; id?: string }) => ({
                id: req.id, method: req.method, url: redactUrl(req.url), host: req.hostname, remoteAddress: req.ip,
              }),
            },
          },
    genReqId: (req) => (typeof req.headers['x-request-id'] === 'string' ? req.headers['x-request-id'].slice(0, 64) : randomUUID()),
    bodyLimit: 2 * 1024 * 1024,
    // The client address is the socket's peer; X-Forwarded-For counts only from a configured proxy.
    trustProxy: ctx.cfg.trustedProxies.length ? ctx.cfg.trustedProxies : false,
    // A request sent slowly (Slowloris: headers or body a byte at a time) is cut off with 408 once it
    // has taken `requestTimeoutSeconds`; Node checks its open requests every second for that.
    serverFactory: (handler) =>
      createServer(
        {
          requestTimeout: Math.max(0, ctx.cfg.requestTimeoutSeconds) * 1000,
          headersTimeout: Math.min(60, Math.max(0, ctx.cfg.requestTimeoutSeconds)) * 1000,
          connectionsCheckingInterval: 1000,
        },
        handler,
      ),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: false } },
  });
  const routes: DeclaredRoute[] = [];
  const csp = cspOf(ctx.cfg.frameSources);
  // API answers are data, never a page: nothing in them may run or be framed elsewhere.
  const apiCsp = "default-src 'none'; frame-ancestors 'self'; sandbox";
  const apiPrefix = `${ctx.cfg.apiBase}/`;
  await installRateLimits(app, ctx);
  installGuard(app, ctx, routes);
  installInputGuard(app);
  installJsonCompression(app);

  app.addHook('onRequest', async (req, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'same-origin');
    reply.header('X-Frame-Options', 'SAMEORIGIN');
    if (req.url.startsWith(apiPrefix)) reply.header('Content-Security-Policy', apiCsp);
    if (ctx.draining && !req.url.endsWith('/actuator/health')) {
      reply.header('Connection', 'close');
      throw new BizError('系统正在停止，请稍后重试', 503, 503);
    }
  });

  app.setErrorHandler((err: Error & { statusCode?: number; validation?: unknown; code?: string }, req, reply) => {
    if (err instanceof BizError) return reply.status(err.status).send(fail(err.message, err.code, err.result));
    if (err.validation) return reply.status(200).send(fail(`请求参数不正确：${err.message}`, 500));
    // A value PostgreSQL cannot hold (out of range, no such date, bad encoding: SQLSTATE class 22) is the
    // client's mistake, not ours: a clear refusal, never "internal error" (server/http/input-guard.ts).
    if (/^22/.test(String(err.code ?? ''))) {
      req.log.warn({ code: err.code }, 'refused: value out of range or malformed');
      return reply.status(200).send(fail('请求参数的值超出允许范围或格式不正确', 500));
    }
    if (err.code === 'FST_REQ_FILE_TOO_LARGE' || err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413)
      return reply.status(413).send(fail('上传内容超过大小限制', 413));
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.statusCode === 415) return reply.status(415).send(fail('不支持的请求内容类型', 415));
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return reply.status(err.statusCode).send(fail('请求格式不正确', err.statusCode));
    const dbDown = isDatabaseUnavailable(err);
    req.log.error({ err }, 'request failed');
    if (dbDown) return reply.status(503).send(fail('数据库暂时不可用，请稍后重试', 503));
    return reply.status(200).send(fail('操作失败，服务器内部错误', 500));
  });

  await app.register(cors, {
    origin: ctx.cfg.corsOrigins.length ? ctx.cfg.corsOrigins : false,
    allowedHeaders: ['content-type', 'tenant-id', 'x-access-token', 'x-sign', 'x-timestamp', 'x-low-app-id', 'x-version'],
    exposedHeaders: ['x-file-token'],
    credentials: false,
  });
  await app.register(multipart, { limits: { fileSize: Math.max(ctx.cfg.upload.maxBytes, ctx.cfg.import.maxBytes), files: 20, fields: 50 } });
  // 8 MB: a collaborative document (server/docs) syncs its whole state in one frame when a tab with offline edits reconnects.
  await app.register(websocket, { options: { maxPayload: 8 * 1024 * 1024 } });

  app.get(`${ctx.cfg.apiBase}/actuator/health`, { config: { auth: 'public' } }, async (_req, reply) =>
    ctx.ready && !ctx.draining ? { status: 'UP' } : reply.status(503).send({ status: 'DOWN' }),
  );

  await app.register(async (api) => registerModules(api, ctx), { prefix: ctx.cfg.apiBase });

  const dist = resolve(ctx.cfg.staticDir);
  const hasSpa = existsSync(resolve(dist, 'index.html'));
  // Every client-side route answers with the SPA's index page, under the CSP: both read once (the build
  // does not change while the server runs).
  const index = hasSpa ? readFileSync(resolve(dist, 'index.html'), 'utf8') : '';
  const pageCsp = indexCsp(index, csp);
  const sendIndex = (reply: FastifyReply) =>
    reply.header('Content-Security-Policy', pageCsp).header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(index);
  // 扫码听课 opened directly (a classroom's QR code on a phone): the light entry's page (app/scan.tsx), when built.
  const scan = hasSpa && existsSync(resolve(dist, 'scan.html')) ? readFileSync(resolve(dist, 'scan.html'), 'utf8') : '';
  const scanCsp = scan ? indexCsp(scan, csp) : '';
  const sendPage = (path: string, reply: FastifyReply) =>
    scan && LIGHT_ENTRIES.has(path)
      ? reply.header('Content-Security-Policy', scanCsp).header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(scan)
      : sendIndex(reply);
  if (hasSpa) {
    await app.register(async (spa) => {
      spa.addHook('onRoute', (r) => {
        r.config = { ...r.config, auth: 'public' }; // the built front end is public by nature
      });
      spa.get('/', (_req, reply) => sendIndex(reply)); // the static handler would refuse the directory
      registerAssets(spa, dist);
      await spa.register(fastifyStatic, {
        root: dist,
        prefix: '/',
        index: false,
        // The build's other files (public/): one route per file, listed at start (no per-request directory
        // reads), unknown paths 404; `.br`/`.gz` siblings sent to a browser that accepts them, no routes of their own.
        wildcard: false,
        preCompressed: true,
        globIgnore: ['**/*.br', '**/*.gz', 'assets/**', 'scan.html'],
      });
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0]!;
    if (path.startsWith(ctx.cfg.apiBase + '/') || path === ctx.cfg.apiBase || req.method !== 'GET' || !hasSpa || /\.[a-z0-9]+$/i.test(path))
      return reply.status(404).send(fail('很抱歉，资源未找到!', 404));
    return sendPage(path, reply);
  });
  // The route-declaration rule (DESIGN §6) is enforced at start: a route without `config.auth` is a bug.
  app.addHook('onReady', async () => {
    const missing = undeclared(routes);
    if (missing.length) throw new Error(`routes without an auth declaration: ${missing.map((r) => `${r.method} ${r.url}`).join(', ')}`);
  });
  return { app, routes };
}
