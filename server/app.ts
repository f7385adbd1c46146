import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import websocket from '@fastify/websocket';
import fastifyStatic from '@fastify/static';
import { registerAssets } from './http/assets.js';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import type { ServerContext } from './context.js';
import { BizError, fail } from './http/envelope.js';
import { isDatabaseUnavailable } from './db/index.js';
import { installGuard, undeclared, type DeclaredRoute } from './http/guard.js';
import { registerModules } from './modules.js';

export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "font-src 'self' data:; connect-src 'self' ws: wss:; frame-src 'self' http: https:; object-src 'none'; base-uri 'self'; form-action 'self'";

/**
 * The CSP of an index page: its inline scripts (core/session/early-requests.ts, inlined by the build)
 * are allowed by their SHA-256 hashes, nothing else inline.
 */
export function indexCsp(html: string): string {
  const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`);
  return hashes.length ? CSP.replace("script-src 'self'", `script-src 'self' ${hashes.join(' ')}`) : CSP;
}

export interface BuiltApp {
  app: FastifyInstance;
  routes: DeclaredRoute[];
}

/**
 * Builds the HTTP server: security headers, the route guard, every module's routes under the
 * context path, and the SPA. Database work is not done here (see start.ts), so the server can
 * answer health checks while it migrates and seeds.
 */
export async function buildApp(ctx: ServerContext, opts: { logger?: boolean } = {}): Promise<BuiltApp> {
  const app = Fastify({
    logger: opts.logger === false ? false : { level: ctx.cfg.logLevel, redact: ['req.headers["x-access-token"]', 'req.headers.authorization', 'req.headers.cookie'] },
    genReqId: (req) => (typeof req.headers['x-request-id'] === 'string' ? req.headers['x-request-id'].slice(0, 64) : randomUUID()),
    bodyLimit: 2 * 1024 * 1024,
    trustProxy: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: false } },
  });
  const routes: DeclaredRoute[] = [];
  installGuard(app, ctx, routes);

  app.addHook('onRequest', async (req, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'same-origin');
    reply.header('X-Frame-Options', 'SAMEORIGIN');
    if (ctx.draining && !req.url.endsWith('/actuator/health')) {
      reply.header('Connection', 'close');
      throw new BizError('系统正在停止，请稍后重试', 503, 503);
    }
  });

  app.setErrorHandler((err: Error & { statusCode?: number; validation?: unknown; code?: string }, req, reply) => {
    if (err instanceof BizError) return reply.status(err.status).send(fail(err.message, err.code, err.result));
    if (err.validation) return reply.status(200).send(fail(`请求参数不正确：${err.message}`, 500));
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
    credentials: false,
  });
  await app.register(multipart, { limits: { fileSize: Math.max(ctx.cfg.upload.maxBytes, ctx.cfg.import.maxBytes), files: 20, fields: 50 } });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });

  app.get(`${ctx.cfg.apiBase}/actuator/health`, { config: { auth: 'public' } }, async (_req, reply) =>
    ctx.ready && !ctx.draining ? { status: 'UP' } : reply.status(503).send({ status: 'DOWN' }),
  );

  await app.register(async (api) => registerModules(api, ctx), { prefix: ctx.cfg.apiBase });

  const dist = resolve(ctx.cfg.staticDir);
  const hasSpa = existsSync(resolve(dist, 'index.html'));
  // Every client-side route answers with the SPA's index page, under the CSP: both read once (the build
  // does not change while the server runs).
  const index = hasSpa ? readFileSync(resolve(dist, 'index.html'), 'utf8') : '';
  const csp = indexCsp(index);
  const sendIndex = (reply: FastifyReply) =>
    reply.header('Content-Security-Policy', csp).header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(index);
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
        globIgnore: ['**/*.br', '**/*.gz', 'assets/**'],
      });
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0]!;
    if (path.startsWith(ctx.cfg.apiBase + '/') || path === ctx.cfg.apiBase || req.method !== 'GET' || !hasSpa || /\.[a-z0-9]+$/i.test(path))
      return reply.status(404).send(fail('很抱歉，资源未找到!', 404));
    return sendIndex(reply);
  });
  // The route-declaration rule (DESIGN §6) is enforced at start: a route without `config.auth` is a bug.
  app.addHook('onReady', async () => {
    const missing = undeclared(routes);
    if (missing.length) throw new Error(`routes without an auth declaration: ${missing.map((r) => `${r.method} ${r.url}`).join(', ')}`);
  });
  return { app, routes };
}
