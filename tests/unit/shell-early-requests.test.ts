import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runInThisContext } from 'node:vm';
import { earlyRequestsScript } from '../../vite.config';

/** The inline script exactly as the build puts it into index.html (src/session/early-requests.ts). */
let script = '';
beforeAll(async () => {
  script = await earlyRequestsScript('/jeecg-boot');
});

type Early =
  | { path: string; search: string; token: string; arrived: Record<string, unknown>; permissions: Promise<unknown>; route: Promise<unknown>; notices: Promise<unknown> }
  | undefined;
const early = () => (window as unknown as { __early?: Early }).__early;
let calls: Array<{ url: string; headers: Record<string, string> }> = [];
let answer: (url: string) => { status: number; body: unknown } = () => ({ status: 200, body: { success: true } });
const realFetch = globalThis.fetch;

const run = (path: string) => {
  history.replaceState(null, '', path);
  runInThisContext(script);
};
const session = (expire = Date.now() + 60_000) => {
  localStorage.setItem('Access-Token', JSON.stringify({ value: 'tok', expire }));
  localStorage.setItem('TENANT_ID', JSON.stringify({ value: 3, expire }));
};

beforeEach(() => {
  calls = [];
  localStorage.clear();
  delete (window as { __early?: unknown }).__early;
  globalThis.fetch = (async (url: string, init: { headers: Record<string, string> }) => {
    calls.push({ url, headers: init.headers });
    const a = answer(url);
    return { status: a.status, json: async () => a.body } as Response;
  }) as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
  history.replaceState(null, '', '/');
});

describe('early requests (inline in index.html)', () => {
  it('signed in on a main-layout path: asks for the menu and where the path leads (with the URL search), then for the notice list, with the session headers', async () => {
    session();
    answer = (url) => ({ status: 200, body: { success: true, result: url } });
    run('/supervisor/lectureRecord/?pageSize=20');
    const first = [
      '/jeecg-boot/sys/permission/getUserPermissionByToken',
      `/jeecg-boot/schema/route?path=%2Fsupervisor%2FlectureRecord%2F&search=%3FpageSize%3D20`,
    ];
    expect(calls.map((c) => c.url)).toEqual(first);
    const e = early()!;
    expect([e.path, e.search, e.token]).toEqual(['/supervisor/lectureRecord/', '?pageSize=20', 'tok']);
    expect(e.arrived).toEqual({}); // nothing has come in yet
    await expect(e.route).resolves.toMatchObject({ result: calls[1]!.url });
    // The notice list only once the other two have answered (it is not needed before the layout is drawn).
    await expect(e.notices).resolves.toMatchObject({ result: '/jeecg-boot/sys/annountCement/listByUser?pageSize=5' });
    expect(calls.map((c) => c.url)).toEqual([...first, '/jeecg-boot/sys/annountCement/listByUser?pageSize=5']);
    for (const c of calls) expect(c.headers).toEqual({ 'X-Access-Token': 'tok', 'tenant-id': '3' });
    // Each answer is also kept as it came in, for a first render that draws it.
    expect(e.arrived).toEqual({ permissions: { success: true, result: calls[0]!.url }, route: { success: true, result: calls[1]!.url }, notices: { success: true, result: calls[2]!.url } });
  });

  it('an answer other than HTTP 200, or a failed request, is undefined (the app then asks the usual way)', async () => {
    session();
    answer = (url) => ({ status: url.includes('schema/route') ? 401 : 200, body: { success: false } });
    run('/records');
    await expect(early()!.route).resolves.toBeUndefined();
    await expect(early()!.notices).resolves.toMatchObject({ success: false }); // still asked: the menu answered
    globalThis.fetch = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    run('/records');
    await expect(early()!.permissions).resolves.toBeUndefined();
    await expect(early()!.notices).resolves.toBeUndefined();
  });

  it('asks nothing signed out, with an expired session, or on the sign-in and error pages', () => {
    run('/supervisor/lectureRecord');
    session(Date.now() - 1);
    run('/supervisor/lectureRecord');
    session();
    for (const path of ['/user/login', '/user/login?redirect=%2Fx', '/404', '/oauth2-app/login']) run(path);
    expect(calls).toEqual([]);
    expect(early()).toBeUndefined();
  });
});
