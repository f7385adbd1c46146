import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { BizError, Forbidden, Unauthorized } from './envelope.js';
import { resolveFileToken, resolveSession, type SessionUser } from '../auth/session.js';
import { issueFileToken } from '../auth/file-token.js';
import { hasScrapeToken } from '../ops/metrics.js';
import type { ServerContext } from '../context.js';

/**
 * Every route declares who may call it (DESIGN §6, default deny):
 * - 'public': anyone (login, captcha, health, static files);
 * - 'user': any signed-in user;
 * - a permission code, or a list of which any one suffices: signed-in users whose roles grant it.
 * A route without a declaration is refused at start-up (and, belt and braces, at request time).
 */
export type RouteAuth = 'public' | 'user' | string | string[];

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    /** A file GET a browser loads by URL (`<img src>`, a download link): `?token=` may carry a file token. */
    fileToken?: boolean;
    /** Which per-address and global request budget a public route draws on (server/http/limits.ts). */
    rateLimitGroup?: 'login' | 'sms' | 'other';
    /** A scraper may send `Authorization: Bearer <metrics.token>` instead of a session (server/ops/metrics.ts). */
    scrapeToken?: boolean;
  }
  interface FastifyRequest {
    user?: SessionUser;
  }
}

export interface DeclaredRoute {
  method: string;
  url: string;
  readonly auth: RouteAuth | undefined;
}

/**
 * The session token of a request: the `X-Access-Token` header, or for a websocket (which cannot send
 * headers) its subprotocol. Never a query parameter: URLs end up in logs, histories and Referer headers.
 */
export function tokenOf(req: FastifyRequest): string {
  const h = req.headers['x-access-token'];
  if (typeof h === 'string' && h) return h;
  const proto = req.headers['sec-websocket-protocol'];
  if (typeof proto === 'string' && proto) return proto.split(',')[0]!.trim();
  return '';
}

/** Whether a signed-in user satisfies a route's declaration. */
export function allows(user: SessionUser, auth: RouteAuth): boolean {
  if (auth === 'public' || auth === 'user') return true;
  const codes = Array.isArray(auth) ? auth : [auth];
  return codes.some((c) => user.perms.has(c));
}

/** Resolves the session for a request and applies the tenant header rule. Throws 401 when absent or invalid. */
export async function authenticate(ctx: ServerContext, req: FastifyRequest): Promise<SessionUser> {
  const header = tokenOf(req);
  const q = (req.query as Record<string, unknown> | undefined)?.token;
  // `?token=` only on file GETs, and only a file token (a session token there is refused like any unknown one).
  const s = header
    ? await resolveSession(ctx, header)
    : req.routeOptions.config?.fileToken && req.method === 'GET' && typeof q === 'string'
      ? await resolveFileToken(ctx, q)
      : null;
  if (!s) throw Unauthorized();
  const { sessionTenantId, ...rest } = s;
  let tenantId = sessionTenantId;
  const tenantHeader = req.headers['tenant-id'];
  if (typeof tenantHeader === 'string' && tenantHeader !== '' && tenantHeader !== '0' && tenantHeader !== 'undefined' && tenantHeader !== 'null') {
    const wanted = Number(tenantHeader);
    // The header may only narrow to a tenant the user belongs to; it never widens access.
    if (!Number.isInteger(wanted) || !s.tenantIds.includes(wanted)) throw new BizError('无权访问该租户的数据', 403, 403);
    tenantId = wanted;
  }
  return { ...rest, tenantId };
}

export function installGuard(app: FastifyInstance, ctx: ServerContext, declared: DeclaredRoute[]) {
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // CORS preflight (registered by @fastify/cors) carries no credentials and returns no data.
    if (route.url === '*' && methods.length === 1 && methods[0] === 'OPTIONS') route.config = { ...route.config, auth: 'public' };
    // Read the declaration lazily: a plugin's own onRoute hook may still set it after this one ran.
    for (const m of methods)
      if (m !== 'HEAD')
        declared.push({ method: m, url: route.url, get auth() { return route.config?.auth as RouteAuth | undefined; } });
  });
  app.addHook('onRequest', async (req, reply) => {
    const auth = req.routeOptions.config?.auth as RouteAuth | undefined;
    if (!req.routeOptions.url) return; // not found: the 404 handler answers
    if (auth === undefined) throw Forbidden('接口未声明访问权限，已拒绝');
    if (auth === 'public') return;
    if (req.routeOptions.config?.scrapeToken && hasScrapeToken(ctx.cfg, req.headers.authorization)) return;
    if (!ctx.ready) throw new BizError('系统正在启动，请稍候', 503, 503);
    req.user = await authenticate(ctx, req);
    if (!allows(req.user, auth)) throw Forbidden();
    // Every answer to a header-authenticated call carries a current file token (server/auth/file-token.ts),
    // which the browser puts into the URLs of images and downloads.
    const header = tokenOf(req);
    if (header && !req.headers.upgrade) reply.header('X-File-Token', issueFileToken(header, req.user.sessionId).token);
  });
}

export function undeclared(declared: DeclaredRoute[]): DeclaredRoute[] {
  return declared.filter((r) => r.auth === undefined || (Array.isArray(r.auth) && r.auth.length === 0));
}
