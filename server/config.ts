import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { S3Config } from './storage/s3.js';

/**
 * Runtime configuration. Environment variables win over `config.json` (path in CONFIG_FILE,
 * default ./config.json), which wins over the defaults below. Documented in README.md.
 */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  apiBase: string;
  timezone: string;
  /** Serve the built SPA from this folder when it exists. */
  staticDir: string;
  uploadDir: string;
  session: { idleMinutes: number; absoluteDays: number };
  /**
   * Sign-in throttling (server/auth/throttle.ts): failures within `windowMinutes` per account and per
   * address. No hard lock: past `delayAfterFailures` an account's next password attempt must wait
   * (1 s, doubling, at most `maxDelaySeconds`); SMS sign-in stays open. Per address the same, with the
   * far larger `address…` thresholds (a campus NAT address carries thousands of users).
   */
  login: {
    /** Failures of one account before a password attempt needs the proof-of-work challenge. */
    captchaAfterFailures: number;
    /** Every password attempt needs the challenge. */
    alwaysCaptcha: boolean;
    delayAfterFailures: number;
    maxDelaySeconds: number;
    addressCaptchaAfterFailures: number;
    addressDelayAfterFailures: number;
    addressMaxDelaySeconds: number;
    windowMinutes: number;
    /** Proof-of-work size: SHA-256 tries a solver needs at most (half on average); grows with the failures. */
    challengeMaxNumber: number;
  };
  /**
   * Requests per minute on the public sign-in routes (@fastify/rate-limit, counted in each process's
   * memory): per client address and over all addresses.
   */
  rateLimit: {
    enabled: boolean;
    loginPerAddress: number;
    loginGlobal: number;
    smsPerAddress: number;
    smsGlobal: number;
    otherPerAddress: number;
    otherGlobal: number;
  };
  /**
   * Addresses (IPs or CIDRs) of reverse proxies whose `X-Forwarded-For` is believed. Empty: the client
   * address is the socket's peer.
   */
  trustedProxies: string[];
  /** Extra origins allowed in frames (CSP `frame-src`), besides the product's own. */
  frameSources: string[];
  /** Seconds a client may take to send a whole request (headers and body); 0 = no limit. */
  requestTimeoutSeconds: number;
  /** SMS codes in the log and in the outbox screen: development only (no gateway needed to read them). */
  smsDevOutbox: boolean;
  corsOrigins: string[];
  signature: { enabled: boolean; secret: string };
  safeMode: boolean;
  /** Seed the demo university on first start. */
  seedDemo: boolean;
  logLevel: string;
  /** maxBytes: one file; quotaBytesPerUser: all stored files a user uploaded (0 = no quota). */
  upload: { maxBytes: number; quotaBytesPerUser: number };
  import: { maxBytes: number; maxRows: number };
  /** Whether the listener's name is shown to the observed teacher. */
  showListenerToTeacher: boolean;
  /** Role codes a department administrator (a user administrator narrowed by data rules) may grant. */
  userAdmin: { deptAdminRoles: string[] };
  /**
   * Where uploaded files live (server/storage, docs/deploy.md): `local` (uploadDir), `db` (PostgreSQL
   * chunks), `s3` (an S3-compatible store). `auto`: `db` with DATABASE_URL, else `local`.
   */
  storage: { kind: 'auto' | 'local' | 'db' | 's3'; s3: S3Config };
  /** `npm run backup` and the nightly backup job (server/ops/backup.ts): the folder, and how many archives to keep. */
  backup: { dir: string; keep: number };
  /** GET /metrics (Prometheus): a bearer token that may scrape it, besides users holding `monitor:metrics`. Empty: users only. */
  metrics: { token: string };
}

const defaults: AppConfig = {
  port: 8080,
  host: '0.0.0.0',
  dataDir: './data',
  apiBase: '/jeecg-boot',
  timezone: 'Asia/Shanghai',
  staticDir: './dist',
  uploadDir: '',
  session: { idleMinutes: 120, absoluteDays: 7 },
  login: {
    captchaAfterFailures: 3,
    alwaysCaptcha: false,
    delayAfterFailures: 5,
    maxDelaySeconds: 300,
    addressCaptchaAfterFailures: 30,
    addressDelayAfterFailures: 200,
    addressMaxDelaySeconds: 60,
    windowMinutes: 60,
    challengeMaxNumber: 50_000,
  },
  rateLimit: { enabled: true, loginPerAddress: 3000, loginGlobal: 12000, smsPerAddress: 60, smsGlobal: 600, otherPerAddress: 3000, otherGlobal: 12000 },
  trustedProxies: [],
  frameSources: [],
  requestTimeoutSeconds: 120,
  smsDevOutbox: false,
  corsOrigins: [],
  // No shipped secret (JeecgBoot #9491): signing on without `signature.secret` refuses signed paths.
  signature: { enabled: false, secret: '' },
  safeMode: false,
  seedDemo: true,
  logLevel: 'info',
  upload: { maxBytes: 10 * 1024 * 1024, quotaBytesPerUser: 512 * 1024 * 1024 },
  import: { maxBytes: 20 * 1024 * 1024, maxRows: 100_000 },
  showListenerToTeacher: true,
  userAdmin: { deptAdminRoles: ['teacher', 'secretary', 'leader'] },
  storage: { kind: 'auto', s3: { endpoint: '', region: 'us-east-1', bucket: '', accessKeyId: '', secretAccessKey: '', forcePathStyle: true, prefix: '' } },
  backup: { dir: '', keep: 7 },
  metrics: { token: '' },
};

function deepMerge<T>(base: T, over: unknown): T {
  if (!over || typeof over !== 'object' || Array.isArray(over)) return base;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(over as Record<string, unknown>)) {
    if (k === '__proto__' || k === 'constructor' || k === 'prototype') continue;
    const cur = out[k];
    out[k] = cur && typeof cur === 'object' && !Array.isArray(cur) ? deepMerge(cur, v) : v;
  }
  return out as T;
}

export function loadConfig(overrides: Partial<AppConfig> = {}, env: NodeJS.ProcessEnv = process.env): AppConfig {
  const file = resolve(env.CONFIG_FILE ?? 'config.json');
  let cfg = defaults;
  if (existsSync(file)) cfg = deepMerge(cfg, JSON.parse(readFileSync(file, 'utf8')));
  const fromEnv: Partial<AppConfig> = {};
  if (env.PORT) fromEnv.port = Number(env.PORT);
  if (env.HOST) fromEnv.host = env.HOST;
  if (env.DATA_DIR) fromEnv.dataDir = env.DATA_DIR;
  if (env.DATABASE_URL) fromEnv.databaseUrl = env.DATABASE_URL;
  if (env.API_BASE) fromEnv.apiBase = env.API_BASE;
  if (env.LOG_LEVEL) fromEnv.logLevel = env.LOG_LEVEL;
  if (env.TRUSTED_PROXIES) fromEnv.trustedProxies = env.TRUSTED_PROXIES.split(',').map((x) => x.trim()).filter(Boolean);
  if (env.SMS_DEV_OUTBOX) fromEnv.smsDevOutbox = env.SMS_DEV_OUTBOX === 'true' || env.SMS_DEV_OUTBOX === '1';
  if (env.FILE_STORAGE) fromEnv.storage = { kind: env.FILE_STORAGE as AppConfig['storage']['kind'] } as AppConfig['storage'];
  const s3: Partial<S3Config> = {};
  if (env.S3_ENDPOINT) s3.endpoint = env.S3_ENDPOINT;
  if (env.S3_REGION) s3.region = env.S3_REGION;
  if (env.S3_BUCKET) s3.bucket = env.S3_BUCKET;
  if (env.S3_ACCESS_KEY_ID) s3.accessKeyId = env.S3_ACCESS_KEY_ID;
  if (env.S3_SECRET_ACCESS_KEY) s3.secretAccessKey = env.S3_SECRET_ACCESS_KEY;
  if (env.S3_FORCE_PATH_STYLE) s3.forcePathStyle = env.S3_FORCE_PATH_STYLE === 'true' || env.S3_FORCE_PATH_STYLE === '1';
  if (env.S3_PREFIX) s3.prefix = env.S3_PREFIX;
  if (Object.keys(s3).length) fromEnv.storage = { ...(fromEnv.storage ?? {}), s3 } as AppConfig['storage'];
  if (env.BACKUP_DIR) fromEnv.backup = { dir: env.BACKUP_DIR } as AppConfig['backup'];
  if (env.METRICS_TOKEN) fromEnv.metrics = { token: env.METRICS_TOKEN };
  cfg = deepMerge(deepMerge(cfg, fromEnv), overrides);
  if (!cfg.uploadDir) cfg.uploadDir = resolve(cfg.dataDir, 'upload');
  if (!cfg.backup.dir) cfg.backup.dir = resolve(cfg.dataDir, 'backup');
  cfg.apiBase = '/' + cfg.apiBase.replace(/^\/+|\/+$/g, '');
  return cfg;
}
