import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import type { ServerContext } from '../context.js';
import { getRow, hookContext, listRows, saveRow, toWire } from '../crud/engine.js';
import { defineEntityHooks, type Row } from '../crud/hooks.js';
import { MAX_PAGE_SIZE, type Query } from '../crud/query.js';
import { BizError, fail, ok, page } from '../http/envelope.js';
import { now } from '../util.js';
import { notifyUsers } from './notify.js';

/**
 * Calls of the stock JeecgBoot 3.4.3 Vue2 client that our own screens make differently (issue 33),
 * answered as JeecgBoot does — shape, field names, paging, `code` — or as a safer variant where
 * JeecgBoot's behaviour was unsafe. Each family and its state: docs/jeecg-compat.md.
 */

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : v === undefined || v === null ? '' : String(v));
const list = (v: unknown, max = 200) => {
  const ids = str(v).split(',').map((x) => x.trim()).filter(Boolean);
  if (ids.length > max) throw new BizError(`一次最多查询${max}条`);
  return ids;
};
const FORWARDED = ['x-access-token', 'tenant-id', 'x-low-app-id'];

/**
 * Answers a request with another route of this server (same guard, permissions and data scope as a
 * direct call: the caller's own headers go along). Returns the parsed envelope.
 */
export async function forward(req: FastifyRequest, ctx: ServerContext, method: HTTPMethods, url: string, opts: { query?: Record<string, unknown>; payload?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = Object.fromEntries(FORWARDED.flatMap((h) => (typeof req.headers[h] === 'string' ? [[h, req.headers[h] as string]] : [])));
  const qs = opts.query ? new URLSearchParams(Object.entries(opts.query).flatMap(([k, v]) => (v === undefined || v === null ? [] : [[k, String(v)]]))).toString() : '';
  const r = await req.server.inject({
    method,
    url: `${ctx.cfg.apiBase}${url}${qs ? `?${qs}` : ''}`,
    headers: { ...headers, ...opts.headers },
    remoteAddress: req.ip,
    ...(opts.payload !== undefined ? { payload: opts.payload as string } : {}),
  });
  return { status: r.statusCode, body: r.json() as { success: boolean; message: string; code: number; result: any } };
}

/** Our fill rule as JeecgBoot's view of it: a rule class and its JSON parameters (never a class the client names). */
export const FILL_RULE_CLASS = 'builtin.PrefixDateSequenceRule';
const DATE_FORMATS = ['', 'YYYY', 'YYYYMM', 'YYYYMMDD'];

function fillRuleParams(input: Row): Row {
  const raw = input.ruleParams;
  if (raw === undefined || raw === null || raw === '') return {};
  let p: unknown = raw;
  if (typeof raw === 'string') {
    try {
      p = JSON.parse(raw);
    } catch {
      throw new BizError('规则参数（ruleParams）须为JSON，如 {"prefix":"TK","dateFormat":"YYYYMMDD","seqLength":4}');
    }
  }
  if (!p || typeof p !== 'object' || Array.isArray(p)) throw new BizError('规则参数（ruleParams）须为JSON对象');
  const o = p as Record<string, unknown>;
  const out: Row = {};
  if (o.prefix !== undefined) {
    if (typeof o.prefix !== 'string' || o.prefix.length > 20) throw new BizError('规则参数 prefix 须为不超过20个字符的文本');
    out.prefix = o.prefix;
  }
  if (o.dateFormat !== undefined) {
    if (typeof o.dateFormat !== 'string' || !DATE_FORMATS.includes(o.dateFormat)) throw new BizError('规则参数 dateFormat 只能是 YYYY、YYYYMM、YYYYMMDD 或空');
    out.dateFormat = o.dateFormat;
  }
  if (o.seqLength !== undefined) {
    const n = Number(o.seqLength);
    if (!Number.isInteger(n) || n < 1 || n > 12) throw new BizError('规则参数 seqLength 须为1到12的整数');
    out.seqLength = n;
  }
  return out;
}

export async function registerJeecgCompat(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  // ── 填值规则: JeecgBoot's ruleClass/ruleParams beside our prefix/dateFormat/seqLength ──
  defineEntityHooks(
    'sys_fill_rule',
    {
      decorateRows: (_h, rows) =>
        rows.map((r) => ({ ...r, ruleClass: FILL_RULE_CLASS, ruleParams: JSON.stringify({ prefix: r.prefix ?? '', dateFormat: r.dateFormat ?? '', seqLength: r.seqLength ?? 4 }) })),
      // A stock form sends ruleParams (JSON) and a ruleClass: the parameters set ours, the class is never loaded.
      beforeSave: (_h, row, _mode, _old, input) => {
        for (const [k, v] of Object.entries(fillRuleParams(input))) if (!Object.prototype.hasOwnProperty.call(input, k)) row[k] = v;
      },
    },
    'jeecg-compat',
  );

  // ── 职务: the 通讯录 asks for every position with pageSize=99999; the list stays bounded, silently ──
  api.addHook('onRequest', async (req) => {
    if (req.routeOptions.url !== `${ctx.cfg.apiBase}/sys/position/list`) return;
    const q = req.query as Query;
    const n = Number(q.pageSize);
    if (Number.isFinite(n) && n > MAX_PAGE_SIZE) q.pageSize = String(MAX_PAGE_SIZE);
  });

  // ── 用户 ──
  /** Third-party apps (WeChat Work, DingTalk) are not integrated: both off. */
  api.get('/sys/thirdApp/getEnabledType', { config: { auth: 'user' } }, async () => ok({ wechatEnterprise: false, dingtalk: false }));

  /** The user form's tenant select: enabled tenants (`ids` narrows). */
  api.get('/sys/tenant/queryList', { config: { auth: ['system:user:add', 'system:user:edit', 'system:tenant:list'] } }, async (req) => {
    const e = ctx.entities.get('sys_tenant');
    const ids = list((req.query as Query).ids).map(Number).filter(Number.isInteger);
    let qb = ctx.db.selectFrom('sys_tenant').selectAll().where('status', '=', 1).orderBy('id');
    if (ids.length) qb = qb.where('id', 'in', ids);
    return ok((await qb.limit(1000).execute()).map((r) => toWire(e, r)));
  });

  /** Users by id for the user pickers: names only (a safer variant: JeecgBoot returns whole user rows). */
  api.get('/sys/user/queryByIds', { config: { auth: 'user' } }, async (req) => {
    const ids = list((req.query as Query).userIds);
    if (!ids.length) return ok([]);
    const rows = await ctx.db
      .selectFrom('sys_user')
      .select(['id', 'username', 'realname', 'avatar', 'org_code', 'work_no', 'post', 'status'])
      .where('id', 'in', ids)
      .where('del_flag', '=', 0)
      .execute();
    return ok(rows.map((r) => ({ id: String(r.id), username: r.username, realname: r.realname, avatar: r.avatar, orgCode: r.org_code, workNo: r.work_no, post: r.post, status: r.status })));
  });

  /** 通讯录 in JeecgBoot's shape: our directory (same scope), each user once with their departments. */
  api.get('/sys/user/queryByOrgCodeForAddressList', { config: { auth: 'system:address:list' } }, async (req) => {
    const q = req.query as Query;
    const pageSize = Math.min(200, Math.max(1, Math.floor(Number(q.pageSize) || 10)));
    const r = await forward(req, ctx, 'GET', '/sys/address/list', { query: { orgCode: q.orgCode, realname: q.realname, pageNo: q.pageNo, pageSize } });
    if (!r.body.success) return r.body;
    const p = r.body.result as { records: Row[]; total: number; current: number; size: number };
    return ok(page(p.records.map((u) => ({ ...u, userId: u.id })), p.total, p.current, p.size));
  });

  // ── 代理人 (user agents) ──
  const agentEntity = () => ctx.entities.get('sys_user_agent');
  const AGENT = { config: { auth: 'system:user:agent' } };
  const checkAgent = async (body: Row) => {
    const userName = str(body.userName);
    const agent = str(body.agentUserName);
    if (!agent) throw new BizError('代理人不能为空');
    if (agent === userName) throw new BizError('代理人不能是本人');
    const found = await ctx.db.selectFrom('sys_user').select('id').where('username', '=', agent).where('del_flag', '=', 0).executeTakeFirst();
    if (!found) throw new BizError(`代理人“${agent}”不存在`);
  };
  api.get('/sys/sysUserAgent/queryByUserName', AGENT, async (req) => {
    const userName = str((req.query as Query).userName);
    const row = userName ? await ctx.db.selectFrom('sys_user_agent').selectAll().where('user_name', '=', userName).executeTakeFirst() : undefined;
    if (!row) return fail('未找到对应数据');
    return ok(toWire(agentEntity(), row));
  });
  api.post('/sys/sysUserAgent/add', AGENT, async (req) => {
    const body = (req.body ?? {}) as Row;
    await checkAgent(body);
    await saveRow(hookContext(ctx, req, agentEntity()), body, 'add');
    return ok('添加成功！', '添加成功！');
  });
  const editAgent = async (req: FastifyRequest) => {
    const body = (req.body ?? {}) as Row;
    await checkAgent(body);
    await saveRow(hookContext(ctx, req, agentEntity()), body, 'edit');
    return ok('编辑成功!', '编辑成功!');
  };
  api.put('/sys/sysUserAgent/edit', AGENT, editAgent);
  api.post('/sys/sysUserAgent/edit', AGENT, editAgent);
  api.get('/sys/sysUserAgent/queryById', AGENT, async (req) => {
    const row = await getRow(hookContext(ctx, req, agentEntity()), (req.query as Query).id);
    return row ? ok(row) : fail('未找到对应数据');
  });

  // ── 数据字典: recycle bin and the item form's value check ──
  const dictEntity = () => ctx.entities.get('sys_dict');
  const RECYCLE = { config: { auth: 'system:dict:recycleBin' } };
  api.get('/sys/dict/deleteList', RECYCLE, async () => {
    const rows = await ctx.db.selectFrom('sys_dict').selectAll().where('del_flag', '=', 1).orderBy('update_time', 'desc').orderBy('id').limit(1000).execute();
    return ok(rows.map((r) => toWire(dictEntity(), r)));
  });
  const deletedDict = async (id: string) => {
    const row = id ? await ctx.db.selectFrom('sys_dict').select(['id', 'dict_code']).where('id', '=', id).where('del_flag', '=', 1).executeTakeFirst() : undefined;
    if (!row) throw new BizError('回收站中没有该字典');
    return row;
  };
  api.put('/sys/dict/back/:id', RECYCLE, async (req) => {
    const row = await deletedDict((req.params as { id: string }).id);
    const clash = await ctx.db.selectFrom('sys_dict').select('id').where('dict_code', '=', row.dict_code).where('del_flag', '=', 0).executeTakeFirst();
    if (clash) throw new BizError(`字典编码“${String(row.dict_code)}”已被使用，无法还原`);
    await ctx.db.updateTable('sys_dict').set({ del_flag: 0, update_by: req.user!.username, update_time: now() }).where('id', '=', row.id).execute();
    return ok('操作成功!', '操作成功!');
  });
  api.delete('/sys/dict/deletePhysic/:id', RECYCLE, async (req) => {
    const row = await deletedDict((req.params as { id: string }).id);
    await ctx.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sys_dict_item').where('dict_id', '=', row.id).execute();
      await trx.deleteFrom('sys_dict').where('id', '=', row.id).where('del_flag', '=', 1).execute();
    });
    return ok('删除成功!', '删除成功!');
  });
  api.get('/sys/dictItem/dictItemCheck', { config: { auth: ['system:dict:add', 'system:dict:edit'] } }, async (req) => {
    const q = req.query as Query;
    const dictId = str(q.dictId);
    const value = str(q.itemValue);
    if (!dictId || !value) return fail('参数不完整');
    let qb = ctx.db.selectFrom('sys_dict_item').select('id').where('dict_id', '=', dictId).where('item_value', '=', value);
    if (str(q.id)) qb = qb.where('id', '<>', str(q.id));
    return (await qb.executeTakeFirst()) ? fail('该值不可用，系统中已存在！') : ok('该值可用！', '该值可用！');
  });

  // ── 分类字典: JeecgBoot's lazy tree list ──
  const category = (req: FastifyRequest) => hookContext(ctx, req, ctx.entities.get('sys_category'));
  const CATEGORY_LIST = { config: { auth: 'system:category:list' } };
  /** Roots (pid, default '0') a page at a time; a name/code search looks through the whole tree. Code 0, as JeecgBoot's. */
  api.get('/sys/category/rootList', CATEGORY_LIST, async (req) => {
    const q = req.query as Query;
    const name = str(q.name).replace(/\*/g, '');
    const code = str(q.code).replace(/\*/g, '');
    const query: Query = { pageNo: q.pageNo, pageSize: q.pageSize, column: q.column, order: q.order };
    if (!name && !code) query.pid = str(q.pid) || '0';
    if (name) query.name = `*${name}*`;
    if (code) query.code = `*${code}*`;
    return ok(await listRows(category(req), query), '', 0);
  });
  api.get('/sys/category/childList', CATEGORY_LIST, async (req) => {
    const pid = str((req.query as Query).pid);
    if (!pid) return fail('参数pid不能为空');
    const p = await listRows(category(req), { pid, pageNo: '1', pageSize: String(MAX_PAGE_SIZE), column: 'sortNo,code', order: 'asc' });
    return ok(p.records, '', 0);
  });
  api.get('/sys/category/getChildListBatch', CATEGORY_LIST, async (req) => {
    const ids = list((req.query as Query).parentIds);
    if (!ids.length) return fail('参数parentIds不能为空');
    const p = await listRows(category(req), { pid: ids.join(','), pageNo: '1', pageSize: String(MAX_PAGE_SIZE), column: 'sortNo,code', order: 'asc' });
    return ok(page(p.records, p.records.length, 1, Math.max(p.records.length, 1)));
  });
  api.get('/sys/category/checkCode', { config: { auth: ['system:category:add', 'system:category:edit'] } }, async (req) => {
    const q = req.query as Query;
    const code = str(q.code);
    const pid = str(q.pid);
    if (!code) return fail('错误,类型编码为空!');
    const taken = await ctx.db.selectFrom('sys_category').select('id').where('code', '=', code).executeTakeFirst();
    if (taken && taken.id !== str(q.id)) return fail('编码已存在,请重新输入!');
    if (!pid || pid === '0') return ok(null, '');
    const parent = await ctx.db.selectFrom('sys_category').select('code').where('id', '=', pid).executeTakeFirst();
    if (!parent) return fail('上级分类不存在');
    return code.startsWith(String(parent.code)) ? ok(null, '') : fail(`编码不符合规范,须以"${String(parent.code)}"开头!`);
  });
  /** Every category under a code (`0`: all) as dictionary entries {value: id, text: name}. */
  api.get('/sys/category/loadAllData', { config: { auth: 'user' } }, async (req) => {
    const code = str((req.query as Query).code);
    if (!code) return fail('参数code不能为空');
    let qb = ctx.db.selectFrom('sys_category').select(['id', 'name']).orderBy('code');
    if (code !== '0') qb = qb.where('code', 'like', `${code.replace(/[\\%_]/g, (c) => '\\' + c)}%`);
    const rows = await qb.limit(5000).execute();
    return ok(rows.map((r) => ({ value: String(r.id), text: String(r.name), title: String(r.name), label: String(r.name) })), '', 0);
  });

  // ── 通知公告: push a published notice again to its recipients' open sockets ──
  api.get('/sys/annountCement/syncNotic', { config: { auth: 'system:announcement:release' } }, async (req) => {
    const id = str((req.query as Query).anntId);
    if (!id) return fail('请选择要同步的通告');
    const a = await ctx.db.selectFrom('sys_announcement').select(['id', 'titile', 'msg_type', 'user_ids', 'send_status']).where('id', '=', id).where('del_flag', '=', '0').executeTakeFirst();
    if (!a) return fail('未找到对应实体');
    if (String(a.send_status) !== '1') return fail('只能同步已发布的通告');
    const all = String(a.msg_type) === 'ALL';
    const targets = all ? ('ALL' as const) : str(a.user_ids).split(',').filter(Boolean);
    await notifyUsers(ctx, targets, { cmd: all ? 'topic' : 'user', msgId: String(a.id), msgTxt: String(a.titile) });
    return ok(null, '该系统通知同步成功');
  });

  // ── 部门角色数据规则: JeecgBoot's path for the same grants ──
  api.get('/sys/sysDepartRole/datarule/:permissionId/:departId/:roleId', { config: { auth: 'system:depart:authorize' } }, async (req) => {
    const { permissionId, departId, roleId } = req.params as Record<string, string>;
    const path = [permissionId, departId, roleId].map((x) => encodeURIComponent(x!)).join('/');
    return (await forward(req, ctx, 'GET', `/sys/sysDepartPermission/datarule/${path}`)).body;
  });
  api.post('/sys/sysDepartRole/datarule', { config: { auth: 'system:depart:authorize' } }, async (req) =>
    (await forward(req, ctx, 'POST', '/sys/sysDepartPermission/datarule', { payload: JSON.stringify(req.body ?? {}), headers: { 'content-type': 'application/json' } })).body,
  );

  // ── 多数据源: the report editor's select ──
  api.get('/sys/dataSource/options', { config: { auth: ['system:dataSource:list', 'online:cgreport:list'] } }, async () => {
    const rows = await ctx.db.selectFrom('sys_data_source').select(['code', 'name']).orderBy('code').limit(1000).execute();
    return ok(rows.map((r) => ({ value: String(r.code), label: String(r.name), text: String(r.name) })));
  });
}
