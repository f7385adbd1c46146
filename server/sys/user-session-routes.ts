import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import { BizError, ok, page } from '../http/envelope.js';
import { tokenOf } from '../http/guard.js';
import { newCaptcha } from '../auth/captcha.js';
import { checkChallenge, newChallenge } from '../auth/challenge.js';
import { loginResult, userDeparts, userInfo } from '../auth/login.js';
import { hashPassword, MAX_PASSWORD_LENGTH, verifyPassword } from '../auth/password.js';
import { assertUserInScope } from './user-scope.js';
import { checkPassword } from '../../shared/password-policy.js';
import { resolveSession, revokeSessions, revokeUserSessions } from '../auth/session.js';
import { signatureCheck } from '../auth/signature.js';
import { MOBILE_RE, sendSmsCode, verifySmsCode } from '../auth/sms.js';
import { claimAttempt, loginState, recordFailure, recordSuccess, waitMessage } from '../auth/throttle.js';
import { userPermissions } from './permission-tree.js';
import { allDictItems } from './dict-service.js';
import { sessionsRevoked } from './notify.js';
import dayjs from 'dayjs';
import { fmt, now, sha256 } from '../util.js';

const BAD_CREDENTIALS = '用户名或密码错误';
const FROZEN = '该用户已冻结';

const str = (max: number) => ({ type: 'string', maxLength: max });
const pagingQuery = (props: Record<string, unknown>) => ({
  type: 'object',
  properties: { pageNo: { type: 'integer', minimum: 1, default: 1 }, pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 10 }, ...props },
});
const body = (props: Record<string, unknown>, required: string[] = []) => ({
  body: { type: 'object', properties: props, required, additionalProperties: true },
});

/** Sign-in, sign-out, captcha, SMS, current department, password change, menus — the session calls of the Foundation. */
export async function registerUserSession(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  api.addHook('preHandler', signatureCheck(ctx));

  // The image captcha stays for the stock JeecgBoot client, whose sign-in form shows it. It is no longer
  // a defence (a program reads it): a password attempt that must prove work carries a solved challenge.
  api.get<{ Params: { key: string } }>(
    '/sys/randomImage/:key',
    { config: { auth: 'public', rateLimitGroup: 'other' }, schema: { params: { type: 'object', properties: { key: str(64) }, required: ['key'] } } },
    async (req) => ok(await newCaptcha(ctx, req.params.key)),
  );

  api.post<{ Body: { username?: string; password?: string; captcha?: string; checkKey?: string; altcha?: unknown } }>(
    '/sys/login',
    {
      config: { auth: 'public', rateLimitGroup: 'login' },
      schema: body({ username: str(100), password: { type: 'string' }, captcha: str(16), checkKey: str(64), altcha: str(4000) }),
    },
    async (req) => {
      const username = (req.body.username ?? '').trim();
      const password = req.body.password ?? '';
      if (!username) throw new BizError('请输入用户名');
      if (!password) throw new BizError('请输入密码');
      const ip = req.ip;
      const state = await loginState(ctx, username, ip);
      // Inside the wait: refused before the password is looked at (no oracle, no hashing cost).
      if (state.waitSeconds) throw new BizError(waitMessage(state.waitSeconds), 429);
      if (state.challengeMax) {
        const given = req.body.altcha !== undefined && req.body.altcha !== '';
        if (!given || !(await checkChallenge(ctx, req.body.altcha, state.challengeMax)))
          throw new BizError(given ? '人机验证未通过，请重试' : '请完成人机验证', 412, 200, { challenge: await newChallenge(ctx, state.challengeMax) });
      }
      if (!(await claimAttempt(ctx, username, ip))) throw new BizError(waitMessage(1), 429);
      const user = await ctx.db.selectFrom('sys_user').selectAll().where('username', '=', username).where('del_flag', '=', 0).executeTakeFirst();
      const good = password.length <= MAX_PASSWORD_LENGTH && (await verifyPassword(user?.password as string | undefined, password));
      if (!user || !good) {
        await recordFailure(ctx, username, ip);
        throw new BizError(BAD_CREDENTIALS);
      }
      if (Number(user.status) !== 1) throw new BizError(FROZEN);
      await recordSuccess(ctx, username);
      req.log.info({ username }, 'login');
      return ok(await loginResult(ctx, req, user, 'password'), '登录成功');
    },
  );

  api.post('/sys/logout', { config: { auth: 'public' } }, async (req) => {
    // Only a token that matches a live session logs anybody out (a forged one does nothing).
    const s = await resolveSession(ctx, tokenOf(req));
    if (s) {
      await revokeSessions(ctx, { sessionId: s.sessionId }, 'logout');
      await sessionsRevoked(ctx);
    }
    return ok(null, '退出登录成功！');
  });

  api.post<{ Body: { mobile?: string; smsmode?: string } }>(
    '/sys/sms',
    { config: { auth: 'public', rateLimitGroup: 'sms' }, schema: body({ mobile: str(32), smsmode: str(2) }) },
    async (req) => {
      const mobile = String(req.body.mobile ?? '').trim();
      const mode = String(req.body.smsmode ?? '0');
      if (!MOBILE_RE.test(mobile)) throw new BizError('请输入正确手机号');
      if (mode === '1') throw new BizError('用户注册未启用');
      if (mode !== '0' && mode !== '2') throw new BizError('短信模式不正确');
      const user = await ctx.db.selectFrom('sys_user').select(['id', 'status']).where('phone', '=', mobile).where('del_flag', '=', 0).executeTakeFirst();
      // The same answer whether or not the number belongs to an account (no enumeration): a resend
      // inside the interval is skipped silently, since only an account's number could report it.
      if (user && Number(user.status) === 1) await sendSmsCode(ctx, mobile, mode, req.log);
      return ok(null, '短信验证码已发送，请注意查收');
    },
  );

  api.post<{ Body: { mobile?: string; captcha?: string } }>(
    '/sys/phoneLogin',
    { config: { auth: 'public', rateLimitGroup: 'login' }, schema: body({ mobile: str(32), captcha: str(16) }) },
    async (req) => {
      const mobile = String(req.body.mobile ?? '').trim();
      if (!MOBILE_RE.test(mobile)) throw new BizError('请输入正确手机号');
      if (!req.body.captcha) throw new BizError('请输入短信验证码');
      await verifySmsCode(ctx, mobile, '0', req.body.captcha);
      const user = await ctx.db.selectFrom('sys_user').selectAll().where('phone', '=', mobile).where('del_flag', '=', 0).executeTakeFirst();
      if (!user) throw new BizError('该手机号未绑定用户');
      if (Number(user.status) !== 1) throw new BizError(FROZEN);
      // The owner proved the phone: password attempts against the account start afresh.
      await recordSuccess(ctx, String(user.username));
      return ok(await loginResult(ctx, req, user, 'phone'), '登录成功');
    },
  );

  // Forgot password (SMS mode "2"): the code proves the phone; the account must own that phone.
  api.post<{ Body: { username?: string; phone?: string; smscode?: string; password?: string } }>(
    '/sys/user/passwordChange',
    { config: { auth: 'public', rateLimitGroup: 'sms' }, schema: body({ username: str(100), phone: str(32), smscode: str(16), password: str(MAX_PASSWORD_LENGTH + 1) }) },
    async (req) => {
      const username = String(req.body.username ?? '').trim();
      const phone = String(req.body.phone ?? '').trim();
      if (!username) throw new BizError('请输入用户名');
      if (!MOBILE_RE.test(phone)) throw new BizError('请输入正确手机号');
      if (!req.body.smscode) throw new BizError('请输入短信验证码');
      const problem = checkPassword(req.body.password, username);
      if (problem) throw new BizError(problem);
      await verifySmsCode(ctx, phone, '2', req.body.smscode);
      const user = await ctx.db.selectFrom('sys_user').select(['id', 'status']).where('username', '=', username).where('phone', '=', phone).where('del_flag', '=', 0).executeTakeFirst();
      // Same answer for an unknown account and a phone that is not the account's.
      if (!user || Number(user.status) !== 1) throw new BizError('用户名与手机号不匹配');
      await ctx.db.updateTable('sys_user').set({ password: await hashPassword(req.body.password!), update_by: username, update_time: now() }).where('id', '=', user.id).execute();
      await revokeUserSessions(ctx, String(user.id), 'password-reset');
      await recordSuccess(ctx, username);
      return ok(null, '密码重置成功，请使用新密码登录');
    },
  );

  const notEnabled = (what: string) => async () => {
    throw new BizError(`${what}未启用`);
  };
  api.get('/sys/thirdLogin/getLoginUser/:token/:thirdType', { config: { auth: 'public' } }, notEnabled('第三方登录'));
  api.get('/sys/thirdLogin/render/:source', { config: { auth: 'public' } }, notEnabled('第三方登录'));
  api.post('/sys/thirdLogin/bindingThirdPhone', { config: { auth: 'public' } }, notEnabled('第三方登录'));
  // Accounts are created by administrators; self-registration answers clearly until it is configured.
  api.post('/sys/user/register', { config: { auth: 'public', rateLimitGroup: 'sms' } }, notEnabled('用户注册'));
  api.get('/sys/thirdLogin/oauth2/:source/login', { config: { auth: 'public' } }, notEnabled('OAuth2登录'));
  api.get('/sys/oauth2/login', { config: { auth: 'public' } }, notEnabled('OAuth2登录'));
  api.get('/sys/cas/client/validateLogin', { config: { auth: 'public' } }, notEnabled('CAS单点登录'));
  api.post('/sys/cas/client/validateLogin', { config: { auth: 'public' } }, notEnabled('CAS单点登录'));

  api.get('/sys/permission/getUserPermissionByToken', { config: { auth: 'user' } }, async (req) => ok(await userPermissions(ctx, req.user!)));

  api.get('/sys/user/getUserInfo', { config: { auth: 'user' } }, async (req) =>
    ok({ userInfo: await userInfo(ctx, req.user!.id), sysAllDictItems: await allDictItems(ctx.db) }),
  );

  api.get('/sys/user/getCurrentUserDeparts', { config: { auth: 'user' } }, async (req) => {
    const u = await ctx.db.selectFrom('sys_user').select('org_code').where('id', '=', req.user!.id).executeTakeFirst();
    return ok({ list: await userDeparts(ctx, req.user!.id), orgCode: u?.org_code ?? '' });
  });

  const selectDepart = async (req: FastifyRequest<{ Body: { orgCode?: string } }>) => {
    const orgCode = String(req.body?.orgCode ?? '');
    const mine = await userDeparts(ctx, req.user!.id);
    if (!mine.some((d) => d.orgCode === orgCode)) throw new BizError('您不属于所选部门');
    await ctx.db.updateTable('sys_user').set({ org_code: orgCode, update_time: now(), update_by: req.user!.username }).where('id', '=', req.user!.id).execute();
    return ok({ userInfo: await userInfo(ctx, req.user!.id, mine) });
  };
  const selectSchema = { config: { auth: 'user' as const }, schema: body({ orgCode: str(64), username: str(100) }, ['orgCode']) };
  api.put('/sys/selectDepart', selectSchema, selectDepart);
  api.post('/sys/selectDepart', selectSchema, selectDepart);

  /** Checks a new password against the policy and the confirmation; returns the argon2id hash. */
  const newPasswordHash = async (username: string, password?: string, confirm?: string) => {
    const problem = checkPassword(password, username);
    if (problem) throw new BizError(problem);
    if (!confirm) throw new BizError('请确认新密码!');
    if (confirm !== password) throw new BizError('两次输入的密码不一样！');
    return hashPassword(password!);
  };

  api.put<{ Body: { username?: string; oldpassword?: string; password?: string; confirmpassword?: string } }>(
    '/sys/user/updatePassword',
    { config: { auth: 'user' }, schema: body({ username: str(100), oldpassword: str(4096), password: str(4096), confirmpassword: str(4096) }) },
    async (req) => {
      const me = req.user!;
      if (req.body.username && req.body.username !== me.username) throw new BizError('只能修改自己的密码');
      if (!req.body.oldpassword) throw new BizError('请输入旧密码!');
      const hash = await newPasswordHash(me.username, req.body.password, req.body.confirmpassword);
      const u = await ctx.db.selectFrom('sys_user').select('password').where('id', '=', me.id).executeTakeFirst();
      if (!(await verifyPassword(u?.password as string | undefined, req.body.oldpassword))) throw new BizError('旧密码输入错误');
      await ctx.db.updateTable('sys_user').set({ password: hash, update_time: now(), update_by: me.username }).where('id', '=', me.id).execute();
      await revokeUserSessions(ctx, me.id, 'password-change');
      return ok(null, '密码修改成功，请重新登录！');
    },
  );

  api.put<{ Body: { username?: string; password?: string; confirmpassword?: string } }>(
    '/sys/user/changePassword',
    { config: { auth: ['system:user:resetPassword', 'system:user:edit'] }, schema: body({ username: str(100), password: str(4096), confirmpassword: str(4096) }, ['username']) },
    async (req) => {
      // The user data scope of the user list applies (a department administrator: their own users only).
      const target = await ctx.db.selectFrom('sys_user').select(['id', 'username']).where('username', '=', req.body.username!).where('del_flag', '=', 0).executeTakeFirst();
      if (!target) throw new BizError('用户不存在或不在您的管理范围内');
      if (target.id === req.user!.id) throw new BizError('修改自己的密码请使用“个人设置 - 修改密码”（需输入旧密码）');
      await assertUserInScope(ctx, req, [String(target.id)], { write: true });
      const hash = await newPasswordHash(String(target.username), req.body.password, req.body.confirmpassword ?? req.body.password);
      await ctx.db.updateTable('sys_user').set({ password: hash, update_time: now(), update_by: req.user!.username }).where('id', '=', target.id).execute();
      await revokeUserSessions(ctx, String(target.id), 'password-change');
      return ok(null, '密码修改成功！');
    },
  );

  // The list's sortable columns (allow-list): last activity or sign-in time (JeecgBoot lists send createTime by default).
  const ONLINE_SORT: Record<string, 's.last_seen_at' | 's.created_at'> = { lastSeenAt: 's.last_seen_at', loginTime: 's.created_at', createTime: 's.created_at' };
  api.get<{ Querystring: { pageNo?: number; pageSize?: number; username?: string; column?: string; order?: 'asc' | 'desc' } }>(
    '/sys/online/list',
    {
      config: { auth: 'system:onlineUser:list' },
      schema: { querystring: pagingQuery({ username: str(100), column: str(50), order: { type: 'string', enum: ['asc', 'desc'] } }) },
    },
    async (req) => {
      const { pageNo = 1, pageSize = 10, username, column = 'loginTime', order = 'desc' } = req.query;
      const sortBy = Object.hasOwn(ONLINE_SORT, column) ? ONLINE_SORT[column]! : undefined;
      if (!sortBy) throw new BizError(`不支持按“${column}”排序`);
      const idleCutoff = fmt(dayjs().subtract(Math.round(ctx.cfg.session.idleMinutes * 60), 'second'));
      let q = ctx.db
        .selectFrom('sys_session as s')
        .innerJoin('sys_user as u', 'u.id', 's.user_id')
        .where('s.revoked_at', 'is', null)
        .where('s.expires_at', '>', now())
        .where('s.last_seen_at', '>=', idleCutoff);
      if (username) q = q.where('s.username', 'ilike', `%${username.replace(/[\\%_]/g, '\\$&')}%`);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q
        .select([
          's.id', 's.user_id', 's.username', 'u.realname', 'u.avatar', 'u.sex', 'u.phone', 's.ip', 's.login_type', 's.user_agent', 's.created_at', 's.last_seen_at',
        ])
        .orderBy(sortBy, order)
        .orderBy('s.id')
        .limit(pageSize)
        .offset((pageNo - 1) * pageSize)
        .execute();
      // `token` is the session id: the list never shows real tokens (forceLogout accepts either).
      const records = rows.map((r) => ({
        id: r.id, token: r.id, userId: r.user_id, username: r.username, realname: r.realname, avatar: r.avatar ?? '', sex: r.sex, phone: r.phone,
        ip: r.ip, loginType: r.login_type, userAgent: r.user_agent, loginTime: r.created_at, lastSeenAt: r.last_seen_at, current: r.id === req.user!.sessionId,
      }));
      return ok(page(records, total, pageNo, pageSize));
    },
  );

  api.post<{ Body: { token?: string; username?: string; id?: string } }>(
    '/sys/online/forceLogout',
    { config: { auth: 'system:onlineUser:forceLogout' }, schema: body({ token: str(200), username: str(100), id: str(32) }) },
    async (req) => {
      const { token, username, id } = req.body;
      let q = ctx.db.updateTable('sys_session').set({ revoked_at: now(), revoke_reason: 'force-logout' }).where('revoked_at', 'is', null);
      if (token) q = q.where((eb) => eb.or([eb('id', '=', token), eb('token_hash', '=', sha256(token))]));
      else if (id) q = q.where('id', '=', id);
      else if (username) q = q.where('username', '=', username);
      else throw new BizError('请指定要强制退出的会话或用户');
      // Never the caller's own session: use logout for that.
      q = q.where('id', '<>', req.user!.sessionId);
      const r = await q.executeTakeFirst();
      if (!Number(r.numUpdatedRows)) throw new BizError('该用户已不在线');
      await sessionsRevoked(ctx);
      req.log.info({ by: req.user!.username, id, username }, 'force logout');
      return ok(null, '强制退出成功！');
    },
  );

  api.get<{ Querystring: { pageNo?: number; pageSize?: number; mobile?: string } }>(
    '/sys/sms/outbox',
    { config: { auth: 'system:user:smsOutbox' }, schema: { querystring: pagingQuery({ mobile: str(32) }) } },
    async (req) => {
      const { pageNo = 1, pageSize = 10, mobile } = req.query;
      let q = ctx.db.selectFrom('sys_sms_outbox');
      if (mobile) q = q.where('mobile', '=', mobile);
      const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q
        .select(['id', 'mobile', 'purpose', 'content', 'gateway', 'created_at', 'expires_at', 'used_at', 'tries'])
        .orderBy('created_at', 'desc')
        .limit(pageSize)
        .offset((pageNo - 1) * pageSize)
        .execute();
      const records = rows.map((r) => ({
        id: r.id, mobile: r.mobile, purpose: r.purpose, content: r.content, gateway: r.gateway,
        createdAt: r.created_at, expiresAt: r.expires_at, usedAt: r.used_at, tries: r.tries,
      }));
      return ok(page(records, total, pageNo, pageSize));
    },
  );
}
