import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import { BizError, ok } from '../http/envelope.js';
import { allFields, columnOf, type EntityField, type EntitySchema } from '../crud/entity-types.js';
import { escapeLike } from '../crud/query.js';
import { defineEntityHooks, type EntityQuery } from '../crud/hooks.js';
import { treeHooks } from '../crud/tree-hooks.js';
import { allDictItems, type DictModel } from './dict-service.js';
import { readCacheOf } from '../db/read-cache.js';

type Q = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
const BAD_CODE = '字典Code格式不正确！只支持“字典编码”或“表名,文本字段,编码字段”，不支持SQL条件';

export interface TableDict {
  entity: EntitySchema;
  text: string;
  code: string;
}

/** The table dictionaries declared on entity fields (`dictTable`) — the only ones served. */
export function declaredTableDicts(ctx: ServerContext): Map<string, TableDict> {
  const out = new Map<string, TableDict>();
  for (const e of ctx.entities.byName.values())
    for (const f of e.fields) {
      const d = f.dictTable;
      const target = d && ctx.entities.byTable.get(d.table);
      const cols = target ? new Set(allFields(target).filter((x) => !x.secret).map(columnOf)) : undefined;
      if (d && target && cols!.has(d.text) && cols!.has(d.code)) out.set(`${d.table},${d.text},${d.code}`, { entity: target, text: d.text, code: d.code });
    }
  return out;
}

/** Parses a dictionary code: a system dictionary or a declared table dictionary; anything else is refused. */
export function parseDictCode(ctx: ServerContext, raw: string): { kind: 'sys'; code: string } | { kind: 'table'; dict: TableDict } {
  const code = raw.trim();
  const parts = code.split(',').map((p) => p.trim());
  if (parts.length === 1 && /^[A-Za-z][A-Za-z0-9_]{0,99}$/.test(code)) return { kind: 'sys', code };
  if (parts.length === 3) {
    const dict = declaredTableDicts(ctx).get(parts.join(','));
    if (dict) return { kind: 'table', dict };
    throw new BizError(`字典“${code}”未在实体中声明，不允许查询`);
  }
  throw new BizError(BAD_CODE);
}

/** A declared table's rows with the same row scope the entity has (logical delete, tenant). */
function tableBase(ctx: ServerContext, req: FastifyRequest, e: EntitySchema): EntityQuery {
  let qb: EntityQuery = ctx.db.selectFrom(`${e.table} as t`);
  const del = e.fields.find((f) => f.name === 'delFlag');
  if (del) qb = qb.where(sql.ref(`t.${columnOf(del)}`), '=', del.type === 'string' ? '0' : 0);
  if (e.scope?.tenant) {
    const f = allFields(e).find((x) => x.name === e.scope!.tenant)!;
    qb = qb.where(sql.ref(`t.${columnOf(f)}`), '=', f.type === 'string' ? String(req.user!.tenantId) : req.user!.tenantId);
  }
  return qb;
}

/**
 * A table dictionary's items in the order its entity's list shows them (`defaultSort`: terms newest
 * first, departments by their order, classrooms by code), then by the given columns — not by id, which
 * for generated ids is no order at all.
 */
function inListOrder(qb: EntityQuery, e: EntitySchema, ...then: string[]): EntityQuery {
  const sort = e.defaultSort ? allFields(e).find((f) => f.name === e.defaultSort!.field) : undefined;
  let q = sort ? qb.orderBy(sql.ref(`t.${columnOf(sort)}`), e.defaultSort!.order) : qb;
  for (const c of then) q = q.orderBy(sql.ref(`t.${c}`));
  return q;
}

const model = (value: unknown, text: unknown): DictModel => {
  const t = str(text);
  return { value: str(value), text: t, title: t, label: t };
};

/** Resolves an entity column given by field name or column name; refuses anything else. */
function columnFor(e: EntitySchema, name: string, what: string): EntityField {
  const f = allFields(e).find((x) => !x.secret && (x.name === name || columnOf(x) === name));
  if (!f) throw new BizError(`不支持的${what}“${name}”`);
  return f;
}

export interface TreeNode {
  key: string;
  title: string;
  value: string;
  code: string;
  isLeaf: boolean;
  leaf: boolean;
  parentId: string;
  [k: string]: unknown;
}

/** Tree nodes of an entity with `tree`, one level under `pid` (empty pid: roots). */
async function treeLevel(
  ctx: ServerContext,
  req: FastifyRequest,
  e: EntitySchema,
  opts: { pid: string; text: EntityField; code: EntityField; condition: Q; convertLeaf: boolean; key?: EntityField },
): Promise<TreeNode[]> {
  const all = new Map(allFields(e).map((f) => [f.name, f]));
  const parent = all.get(e.tree!.parentField)!;
  const hasChild = e.tree!.hasChildField ? all.get(e.tree!.hasChildField) : undefined;
  const id = allFields(e).find((f) => f.primary) ?? all.get('id')!;
  let qb = tableBase(ctx, req, e);
  const p = sql.ref(`t.${columnOf(parent)}`);
  qb = opts.pid ? qb.where(p, '=', opts.pid) : qb.where((eb) => eb.or([eb(p, 'is', null), eb(p, '=', ''), eb(p, '=', '0')]));
  const filterable = new Map(allFields(e).filter((f) => f.filterable && !f.secret).flatMap((f) => [[f.name, f], [columnOf(f), f]] as const));
  for (const [k, v] of Object.entries(opts.condition)) {
    const f = filterable.get(k);
    if (!f) throw new BizError(`查询条件不支持字段“${k}”`);
    if (v !== null && typeof v === 'object') throw new BizError(`查询条件“${k}”的值格式不正确`);
    qb = qb.where(sql.ref(`t.${columnOf(f)}`), '=', v);
  }
  const rows = await inListOrder(qb, e)
    .select([
      sql.ref(`t.${columnOf(id)}`).as('id'),
      sql.ref(`t.${columnOf(opts.text)}`).as('text'),
      sql.ref(`t.${columnOf(opts.code)}`).as('code'),
      sql.ref(`t.${columnOf(parent)}`).as('pid'),
      hasChild
        ? sql.ref(`t.${columnOf(hasChild)}`).as('has_child')
        : sql<boolean>`exists (select 1 from ${sql.table(e.table)} c where c.${sql.ref(columnOf(parent))} = t.${sql.ref(columnOf(id))})`.as('has_child'),
    ])
    .limit(5000)
    .execute();
  return rows.map((r) => {
    const hc = r.has_child;
    // With converIsLeafVal the column says "has children" ('1'); without it the column is the leaf flag itself.
    const isLeaf = !hasChild ? !hc : opts.convertLeaf ? !(hc === '1' || hc === 1 || hc === true) : hc === '1' || hc === 1 || hc === true;
    return { key: str(opts.key ? r.id : r.code), title: str(r.text), value: str(r.code), code: str(r.code), id: str(r.id), isLeaf, leaf: isLeaf, parentId: str(r.pid) };
  });
}

function parseCondition(raw: unknown): Q {
  if (raw === undefined || raw === null || raw === '') return {};
  let v: unknown = raw;
  if (typeof raw === 'string') {
    try {
      v = JSON.parse(raw);
    } catch {
      throw new BizError('组件JTreeSelect-condition传值有误，需要一个json字符串!');
    }
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new BizError('组件JTreeSelect-condition传值有误，需要一个json字符串!');
  return v as Q;
}

export async function registerDictRoutes(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  const user = { config: { auth: 'user' } };

  // The category tree keeps has_child in step with its children.
  defineEntityHooks('sys_category', treeHooks('该分类下还有子节点，请先删除子节点'), 'dict-routes');

  api.get('/sys/dict/getDictItems/:dictCode', user, async (req) => {
    const parsed = parseDictCode(ctx, (req.params as { dictCode: string }).dictCode);
    if (parsed.kind === 'sys') return ok((await allDictItems(ctx.db))[parsed.code] ?? [], '', 0);
    const { entity, text, code } = parsed.dict;
    const rows = await inListOrder(tableBase(ctx, req, entity), entity, text, code).select([sql.ref(`t.${code}`).as('v'), sql.ref(`t.${text}`).as('t')]).limit(5000).execute();
    return ok(rows.map((r) => model(r.v, r.t)), '', 0);
  });

  api.get('/sys/dict/loadDict/:dictCode', user, async (req) => {
    const q = req.query as Q;
    const parsed = parseDictCode(ctx, (req.params as { dictCode: string }).dictCode);
    const pageSize = q.pageSize === undefined || q.pageSize === '' ? 10 : Number(q.pageSize);
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) throw new BizError('每页条数 pageSize 必须是1到1000的整数');
    const keyword = str(q.keyword).trim();
    if (parsed.kind === 'sys') {
      const items = (await allDictItems(ctx.db))[parsed.code] ?? [];
      return ok(items.filter((i) => !keyword || i.text.includes(keyword) || i.value.includes(keyword)).slice(0, pageSize), '', 0);
    }
    const { entity, text, code } = parsed.dict;
    let qb = tableBase(ctx, req, entity);
    if (keyword) {
      const t = sql.ref(`t.${text}`);
      const c = sql.ref(`t.${code}`);
      if (keyword.includes(',')) {
        const keys = keyword.split(',').filter(Boolean);
        qb = qb.where((eb) => eb.or([eb(t, 'in', keys), eb(c, 'in', keys)]));
      } else {
        const like = `%${escapeLike(keyword)}%`;
        qb = qb.where(sql<boolean>`(cast(${t} as text) like ${like} or cast(${c} as text) like ${like})`);
      }
    }
    const rows = await inListOrder(qb, entity, text, code).select([sql.ref(`t.${code}`).as('v'), sql.ref(`t.${text}`).as('t')]).limit(pageSize).execute();
    return ok(rows.map((r) => model(r.v, r.t)), '', 0);
  });

  api.get('/sys/dict/loadDictItem/:dictCode', user, async (req) => {
    const q = req.query as Q;
    const keys = str(q.key).split(',').filter(Boolean).slice(0, 1000);
    const parsed = parseDictCode(ctx, (req.params as { dictCode: string }).dictCode);
    const delNotExist = str(q.delNotExist) !== 'false';
    let map: Map<string, string>;
    if (parsed.kind === 'sys') map = new Map(((await allDictItems(ctx.db))[parsed.code] ?? []).map((i) => [i.value, i.text]));
    else {
      const { entity, text, code } = parsed.dict;
      const rows = keys.length ? await tableBase(ctx, req, entity).select([sql.ref(`t.${code}`).as('v'), sql.ref(`t.${text}`).as('t')]).where(sql.ref(`t.${code}`), 'in', keys).execute() : [];
      map = new Map(rows.map((r) => [str(r.v), str(r.t)]));
    }
    const texts = keys.map((k) => map.get(k) ?? (delNotExist ? undefined : k)).filter((x): x is string => x !== undefined);
    return ok(texts);
  });

  api.get('/sys/dict/getDictText/:dictCode/:key', user, async (req) => {
    const { dictCode, key } = req.params as { dictCode: string; key: string };
    const parsed = parseDictCode(ctx, dictCode);
    if (parsed.kind !== 'sys') throw new BizError(BAD_CODE);
    const item = ((await allDictItems(ctx.db))[parsed.code] ?? []).find((i) => i.value === key);
    return ok(item?.text ?? '');
  });

  api.get('/sys/dict/loadTreeData', user, async (req) => {
    const q = req.query as Q;
    const e = ctx.entities.byTable.get(str(q.tableName));
    if (!e?.tree) throw new BizError(`表“${str(q.tableName)}”不是已声明的树形字典`);
    const parent = columnFor(e, str(q.pidField) || e.tree.parentField, '父级字段');
    if (parent.name !== e.tree.parentField) throw new BizError(`不支持的父级字段“${str(q.pidField)}”`);
    if (str(q.hasChildField)) {
      const hc = columnFor(e, str(q.hasChildField), '子节点字段');
      if (hc.name !== e.tree.hasChildField) throw new BizError(`不支持的子节点字段“${str(q.hasChildField)}”`);
    }
    const nodes = await treeLevel(ctx, req, e, {
      pid: str(q.pid),
      text: columnFor(e, str(q.text), '文本字段'),
      code: columnFor(e, str(q.code), '编码字段'),
      condition: parseCondition(q.condition),
      convertLeaf: str(q.converIsLeafVal) === '1',
    });
    return ok(nodes);
  });

  api.get('/sys/dict/queryAllDictItems', user, async () => ok(await allDictItems(ctx.db)));
  // An administrator's action (the 数据字典 screen's 刷新缓存 button): it drops every cached read.
  api.get('/sys/dict/refleshCache', { config: { auth: 'system:dict:refreshCache' } }, async () => {
    readCacheOf(ctx.db)?.clear(); // every cached read of this process, dictionaries included
    return ok('刷新缓存完成！', '刷新缓存完成！');
  });

  // Category tree (sys_category): roots have pid '0'.
  const category = () => {
    const e = ctx.entities.byName.get('sys_category');
    if (!e) throw new BizError('分类字典未启用');
    return e;
  };
  const catFields = (e: EntitySchema) => ({ text: columnFor(e, 'name', ''), code: columnFor(e, 'code', '') });
  const catId = async (req: FastifyRequest, pcode: string): Promise<string> => {
    if (!pcode || pcode === '0') return '';
    const r = await tableBase(ctx, req, category()).select(sql.ref('t.id').as('id')).where(sql.ref('t.code'), '=', pcode).executeTakeFirst();
    if (!r) throw new BizError(`分类编码“${pcode}”不存在`);
    return str(r.id);
  };
  const subtree = async (req: FastifyRequest, pid: string, depth = 0): Promise<TreeNode[]> => {
    const e = category();
    const nodes = await treeLevel(ctx, req, e, { pid, ...catFields(e), condition: {}, convertLeaf: true, key: columnFor(e, 'id', '') });
    if (depth < 10) for (const n of nodes) if (!n.isLeaf) n.children = await subtree(req, n.id as string, depth + 1);
    return nodes;
  };

  api.get('/sys/category/loadTreeRoot', user, async (req) => {
    const q = req.query as Q;
    const pid = await catId(req, str(q.pcode));
    if (str(q.async) === 'false') return ok(await subtree(req, pid));
    const e = category();
    return ok(await treeLevel(ctx, req, e, { pid, ...catFields(e), condition: parseCondition(q.condition), convertLeaf: true, key: columnFor(e, 'id', '') }));
  });

  api.get('/sys/category/loadTreeChildren', user, async (req) => {
    const e = category();
    const pid = str((req.query as Q).pid);
    if (!pid) throw new BizError('请提供父节点 pid');
    return ok(await treeLevel(ctx, req, e, { pid, ...catFields(e), condition: {}, convertLeaf: true, key: columnFor(e, 'id', '') }));
  });

  api.get('/sys/category/loadTreeData', user, async (req) => {
    const q = req.query as Q;
    const e = category();
    const pid = str(q.pid) || (await catId(req, str(q.pcode)));
    return ok(await treeLevel(ctx, req, e, { pid, ...catFields(e), condition: parseCondition(q.condition), convertLeaf: true, key: columnFor(e, 'id', '') }));
  });

  api.get('/sys/category/loadOne', user, async (req) => {
    const q = req.query as Q;
    const field = str(q.field) || 'code';
    if (field !== 'code' && field !== 'id') throw new BizError(`不支持按“${field}”查询分类`);
    const r = await tableBase(ctx, req, category()).select(['t.id', 't.pid', 't.name', 't.code', 't.has_child']).where(sql.ref(`t.${field}`), '=', str(q.val)).executeTakeFirst();
    if (!r) throw new BizError('该分类不存在');
    return ok({ id: str(r.id), pid: str(r.pid), name: str(r.name), code: str(r.code), hasChild: str(r.has_child) });
  });

  api.get('/sys/category/loadDictItem', user, async (req) => {
    const ids = str((req.query as Q).ids).split(',').filter(Boolean).slice(0, 1000);
    if (!ids.length) return ok([]);
    const rows = await tableBase(ctx, req, category()).select(['t.id', 't.name']).where('t.id', 'in', ids).execute();
    const names = new Map(rows.map((r) => [str(r.id), str(r.name)]));
    return ok(ids.map((id) => names.get(id) ?? ''));
  });
}
