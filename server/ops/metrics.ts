import type { FastifyInstance } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AppConfig } from '../config.js';
import type { ServerContext } from '../context.js';

/** What the database reports about its connections: the pg Pool's counts, or PGlite's queries in flight. */
export interface DbStats {
  total: number;
  idle: number;
  waiting: number;
}

interface ProcessMetrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  latency: Histogram<'method' | 'route'>;
  jobRuns: Counter<'job' | 'status'>;
  jobFailures: Counter<'job'>;
  dbStats?: () => DbStats;
  sockets?: () => number;
}

const byConfig = new WeakMap<object, ProcessMetrics>();

/**
 * This process's Prometheus metrics (prom-client), one registry per server (tests run several servers
 * in one process). In a cluster each API process exposes its own figures: scrape every process.
 */
function metricsOf(cfg: AppConfig): ProcessMetrics {
  const m = byConfig.get(cfg);
  if (m) return m;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const self: ProcessMetrics = {
    registry,
    requests: new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by route pattern and status', labelNames: ['method', 'route', 'status'], registers: [registry] }),
    latency: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route pattern',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    jobRuns: new Counter({ name: 'job_runs_total', help: 'Scheduled job runs taken by this process, by handler and outcome', labelNames: ['job', 'status'], registers: [registry] }),
    jobFailures: new Counter({ name: 'job_failures_total', help: 'Scheduled job runs that failed, by handler', labelNames: ['job'], registers: [registry] }),
  };
  const db = (field: keyof DbStats) => () => self.dbStats?.()[field] ?? 0;
  new Gauge({ name: 'db_pool_connections', help: 'Database connections open (pg Pool; PGlite: 1)', registers: [registry], collect() { this.set(db('total')()); } });
  new Gauge({ name: 'db_pool_idle', help: 'Database connections idle in the pool', registers: [registry], collect() { this.set(db('idle')()); } });
  new Gauge({ name: 'db_pool_waiting', help: 'Queries waiting for a connection (pg Pool) or queued on PGlite', registers: [registry], collect() { this.set(db('waiting')()); } });
  new Gauge({ name: 'websocket_connections', help: 'Open websocket connections on this process', registers: [registry], collect() { this.set(self.sockets?.() ?? 0); } });
  byConfig.set(cfg, self);
  return self;
}

/** Tells the metrics how to read the database's connection figures (start.ts). */
export function attachDbStats(cfg: AppConfig, stats: (() => DbStats) | undefined): void {
  metricsOf(cfg).dbStats = stats;
}

/** Counts one scheduled job run (server/sys/jobs). */
export function observeJobRun(cfg: AppConfig, job: string, status: string): void {
  const m = metricsOf(cfg);
  m.jobRuns.inc({ job, status });
  if (status === 'fail') m.jobFailures.inc({ job });
}

function sameSecret(given: string, want: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(want);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether the request carries the configured scrape token (`Authorization: Bearer <metrics.token>`); never with no token configured. */
export function hasScrapeToken(cfg: AppConfig, authorization: string | undefined): boolean {
  const want = cfg.metrics.token;
  const m = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  return !!want && !!m && sameSecret(m[1]!, want);
}

/** The permission that may read /actuator/prometheus (a button of 系统信息). */
export const METRICS_PERMISSION = 'monitor:system:metrics';

/**
 * GET /actuator/prometheus: this process's metrics in the Prometheus text format. Requests are counted
 * by route pattern (`/sys/user/list`, `/sys/common/static/*` — never the raw URL) and status.
 */
export async function registerMetrics(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  const m = metricsOf(ctx.cfg);
  const ws = (api as FastifyInstance & { websocketServer?: { clients: Set<unknown> } }).websocketServer;
  if (ws) m.sockets = () => ws.clients.size;
  // Every API route (this hook sees the routes under the context path; health checks are not counted).
  api.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    m.requests.inc({ method: req.method, route, status: String(reply.statusCode) });
    m.latency.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });
  api.get('/actuator/prometheus', { config: { auth: METRICS_PERMISSION, scrapeToken: true } }, async (_req, reply) => {
    reply.header('Content-Type', m.registry.contentType);
    reply.header('Cache-Control', 'no-store');
    return m.registry.metrics();
  });
}
