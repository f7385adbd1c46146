import { afterEach, describe, expect, it } from 'vitest';
import { getDefaultStore } from 'jotai';
import type { InternalAxiosRequestConfig } from 'axios';
import { axiosInstance, fileUrl, http, REQUEST_TIMEOUT, setLowAppIdSource, withFileToken, withFileTokens } from '@core/http/client';
import { tenantAtom, tokenAtom } from '@core/session/store';
import { afterLoginTarget, loginOutcome } from '@core/session/actions';

// Capture what would go on the wire instead of sending it (the client's own logic is under test).
let seen: InternalAxiosRequestConfig[] = [];
let nextHeaders: Record<string, string> = {};
axiosInstance.defaults.adapter = async (config) => {
  seen.push(config);
  const headers = nextHeaders;
  nextHeaders = {};
  return { data: { success: true, code: 200, message: '', result: null }, status: 200, statusText: 'OK', headers, config };
};
const store = getDefaultStore();
afterEach(() => {
  seen = [];
  store.set(tokenAtom, '');
  store.set(tenantAtom, 0);
  setLowAppIdSource(() => undefined);
});

describe('HTTP client (SPEC §7)', () => {
  it('sends token, tenant-id (0 when none) and the 300 s timeout', async () => {
    await http.get('/sys/x');
    expect(seen[0]!.headers['tenant-id']).toBe('0');
    expect(seen[0]!.headers['X-Access-Token']).toBeUndefined();
    expect(seen[0]!.timeout).toBe(REQUEST_TIMEOUT);
    store.set(tokenAtom, 'tok');
    store.set(tenantAtom, 3);
    await http.post('/sys/y', { a: 1 });
    expect(seen[1]!.headers['X-Access-Token']).toBe('tok');
    expect(seen[1]!.headers['tenant-id']).toBe('3');
  });
  it('reads no XSRF cookie (token header auth): a request is sent at once, not after an async cookie-store read', () => {
    expect(axiosInstance.defaults.withXSRFToken).toBe(false);
  });
  it('hands a request to the adapter within the caller\'s task (the boot\'s requests leave during module evaluation)', async () => {
    const p = http.get('/sys/permission/getUserPermissionByToken');
    expect(seen.map((c) => c.url)).toEqual(['/sys/permission/getUserPermissionByToken']);
    await p;
  });
  it('adds _t to GETs except dictionary items', async () => {
    await http.get('/sys/list', { a: 1 });
    await http.get('/sys/dict/getDictItems/sex');
    await http.post('/sys/add', {});
    expect(seen[0]!.params).toMatchObject({ a: 1, _t: expect.any(Number) });
    expect(seen[1]!.params?._t).toBeUndefined();
    expect(seen[2]!.params?._t).toBeUndefined();
  });
  it('sends X-Low-App-ID on low-app routes', async () => {
    setLowAppIdSource(() => 'app7');
    await http.get('/x');
    expect(seen[0]!.headers['X-Low-App-ID']).toBe('app7');
  });
});

describe('stored-file URLs', () => {
  it('carry the current session\'s file token (X-File-Token), never the session token; only our own static paths in rich text', async () => {
    getDefaultStore().set(tokenAtom, 'tok en');
    expect(fileUrl('temp/a.png')).toBe('/jeecg-boot/sys/common/static/temp/a.png'); // none received yet
    nextHeaders = { 'x-file-token': 'ft1.s1.1700000000.sig' };
    await http.get('/sys/x');
    expect(fileUrl('temp/a b.png')).toBe('/jeecg-boot/sys/common/static/temp/a%20b.png?token=ft1.s1.1700000000.sig');
    expect(fileUrl('https://x.org/a.png')).toBe('https://x.org/a.png');
    const html = '<p><img src="/jeecg-boot/sys/common/static/jeditor/x.png"><img src="https://x.org/y.png"><img src="/jeecg-boot/sys/common/static/%E0%A4%A"></p>';
    expect(withFileTokens(html)).toBe('<p><img src="/jeecg-boot/sys/common/static/jeditor/x.png?token=ft1.s1.1700000000.sig"><img src="https://x.org/y.png"><img src="/jeecg-boot/sys/common/static/%E0%A4%A"></p>');
    expect(withFileToken('/jeecg-boot/sys/crud/importError/a.txt?x=1')).toBe('/jeecg-boot/sys/crud/importError/a.txt?x=1&token=ft1.s1.1700000000.sig');
    // Another session (or none): the old session's file token is not used.
    getDefaultStore().set(tokenAtom, 'other');
    expect(fileUrl('temp/a.png')).toBe('/jeecg-boot/sys/common/static/temp/a.png');
    getDefaultStore().set(tokenAtom, '');
    expect(fileUrl('temp/a.png')).toBe('/jeecg-boot/sys/common/static/temp/a.png');
  });
});

describe('session rules', () => {
  it('login succeeds only with code 200 and a token', () => {
    expect(() => loginOutcome({ success: true, code: 0, message: 'x', result: { token: 't' } as never })).toThrow('x');
    expect(() => loginOutcome({ success: false, code: 500, message: '用户名或密码错误', result: null as never })).toThrow('用户名或密码错误');
    expect(loginOutcome({ success: true, code: 200, message: '', result: { token: 't' } as never }).token).toBe('t');
  });
  it('redirects only to local, non-login paths', () => {
    expect(afterLoginTarget('?redirect=%2Fsupervisor%2Fterm%3Fx%3D1')).toBe('/supervisor/term?x=1');
    expect(afterLoginTarget('?redirect=https%3A%2F%2Fevil.example')).toBe('/dashboard/analysis');
    expect(afterLoginTarget('?redirect=%2F%2Fevil.example')).toBe('/dashboard/analysis');
    expect(afterLoginTarget('?redirect=%2Fuser%2Flogin')).toBe('/dashboard/analysis');
    expect(afterLoginTarget('')).toBe('/dashboard/analysis');
  });
});

describe('signed helpers', () => {
  it('match the server computation and send X-Sign / X-TIMESTAMP', async () => {
    const { computeSign: serverSign } = await import('@server/auth/signature');
    const { computeSign, setSignSecret } = await import('@core/http/client');
    setSignSecret('s3cret');
    const params = { b: 2, a: 'x', _t: 5 };
    expect(computeSign('/sys/dict/loadDict/sex', params)).toBe(serverSign({ b: 2, a: 'x' }, 's3cret'));
    expect(computeSign('/sys/api/a,b', {})).toBe(serverSign({ 'x-path-variable': 'a,b' }, 's3cret'));
    await http.signedGet('/sys/dict/loadDict/sex', { keyword: 'm' });
    expect(seen[0]!.headers['X-Sign']).toMatch(/^[0-9A-F]{32}$/);
    expect(seen[0]!.headers['X-TIMESTAMP']).toMatch(/^\d{13}$/);
  });
});
