import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { BizError, ok } from '../http/envelope.js';
import { validateInput } from '../crud/engine.js';
import { userDeparts, userInfo } from '../auth/login.js';
import { now } from '../util.js';

type Row = Record<string, unknown>;

/** The only profile fields a user may change about themselves (wire name → column). */
const SELF_FIELDS: Array<[string, string]> = [['realname', 'realname'], ['avatar', 'avatar'], ['email', 'email'], ['phone', 'phone'], ['birthday', 'birthday'], ['sex', 'sex']];
/** 新消息通知 switches (stored in sys_user.notify_settings). */
export const NOTIFY_KEYS = ['system', 'todo', 'message'] as const;
const DEFAULT_NOTIFY: Record<string, boolean> = { system: true, todo: true, message: true };

const notifyOf = (v: unknown): Record<string, boolean> => {
  let o: unknown = v;
  if (typeof v === 'string') {
    try {
      o = JSON.parse(v);
    } catch {
      o = {};
    }
  }
  const src = o && typeof o === 'object' ? (o as Row) : {};
  return Object.fromEntries(NOTIFY_KEYS.map((k) => [k, typeof src[k] === 'boolean' ? (src[k] as boolean) : DEFAULT_NOTIFY[k]!]));
};

/**
 * 个人中心 / 个人设置: everything here works on the session's own user only — no route takes a
 * user id, and only the fields of SELF_FIELDS (or the notification switches) are ever written.
 */
export async function registerAccount(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  const SELF = { config: { auth: 'user' as const } };

  // The signed-in user's profile for the account centre: user, departments, roles, position, recent activity.
  api.get('/sys/user/login/setting/getUserData', SELF, async (req) => {
    const me = req.user!;
    const departs = await userDeparts(ctx, me.id);
    const info = await userInfo(ctx, me.id, departs);
    const u = await ctx.db.selectFrom('sys_user').select(['post', 'notify_settings']).where('id', '=', me.id).executeTakeFirstOrThrow();
    const roles = await ctx.db
      .selectFrom('sys_role as r')
      .innerJoin('sys_user_role as ur', 'ur.role_id', 'r.id')
      .select(['r.role_name', 'r.role_code'])
      .where('ur.user_id', '=', me.id)
      .orderBy('r.role_code')
      .execute();
    const postCodes = String(u.post ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    const posts = postCodes.length ? await ctx.db.selectFrom('sys_position').select(['code', 'name']).where('code', 'in', postCodes).execute() : [];
    const notices = await ctx.db
      .selectFrom('sys_announcement as a')
      .innerJoin('sys_announcement_send as s', 's.annt_id', 'a.id')
      .select(['a.id', 'a.titile', 'a.send_time', 's.read_flag'])
      .where('s.user_id', '=', me.id)
      .where('a.send_status', '=', '1')
      .where('a.del_flag', '=', '0')
      .orderBy('a.send_time', 'desc')
      .limit(5)
      .execute();
    const records = await ctx.db
      .selectFrom('sup_lecture_record')
      .select(['id', 'record_no', 'course_name', 'teacher_name', 'listener_name', 'lecture_date', 'status', 'total_score'])
      .where((eb) => eb.or([eb('listener_id', '=', me.id), eb('teacher_id', '=', me.id)]))
      .orderBy('lecture_date', 'desc')
      .limit(5)
      .execute();
    delete info.notifySettings;
    return ok({
      userInfo: info,
      departs: departs.map((d) => ({ id: d.id, departName: d.departName, orgCode: d.orgCode })),
      roles: roles.map((r) => ({ roleName: r.role_name, roleCode: r.role_code })),
      positions: postCodes.map((c) => posts.find((p) => p.code === c)?.name ?? c),
      notices: notices.map((n) => ({ id: n.id, titile: n.titile, sendTime: n.send_time, readFlag: n.read_flag })),
      records: records.map((r) => ({
        id: r.id, recordNo: r.record_no, courseName: r.course_name, teacherName: r.teacher_name, listenerName: r.listener_name,
        lectureDate: r.lecture_date, status: r.status, totalScore: r.total_score,
      })),
      notify: notifyOf(u.notify_settings),
    });
  });

  // 基本设置: only SELF_FIELDS of the session's own user; anything else in the body is ignored.
  api.put('/sys/user/login/setting/userEdit', SELF, async (req) => {
    const body = (req.body ?? {}) as Row;
    if (typeof body !== 'object' || Array.isArray(body)) throw new BizError('请求内容格式不正确');
    const input: Row = {};
    for (const [w] of SELF_FIELDS) if (Object.prototype.hasOwnProperty.call(body, w)) input[w] = body[w] === '' ? null : body[w];
    if ('realname' in input && !String(input.realname ?? '').trim()) throw new BizError('真实姓名不能为空');
    const v = validateInput(ctx.entities.get('sys_user'), input, 'edit');
    const set: Row = {};
    for (const [w, c] of SELF_FIELDS) if (w in v) set[c] = typeof v[w] === 'string' ? (v[w] as string).trim() : v[w];
    if (!Object.keys(set).length) throw new BizError('没有需要保存的内容');
    await ctx.db.updateTable('sys_user').set({ ...set, update_by: req.user!.username, update_time: now() }).where('id', '=', req.user!.id).execute();
    return ok(await userInfo(ctx, req.user!.id), '保存成功！');
  });

  // 新消息通知: three switches on the user's own profile.
  api.put('/sys/user/login/setting/notify', SELF, async (req) => {
    const body = (req.body ?? {}) as Row;
    const cur = notifyOf((await ctx.db.selectFrom('sys_user').select('notify_settings').where('id', '=', req.user!.id).executeTakeFirstOrThrow()).notify_settings);
    for (const k of NOTIFY_KEYS) {
      if (!Object.prototype.hasOwnProperty.call(body, k)) continue;
      if (typeof body[k] !== 'boolean') throw new BizError('通知设置只能是开启或关闭');
      cur[k] = body[k] as boolean;
    }
    await ctx.db.updateTable('sys_user').set({ notify_settings: JSON.stringify(cur), update_time: now() }).where('id', '=', req.user!.id).execute();
    return ok(cur, '保存成功！');
  });

}
