import dayjs from 'dayjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, DEMO_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { captchaKeyId } from '../../server/auth/captcha.js';
import { fmt, sha256 } from '../../server/util.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ login: { alwaysCaptcha: true, captchaAfterFailures: 3, lockAfterFailures: 10, lockMinutes: 15 } });
});
afterAll(() => s?.close());

const login = (body: Record<string, unknown>) => s.call({ method: 'POST', url: `${API}/sys/login`, payload: body }).then((r) => r.json());

describe('captcha always required when configured', () => {
  it('refuses a first attempt without captcha (412) and accepts a valid one, once', async () => {
    expect(await login({ username: 'teacher', password: DEMO_PASSWORD })).toMatchObject({ success: false, code: 412, message: '请输入验证码' });
    const key = String(Date.now());
    // The image endpoint stores the code for this key; the test replaces it with a known one.
    expect((await s.get(`${API}/sys/randomImage/${key}`)).json().success).toBe(true);
    await s.running.ctx.db.updateTable('sys_captcha').set({ code_hash: sha256('k7m2'), expires_at: fmt(dayjs().add(60, 'second')) }).where('id', '=', captchaKeyId(key)).execute();
    expect(await login({ username: 'teacher', password: DEMO_PASSWORD, captcha: 'K7M2', checkKey: key })).toMatchObject({ success: true, code: 200 });
    expect(await login({ username: 'teacher', password: DEMO_PASSWORD, captcha: 'K7M2', checkKey: key })).toMatchObject({ success: false, code: 412 });
  });

  it('an expired captcha is refused', async () => {
    const key = 'expired-key';
    await s.get(`${API}/sys/randomImage/${key}`);
    await s.running.ctx.db.updateTable('sys_captcha').set({ code_hash: sha256('k7m2'), expires_at: fmt(dayjs().subtract(1, 'second')) }).where('id', '=', captchaKeyId(key)).execute();
    expect(await login({ username: 'teacher', password: DEMO_PASSWORD, captcha: 'k7m2', checkKey: key })).toMatchObject({ success: false, code: 412 });
  });
});
