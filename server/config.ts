import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

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
  login: {
    captchaAfterFailures: number;
    alwaysCaptcha: boolean;
    lockAfterFailures: number;
    lockMinutes: number;
  };
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
  login: { captchaAfterFailures: 3, alwaysCaptcha: false, lockAfterFailures: 10, lockMinutes: 15 },
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
  cfg = deepMerge(deepMerge(cfg, fromEnv), overrides);
  if (!cfg.uploadDir) cfg.uploadDir = resolve(cfg.dataDir, 'upload');
  cfg.apiBase = '/' + cfg.apiBase.replace(/^\/+|\/+$/g, '');
  return cfg;
}
