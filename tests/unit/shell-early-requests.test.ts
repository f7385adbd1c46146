import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runInThisContext } from 'node:vm';
import { earlyRequestsScript } from '../../vite.config';

/** The inline script exactly as the build puts it into index.html (core/session/early-requests.ts). */
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
  it('signed in on a main-layout path: asks in one request, with the session headers, for the menu, where the path leads (with the URL search) and the notice list', async () => {
    session();
    const answers = { permissions: { success: true, result: 'menu' }, route: { success: true, result: 'route' }, notices: { success: true, result: 'notices' } };
    answer = () => ({ status: 200, body: { success: true, result: answers } });
    run('/supervisor/lectureRecord/?pageSize=20');
    expect(calls).toEqual([
      { url: '/jeecg-boot/schema/boot?path=%2Fsupervisor%2FlectureRecord%2F&search=%3FpageSize%3D20', headers: { 'X-Access-Token': 'tok', 'tenant-id': '3' } },
    ]);
    const e = early()!;
    expect([e.path, e.search, e.token]).toEqual(['/supervisor/lectureRecord/', '?pageSize=20', 'tok']);
    expect(e.arrived).toEqual({}); // nothing has come in yet
    await expect(e.permissions).resolves.toEqual(answers.permissions);
    await expect(e.route).resolves.toEqual(answers.route);
    await expect(e.notices).resolves.toEqual(answers.notices);
    // Each answer is also kept once it is in, for a first render that draws it.
    expect(e.arrived).toEqual(answers);
  });

  it('an answer the server could not give (null), an answer other than HTTP 200 or success, or a failed request is undefined (the app then asks the usual way)', async () => {
    session();
    answer = () => ({ status: 200, body: { success: true, result: { permissions: { success: true, result: 'menu' }, route: null, notices: { success: false, code: 404 } } } });
    run('/records');
    await expect(early()!.route).resolves.toBeUndefined();
    await expect(early()!.permissions).resolves.toEqual({ success: true, result: 'menu' });
    await expect(early()!.notices).resolves.toEqual({ success: false, code: 404 }); // as the request itself answers: the app's own handling
    for (const failed of [{ status: 401, body: { success: false } }, { status: 200, body: { success: false, code: 500 } }]) {
      answer = () => failed;
      run('/records');
      for (const name of ['permissions', 'route', 'notices'] as const) await expect(early()![name]).resolves.toBeUndefined();
    }
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

describe('early requests of a light entry (inline in scan.html)', () => {
  it('asks only where the path leads (GET /schema/route, with the URL search and session headers); a failure is undefined', async () => {
    const light = await earlyRequestsScript('/jeecg-boot', true);
    session();
    const route = { success: true, result: { component: 'lecture/Scan', schema: { kind: 'dashboard' } } };
    answer = () => ({ status: 200, body: route });
    history.replaceState(null, '', '/lecture/scan?room=r1');
    runInThisContext(light);
    expect(calls).toEqual([{ url: '/jeecg-boot/schema/route?path=%2Flecture%2Fscan&search=%3Froom%3Dr1', headers: { 'X-Access-Token': 'tok', 'tenant-id': '3' } }]);
    const e = early() as unknown as Record<string, unknown> & { route: Promise<unknown>; arrived: Record<string, unknown> };
    expect([e.path, e.search, e.permissions, e.notices]).toEqual(['/lecture/scan', '?room=r1', undefined, undefined]);
    await expect(e.route).resolves.toEqual(route);
    expect(e.arrived).toEqual({ route });

    answer = () => ({ status: 500, body: {} });
    runInThisContext(light);
    await expect(early()!.route).resolves.toBeUndefined();
  });
});
