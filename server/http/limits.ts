import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import { BizError } from './envelope.js';

type Limiter = (req: FastifyRequest) => Promise<{ isAllowed: boolean; isExceeded?: boolean; ttlInSeconds?: number }>;

/**
 * Request budgets of the public API routes (@fastify/rate-limit), per client address (`req.ip`, see
 * `trustedProxies`) and over all addresses, per minute. Groups: `login` (password and SMS sign-in),
 * `sms` (sending codes, password reset, registration), `other` (every other public API route: captcha
 * image, logout, third-party stubs…). Counted in each process's memory: with N API processes the
 * effective budgets are N times larger (documented in README). The sign-in throttle proper — failures per
 * account and address — is in the database (server/auth/throttle.ts) and shared.
 */
export async function installRateLimits(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  const c = ctx.cfg.rateLimit;
  if (!c.enabled) return;
  await app.register(rateLimit, { global: false, timeWindow: 60_000 });
  const byAddress = (req: FastifyRequest) => req.ip;
  const all = () => 'all';
  const make = (max: number, keyGenerator: (req: FastifyRequest) => string) =>
    app.createRateLimit({ max, timeWindow: 60_000, keyGenerator }) as Limiter;
  const groups: Record<'login' | 'sms' | 'other', Limiter[]> = {
    login: [make(c.loginPerAddress, byAddress), make(c.loginGlobal, all)],
    sms: [make(c.smsPerAddress, byAddress), make(c.smsGlobal, all)],
    other: [make(c.otherPerAddress, byAddress), make(c.otherGlobal, all)],
  };
  const health = `${ctx.cfg.apiBase}/actuator/health`;
  app.addHook('onRequest', async (req, reply) => {
    const cfg = req.routeOptions.config;
    const url = req.routeOptions.url;
    if (cfg?.auth !== 'public' || !url || !url.startsWith(ctx.cfg.apiBase + '/') || url === health) return;
    for (const limit of groups[cfg.rateLimitGroup ?? 'other']) {
      const r = await limit(req);
      if (!r.isAllowed && r.isExceeded) {
        reply.header('Retry-After', String(Math.max(1, r.ttlInSeconds ?? 60)));
        throw new BizError('请求过于频繁，请稍后再试', 429, 429);
      }
    }
  });
}
