import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import os from 'node:os';
import v8 from 'node:v8';
import type { ServerContext } from '../context.js';
import { readCacheOf } from '../db/read-cache.js';
import { fail, Forbidden, ok } from '../http/envelope.js';
import { allows } from '../http/guard.js';
import { fmt } from '../util.js';
import { httpStatsOf } from './monitor.js';

/**
 * The monitoring calls of the stock JeecgBoot 3.4 screens (系统信息, JVM, Tomcat, Redis), answered in
 * Spring Actuator / JeecgBoot shapes from the Node.js and PostgreSQL figures this server has
 * (docs/jeecg-compat.md). Our own screens use /sys/actuator/{system,node,http,database} (monitor.ts).
 */

interface Measurement {
  statistic: string;
  value: number;
}
interface Metric {
  description: string;
  baseUnit: string | null;
  measurements: Measurement[];
  availableTags?: Array<{ tag: string; values: string[] }>;
}
type MetricSource = (ctx: ServerContext) => Promise<Metric> | Metric;

const value = (v: number, description: string, baseUnit: string | null = null, availableTags: Metric['availableTags'] = []): Metric => ({
  description,
  baseUnit,
  measurements: [{ statistic: 'VALUE', value: Number.isFinite(v) ? v : 0 }],
  availableTags,
});
const HEAP_TAGS = [{ tag: 'area', values: ['heap'] }, { tag: 'id', values: ['V8 heap'] }];
/** libuv's thread pool (UV_THREADPOOL_SIZE, default 4) plus the main thread: Node's "threads". */
const poolSize = () => Math.max(1, Number(process.env.UV_THREADPOOL_SIZE) || 4);
const oldSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space');

/** CPU usage of the machine and of this process over ~100 ms. */
async function cpuSample(): Promise<{ system: number; process: number }> {
  const snap = () => os.cpus().reduce((a, c) => ({ idle: a.idle + c.times.idle, total: a.total + Object.values(c.times).reduce((x, y) => x + y, 0) }), { idle: 0, total: 0 });
  const a = snap();
  const pa = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, 100));
  const b = snap();
  const pb = process.cpuUsage(pa);
  const elapsedUs = Number(process.hrtime.bigint() - t0) / 1000;
  const total = b.total - a.total;
  return {
    system: total > 0 ? 1 - (b.idle - a.idle) / total : 0,
    process: elapsedUs > 0 ? Math.min(1, (pb.user + pb.system) / elapsedUs / os.cpus().length) : 0,
  };
}

/** Sign-in sessions: what Tomcat's servlet sessions are to JeecgBoot (its clients are stateless too). */
async function sessionFigures(ctx: ServerContext) {
  const since = httpStatsOf(ctx)?.since ?? new Date(Date.now() - process.uptime() * 1000);
  const ts = fmt(new Date());
  const r = await sql<{ created: string; expired: string; active: string; alive: string | null }>`
    select count(*) filter (where created_at >= ${fmt(since)}) as created,
           count(*) filter (where created_at >= ${fmt(since)} and (revoked_at is not null or expires_at < ${ts})) as expired,
           count(*) filter (where revoked_at is null and (expires_at is null or expires_at >= ${ts})) as active,
           max(extract(epoch from (coalesce(revoked_at, expires_at) - created_at))) filter (where revoked_at is not null or expires_at < ${ts}) as alive
    from sys_session`.execute(ctx.db);
  const row = r.rows[0]!;
  return { created: Number(row.created), expired: Number(row.expired), active: Number(row.active), alive: Number(row.alive ?? 0) };
}
let activeMax = 0;

const METRICS: Record<string, { perm: string; read: MetricSource }> = {
  'system.cpu.count': { perm: 'monitor:system:list', read: () => value(os.cpus().length, 'The number of processors available to the Node.js process') },
  'system.cpu.usage': { perm: 'monitor:system:list', read: async () => value((await cpuSample()).system, 'The "recent cpu usage" of the system the application is running in') },
  'process.cpu.usage': { perm: 'monitor:system:list', read: async () => value((await cpuSample()).process, 'The "recent cpu usage" for the Node.js process') },
  'process.start.time': { perm: 'monitor:system:list', read: () => value(Date.now() / 1000 - process.uptime(), 'Start time of the process since unix epoch.', 'seconds') },
  'process.uptime': { perm: 'monitor:system:list', read: () => value(process.uptime(), 'The uptime of the Node.js process', 'seconds') },
  'system.load.average.1m': { perm: 'monitor:system:list', read: () => value(os.loadavg()[0]!, 'The sum of the number of runnable entities queued to available processors and running, averaged over a period of time') },

  'jvm.memory.max': { perm: 'monitor:jvm:list', read: () => value(v8.getHeapStatistics().heap_size_limit, 'The maximum amount of memory in bytes that can be used for memory management (V8 heap limit)', 'bytes', HEAP_TAGS) },
  'jvm.memory.committed': { perm: 'monitor:jvm:list', read: () => value(process.memoryUsage().heapTotal, 'The amount of memory in bytes that is committed for the V8 heap', 'bytes', HEAP_TAGS) },
  'jvm.memory.used': { perm: 'monitor:jvm:list', read: () => value(process.memoryUsage().heapUsed, 'The amount of used V8 heap memory', 'bytes', HEAP_TAGS) },
  'jvm.buffer.memory.used': { perm: 'monitor:jvm:list', read: () => value(process.memoryUsage().arrayBuffers, 'Memory used by ArrayBuffers and Buffers', 'bytes') },
  'jvm.buffer.total.capacity': { perm: 'monitor:jvm:list', read: () => value(process.memoryUsage().external, 'Memory of C++ objects bound to JavaScript objects (external)', 'bytes') },
  'jvm.buffer.count': { perm: 'monitor:jvm:list', read: () => value(process.getActiveResourcesInfo().length, 'Active handles and requests of the event loop', 'buffers') },
  'jvm.threads.daemon': { perm: 'monitor:jvm:list', read: () => value(poolSize(), 'The libuv thread pool size', 'threads') },
  'jvm.threads.live': { perm: 'monitor:jvm:list', read: () => value(poolSize() + 1, 'The main thread plus the libuv thread pool', 'threads') },
  'jvm.threads.peak': { perm: 'monitor:jvm:list', read: () => value(poolSize() + 1, 'The peak thread count (main thread plus the libuv thread pool)', 'threads') },
  'jvm.classes.loaded': { perm: 'monitor:jvm:list', read: () => value(v8.getHeapStatistics().number_of_native_contexts, 'V8 native contexts (Node.js loads no classes)', 'classes') },
  'jvm.classes.unloaded': { perm: 'monitor:jvm:list', read: () => value(v8.getHeapStatistics().number_of_detached_contexts, 'V8 detached contexts', 'classes') },
  'jvm.gc.memory.allocated': { perm: 'monitor:jvm:list', read: () => value(v8.getHeapStatistics().total_heap_size, 'Size of the V8 heap allocated so far', 'bytes') },
  'jvm.gc.memory.promoted': { perm: 'monitor:jvm:list', read: () => value(oldSpace()?.space_used_size ?? 0, 'Bytes held in the old generation (V8 old space)', 'bytes') },
  'jvm.gc.max.data.size': { perm: 'monitor:jvm:list', read: () => value((oldSpace()?.space_size ?? 0) + (oldSpace()?.space_available_size ?? 0), 'Max size of the old generation memory pool', 'bytes') },
  'jvm.gc.live.data.size': { perm: 'monitor:jvm:list', read: () => value(oldSpace()?.space_used_size ?? 0, 'Size of the old generation memory pool after a full GC', 'bytes') },
  'jvm.gc.pause': {
    perm: 'monitor:jvm:list',
    read: (ctx) => {
      const gc = httpStatsOf(ctx)?.gc ?? { count: 0, totalMs: 0, lastMs: 0 };
      return {
        description: 'Time spent in GC pause',
        baseUnit: 'seconds',
        measurements: [{ statistic: 'COUNT', value: gc.count }, { statistic: 'TOTAL_TIME', value: gc.totalMs / 1000 }, { statistic: 'MAX', value: gc.lastMs / 1000 }],
        availableTags: [{ tag: 'action', values: ['end of minor GC', 'end of major GC'] }],
      };
    },
  },

  'tomcat.sessions.created': { perm: 'monitor:tomcat:list', read: async (ctx) => value((await sessionFigures(ctx)).created, 'Sign-in sessions created since the server started', 'sessions') },
  'tomcat.sessions.expired': { perm: 'monitor:tomcat:list', read: async (ctx) => value((await sessionFigures(ctx)).expired, 'Sign-in sessions of this run that expired or were revoked', 'sessions') },
  'tomcat.sessions.active.current': {
    perm: 'monitor:tomcat:list',
    read: async (ctx) => {
      const { active } = await sessionFigures(ctx);
      activeMax = Math.max(activeMax, active);
      return value(active, 'Sign-in sessions active now', 'sessions');
    },
  },
  'tomcat.sessions.active.max': {
    perm: 'monitor:tomcat:list',
    read: async (ctx) => value((activeMax = Math.max(activeMax, (await sessionFigures(ctx)).active)), 'Most sign-in sessions seen active at once', 'sessions'),
  },
  'tomcat.sessions.alive.max': { perm: 'monitor:tomcat:list', read: async (ctx) => value((await sessionFigures(ctx)).alive, 'Longest time an ended sign-in session was alive', 'seconds') },
  'tomcat.sessions.rejected': {
    perm: 'monitor:tomcat:list',
    read: async (ctx) => {
      const r = await sql<{ n: string }>`select count(*) as n from sys_login_attempt where locked_until >= ${fmt(new Date())}`.execute(ctx.db);
      return value(Number(r.rows[0]?.n ?? 0), 'Accounts or addresses locked out of signing in now', 'sessions');
    },
  },
  'http.server.requests': {
    perm: 'monitor:tomcat:list',
    read: (ctx) => {
      const s = httpStatsOf(ctx);
      const lat = s?.latencies ?? [];
      return {
        description: 'HTTP requests served since the server started (time over the last 1000)',
        baseUnit: 'seconds',
        measurements: [
          { statistic: 'COUNT', value: s?.total ?? 0 },
          { statistic: 'TOTAL_TIME', value: lat.reduce((a, b) => a + b, 0) / 1000 },
          { statistic: 'MAX', value: (lat.length ? Math.max(...lat) : 0) / 1000 },
        ],
        availableTags: [{ tag: 'status', values: Object.keys(s?.status ?? {}) }],
      };
    },
  },
};
const METRIC_PERMS = [...new Set(Object.values(METRICS).map((m) => m.perm))];

/** Figures of the database and the read cache: what the stock Redis screen shows. */
async function storeFigures(ctx: ServerContext) {
  const ts = fmt(new Date());
  const [size, version, conns, hit, sessions] = await Promise.all([
    sql<{ bytes: string }>`select pg_database_size(current_database()) as bytes`.execute(ctx.db),
    sql<{ v: string }>`select current_setting('server_version') as v`.execute(ctx.db),
    sql<{ n: string }>`select count(*) as n from pg_stat_activity where datname = current_database()`.execute(ctx.db).catch(() => ({ rows: [{ n: '1' }] })),
    sql<{ hit: string | null; read: string | null }>`select blks_hit as hit, blks_read as read from pg_stat_database where datname = current_database()`
      .execute(ctx.db)
      .catch(() => ({ rows: [] as Array<{ hit: string | null; read: string | null }> })),
    sql<{ n: string }>`select count(*) as n from sys_session where revoked_at is null and (expires_at is null or expires_at >= ${ts})`.execute(ctx.db),
  ]);
  return {
    kind: ctx.dbKind === 'pg' ? 'PostgreSQL' : 'PGlite',
    version: version.rows[0]?.v ?? '',
    bytes: Number(size.rows[0]?.bytes ?? 0),
    connections: Number(conns.rows[0]?.n ?? 0),
    hits: Number(hit.rows[0]?.hit ?? 0),
    misses: Number(hit.rows[0]?.read ?? 0),
    cacheEntries: readCacheOf(ctx.db)?.size ?? 0,
    sessions: Number(sessions.rows[0]?.n ?? 0),
  };
}

export async function registerJeecgCompatMonitor(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  /** Spring Actuator's metric names (no envelope). */
  api.get('/actuator/metrics', { config: { auth: METRIC_PERMS } }, async (req) => ({
    names: Object.entries(METRICS).filter(([, m]) => allows(req.user!, m.perm)).map(([n]) => n).sort(),
  }));

  /** One metric, Spring Actuator's shape without an envelope; each name behind its screen's permission. */
  api.get('/actuator/metrics/:name', { config: { auth: METRIC_PERMS } }, async (req: FastifyRequest, reply) => {
    const { name } = req.params as { name: string };
    const m = Object.prototype.hasOwnProperty.call(METRICS, name) ? METRICS[name] : undefined;
    if (!m) return reply.status(404).send(fail('很抱歉，资源未找到!', 404));
    if (!allows(req.user!, m.perm)) throw Forbidden();
    const { description, baseUnit, measurements, availableTags } = await m.read(ctx);
    return { name, description, baseUnit, measurements, availableTags: availableTags ?? [] };
  });

  const redis = { config: { auth: 'monitor:redis:list' } };
  /** JeecgBoot: a raw {dbSize, create_time}. Here: read-cache entries plus live sign-in sessions (what JeecgBoot keeps in Redis). */
  api.get('/sys/actuator/redis/keysSize', redis, async () => {
    const f = await storeFigures(ctx);
    return { dbSize: f.cacheEntries + f.sessions, create_time: Date.now() };
  });
  /** JeecgBoot: a raw {used_memory, create_time}. Here: the database's size in bytes. */
  api.get('/sys/actuator/redis/memoryInfo', redis, async () => ({ used_memory: (await storeFigures(ctx)).bytes, create_time: Date.now() }));
  /** JeecgBoot: Result of [{key, value, description}] (Redis INFO); here the same rows from the database and the read cache. */
  api.get('/sys/actuator/redis/info', redis, async () => {
    const f = await storeFigures(ctx);
    const rows: Array<[string, string | number, string]> = [
      ['redis_version', `${f.kind} ${f.version}`, '数据库版本（本系统以 PostgreSQL 代替 Redis）'],
      ['redis_mode', ctx.dbKind === 'pg' ? 'standalone' : 'embedded', '运行模式'],
      ['os', `${os.type()} ${os.release()} ${os.arch()}`, '服务器操作系统'],
      ['process_id', process.pid, '服务进程号'],
      ['uptime_in_seconds', Math.round(process.uptime()), '服务已运行秒数'],
      ['uptime_in_days', Math.floor(process.uptime() / 86400), '服务已运行天数'],
      ['connected_clients', f.connections, '数据库连接数'],
      ['used_memory', f.bytes, '数据库占用空间（字节）'],
      ['used_memory_human', `${(f.bytes / 1024 / 1024).toFixed(2)}M`, '数据库占用空间（可读）'],
      ['db_keys', f.cacheEntries + f.sessions, '缓存条目数 + 有效登录会话数'],
      ['cache_entries', f.cacheEntries, '查询缓存条目数'],
      ['login_sessions', f.sessions, '有效登录会话数'],
      ['keyspace_hits', f.hits, '数据块缓存命中次数'],
      ['keyspace_misses', f.misses, '数据块缓存未命中次数'],
    ];
    return ok(rows.map(([key, v, description]) => ({ key, value: String(v), description })));
  });
}
