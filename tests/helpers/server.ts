import { afterAll, beforeAll, inject as vitestInject } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig, type AppConfig } from '../../server/config.js';
import { startServer, type Running } from '../../server/start.js';
import { copyTemplate, dropCopy } from './template-db.js';

export const API = '/jeecg-boot';
export const DEMO_PASSWORD = 'Observe#2026';

export interface TestServer {
  running: Running;
  cfg: AppConfig;
  /** A request through the whole stack (hooks, guard, handlers), without a socket. */
  call(opts: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  get(url: string, token?: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  post(url: string, body: unknown, token?: string): Promise<LightMyRequestResponse>;
  put(url: string, body: unknown, token?: string): Promise<LightMyRequestResponse>;
  del(url: string, token?: string): Promise<LightMyRequestResponse>;
  /** Signs in a demo account and returns its token. */
  login(username: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts the real server on a private copy of the seeded template database (one per test file).
 * `listen: true` binds 127.0.0.1 on a free port (for websockets and browsers); `logStream` receives the
 * server's log lines (off otherwise).
 */
export async function startTestServer(over: Partial<AppConfig> & { listen?: boolean; logStream?: { write(line: string): void } } = {}): Promise<TestServer> {
  const { listen, logStream, ...rest } = over;
  const copy = await copyTemplate(vitestInject('dbTemplate'));
  // The local-folder file storage unless a test asks for another (the file tests look at the folder,
  // also on PostgreSQL where the default would be the database).
  const storage = { kind: 'local' } as AppConfig['storage'];
  const cfg = loadConfig({ port: 0, host: '127.0.0.1', logLevel: 'warn', staticDir: '/nonexistent', storage, ...copy, ...rest }, {});
  const running = await startServer(cfg, { logger: !!logStream, logStream, listen: !!listen });
  await running.prepared;
  const call: TestServer['call'] = ({ token, headers, url, ...o }) =>
    running.app.inject({ ...o, url: typeof url === "string" && !url.startsWith("/") ? `${API}/${url}` : url, headers: { ...(token ? { 'x-access-token': token } : {}), ...headers } });
  const ts: TestServer = {
    running,
    cfg,
    call,
    get: (url, token, headers) => call({ method: 'GET', url, token, headers }),
    post: (url, body, token) => call({ method: 'POST', url, token, payload: body as InjectOptions['payload'] }),
    put: (url, body, token) => call({ method: 'PUT', url, token, payload: body as InjectOptions['payload'] }),
    del: (url, token) => call({ method: 'DELETE', url, token }),
    async login(username, password = DEMO_PASSWORD) {
      const r = await call({ method: 'POST', url: `${API}/sys/login`, payload: { username, password } });
      const body = r.json();
      if (body.code !== 200) throw new Error(`login ${username} failed: ${body.message}`);
      return body.result.token as string;
    },
    async close() {
      await running.stop();
      await dropCopy(copy);
    },
  };
  return ts;
}

/** A test file's server (fileTestServer): the TestServer once started, and the tokens of the users signed in. */
export interface FileServer<U extends string = string> extends TestServer {
  /** Tokens by username, filled in beforeAll. */
  tok: Record<U, string> & Record<string, string | undefined>;
}

/**
 * A test file's server: started in `beforeAll` on a private copy of the seeded database with `users`
 * signed in (`s.tok[user]`), stopped in `afterAll`. Call it at the top of the file; its methods are
 * usable from the file's own `beforeAll` on (hooks run in the order they are registered).
 */
export function fileTestServer<const U extends string = never>(users: readonly U[] = [], over: Parameters<typeof startTestServer>[0] = {}): FileServer<U> {
  let inner: TestServer | undefined;
  const tok = {} as FileServer<U>['tok'];
  beforeAll(async () => {
    inner = await startTestServer(over);
    for (const u of users) (tok as Record<string, string>)[u] = await inner.login(u);
  }, 120_000);
  afterAll(() => inner?.close());
  const started = (): TestServer => {
    if (!inner) throw new Error('the test server starts in beforeAll');
    return inner;
  };
  return {
    tok,
    get running() {
      return started().running;
    },
    get cfg() {
      return started().cfg;
    },
    call: (o) => started().call(o),
    get: (url, token, headers) => started().get(url, token, headers),
    post: (url, body, token) => started().post(url, body, token),
    put: (url, body, token) => started().put(url, body, token),
    del: (url, token) => started().del(url, token),
    login: (username, password) => started().login(username, password),
    close: () => started().close(),
  };
}

export interface ApiAnswer {
  success: boolean;
  message: string;
  code: number;
  result: any; // each test reads its own shape
}

/**
 * JSON calls under /jeecg-boot as one user by default (`token`), and `list` for a page of records that
 * must succeed. Both are read when called: a test file starts its server and signs in in `beforeAll`.
 */
export function apiCalls(server: () => TestServer, token: () => string) {
  const call = async (method: 'get' | 'post' | 'put' | 'delete', path: string, body?: unknown, as = token()): Promise<ApiAnswer> => {
    const url = `/jeecg-boot${path}`;
    const s = server();
    const r = method === 'get' ? await s.get(url, as) : method === 'delete' ? await s.del(url, as) : await s[method](url, body ?? {}, as);
    return r.json() as ApiAnswer;
  };
  const list = async (path: string, as = token()) => {
    const r = await call('get', path, undefined, as);
    if (!r.success) throw new Error(`${path}: ${r.message}`);
    return r.result.records as any[];
  };
  return { call, list };
}
