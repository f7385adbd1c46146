import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { ROOT, TMP } from '../helpers/template-db.js';

export const API = '/jeecg-boot';

export interface Proc {
  port: number;
  url: string;
  child: ChildProcess;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `server/main.ts` as its own OS process on 127.0.0.1:port against the given database. */
export async function spawnServer(port: number, databaseUrl: string, extraEnv: Record<string, string> = {}): Promise<Proc> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    DATA_DIR: join(TMP, `cluster-${port}`),
    LOG_LEVEL: 'error',
    CONFIG_FILE: '/nonexistent.json',
    ...extraEnv,
  };
  // Another process listening there would pass the health check in this server's place and take its requests
  // (a left-over server once made the fault tests write to another database).
  if (await listening(port)) throw new Error(`port ${port} is already taken by another process: stop it before running these tests`);
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, child);
  return {
    port,
    url,
    child,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      }),
  };
}

/** Whether something accepts connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

export async function waitHealthy(url: string, child?: ChildProcess, ms = 90_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      const r = await fetch(`${url}${API}/actuator/health`);
      if (r.ok) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline || (child && child.exitCode !== null)) throw new Error(`server ${url} did not become healthy`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function call(base: string, method: string, path: string, opts: { token?: string; body?: unknown } = {}) {
  const r = await fetch(`${base}${API}${path}`, {
    method,
    headers: { ...(opts.token ? { 'X-Access-Token': opts.token } : {}), ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
  });
  const text = await r.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: r.status, json };
}

export async function login(base: string, username: string, password = 'Observe#2026') {
  const r = await call(base, 'POST', '/sys/login', { body: { username, password } });
  if (r.json?.code !== 200) throw new Error(`login failed: ${JSON.stringify(r.json)}`);
  return { token: r.json.result.token as string, userId: r.json.result.userInfo.id as string };
}
