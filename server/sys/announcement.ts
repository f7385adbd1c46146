import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import xssDefault from 'xss';
import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import { BizError, ok, page } from '../http/envelope.js';
import { defineEntityHooks } from '../crud/hooks.js';
import type { SessionUser } from '../auth/session.js';
import dayjs from 'dayjs';
import { cachedRows, rawRead } from '../db/read-cache.js';
import { fmt, newId, now } from '../util.js';
import { notifyUsers } from './notify.js';
import { mentions, registerFileOwner, seesAnyRow } from './file-access.js';

const PERM = 'system:announcement';

// xss is CommonJS: its named exports are properties of the default export under Node's ESM loader.
const xss = xssDefault as unknown as typeof import('xss');
// Rich text keeps formatting (style attributes, images, links) but never scripts or handlers.
const richText = new xss.FilterXSS({
  whiteList: Object.fromEntries(Object.entries(xss.whiteList).map(([tag, attrs]) => [tag, [...(attrs ?? []), 'style', 'class']])),
  stripIgnoreTagBody: ['script', 'style'],
});
export const sanitizeRichText = (html: string) => richText.process(html);

/** Wire shape of an announcement (JeecgBoot field names, `titile` sic). */
const ANNT_COLUMNS = sql`a.id, a.titile, a.msg_content as "msgContent", a.msg_abstract as "msgAbstract", a.start_time as "startTime",
  a.end_time as "endTime", a.sender, a.priority, a.msg_category as "msgCategory", a.msg_type as "msgType",
  a.send_status as "sendStatus", a.send_time as "sendTime", a.cancel_time as "cancelTime", a.del_flag as "delFlag",
  a.user_ids as "userIds", a.bus_type as "busType", a.bus_id as "busId", a.open_type as "openType", a.open_page as "openPage",
  a.create_time as "createTime", a.create_by as "createBy",
  coalesce((select u.realname from sys_user u where u.username = a.sender and u.realname is not null limit 1), a.sender) as "senderName"`;

const splitIds = (v: unknown) =>
  String(v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * How long a user's notice reads may be reused while neither announcement table is written (any write
 * drops them at once, in every server process): the header polls listByUser for every signed-in user.
 */
const NOTICE_CACHE_MS = 60_000;

/**
 * Read-receipt rows for published "ALL" announcements the user has none for yet (JeecgBoot does this on
 * listByUser). Looked for first: an insert is a write even when it adds nothing, and every write drops
 * read-cache entries and is announced to the other servers — on every notice poll of every user.
 */
async function materialize(db: DB, userId: string) {
  const missing = sql`from sys_announcement a
    where a.send_status = '1' and a.del_flag = '0' and a.msg_type = 'ALL'
      and not exists (select 1 from sys_announcement_send s where s.annt_id = a.id and s.user_id = ${userId})`;
  if (!(await cachedRows(db, rawRead(db, sql`select 1 as one ${missing} limit 1`), NOTICE_CACHE_MS)).length) return;
  await sql`
    insert into sys_announcement_send (id, annt_id, user_id, read_flag)
    select md5(a.id || ${userId}), a.id, ${userId}, '0' ${missing}
    on conflict do nothing`.execute(db);
}

async function publish(ctx: ServerContext, id: string, user: SessionUser) {
  const a = await ctx.db.selectFrom('sys_announcement').selectAll().where('id', '=', id).where('del_flag', '=', '0').executeTakeFirst();
  if (!a) throw new BizError('未找到对应数据');
  if (a.send_status === '1') throw new BizError('该通告已发布');
  const targets = a.msg_type === 'USER' ? splitIds(a.user_ids) : 'ALL';
  if (targets !== 'ALL' && !targets.length) throw new BizError('请选择指定用户');
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('sys_announcement')
      .set({ send_status: '1', send_time: now(), cancel_time: null, sender: a.sender || user.username, update_by: user.username, update_time: now() })
      .where('id', '=', id)
      .execute();
    if (targets !== 'ALL')
      await trx
        .insertInto('sys_announcement_send')
        .values(targets.map((u) => ({ id: newId(), annt_id: id, user_id: u, read_flag: '0' })))
        .onConflict((oc) => oc.columns(['annt_id', 'user_id']).doNothing())
        .execute();
  });
  await notifyUsers(ctx, targets, { cmd: targets === 'ALL' ? 'topic' : 'user', msgId: id, msgTxt: a.titile });
}

/** The header notice centre's answer (GET /sys/annountCement/listByUser): the user's newest unread published notices (category 1) and system messages (2), `size` of each, with their totals. */
export async function noticeList(ctx: ServerContext, user: SessionUser, pageSize: number) {
  const size = Math.min(Math.max(pageSize, 1), 50);
  await materialize(ctx.db, user.id);
  // Both categories' newest unread notices and their totals in one statement, through the read cache: the header
  // polls this for every user. Notices are current to the minute (the statement's time is the minute's start).
  const minute = fmt(dayjs().startOf('minute'));
  const unread = await cachedRows(ctx.db, rawRead(ctx.db, sql<Record<string, unknown> & { msgCategory: string; rank: string; categoryTotal: string }>`
    select * from (
      select ${ANNT_COLUMNS}, s.read_flag as "readFlag", s.id as "sendId",
        row_number() over (partition by a.msg_category order by a.send_time desc) as rank,
        count(*) over (partition by a.msg_category) as "categoryTotal"
      from sys_announcement a join sys_announcement_send s on s.annt_id = a.id and s.user_id = ${user.id}
      where a.send_status = '1' and a.del_flag = '0' and s.read_flag = '0' and a.msg_category in ('1', '2')
        and (a.end_time is null or a.end_time >= ${minute})
    ) t where rank <= ${size} order by "sendTime" desc`), NOTICE_CACHE_MS);
  const byCategory = (category: string) => {
    const rows = unread.filter((r) => r.msgCategory === category);
    return [rows.map(({ rank: _rank, categoryTotal: _total, ...notice }) => notice), Number(rows[0]?.categoryTotal ?? 0)] as const;
  };
  const [[anntMsgList, anntMsgTotal], [sysMsgList, sysMsgTotal]] = [byCategory('1'), byCategory('2')];
  return { ...ok({ anntMsgList, anntMsgTotal, sysMsgList, sysMsgTotal }), code: 0 };
}

export async function registerAnnouncement(api: FastifyInstance, ctx: ServerContext) {
  // Images and files in an announcement body: readable by whoever may read the announcement (its
  // recipients once published, everyone for an "ALL" one) and by the announcement administrators.
  registerFileOwner({
    name: 'announcement',
    async resolve(c, user, file, req) {
      const rows = await c.db.selectFrom('sys_announcement as t').select(['t.id', 't.send_status', 't.del_flag', 't.msg_type']).where(mentions('t.msg_content', file.url)).limit(100).execute();
      if (!rows.length) return undefined;
      const published = rows.filter((r) => r.send_status === '1' && String(r.del_flag) === '0');
      if (published.some((r) => r.msg_type === 'ALL')) return true;
      if (published.length) {
        const sent = await c.db.selectFrom('sys_announcement_send').select('id').where('user_id', '=', user.id).where('annt_id', 'in', published.map((r) => String(r.id))).limit(1).executeTakeFirst();
        if (sent) return true;
      }
      return seesAnyRow(c, user, req, 'sys_announcement', rows.map((r) => String(r.id)));
    },
  });
  defineEntityHooks('sys_announcement', {
    beforeSave(h, row, mode) {
      if (typeof row.msgContent === 'string') row.msgContent = sanitizeRichText(row.msgContent);
      if (row.msgType !== 'USER') row.msgType = 'ALL';
      if (row.msgType === 'USER' && !splitIds(row.userIds).length) throw new BizError('请选择指定用户');
      if (row.openType && !['url', 'component'].includes(String(row.openType))) throw new BizError('打开方式只能是url或component');
      if (row.priority && !['L', 'M', 'H'].includes(String(row.priority))) throw new BizError('优先级只能是L、M或H');
      if (mode === 'add') {
        row.sender = h.user.username;
        row.sendStatus = '0';
        row.delFlag = '0';
        row.tenantId = h.user.tenantId;
      }
    },
    async beforeDelete(h, rows) {
      const ids = rows.map((r) => String(r.id));
      if (ids.length) await h.db.deleteFrom('sys_announcement_send').where('annt_id', 'in', ids).execute();
    },
  });

  const idOf = (q: unknown) => {
    const id = (q as { id?: unknown }).id;
    if (typeof id !== 'string' || !id) throw new BizError('参数id不能为空');
    return id;
  };

  api.get('/sys/annountCement/doReleaseData', { config: { auth: `${PERM}:release` } }, async (req) => {
    await publish(ctx, idOf(req.query), req.user!);
    return ok(null, '该系统通知发布成功');
  });

  api.get('/sys/annountCement/doReovkeData', { config: { auth: `${PERM}:revoke` } }, async (req) => {
    const id = idOf(req.query);
    const r = await ctx.db
      .updateTable('sys_announcement')
      .set({ send_status: '2', cancel_time: now(), update_by: req.user!.username, update_time: now() })
      .where('id', '=', id)
      .where('send_status', '=', '1')
      .executeTakeFirst();
    if (!r.numUpdatedRows) throw new BizError('只能撤销已发布的通告');
    return ok(null, '该系统通知撤销成功');
  });

  api.get('/sys/annountCement/listByUser', { config: { auth: 'user' } }, async (req) =>
    noticeList(ctx, req.user!, Number((req.query as { pageSize?: string }).pageSize) || 5),
  );

  api.put('/sys/sysAnnouncementSend/editByAnntIdAndUserId', { config: { auth: 'user' } }, async (req) => {
    const anntId = (req.body as { anntId?: unknown } | undefined)?.anntId;
    if (typeof anntId !== 'string' || !anntId) throw new BizError('参数anntId不能为空');
    await materialize(ctx.db, req.user!.id);
    await ctx.db
      .updateTable('sys_announcement_send')
      .set({ read_flag: '1', read_time: now() })
      .where('annt_id', '=', anntId)
      .where('user_id', '=', req.user!.id)
      .where('read_flag', '=', '0')
      .execute();
    return ok(null, '操作成功');
  });

  api.put('/sys/sysAnnouncementSend/readAll', { config: { auth: 'user' } }, async (req) => {
    await materialize(ctx.db, req.user!.id);
    await ctx.db
      .updateTable('sys_announcement_send')
      .set({ read_flag: '1', read_time: now() })
      .where('user_id', '=', req.user!.id)
      .where('read_flag', '=', '0')
      .execute();
    return ok(null, '全部已读');
  });

  /** 我的消息: every published announcement sent to me, paged, optional title / category / readFlag filters. */
  api.get('/sys/sysAnnouncementSend/getMyAnnouncementSend', { config: { auth: 'user' } }, async (req) => {
    const q = req.query as Record<string, string | undefined>;
    const pageNo = Math.max(Number(q.pageNo) || 1, 1);
    const pageSize = Math.min(Math.max(Number(q.pageSize) || 10, 1), 100);
    const user = req.user!;
    await materialize(ctx.db, user.id);
    const conds = [sql`s.user_id = ${user.id}`, sql`a.send_status = '1'`, sql`a.del_flag = '0'`];
    if (q.titile) conds.push(sql`a.titile ilike ${'%' + q.titile.replace(/[\\%_]/g, '\\$&') + '%'}`);
    if (q.msgCategory) conds.push(sql`a.msg_category = ${q.msgCategory}`);
    if (q.readFlag === '0' || q.readFlag === '1') conds.push(sql`s.read_flag = ${q.readFlag}`);
    const where = sql`from sys_announcement a join sys_announcement_send s on s.annt_id = a.id where ${sql.join(conds, sql` and `)}`;
    const [rows, total] = await Promise.all([
      sql`select ${ANNT_COLUMNS}, s.read_flag as "readFlag", s.read_time as "readTime", s.id as "sendId", a.id as "anntId"
        ${where} order by a.send_time desc limit ${pageSize} offset ${(pageNo - 1) * pageSize}`.execute(ctx.db),
      sql<{ n: string }>`select count(*) as n ${where}`.execute(ctx.db),
    ]);
    return ok(page(rows.rows, Number(total.rows[0]?.n ?? 0), pageNo, pageSize));
  });
}
