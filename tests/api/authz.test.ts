/**
 * The authorisation matrix, generated from the live route table: every route × every demo role
 * (+ anonymous). The route table must match the committed snapshot tests/api/authz-routes.json, so
 * a new, removed or re-declared route fails the build until someone reviews it and regenerates:
 *   UPDATE_AUTHZ=1 npx vitest run tests/api/authz
 *
 * Non-GET routes are never executed: they get a malformed JSON body. The guard decides in onRequest,
 * before the body is parsed, so a denied call answers code 510 and an allowed one fails parsing (400)
 * — the handler runs in neither case.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sql } from 'kysely';
import { fileTestServer } from '../helpers/server.js';

type Auth = string | string[];
const SNAPSHOT = resolve(__dirname, 'authz-routes.json');
const ROLES = ['admin', 'supervisor', 'leader', 'secretary', 'deptadmin', 'teacher'] as const;
const DUMMY = 'authz0dummy0id';

const s = fileTestServer();
const live = new Map<string, Auth>();
const tokens = new Map<string, string>();
const perms = new Map<string, Set<string>>();

beforeAll(async () => {
  for (const r of s.running.routes) {
    if (r.url === '*' && r.method === 'OPTIONS') continue; // CORS preflight, public by construction
    live.set(`${r.method} ${r.url}`, r.auth as Auth);
  }
  for (const u of ROLES) {
    tokens.set(u, await s.login(u));
    // The user's codes, read straight from the grant tables (not through the server's session code).
    const rows = await sql<{ perms: string | null }>`
      select p.perms from sys_user u
      join sys_user_role ur on ur.user_id = u.id
      join sys_role_permission rp on rp.role_id = ur.role_id
      join sys_permission p on p.id = rp.permission_id and p.del_flag = 0 and p.status = '1'
      where u.username = ${u}`.execute(s.running.ctx.db);
    perms.set(u, new Set(rows.rows.flatMap((r) => (r.perms ?? '').split(',').map((x) => x.trim()).filter(Boolean))));
  }
});

const sorted = (m: Map<string, Auth>) => Object.fromEntries([...m.entries()].sort(([a], [b]) => a.localeCompare(b)));

function allowed(user: string, auth: Auth): boolean {
  if (auth === 'public' || auth === 'user') return true;
  const codes = Array.isArray(auth) ? auth : [auth];
  return codes.some((c) => perms.get(user)!.has(c));
}

/** A concrete URL for a route pattern: every path parameter and wildcard gets a dummy value. */
const concrete = (url: string) => url.replace(/:[A-Za-z0-9_]+(\([^)]*\))?/g, DUMMY).replace(/\*/g, DUMMY);

/** Runs `fn` over `items`, a few at a time (the server handles concurrent requests anyway). */
async function inBatches<T>(items: T[], fn: (item: T) => Promise<void>, size = 6) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

async function hit(method: string, url: string, token?: string) {
  const body = method === 'GET' || method === 'HEAD' ? undefined : '{"authz": ';
  const r = await s.call({
    method: method as 'GET',
    // Narrow GETs to nothing (exports, lists), so the matrix measures the guard, not the exports.
    url: concrete(url) + (method === 'GET' ? `?id=${DUMMY}&selections=${DUMMY}&pageNo=1&pageSize=1` : ''),
    token,
    ...(body ? { payload: body, headers: { 'content-type': 'application/json' } } : {}),
  });
  let code: number | undefined;
  try {
    code = (r.json() as { code?: number }).code;
  } catch {
    code = undefined;
  }
  return { status: r.statusCode, code };
}

describe('authorisation matrix', () => {
  it('the live route table matches the reviewed snapshot', () => {
    const now = sorted(live);
    if (process.env.UPDATE_AUTHZ === '1') {
      writeFileSync(SNAPSHOT, JSON.stringify(now, null, 2) + '\n');
      return;
    }
    expect(existsSync(SNAPSHOT), 'tests/api/authz-routes.json is missing: generate it with UPDATE_AUTHZ=1 npx vitest run tests/api/authz').toBe(true);
    const snap = JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as Record<string, Auth>;
    const problems: string[] = [];
    for (const [k, v] of Object.entries(now)) {
      if (!(k in snap)) problems.push(`new route not in the snapshot: ${k} → ${JSON.stringify(v)}`);
      else if (JSON.stringify(snap[k]) !== JSON.stringify(v)) problems.push(`declaration changed: ${k}: ${JSON.stringify(snap[k])} → ${JSON.stringify(v)}`);
    }
    for (const k of Object.keys(snap)) if (!(k in now)) problems.push(`route in the snapshot no longer exists: ${k}`);
    expect(
      problems,
      `The route table differs from tests/api/authz-routes.json. Review each change, then regenerate with UPDATE_AUTHZ=1 npx vitest run tests/api/authz\n${problems.join('\n')}`,
    ).toEqual([]);
  });

  it('every route declares public, user or non-empty permission codes', () => {
    for (const [k, auth] of live) {
      const ok = auth === 'public' || auth === 'user' || (typeof auth === 'string' && auth.length > 0) || (Array.isArray(auth) && auth.length > 0);
      expect(ok, `${k} → ${JSON.stringify(auth)}`).toBe(true);
    }
  });

  it('anonymous callers get HTTP 401 on every non-public route', async () => {
    const wrong: string[] = [];
    await inBatches(
      [...live].filter(([, auth]) => auth !== 'public'),
      async ([k]) => {
        const [method, url] = k.split(' ') as [string, string];
        const r = await hit(method, url);
        if (r.status !== 401) wrong.push(`${k}: HTTP ${r.status} code ${r.code}`);
      },
    );
    expect(wrong).toEqual([]);
  }, 60_000);

  for (const user of ROLES) {
    it(`${user}: denied routes answer code 510 before the handler, allowed ones pass the guard`, async () => {
      const wrong: string[] = [];
      let denied = 0;
      const todo = [...live].filter(([k, auth]) => auth !== 'public' && !/\/(websocket\/:userId|vxeSocket\/:userId\/:pageId)$/.test(k));
      // A plain GET on a websocket route has no HTTP handler; the socket suite covers those.
      await inBatches(todo, async ([k, auth]) => {
        const [method, url] = k.split(' ') as [string, string];
        const r = await hit(method, url, tokens.get(user));
        if (allowed(user, auth)) {
          if (r.status === 401 || r.code === 510) wrong.push(`${k} should pass the guard for ${user}: HTTP ${r.status} code ${r.code}`);
          if (method !== 'GET' && r.status !== 400) wrong.push(`${k} (${user}) should have failed body parsing (400), got HTTP ${r.status} code ${r.code}`);
        } else {
          denied++;
          if (r.status !== 200 || r.code !== 510) wrong.push(`${k} should be refused for ${user} with code 510: HTTP ${r.status} code ${r.code}`);
        }
      });
      expect(wrong).toEqual([]);
      if (user === 'admin') expect(denied).toBe(0);
      if (user === 'teacher') expect(denied).toBeGreaterThan(50);
    }, 180_000); // ~400 routes per role; generous for a loaded 2-core CI machine
  }
});
