import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ smsDevOutbox: true });
});
afterAll(() => s?.close());

/** The newest code the development outbox holds for a mobile (no SMS gateway; `smsDevOutbox` puts codes there). */
async function outboxCode(mobile: string): Promise<string> {
  const row = await s.running.ctx.db.selectFrom('sys_sms_outbox').select('content').where('mobile', '=', mobile).orderBy('created_at', 'desc').limit(1).executeTakeFirstOrThrow();
  return /(\d{6})/.exec(String(row.content))![1]!;
}

describe('self-registration and forgotten password', () => {
  it('self-registration answers clearly that it is not enabled, and creates nothing', async () => {
    const before = await s.running.ctx.db.selectFrom('sys_user').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const r = await s.post(`${API}/sys/user/register`, { username: 'newbie', password: 'Xk#92mLq!z', phone: '13912345678', smscode: '123456' });
    expect(r.json()).toMatchObject({ success: false, message: '用户注册未启用' });
    const after = await s.running.ctx.db.selectFrom('sys_user').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('resets a password with the SMS code of the account phone, ending the old sessions', async () => {
    const user = await s.running.ctx.db.selectFrom('sys_user').select(['username', 'phone']).where('username', '=', 'teacher').executeTakeFirstOrThrow();
    const phone = String(user.phone);
    const oldToken = await s.login('teacher');

    await s.post(`${API}/sys/sms`, { mobile: phone, smsmode: '2' });
    const weak = await s.post(`${API}/sys/user/passwordChange`, { username: 'teacher', phone, smscode: await outboxCode(phone), password: 'abc' });
    expect(weak.json()).toMatchObject({ success: false, message: '密码长度需要在8-32位，数字、小写字母、大写字母、特殊字符，至少包含三种' });

    const wrongCode = await s.post(`${API}/sys/user/passwordChange`, { username: 'teacher', phone, smscode: '000000' === (await outboxCode(phone)) ? '111111' : '000000', password: 'Zq#7mWp2x' });
    expect(wrongCode.json()).toMatchObject({ success: false, message: '短信验证码错误' });

    const ok = await s.post(`${API}/sys/user/passwordChange`, { username: 'teacher', phone, smscode: await outboxCode(phone), password: 'Zq#7mWp2x' });
    expect(ok.json()).toMatchObject({ success: true });
    expect((await s.get(`${API}/sys/permission/getUserPermissionByToken`, oldToken)).statusCode).toBe(401);
    expect(await s.login('teacher', 'Zq#7mWp2x')).toBeTruthy();
    const reused = await s.post(`${API}/sys/user/passwordChange`, { username: 'teacher', phone, smscode: await outboxCode(phone), password: 'Yy#8nVq3w' });
    expect(reused.json()).toMatchObject({ success: false, message: '短信验证码已失效，请重新获取' });
  });

  it('refuses a phone that is not the account’s', async () => {
    const other = await s.running.ctx.db.selectFrom('sys_user').select(['phone']).where('username', '=', 'leader').executeTakeFirstOrThrow();
    const phone = String(other.phone);
    // The resend interval is per number, so this number has not been used yet in this file.
    await s.post(`${API}/sys/sms`, { mobile: phone, smsmode: '2' });
    const r = await s.post(`${API}/sys/user/passwordChange`, { username: 'secretary', phone, smscode: await outboxCode(phone), password: 'Zq#7mWp2x' });
    expect(r.json()).toMatchObject({ success: false, message: '用户名与手机号不匹配' });
    expect(await s.login('secretary')).toBeTruthy();
  });
});
