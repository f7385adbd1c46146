import dayjs from 'dayjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, DEMO_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js';
import { revokeUserSessions } from '../../server/auth/session.js';
import { fmt } from '../../server/util.js';
import { PASSWORD_MESSAGES } from '../../shared/password-policy.js';
import { solveLoginChallenge } from '../helpers/challenge.js';

let s: TestServer;
beforeAll(async () => {
  // Small challenges: the tests solve them as a browser would, without burning the shared cores.
  s = await startTestServer({ smsDevOutbox: true, login: { challengeMaxNumber: 2000 } as TestServer['cfg']['login'] });
});
afterAll(() => s?.close());

let ipSeq = 0;
/** A fresh client address per scenario, so address throttling of one test does not leak into another. */
const freshIp = () => `10.9.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

/** A sign-in from client address `ip` (the socket's peer: no proxy is trusted by default). */
function login(body: Record<string, unknown>, ip = '10.0.0.1') {
  return s.call({ method: 'POST', url: `${API}/sys/login`, payload: body, remoteAddress: ip });
}

const db = () => s.running.ctx.db;
const userIdOf = async (username: string) =>
  String((await db().selectFrom('sys_user').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id);

describe('POST /sys/login', () => {
  it('answers code 200 with token, userInfo (no password), departs, multi_depart, tenantList and dictionaries', async () => {
    const r = await login({ username: 'teacher', password: DEMO_PASSWORD, captcha: '', checkKey: '1', remember_me: true });
    expect(r.statusCode).toBe(200);
    const b = r.json();
    expect(b).toMatchObject({ success: true, code: 200, message: '登录成功' });
    expect(typeof b.result.token).toBe('string');
    expect(b.result.token.length).toBeGreaterThan(30);
    expect(b.result.userInfo).toMatchObject({ username: 'teacher', realname: '王磊', orgCode: 'A01A04', orgCodeTxt: '计算机学院', status: 1 });
    expect(typeof b.result.userInfo.id).toBe('string');
    expect(b.result.userInfo).toHaveProperty('avatar');
    expect(b.result.userInfo).not.toHaveProperty('password');
    expect(JSON.stringify(b)).not.toContain('$argon2');
    expect(b.result.multi_depart).toBe(1);
    expect(b.result.departs).toHaveLength(1);
    expect(b.result.departs[0]).toMatchObject({ departName: '计算机学院', orgCode: 'A01A04' });
    expect(b.result.tenantList).toEqual([]);
    expect(b.result.sysAllDictItems.sex).toEqual(expect.arrayContaining([{ value: '1', text: '男', title: '男', label: '男' }]));
    expect(b.result.sysAllDictItems.listener_category.map((i: { text: string }) => i.text)).toEqual(['校领导', '院领导', '督导', '教研室主任', '教师', '新教师']);
  });

  it('reports two departments and two tenants for teacher2', async () => {
    const b = (await login({ username: 'teacher2', password: DEMO_PASSWORD })).json();
    expect(b.code).toBe(200);
    expect(b.result.multi_depart).toBe(2);
    expect(b.result.departs.map((d: { departName: string }) => d.departName).sort()).toEqual(['数学与统计学院', '计算机学院'].sort());
    expect(b.result.tenantList.map((t: { id: unknown }) => String(t.id))).toEqual(['1', '2']);
  });

  it('gives the same answer for an unknown user and a wrong password', async () => {
    const a = (await login({ username: 'nobody_here', password: 'Whatever#1' }, freshIp())).json();
    const b = (await login({ username: 'leader', password: 'Wrong#pass1' }, freshIp())).json();
    expect(a).toMatchObject({ success: false, code: 500, message: '用户名或密码错误', result: null });
    expect({ ...b, timestamp: 0 }).toEqual({ ...a, timestamp: 0 });
  });

  it('asks for the proof-of-work challenge after 3 failures of an account; 412 until a fresh solution comes', async () => {
    const ip = freshIp();
    for (let i = 0; i < 3; i++) expect((await login({ username: 'secretary', password: 'Wrong#pass1' }, ip)).json().message).toBe('用户名或密码错误');
    // Another address: the account rule still applies. The stock client's image captcha is no answer.
    const other = freshIp();
    const missing = (await login({ username: 'secretary', password: DEMO_PASSWORD, captcha: 'abcd', checkKey: '1' }, other)).json();
    expect(missing).toMatchObject({ success: false, code: 412, message: '请完成人机验证' });
    expect(missing.result.challenge).toMatchObject({ algorithm: 'SHA-256', maxnumber: s.cfg.login.challengeMaxNumber });
    const forged = Buffer.from(JSON.stringify({ algorithm: 'SHA-256', challenge: 'a'.repeat(64), number: 1, salt: 'x', signature: 'y' })).toString('base64');
    const wrong = (await login({ username: 'secretary', password: DEMO_PASSWORD, altcha: forged }, other)).json();
    expect(wrong).toMatchObject({ success: false, code: 412, message: '人机验证未通过，请重试' });
    const solution = await solveLoginChallenge(wrong.result.challenge);
    const good = (await login({ username: 'secretary', password: DEMO_PASSWORD, altcha: solution }, other)).json();
    expect(good.code).toBe(200);
    // Success resets the count: no challenge next time.
    expect((await login({ username: 'secretary', password: DEMO_PASSWORD }, other)).json().code).toBe(200);
  });

  it('a few failures from one (NAT) address do not slow the other accounts behind it; many do', async () => {
    const ip = freshIp();
    for (const u of ['ghost1', 'ghost2', 'ghost3', 'ghost4', 'ghost5']) await login({ username: u, password: 'Wrong#pass1' }, ip);
    expect((await login({ username: 'deptadmin', password: DEMO_PASSWORD }, ip)).json().code).toBe(200);
    const n = s.cfg.login.addressCaptchaAfterFailures;
    for (let i = 5; i < n; i++) await login({ username: `ghost${i}`, password: 'Wrong#pass1' }, ip);
    expect((await login({ username: 'deptadmin', password: DEMO_PASSWORD }, ip)).json().code).toBe(412);
    expect((await login({ username: 'deptadmin', password: DEMO_PASSWORD }, freshIp())).json().code).toBe(200);
  });

  it('serves a captcha image as an SVG data URL', async () => {
    const r = (await s.get(`${API}/sys/randomImage/${Date.now()}`)).json();
    expect(r.success).toBe(true);
    expect(r.result).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(r.result.split(',')[1], 'base64').toString()).toContain('<svg');
  });

  it('slows an account progressively after repeated failures, never locks it for good', async () => {
    const n = s.cfg.login.delayAfterFailures;
    const attempt = async (password: string) => {
      let b = (await login({ username: 'ghostlock', password }, freshIp())).json();
      if (b.code === 412) b = (await login({ username: 'ghostlock', password, altcha: await solveLoginChallenge(b.result.challenge) }, freshIp())).json();
      return b;
    };
    for (let i = 0; i < n; i++) expect((await attempt('Wrong#pass1')).message).toBe('用户名或密码错误');
    const row = () => db().selectFrom('sys_login_attempt').select(['failures', 'locked_until']).where('id', '=', 'u:ghostlock').executeTakeFirstOrThrow();
    expect(Number((await row()).failures)).toBe(n);
    // Inside the wait: refused before the password is checked, from any address.
    const b = await attempt('Wrong#pass1');
    expect(b).toMatchObject({ success: false, code: 429, message: '登录尝试过于频繁，请1秒后再试（也可使用手机验证码登录）' });
    expect(Number((await row()).failures)).toBe(n);
    // The wait doubles with each further failure.
    // locked_until is stored to the second; bound it by the clock read before and after the attempt so
    // a slow machine cannot make the measurement flaky.
    const lockedUntil = async () => dayjs((await row()).locked_until as string).unix();
    const waitAfter = async () => dayjs((await row()).locked_until as string).diff(dayjs(), 'second', true);
    await db().updateTable('sys_login_attempt').set({ locked_until: fmt(dayjs().subtract(1, 'second')) }).where('id', '=', 'u:ghostlock').execute();
    const before = dayjs().unix();
    expect((await attempt('Wrong#pass1')).message).toBe('用户名或密码错误');
    const after = dayjs().unix();
    expect(await lockedUntil()).toBeGreaterThanOrEqual(before + 2);
    expect(await lockedUntil()).toBeLessThanOrEqual(after + 2);
    // Even far along, the wait is capped (no permanent lock).
    await db().updateTable('sys_login_attempt').set({ failures: 1000, locked_until: fmt(dayjs().subtract(1, 'second')) }).where('id', '=', 'u:ghostlock').execute();
    expect((await attempt('Wrong#pass1')).message).toBe('用户名或密码错误');
    expect(await waitAfter()).toBeLessThanOrEqual(s.cfg.login.maxDelaySeconds);
  });

  it('refuses a frozen user with 该用户已冻结, and the frozen user\'s live token at once', async () => {
    const token = await s.login('teacher');
    expect((await s.get('sys/user/getCurrentUserDeparts', token)).statusCode).toBe(200);
    await db().updateTable('sys_user').set({ status: 2 }).where('username', '=', 'teacher').execute();
    try {
      const r = await s.get('sys/user/getCurrentUserDeparts', token);
      expect(r.statusCode).toBe(401);
      expect(r.json()).toMatchObject({ code: 401 });
      expect((await login({ username: 'teacher', password: DEMO_PASSWORD }, freshIp())).json()).toMatchObject({ success: false, message: '该用户已冻结' });
    } finally {
      await db().updateTable('sys_user').set({ status: 1 }).where('username', '=', 'teacher').execute();
    }
  });

  it('refuses a 10 KB password quickly with the usual message', async () => {
    const b = (await login({ username: 'leader', password: 'x'.repeat(10_000) }, freshIp())).json();
    expect(b.message).toBe('用户名或密码错误');
  });
});

describe('tokens', () => {
  it('refuses random tokens and alg:none JWTs with HTTP 401', async () => {
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"username":"admin"}').toString('base64url')}.`;
    for (const t of [none, 'abc', 'x'.repeat(43), 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VybmFtZSI6ImFkbWluIn0.c2ln']) {
      const r = await s.get('sys/permission/getUserPermissionByToken', t);
      expect(r.statusCode).toBe(401);
      expect(r.json()).toMatchObject({ code: 401, message: 'Token失效，请重新登录!' });
    }
    expect((await s.get('sys/permission/getUserPermissionByToken')).statusCode).toBe(401);
  });

  it('401 right after logout', async () => {
    const t = await s.login('leader');
    expect((await s.get('sys/user/getCurrentUserDeparts', t)).statusCode).toBe(200);
    const out = (await s.post('sys/logout', {}, t)).json();
    expect(out).toMatchObject({ success: true, message: '退出登录成功！' });
    expect((await s.get('sys/user/getCurrentUserDeparts', t)).statusCode).toBe(401);
  });

  it('a forged token logs nobody out', async () => {
    const t = await s.login('leader');
    await s.post('sys/logout', {}, t.slice(0, -2) + 'xx');
    expect((await s.get('sys/user/getCurrentUserDeparts', t)).statusCode).toBe(200);
  });

  it('401 right after a force logout by an administrator', async () => {
    const admin = await s.login('admin');
    const t = await s.login('supervisor');
    const online = (await s.get('sys/online/list?pageSize=100&username=supervisor', admin)).json();
    expect(online.success).toBe(true);
    const row = online.result.records.find((r: { username: string }) => r.username === 'supervisor');
    expect(row).toBeTruthy();
    expect(JSON.stringify(online)).not.toContain(t);
    expect((await s.post('sys/online/forceLogout', { token: row.id }, admin)).json()).toMatchObject({ success: true, message: '强制退出成功！' });
    expect((await s.get('sys/user/getCurrentUserDeparts', t)).statusCode).toBe(401);
    // By username: every session of the user.
    const a = await s.login('supervisor');
    const b = await s.login('supervisor');
    expect((await s.post('sys/online/forceLogout', { username: 'supervisor' }, admin)).json().success).toBe(true);
    expect((await s.get('sys/user/getCurrentUserDeparts', a)).statusCode).toBe(401);
    expect((await s.get('sys/user/getCurrentUserDeparts', b)).statusCode).toBe(401);
    expect((await s.post('sys/online/forceLogout', { username: 'supervisor' }, admin)).json()).toMatchObject({ success: false, message: '该用户已不在线' });
  });

  it('the online list sorts by last activity or sign-in time only, and says so for any other column', async () => {
    const admin = await s.login('admin');
    await s.login('supervisor');
    const list = async (q: string) => (await s.get(`sys/online/list?pageSize=100&${q}`, admin)).json();
    const byActivity = await list('column=lastSeenAt&order=desc');
    expect(byActivity.success).toBe(true);
    const seen = byActivity.result.records.map((r: { lastSeenAt: string }) => r.lastSeenAt);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.every(Boolean)).toBe(true);
    expect([...seen].sort().reverse()).toEqual(seen);
    const byLogin = (await list('column=loginTime&order=asc')).result.records.map((r: { loginTime: string }) => r.loginTime);
    expect([...byLogin].sort()).toEqual(byLogin);
    expect((await list('column=createTime&order=desc')).success).toBe(true); // JeecgBoot's default list sort
    expect(await list('column=token_hash&order=desc')).toMatchObject({ success: false, message: '不支持按“token_hash”排序' });
  });

  it('force logout and the online list are for administrators only (510)', async () => {
    const t = await s.login('teacher');
    expect((await s.post('sys/online/forceLogout', { username: 'admin' }, t)).json()).toMatchObject({ success: false, code: 510 });
    expect((await s.get('sys/online/list', t)).json()).toMatchObject({ success: false, code: 510 });
  });

  it('401 right after a role change once sessions are revoked', async () => {
    const t = await s.login('deptadmin');
    expect((await s.get('sys/user/getCurrentUserDeparts', t)).statusCode).toBe(200);
    const uid = await userIdOf('deptadmin');
    const rows = await db().selectFrom('sys_user_role').selectAll().where('user_id', '=', uid).execute();
    await db().deleteFrom('sys_user_role').where('user_id', '=', uid).execute();
    await revokeUserSessions(s.running.ctx, uid, 'role-change');
    try {
      expect((await s.get('sys/user/getCurrentUserDeparts', t)).statusCode).toBe(401);
    } finally {
      await db().insertInto('sys_user_role').values(rows).execute();
    }
  });

  it('the tenant-id header only narrows to a tenant of the user; spoofing is refused', async () => {
    const teacher = await s.login('teacher');
    for (const h of ['2', '1', '-1', '1,2', '*', 'abc']) {
      const r = await s.get('sys/user/getCurrentUserDeparts', teacher, { 'tenant-id': h });
      expect(r.statusCode, `tenant-id ${h}`).toBe(403);
      expect(r.json().success).toBe(false);
    }
    expect((await s.get('sys/user/getCurrentUserDeparts', teacher, { 'tenant-id': '0' })).statusCode).toBe(200);
    const t2 = await s.login('teacher2');
    expect((await s.get('sys/user/getCurrentUserDeparts', t2, { 'tenant-id': '2' })).statusCode).toBe(200);
    expect((await s.get('sys/user/getCurrentUserDeparts', t2, { 'tenant-id': '3' })).statusCode).toBe(403);
  });
});

describe('departments of the user', () => {
  it('getCurrentUserDeparts and selectDepart switch the current department', async () => {
    const t = await s.login('teacher2');
    const before = (await s.get('sys/user/getCurrentUserDeparts', t)).json();
    expect(before.success).toBe(true);
    expect(before.result.list).toHaveLength(2);
    expect(before.result.orgCode).toBe('A01A04');
    const sel = (await s.put('sys/selectDepart', { orgCode: 'A01A05', username: 'teacher2' }, t)).json();
    expect(sel.success).toBe(true);
    expect(sel.result.userInfo).toMatchObject({ orgCode: 'A01A05', orgCodeTxt: '数学与统计学院' });
    expect((await s.get('sys/user/getCurrentUserDeparts', t)).json().result.orgCode).toBe('A01A05');
    // Not one of the user's departments.
    const bad = (await s.put('sys/selectDepart', { orgCode: 'A01A06' }, t)).json();
    expect(bad).toMatchObject({ success: false, message: '您不属于所选部门' });
    await s.put('sys/selectDepart', { orgCode: 'A01A04' }, t);
  });
});

describe('password change', () => {
  const cases: Array<[string, Record<string, string>, string]> = [
    ['old required', { password: 'Good#Pw9x', confirmpassword: 'Good#Pw9x' }, '请输入旧密码!'],
    ['new required', { oldpassword: DEMO_PASSWORD }, PASSWORD_MESSAGES.required],
    ['too weak', { oldpassword: DEMO_PASSWORD, password: 'abcdefgh', confirmpassword: 'abcdefgh' }, PASSWORD_MESSAGES.strength],
    ['too short', { oldpassword: DEMO_PASSWORD, password: 'A#9b', confirmpassword: 'A#9b' }, PASSWORD_MESSAGES.strength],
    ['contains username', { oldpassword: DEMO_PASSWORD, password: 'Leader#9Xq', confirmpassword: 'Leader#9Xq' }, PASSWORD_MESSAGES.username],
    ['same/consecutive', { oldpassword: DEMO_PASSWORD, password: 'Zq#9aaa7Wm', confirmpassword: 'Zq#9aaa7Wm' }, PASSWORD_MESSAGES.sequence],
    ['keyboard run', { oldpassword: DEMO_PASSWORD, password: 'Zq#9wer7Mk', confirmpassword: 'Zq#9wer7Mk' }, PASSWORD_MESSAGES.keyboard],
    ['confirm required', { oldpassword: DEMO_PASSWORD, password: 'Good#Pw9x' }, '请确认新密码!'],
    ['confirm differs', { oldpassword: DEMO_PASSWORD, password: 'Good#Pw9x', confirmpassword: 'Good#Pw9y' }, '两次输入的密码不一样！'],
    ['old wrong', { oldpassword: 'Nope#1234x', password: 'Good#Pw9x', confirmpassword: 'Good#Pw9x' }, '旧密码输入错误'],
  ];
  it.each(cases)('updatePassword refuses: %s', async (_name, payload, message) => {
    const t = await s.login('leader');
    const b = (await s.put('sys/user/updatePassword', { username: 'leader', ...payload }, t)).json();
    expect(b).toMatchObject({ success: false, message });
    expect((await s.get('sys/user/getCurrentUserDeparts', t)).statusCode).toBe(200);
  });

  it('updatePassword: 401 right after, the new password works, the old one no longer', async () => {
    const t = await s.login('secretary');
    const other = await s.login('secretary');
    const b = (await s.put('sys/user/updatePassword', { username: 'secretary', oldpassword: DEMO_PASSWORD, password: 'Nw7#Kp2Zr', confirmpassword: 'Nw7#Kp2Zr' }, t)).json();
    expect(b).toMatchObject({ success: true });
    expect((await s.get('sys/user/getCurrentUserDeparts', t)).statusCode).toBe(401);
    expect((await s.get('sys/user/getCurrentUserDeparts', other)).statusCode).toBe(401);
    expect((await login({ username: 'secretary', password: DEMO_PASSWORD }, freshIp())).json().message).toBe('用户名或密码错误');
    const t2 = await s.login('secretary', 'Nw7#Kp2Zr');
    // Back to the demo password through the administrator's changePassword (also revokes).
    const admin = await s.login('admin');
    const weak = (await s.put('sys/user/changePassword', { username: 'secretary', password: '12345678', confirmpassword: '12345678' }, admin)).json();
    expect(weak).toMatchObject({ success: false, message: PASSWORD_MESSAGES.strength });
    const back = (await s.put('sys/user/changePassword', { username: 'secretary', password: DEMO_PASSWORD, confirmpassword: DEMO_PASSWORD }, admin)).json();
    expect(back.success).toBe(true);
    expect((await s.get('sys/user/getCurrentUserDeparts', t2)).statusCode).toBe(401);
    await s.login('secretary');
  });

  it('only one\'s own password through updatePassword; changePassword needs the permission', async () => {
    const t = await s.login('teacher');
    expect((await s.put('sys/user/updatePassword', { username: 'admin', oldpassword: DEMO_PASSWORD, password: 'Good#Pw9x', confirmpassword: 'Good#Pw9x' }, t)).json())
      .toMatchObject({ success: false, message: '只能修改自己的密码' });
    expect((await s.put('sys/user/changePassword', { username: 'admin', password: 'Good#Pw9x', confirmpassword: 'Good#Pw9x' }, t)).json()).toMatchObject({ code: 510 });
  });
});

describe('SMS login', () => {
  it('sms → development outbox (smsDevOutbox) → phoneLogin; codes are single use', async () => {
    const mobile = '13800000006'; // teacher
    const sent = (await s.post('sys/sms', { mobile, smsmode: '0' })).json();
    expect(sent).toMatchObject({ success: true });
    // A resend within the interval answers the same (only an account's number could say otherwise) and sends nothing.
    const again = (await s.post('sys/sms', { mobile, smsmode: '0' })).json();
    expect({ ...again, timestamp: 0 }).toEqual({ ...sent, timestamp: 0 });
    expect(Number((await db().selectFrom('sys_sms_outbox').select((e) => e.fn.countAll().as('n')).where('mobile', '=', mobile).executeTakeFirstOrThrow()).n)).toBe(1);
    const admin = await s.login('admin');
    const box = (await s.get(`sys/sms/outbox?mobile=${mobile}`, admin)).json();
    expect(box.success).toBe(true);
    const code = /(\d{6})/.exec(box.result.records[0].content)![1]!;
    expect((await s.post('sys/phoneLogin', { mobile, captcha: code === '000000' ? '111111' : '000000' })).json()).toMatchObject({ success: false, message: '短信验证码错误' });
    const ok = (await s.post('sys/phoneLogin', { mobile, captcha: code })).json();
    expect(ok).toMatchObject({ success: true, code: 200 });
    expect(ok.result.userInfo.username).toBe('teacher');
    expect((await s.get('sys/user/getCurrentUserDeparts', ok.result.token)).statusCode).toBe(200);
    expect((await s.post('sys/phoneLogin', { mobile, captcha: code })).json()).toMatchObject({ success: false, message: '短信验证码已失效，请重新获取' });
  });

  it('a code allows few tries', async () => {
    const mobile = '13800000005'; // deptadmin
    await s.post('sys/sms', { mobile, smsmode: '0' });
    const admin = await s.login('admin');
    const code = /(\d{6})/.exec((await s.get(`sys/sms/outbox?mobile=${mobile}`, admin)).json().result.records[0].content)![1]!;
    const wrong = code === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) expect((await s.post('sys/phoneLogin', { mobile, captcha: wrong })).json().message).toBe('短信验证码错误');
    expect((await s.post('sys/phoneLogin', { mobile, captcha: code })).json()).toMatchObject({ success: false, message: '验证码错误次数过多，请重新获取' });
  });

  it('an unknown number gets the same answer and nothing is sent; bad numbers are refused', async () => {
    const r = (await s.post('sys/sms', { mobile: '13912345670', smsmode: '0' })).json();
    expect(r).toMatchObject({ success: true });
    const admin = await s.login('admin');
    expect((await s.get('sys/sms/outbox?mobile=13912345670', admin)).json().result.total).toBe(0);
    expect((await s.post('sys/sms', { mobile: '12345', smsmode: '0' })).json()).toMatchObject({ success: false, message: '请输入正确手机号' });
    const teacher = await s.login('teacher');
    expect((await s.get('sys/sms/outbox', teacher)).json().code).toBe(510);
  });

  it('third-party, OAuth2 and CAS answer 未启用', async () => {
    expect((await s.get('sys/thirdLogin/getLoginUser/abc/github')).json()).toMatchObject({ success: false, message: '第三方登录未启用' });
    expect((await s.post('sys/cas/client/validateLogin', {})).json()).toMatchObject({ success: false, message: 'CAS单点登录未启用' });
    expect((await s.get('sys/thirdLogin/oauth2/github/login')).json()).toMatchObject({ success: false, message: 'OAuth2登录未启用' });
  });
});
