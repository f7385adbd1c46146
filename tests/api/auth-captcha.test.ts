import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, DEMO_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { solveLoginChallenge } from '../helpers/challenge.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ login: { alwaysCaptcha: true } as TestServer['cfg']['login'] });
});
afterAll(() => s?.close());

const login = (body: Record<string, unknown>) => s.call({ method: 'POST', url: `${API}/sys/login`, payload: body }).then((r) => r.json());

describe('challenge always required when configured', () => {
  it('refuses a first attempt without a solution (412, with a challenge) and accepts a solved one, once', async () => {
    const first = await login({ username: 'teacher', password: DEMO_PASSWORD });
    expect(first).toMatchObject({ success: false, code: 412, message: '请完成人机验证' });
    const altcha = await solveLoginChallenge(first.result.challenge);
    expect(await login({ username: 'teacher', password: DEMO_PASSWORD, altcha })).toMatchObject({ success: true, code: 200 });
    expect(await login({ username: 'teacher', password: DEMO_PASSWORD, altcha })).toMatchObject({ success: false, code: 412, message: '人机验证未通过，请重试' });
  });

  it('an expired challenge is refused', async () => {
    const first = await login({ username: 'teacher', password: DEMO_PASSWORD });
    const altcha = await solveLoginChallenge(first.result.challenge);
    await s.running.ctx.db.updateTable('sys_captcha').set({ expires_at: '2000-01-01 00:00:00' }).where('code_hash', 'like', 'pow:%').execute();
    expect(await login({ username: 'teacher', password: DEMO_PASSWORD, altcha })).toMatchObject({ success: false, code: 412 });
  });

  it('the stock client\'s image captcha is still served (its form shows it), but is no answer to the challenge', async () => {
    const img = (await s.get(`${API}/sys/randomImage/${Date.now()}`)).json();
    expect(img.result).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(await login({ username: 'teacher', password: DEMO_PASSWORD, captcha: 'abcd', checkKey: '1' })).toMatchObject({ success: false, code: 412 });
  });
});
