import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import os from 'node:os';
import { statfs } from 'node:fs/promises';
import { resolve } from 'node:path';
import v8 from 'node:v8';
import { monitorEventLoopDelay, PerformanceObserver, type IntervalHistogram } from 'node:perf_hooks';
import type { ServerContext } from '../context.js';
import { ok } from '../http/envelope.js';
import { fmt } from '../util.js';
import { safeUrl } from './log.js';
import { hubOf } from './notify.js';

/** Recent requests and counters of one server, fed by an onResponse hook. */
class HttpStats {
  readonly traces: Array<{ timestamp: string; request: { method: string; uri: string; remoteAddress: string }; response: { status: number }; timeTaken: number }> = [];
  readonly latencies: number[] = [];
  total = 0;
  inFlight = 0;
  status: Record<string, number> = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
  readonly since = new Date();
  loop?: IntervalHistogram;
  gc = { count: 0, totalMs: 0, lastMs: 0 };
  gcObserver?: PerformanceObserver;

  record(method: string, url: string, ip: string, status: number, ms: number) {
    this.total++;
    const cls = `${Math.floor(status / 100)}xx`;
    this.status[cls] = (this.status[cls] ?? 0) + 1;
    this.latencies.push(ms);
    if (this.latencies.length > 1000) this.latencies.shift();
    this.traces.unshift({ timestamp: fmt(new Date()), request: { method, uri: safeUrl(url), remoteAddress: ip }, response: { status }, timeTaken: Math.round(ms) });
    if (this.traces.length > 100) this.traces.pop();
  }

  percentile(p: number) {
    if (!this.latencies.length) return 0;
    const s = [...this.latencies].sort((a, b) => a - b);
    return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 10) / 10;
  }
}

const statsByServer = new WeakMap<object, HttpStats>();
/** The HTTP figures of a server (the Actuator metrics of sys/jeecg-compat-monitor.ts read them). */
export const httpStatsOf = (ctx: ServerContext): HttpStats | undefined => statsByServer.get(ctx.cfg);
export type { HttpStats };
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const mb = (n: number) => round(n / 1024 / 1024);

/** CPU usage of the whole machine over ~100 ms (os.cpus deltas). */
async function cpuUsage(): Promise<number> {
  const snap = () => os.cpus().reduce((a, c) => ({ idle: a.idle + c.times.idle, total: a.total + Object.values(c.times).reduce((x, y) => x + y, 0) }), { idle: 0, total: 0 });
  const a = snap();
  await new Promise((r) => setTimeout(r, 100));
  const b = snap();
  const total = b.total - a.total;
  return total > 0 ? round(1 - (b.idle - a.idle) / total, 4) : 0;
}

export async function registerMonitor(api: FastifyInstance, ctx: ServerContext) {
  const stats = new HttpStats();
  statsByServer.set(ctx.cfg, stats);

  api.addHook('onRequest', async () => {
    stats.inFlight++;
  });
  api.addHook('onResponse', async (req, reply) => {
    stats.inFlight = Math.max(0, stats.inFlight - 1);
    stats.record(req.method, req.url, req.ip, reply.statusCode, reply.elapsedTime);
  });
  api.addHook('onReady', async () => {
    stats.loop = monitorEventLoopDelay({ resolution: 20 });
    stats.loop.enable();
    stats.gcObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        stats.gc.count++;
        stats.gc.totalMs += e.duration;
        stats.gc.lastMs = e.duration;
      }
    });
    stats.gcObserver.observe({ entryTypes: ['gc'] });
  });
  api.addHook('onClose', async () => {
    stats.loop?.disable();
    stats.gcObserver?.disconnect();
  });

  api.get('/sys/actuator/system', { config: { auth: 'monitor:system:list' } }, async () => {
    const mem = process.memoryUsage();
    const total = os.totalmem();
    const free = os.freemem();
    return ok({
      hostname: os.hostname(),
      platform: `${os.type()} ${os.release()} (${os.arch()})`,
      cpuCount: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? '',
      cpuUsage: await cpuUsage(),
      processCpu: process.cpuUsage(),
      loadAverage: os.loadavg().map((x) => round(x)),
      memoryTotalMb: mb(total),
      memoryFreeMb: mb(free),
      // Rounded on its own: the difference of the two rounded figures shows float noise (1388.6500000000015).
      memoryUsedMb: mb(total - free),
      memoryUsage: round(1 - free / total, 4),
      processRssMb: mb(mem.rss),
      systemUptimeSeconds: Math.round(os.uptime()),
      processUptimeSeconds: Math.round(process.uptime()),
      processStartTime: fmt(new Date(Date.now() - process.uptime() * 1000)),
      nodeVersion: process.version,
      timezone: ctx.cfg.timezone,
    });
  });

  /** JeecgBoot contract: [{name, max, rest, restPPT}] (bytes; restPPT = used percentage). */
  api.get('/sys/actuator/redis/queryDiskInfo', { config: { auth: 'monitor:disk:list' } }, async () => {
    const dirs = [...new Set([resolve(ctx.cfg.dataDir), resolve(ctx.cfg.uploadDir), resolve('/')])];
    const seen = new Set<string>();
    const out: Array<{ name: string; max: number; rest: number; restPPT: number }> = [];
    for (const d of dirs) {
      const s = await statfs(d).catch(() => undefined);
      if (!s) continue;
      const max = s.blocks * s.bsize;
      const rest = s.bavail * s.bsize;
      const key = `${max}:${s.type}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ name: d, max, rest, restPPT: max > 0 ? Math.round(((max - rest) / max) * 100) : 0 });
    }
    return ok(out);
  });

  /** The HTTP trace (contract: Actuator httptrace). No headers: tokens and cookies never leave the server. */
  api.get('/actuator/httptrace', { config: { auth: 'monitor:httpTrace:list' } }, async () => ({ traces: stats.traces }));

  /** The Node.js runtime (the spec's "JVM" page). */
  api.get('/sys/actuator/node', { config: { auth: 'monitor:jvm:list' } }, async () => {
    const mem = process.memoryUsage();
    const heap = v8.getHeapStatistics();
    const loop = stats.loop;
    const resources = process.getActiveResourcesInfo();
    const byKind: Record<string, number> = {};
    for (const r of resources) byKind[r] = (byKind[r] ?? 0) + 1;
    return ok({
      nodeVersion: process.version,
      v8Version: process.versions.v8,
      pid: process.pid,
      uptimeSeconds: Math.round(process.uptime()),
      heapUsedMb: mb(mem.heapUsed),
      heapTotalMb: mb(mem.heapTotal),
      heapLimitMb: mb(heap.heap_size_limit),
      rssMb: mb(mem.rss),
      externalMb: mb(mem.external),
      arrayBuffersMb: mb(mem.arrayBuffers),
      eventLoopDelayMs: loop
        ? { mean: round(loop.mean / 1e6), p50: round(loop.percentile(50) / 1e6), p99: round(loop.percentile(99) / 1e6), max: round(loop.max / 1e6) }
        : null,
      gc: { count: stats.gc.count, totalMs: round(stats.gc.totalMs), lastMs: round(stats.gc.lastMs) },
      activeHandles: resources.length,
      activeHandlesByKind: byKind,
    });
  });

  /** The database (the spec's "Redis" page): size, connections, largest tables, cache hit ratio. */
  api.get('/sys/actuator/database', { config: { auth: 'monitor:redis:list' } }, async () => {
    const db = ctx.db;
    const [size, version, conns, hit, tables] = await Promise.all([
      sql<{ bytes: string }>`select pg_database_size(current_database()) as bytes`.execute(db),
      sql<{ v: string }>`select version() as v`.execute(db),
      sql<{ total: string; active: string }>`select count(*) as total, count(*) filter (where state = 'active') as active from pg_stat_activity where datname = current_database()`
        .execute(db)
        .catch(() => ({ rows: [] as Array<{ total: string; active: string }> })),
      sql<{ hit: string | null; read: string | null }>`select blks_hit as hit, blks_read as read from pg_stat_database where datname = current_database()`
        .execute(db)
        .catch(() => ({ rows: [] as Array<{ hit: string | null; read: string | null }> })),
      sql<{ name: string; bytes: string; rows: string }>`
        select c.relname as name, pg_total_relation_size(c.oid) as bytes, c.reltuples::bigint as rows
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind = 'r' and n.nspname = 'public' order by pg_total_relation_size(c.oid) desc limit 20`.execute(db),
    ]);
    const h = Number(hit.rows[0]?.hit ?? 0);
    const r = Number(hit.rows[0]?.read ?? 0);
    return ok({
      kind: ctx.dbKind === 'pg' ? 'PostgreSQL' : 'PGlite（嵌入式PostgreSQL）',
      version: version.rows[0]?.v ?? '',
      sizeBytes: Number(size.rows[0]?.bytes ?? 0),
      connections: Number(conns.rows[0]?.total ?? 0),
      activeConnections: Number(conns.rows[0]?.active ?? 0),
      cacheHitRatio: h + r > 0 ? round(h / (h + r), 4) : null,
      tables: tables.rows.map((t) => ({ name: t.name, bytes: Number(t.bytes), rows: Math.max(0, Number(t.rows)) })),
      time: fmt(new Date()),
    });
  });

  /** The HTTP server (the spec's "Tomcat" page): requests, connections, status classes, latency percentiles. */
  api.get('/sys/actuator/http', { config: { auth: 'monitor:tomcat:list' } }, async () => {
    const connections = await new Promise<number>((res) => {
      const srv = api.server;
      if (!srv?.listening) return res(0);
      srv.getConnections((err, n) => res(err ? 0 : n));
    });
    return ok({
      since: fmt(stats.since),
      requests: stats.total,
      inFlight: stats.inFlight,
      connections,
      // The notice sockets (/websocket/{userId}) open on this server, and their users.
      sockets: hubOf(ctx).clients.size,
      socketUsers: new Set([...hubOf(ctx).clients].map((c) => c.userId)).size,
      status: stats.status,
      latencyMs: { p50: stats.percentile(50), p90: stats.percentile(90), p99: stats.percentile(99), max: stats.percentile(100) },
      time: fmt(new Date()),
    });
  });
}
