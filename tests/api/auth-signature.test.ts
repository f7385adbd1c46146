import dayjs from 'dayjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestServer, type TestServer } from '../helpers/server.js';
import { computeSign } from '../../server/auth/signature.js';

const SECRET = 'test-signature-secret';
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ signature: { enabled: true, secret: SECRET } });
});
afterAll(() => s?.close());

const sms = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  s.call({ method: 'POST', url: `${API}/sys/sms?_t=123`, payload: body, headers }).then((r) => r.json());

describe('request signing (X-Sign / X-TIMESTAMP)', () => {
  const body = { mobile: '13912345678', smsmode: '0' };

  it('refuses a signed path without, with a wrong, or with a stale signature', async () => {
    const fail = { success: false, code: 500, message: 'Sign签名校验失败！' };
    expect(await sms(body)).toMatchObject(fail);
    expect(await sms(body, { 'x-sign': 'ABC', 'x-timestamp': String(Date.now()) })).toMatchObject(fail);
    const sign = computeSign(body, SECRET);
    expect(await sms(body, { 'x-sign': sign, 'x-timestamp': String(Date.now() - 11 * 60 * 1000) })).toMatchObject(fail);
    // Body swapped under a valid signature.
    expect(await sms({ ...body, mobile: '13912345679' }, { 'x-sign': sign, 'x-timestamp': String(Date.now()) })).toMatchObject(fail);
  });

  it('accepts a correct signature (millisecond or yyyyMMddHHmmss timestamp); _t is ignored', async () => {
    const sign = computeSign(body, SECRET);
    expect(await sms(body, { 'x-sign': sign, 'x-timestamp': String(Date.now()) })).toMatchObject({ success: true });
    const other = { mobile: '13912345677', smsmode: '0' };
    expect(await sms(other, { 'x-sign': computeSign(other, SECRET).toLowerCase(), 'x-timestamp': dayjs().format('YYYYMMDDHHmmss') })).toMatchObject({ success: true });
  });

  it('leaves other paths alone', async () => {
    const r = await s.post('sys/login', { username: 'teacher', password: 'Observe#2026' });
    expect(r.json().code).toBe(200);
  });
});
