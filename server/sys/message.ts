import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { BizError, ok } from '../http/envelope.js';
import { defineEntityHooks } from '../crud/hooks.js';
import { newId, now } from '../util.js';
import { notifyUsers } from './notify.js';
import { escapeHtml } from './notice-text.js';

/** Channels (dict `msgType`): 1 SMS, 2 e-mail, 3 WeChat, 4 system notice. */
export const CHANNEL_SMS = '1';
export const CHANNEL_EMAIL = '2';
export const CHANNEL_SYSTEM = '4';
/** Send status (dict `msgSendStatus`): 0 waiting in the outbox, 1 sent, 2 failed. */
export const SEND_WAITING = '0';
export const SEND_OK = '1';
export const SEND_FAILED = '2';

export interface OutgoingMessage {
  title: string;
  content: string;
  /** The recipient's address on this channel (e-mail, phone). */
  address: string;
  userId: string;
}

/** A delivery gateway (SMTP, SMS provider…). Without one, messages of that channel stay in the outbox. */
export interface MessageGateway {
  send(ctx: ServerContext, msg: OutgoingMessage): Promise<void>;
}

const gateways = new Map<string, MessageGateway>();
export function registerMessageGateway(channel: string, gw: MessageGateway) {
  gateways.set(channel, gw);
}

const PLACEHOLDER = /\$\{\s*([A-Za-z_][A-Za-z0-9_.]{0,63})\s*\}/g;

/**
 * Replaces `${name}` placeholders with values from `data`, as plain text, in one pass: values are
 * never evaluated or substituted again, and anything that is not a plain name (`${7*7}`, `{{x}}`)
 * stays as written.
 */
export function renderTemplate(template: string, data: Record<string, unknown>): string {
  return template.replace(PLACEHOLDER, (whole, key: string) => {
    if (!Object.prototype.hasOwnProperty.call(data, key)) return whole;
    const v = data[key];
    return v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  });
}

function parseData(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null || raw === '') return {};
  if (typeof raw === 'object' && !Array.isArray(raw)) return raw as Record<string, unknown>;
  if (typeof raw !== 'string') throw new BizError('模板参数必须是JSON对象');
  try {
    const v = JSON.parse(raw) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error();
    return v as Record<string, unknown>;
  } catch {
    throw new BizError('模板参数必须是JSON对象，例如 {"name":"张三"}');
  }
}

/**
 * Sends a message to users through a channel and records one row per recipient in sys_sms.
 * System notices become unread system messages (notice centre, 系统消息 tab) pushed over the socket.
 */
export async function sendMessage(
  ctx: ServerContext,
  opts: { channel: string; title: string; content: string; userIds: string[]; sender: string },
): Promise<{ sent: number; waiting: number; failed: number }> {
  const users = await ctx.db
    .selectFrom('sys_user')
    .select(['id', 'username', 'realname', 'email', 'phone'])
    .where('id', 'in', opts.userIds)
    .where('del_flag', '=', 0)
    .execute();
  if (!users.length) throw new BizError('接收人不存在');
  const result = { sent: 0, waiting: 0, failed: 0 };
  const ts = now();
  if (opts.channel === CHANNEL_SYSTEM) {
    const anntId = newId();
    await ctx.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('sys_announcement')
        .values({
          id: anntId, titile: opts.title.slice(0, 100), msg_content: escapeHtml(opts.content), sender: opts.sender, priority: 'L',
          msg_category: '2', msg_type: 'USER', send_status: '1', send_time: ts, del_flag: '0',
          user_ids: users.map((u) => u.id).join(',') + ',', create_by: opts.sender, create_time: ts, tenant_id: 0,
        })
        .execute();
      await trx
        .insertInto('sys_announcement_send')
        .values(users.map((u) => ({ id: newId(), annt_id: anntId, user_id: u.id, read_flag: '0' })))
        .execute();
      await trx
        .insertInto('sys_sms')
        .values(users.map((u) => ({
          id: newId(), es_title: opts.title.slice(0, 100), es_type: CHANNEL_SYSTEM, es_receiver: String(u.username), es_content: opts.content,
          es_send_time: ts, es_send_status: SEND_OK, es_send_num: 1, create_by: opts.sender, create_time: ts,
        })))
        .execute();
    });
    await notifyUsers(ctx, users.map((u) => u.id as string), { cmd: 'user', msgId: anntId, msgTxt: opts.title });
    result.sent = users.length;
    return result;
  }
  const gw = gateways.get(opts.channel);
  for (const u of users) {
    const address = String((opts.channel === CHANNEL_EMAIL ? u.email : u.phone) ?? '');
    let status = SEND_WAITING;
    let error: string | null = null;
    if (!address) {
      status = SEND_FAILED;
      error = opts.channel === CHANNEL_EMAIL ? '用户未设置邮箱' : '用户未设置手机号';
    } else if (gw) {
      try {
        await gw.send(ctx, { title: opts.title, content: opts.content, address, userId: String(u.id) });
        status = SEND_OK;
      } catch (e) {
        status = SEND_FAILED;
        error = (e as Error).message.slice(0, 255);
      }
    }
    await ctx.db
      .insertInto('sys_sms')
      .values({
        id: newId(), es_title: opts.title.slice(0, 100), es_type: opts.channel, es_receiver: address || String(u.username),
        es_content: opts.content, es_send_time: status === SEND_OK ? ts : null, es_send_status: status,
        es_send_num: gw && address ? 1 : 0, es_result: error, remark: gw ? null : '未配置发送网关，已进入待发送队列',
        create_by: opts.sender, create_time: ts,
      })
      .execute();
    if (status === SEND_OK) result.sent++;
    else if (status === SEND_WAITING) result.waiting++;
    else result.failed++;
  }
  return result;
}


export async function registerMessage(api: FastifyInstance, ctx: ServerContext) {
  defineEntityHooks('sys_message_template', {
    beforeSave(_h, row) {
      if (row.templateCode !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(String(row.templateCode))) throw new BizError('模板编码只能包含字母、数字、下划线和短横线');
      if (row.templateType !== undefined && ![CHANNEL_SMS, CHANNEL_EMAIL, '3', CHANNEL_SYSTEM].includes(String(row.templateType))) throw new BizError('模板类型不正确');
      if (row.templateTestJson) parseData(row.templateTestJson);
    },
  });

  /** Sends a template to users: body {templateCode, testData (JSON), receiver (user ids, comma separated), msgType?}. */
  api.post('/sys/message/sysMessageTemplate/sendMsg', { config: { auth: 'system:messageTemplate:send' } }, async (req) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (typeof b.templateCode !== 'string' || !b.templateCode) throw new BizError('模板编码不能为空');
    const t = await ctx.db.selectFrom('sys_sms_template').selectAll().where('template_code', '=', b.templateCode).executeTakeFirst();
    if (!t) throw new BizError('消息模板不存在');
    const userIds = String(b.receiver ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (!userIds.length) throw new BizError('请选择接收人');
    if (userIds.length > 1000) throw new BizError('一次最多发送给1000人');
    const channel = String(b.msgType ?? t.template_type ?? CHANNEL_SYSTEM);
    if (![CHANNEL_SMS, CHANNEL_EMAIL, CHANNEL_SYSTEM].includes(channel)) throw new BizError('不支持的发送方式');
    const data = parseData(b.testData);
    const r = await sendMessage(ctx, {
      channel,
      title: renderTemplate(String(t.template_name), data),
      content: renderTemplate(String(t.template_content), data),
      userIds,
      sender: req.user!.username,
    });
    const parts = [r.sent && `已发送${r.sent}条`, r.waiting && `${r.waiting}条待发送（未配置发送网关）`, r.failed && `${r.failed}条发送失败`].filter(Boolean);
    return ok(r, parts.join('，') || '发送完成');
  });
}
