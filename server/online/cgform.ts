import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import { BizError, fail, ok } from '../http/envelope.js';
import { checkAgainst, type EntityRegistry } from '../crud/entities.js';
import { allFields, columnOf, type EntityField, type EntitySchema, type FieldType } from '../crud/entity-types.js';
import { deleteRows, exportRows, getRow, hookContext, inTransaction, listRows, saveRow, validateInput } from '../crud/engine.js';
import { defineEntityHooks, type Row } from '../crud/hooks.js';
import type { Query } from '../crud/query.js';
import { syncEntities } from '../crud/sync.js';
import { handleImport, sendExport } from '../crud/routes.js';
import { allDictItems, type DictModel } from '../sys/dict-service.js';
import { newId } from '../util.js';
import { syncPlan } from './cgform-plan.js';

type Q = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
/** Columns every online table has; definitions may not redefine them. */
const MANAGED = new Set(['id', 'create_by', 'create_time', 'update_by', 'update_time', 'sys_org_code']);
const RESERVED_PREFIX = /^(sys_|onl_|pg_|seed_|demo_|kysely)/;

export interface FormHead extends Row {
  id: string;
  tableName: string;
  tableTxt: string;
  isDbSynch: string;
}

const DB_TYPES: Record<string, FieldType> = {
  string: 'string', int: 'integer', integer: 'integer', double: 'number', bigdecimal: 'number', date: 'date', datetime: 'datetime', text: 'text', blob: 'text', long: 'bigint', bigint: 'bigint', time: 'time',
};

const VIEW_OF: Record<FieldType, string> = { string: 'text', text: 'textarea', integer: 'number', bigint: 'number', number: 'number', boolean: 'switch', date: 'date', datetime: 'datetime', time: 'time', json: 'textarea' };

/** One stored definition (head + fields) → the EntitySchema the generic engine serves. */
export function formEntity(head: Row, fields: Row[]): EntitySchema {
  const own: EntityField[] = fields
    .filter((f) => !MANAGED.has(str(f.dbFieldName)))
    .sort((a, b) => Number(a.orderNum ?? 0) - Number(b.orderNum ?? 0))
    .map((f) => {
      const type = DB_TYPES[str(f.dbType).toLowerCase()];
      if (!type) throw new BizError(`字段“${str(f.dbFieldName)}”的类型“${str(f.dbType)}”不受支持`);
      const out: EntityField = { name: camel(str(f.dbFieldName)), column: str(f.dbFieldName), type, title: str(f.dbFieldTxt) || str(f.dbFieldName) };
      if (type === 'string') out.length = Number(f.dbLength) || 32;
      if (type === 'number') {
        out.precision = Math.min(38, Math.max(1, Number(f.dbLength) || 12));
        out.scale = Math.min(20, Math.max(0, Number(f.dbPointLength) || 0));
      }
      if (str(f.fieldMustInput) === '1' || Number(f.dbIsNull) === 0) out.required = true;
      if (str(f.dictField) && !str(f.dictTable)) out.dict = str(f.dictField);
      if (str(f.dictTable) && str(f.dictField) && str(f.dictText)) out.dictTable = { table: str(f.dictTable), text: str(f.dictText), code: str(f.dictField) };
      if (str(f.fieldValidType)) out.pattern = str(f.fieldValidType);
      if (Number(f.isQuery) === 1) out.filterable = true;
      if (str(f.sortFlag) === '1') out.sortable = true;
      if (Number(f.isReadOnly) === 1) out.readonly = true;
      if (str(f.dbDefaultVal)) out.default = type === 'integer' || type === 'number' ? Number(f.dbDefaultVal) : str(f.dbDefaultVal);
      if (Number(f.isShowList) === 1) out.excel = out.title;
      return out;
    });
  return {
    name: `onl_${str(head.tableName)}`.slice(0, 63),
    table: str(head.tableName),
    title: str(head.tableTxt) || str(head.tableName),
    permission: 'online:cgform',
    fields: [
      { name: 'id', type: 'string', length: 32, primary: true },
      ...own,
      { name: 'sysOrgCode', column: 'sys_org_code', type: 'string', length: 64, title: '所属部门', readonly: true, filterable: true },
    ],
    scope: { department: 'sysOrgCode' },
    defaultSort: { field: 'createTime', order: 'desc' },
  };
}

/** Validates a built definition like any schema file, plus the online-specific rules. */
export function checkFormEntity(ctx: ServerContext, e: EntitySchema, headId?: string): void {
  if (!/^[a-z][a-z0-9_]{1,49}$/.test(e.table)) throw new BizError('表名只允许小写字母、数字、下划线，以字母开头');
  if (RESERVED_PREFIX.test(e.table) || ctx.entities.byTable.has(e.table)) throw new BizError(`表名“${e.table}”是系统保留的，请换一个`);
  void headId;
  const problems = checkAgainst('entity.schema.json', e, `online/${e.table}`);
  if (problems.length) throw new BizError(`表单定义不正确：${problems.map((p) => `${p.path} ${p.reason}`).join('；')}`);
  const names = new Set<string>();
  for (const f of e.fields) {
    if (names.has(f.name)) throw new BizError(`字段“${f.column ?? f.name}”重复`);
    names.add(f.name);
    if (f.column && !/^[a-z][a-z0-9_]{0,31}$/.test(f.column)) throw new BizError(`字段名“${f.column}”只允许小写字母、数字、下划线，以字母开头`);
    if (f.dictTable) {
      const target = ctx.entities.byTable.get(f.dictTable.table);
      const cols = new Set(target ? allFields(target).filter((x) => !x.secret).map(columnOf) : []);
      if (!cols.has(f.dictTable.text) || !cols.has(f.dictTable.code)) throw new BizError(`字段“${f.column}”的字典表“${f.dictTable.table}”或其字段不存在`);
    }
  }
}

async function loadForm(ctx: ServerContext, code: string, db: DB = ctx.db): Promise<{ head: FormHead; fields: Row[]; entity: EntitySchema }> {
  if (!code || code.length > 64) throw new BizError('表单不存在');
  const head = await db.selectFrom('onl_cgform_head').selectAll().where((eb) => eb.or([eb('id', '=', code), eb('table_name', '=', code)])).executeTakeFirst();
  if (!head) throw new BizError('表单不存在');
  const fields = await db.selectFrom('onl_cgform_field').selectAll().where('cgform_head_id', '=', head.id).orderBy('order_num').execute();
  const wire = (r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [camel(k), v]));
  const h = wire(head) as FormHead;
  const fs = fields.map(wire);
  return { head: h, fields: fs, entity: formEntity(h, fs) };
}

/** Creates or additively alters the form's table through the same sync as entity schemas. */
export async function syncForm(db: DB, e: EntitySchema): Promise<void> {
  const registry: EntityRegistry = { byName: new Map([[e.name, e]]), byTable: new Map([[e.table, e]]), problems: [], get: () => e };
  const report = await syncEntities(db, registry);
  if (report.refused.length) throw new BizError(report.refused.map((r) => r.reason).join('；'));
}

async function ready(ctx: ServerContext, code: string) {
  const f = await loadForm(ctx, code);
  if (f.head.isDbSynch !== 'Y') throw new BizError('NO_DB_SYNC');
  return f;
}

function column(f: EntityField) {
  const dictCode = f.dict ?? (f.dictTable ? `${f.dictTable.table},${f.dictTable.text},${f.dictTable.code}` : undefined);
  return {
    dataIndex: f.name, title: f.title ?? f.name, fieldType: VIEW_OF[f.type], dbType: f.type, sorter: !!f.sortable, align: 'center',
    ...(dictCode ? { customRender: f.name, dictCode } : {}), showLength: 0, isTotal: '0', hrefSlotName: '', scopedSlots: {},
  };
}

const FIELD_KEYS = [
  'dbFieldName', 'dbFieldTxt', 'dbType', 'dbLength', 'dbPointLength', 'dbDefaultVal', 'dbIsKey', 'dbIsNull', 'fieldShowType', 'fieldValidType', 'fieldMustInput',
  'dictField', 'dictTable', 'dictText', 'isShowForm', 'isShowList', 'isQuery', 'queryMode', 'sortFlag', 'isReadOnly', 'orderNum',
] as const;

const HEAD_KEYS = ['tableName', 'tableTxt', 'tableType', 'isTree', 'treeParentIdField', 'treeFieldname', 'isCheckbox', 'isPage', 'queryMode', 'formCategory', 'description'] as const;
const wireRow = (r: Record<string, unknown>): Row => Object.fromEntries(Object.entries(r).map(([k, v]) => [camel(k), v]));
/** A definition's head without ids, audit fields or sync state (what export, copy and versions keep). */
const definitionHead = (h: Row): Row => Object.fromEntries(HEAD_KEYS.filter((k) => h[k] !== undefined && h[k] !== null).map((k) => [k, h[k]]));
const definitionField = (f: Row): Row => Object.fromEntries(FIELD_KEYS.filter((k) => f[k] !== undefined && f[k] !== null).map((k) => [k, f[k]]));

async function storeVersion(db: DB, req: FastifyRequest, headId: string, definition: { head: Row; fields: Row[] }, note: string): Promise<void> {
  const top = await db.selectFrom('onl_cgform_version').select((eb) => eb.fn.max('version').as('m')).where('cgform_head_id', '=', headId).executeTakeFirst();
  await db
    .insertInto('onl_cgform_version')
    .values({ id: newId(), cgform_head_id: headId, version: Number(top?.m ?? 0) + 1, definition: JSON.stringify(definition), note: note.slice(0, 200), create_by: req.user?.username ?? null, create_time: new Date() })
    .execute();
}

const ONLINE_LIST = 'modules/online/cgform/auto/OnlCgformAutoList';
const FORM_BUTTONS: Array<[string, string]> = [['add', '添加'], ['edit', '编辑'], ['delete', '删除'], ['exportXls', '导出'], ['importExcel', '导入']];

/**
 * The synced form's menu entry (under 在线开发, url /online/cgformList/<table>) with its buttons — the
 * permission codes its routes check (online:cgform:<op>) — granted to the roles of the author and to the
 * admin role. Created once; an administrator may move, rename or re-grant it in 菜单管理 / 角色管理.
 */
async function ensureFormMenu(ctx: ServerContext, req: FastifyRequest, head: FormHead): Promise<void> {
  const url = `/online/cgformList/${head.tableName}`;
  const db = ctx.db;
  if (await db.selectFrom('sys_permission').select('id').where('url', '=', url).where('del_flag', '=', 0).executeTakeFirst()) return;
  const parent = await db.selectFrom('sys_permission').select('id').where('url', '=', '/online').where('del_flag', '=', 0).executeTakeFirst();
  const now = new Date();
  const base = { del_flag: 0, status: '1', perms_type: '1', rule_flag: 0, internal_or_external: false, create_by: req.user?.username ?? 'system', create_time: now, always_show: false, hidden: false, keep_alive: false, hide_tab: false };
  const menuId = newId();
  const rows = [
    { ...base, id: menuId, parent_id: parent?.id ?? null, name: str(head.tableTxt) || str(head.tableName), url, component: ONLINE_LIST, menu_type: parent ? 1 : 0, perms: 'online:cgform:list', sort_no: 50, is_route: true, is_leaf: false },
    ...FORM_BUTTONS.map(([op, name], i) => ({ ...base, id: newId(), parent_id: menuId, name, url: '', component: null, menu_type: 2, perms: `online:cgform:${op}`, sort_no: i + 1, is_route: false, is_leaf: true })),
  ];
  await db.insertInto('sys_permission').values(rows).execute();
  const roles = await db.selectFrom('sys_role').select('id').where('role_code', 'in', [...new Set(['admin', ...(req.user?.roleCodes ?? [])])]).execute();
  const grants = roles.flatMap((r) => [...rows.map((x) => x.id), ...(parent ? [parent.id] : [])].map((pid) => ({ id: newId(), role_id: r.id, permission_id: pid, operate_date: now })));
  if (grants.length) await db.insertInto('sys_role_permission').values(grants).onConflict((oc) => oc.columns(['role_id', 'permission_id']).doNothing()).execute();
}

export async function registerOnlineForms(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  const headEntity = () => ctx.entities.get('onl_cgform_head');
  const fieldEntity = () => ctx.entities.get('onl_cgform_field');
  // Deleting a definition removes its fields; the data table itself is kept (nothing is ever dropped).
  defineEntityHooks('onl_cgform_head', {
    // The list shows, for a definition not yet synced, what 同步数据库 would do (its confirmation reads it).
    async decorateRows(h, rows, purpose) {
      if (purpose !== 'list') return rows;
      for (const r of rows) {
        if (r.isDbSynch === 'Y') continue;
        try {
          const { entity } = await loadForm(ctx, str(r.id), h.db);
          const plan = await syncPlan(h.db, entity);
          r.syncPlanText = plan.steps.join('；');
        } catch (err) {
          r.syncPlanText = err instanceof BizError ? err.message : '无法生成同步计划';
        }
      }
      return rows;
    },
    async beforeDelete(h, rows) {
      await h.db.deleteFrom('onl_cgform_field').where('cgform_head_id', 'in', rows.map((r) => str(r.id))).execute();
    },
  }, 'online');

  /** Saves head + fields (replacing the field list) after checking the resulting table definition. */
  const saveAll = async (req: FastifyRequest, mode: 'add' | 'edit', raw: unknown = req.body, note = '') => {
    const body = (raw ?? {}) as { head?: Row; fields?: Row[] };
    if (!body.head || typeof body.head !== 'object' || !Array.isArray(body.fields)) throw new BizError('请求内容应为 {head, fields}');
    if (!body.fields.length) throw new BizError('请至少定义一个字段');
    if (body.fields.length > 200) throw new BizError('字段最多200个');
    const fields = body.fields.map((f, i) => {
      const picked: Row = {};
      for (const k of FIELD_KEYS) if (f && typeof f === 'object' && k in f) picked[k] = (f as Row)[k];
      picked.orderNum ??= i;
      return picked;
    });
    const h = hookContext(ctx, req, headEntity());
    /** A new table name must not belong to anything already in the database. */
    const assertFreeTable = async (db: DB, name: unknown) => {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_schema = current_schema() and table_name = ${str(name)}`.execute(db);
      if (rows[0]!.n > 0) throw new BizError(`数据库中已存在表“${str(name)}”，请换一个表名`);
    };
    return inTransaction(ctx.db, async (trx) => {
      const th = { ...h, db: trx };
      let headId: string;
      if (mode === 'edit') {
        headId = str(body.head!.id);
        const old = await getRow(th, headId, trx);
        if (!old) throw new BizError('未找到对应数据');
        if (old.isDbSynch === 'Y' && body.head!.tableName !== undefined && body.head!.tableName !== old.tableName) throw new BizError('表已同步到数据库，不能修改表名');
        const entity = formEntity({ ...old, ...body.head }, fields);
        checkFormEntity(ctx, entity);
        if (entity.table !== old.tableName) await assertFreeTable(trx, entity.table);
        await saveRow(th, { ...body.head, id: headId }, 'edit');
        await trx.updateTable('onl_cgform_head').set({ is_db_synch: 'N' }).where('id', '=', headId).execute();
      } else {
        const entity = formEntity(body.head!, fields);
        checkFormEntity(ctx, entity);
        await assertFreeTable(trx, entity.table);
        headId = str((await saveRow(th, body.head!, 'add')).id);
      }
      await trx.deleteFrom('onl_cgform_field').where('cgform_head_id', '=', headId).execute();
      for (const f of fields) {
        const row = validateInput(fieldEntity(), { ...f, cgformHeadId: headId }, 'add');
        const cols = Object.fromEntries(Object.entries(row).map(([k, v]) => [columnOf(allFields(fieldEntity()).find((x) => x.name === k)!), v]));
        await trx.insertInto('onl_cgform_field').values({ ...cols, id: newId() }).execute();
      }
      // Every saved definition is a version (GET …/versions/:headId, POST …/rollback/:headId/:version).
      const saved = await trx.selectFrom('onl_cgform_head').selectAll().where('id', '=', headId).executeTakeFirstOrThrow();
      await storeVersion(trx, req, headId, { head: definitionHead(wireRow(saved)), fields }, note);
      return ok(mode === 'add' ? headId : '编辑成功!', mode === 'add' ? '添加成功！' : '编辑成功!');
    });
  };

  api.post('/online/cgform/api/addAll', { config: { auth: 'online:cgform:add' } }, (req) => saveAll(req, 'add'));

  // 新增 in 表单开发 (a form dialog): the head's fields flat, the field rows from an editable table.
  api.post('/online/cgform/api/define', { config: { auth: 'online:cgform:add' } }, async (req) => {
    const b = (req.body ?? {}) as Row & { fields?: unknown };
    const head = Object.fromEntries(HEAD_KEYS.filter((k) => b[k] !== undefined && b[k] !== null && b[k] !== '').map((k) => [k, b[k]]));
    const rows = Array.isArray(b.fields) ? (b.fields as Row[]) : [];
    const yes = (v: unknown) => v === true || v === 1 || v === '1' || v === 'Y';
    const fields = rows
      .filter((f) => f && typeof f === 'object' && str(f.dbFieldName))
      .map((f, i) => ({
        ...definitionField(f),
        dbType: str(f.dbType) || 'string',
        dbLength: Number(f.dbLength) || (str(f.dbType || 'string') === 'string' ? 50 : 0),
        fieldMustInput: yes(f.fieldMustInput) ? '1' : '0',
        isShowList: yes(f.isShowList ?? true) ? 1 : 0,
        isShowForm: yes(f.isShowForm ?? true) ? 1 : 0,
        isQuery: yes(f.isQuery) ? 1 : 0,
        sortFlag: yes(f.sortFlag) ? '1' : '0',
        orderNum: i,
      }));
    return saveAll(req, 'add', { head, fields }, '新增');
  });

  // The database change in words before 同步数据库 applies it (additive only; server/online/cgform-plan.ts).
  api.get('/online/cgform/api/syncPlan/:code', { config: { auth: 'online:cgform:sync' } }, async (req) => {
    const { entity } = await loadForm(ctx, (req.params as { code: string }).code);
    checkFormEntity(ctx, entity);
    return ok(await syncPlan(ctx.db, entity));
  });

  // Versions of a definition, rollback, export / import as JSON, copy.
  api.get('/online/cgform/api/versions/:headId', { config: { auth: 'online:cgform:list' } }, async (req) => {
    const { head } = await loadForm(ctx, (req.params as { headId: string }).headId);
    const rows = await ctx.db.selectFrom('onl_cgform_version').select(['version', 'note', 'create_by', 'create_time', 'definition']).where('cgform_head_id', '=', head.id).orderBy('version', 'desc').execute();
    return ok(rows.map((r) => ({ version: Number(r.version), note: r.note ?? '', createBy: r.create_by, createTime: r.create_time, definition: JSON.parse(String(r.definition)) })));
  });
  api.post('/online/cgform/api/rollback/:headId/:version', { config: { auth: 'online:cgform:edit' } }, async (req) => {
    const { headId, version } = req.params as { headId: string; version: string };
    const { head } = await loadForm(ctx, headId);
    const row = await ctx.db.selectFrom('onl_cgform_version').select(['definition']).where('cgform_head_id', '=', head.id).where('version', '=', Number(version) || 0).executeTakeFirst();
    if (!row) throw new BizError('版本不存在');
    const def = JSON.parse(String(row.definition)) as { head: Row; fields: Row[] };
    await saveAll(req, 'edit', { head: { ...def.head, id: head.id, tableName: head.tableName }, fields: def.fields }, `回滚到版本 ${version}`);
    return ok(null, `已回滚到版本 ${version}，请同步数据库`);
  });
  api.get('/online/cgform/api/exportDefinition/:code', { config: { auth: 'online:cgform:list' } }, async (req) => {
    const { head, fields } = await loadForm(ctx, (req.params as { code: string }).code);
    return ok({ head: definitionHead(head), fields: fields.map(definitionField) });
  });
  api.post('/online/cgform/api/importDefinition', { config: { auth: 'online:cgform:add' } }, (req) => saveAll(req, 'add', req.body, '导入'));
  api.post('/online/cgform/api/copy/:code', { config: { auth: 'online:cgform:add' } }, async (req) => {
    const { head, fields } = await loadForm(ctx, (req.params as { code: string }).code);
    const to = (req.body ?? {}) as { tableName?: unknown; tableTxt?: unknown };
    return saveAll(req, 'add', { head: { ...definitionHead(head), tableName: str(to.tableName), tableTxt: str(to.tableTxt) || `${head.tableTxt}（复制）` }, fields: fields.map(definitionField) }, `复制自 ${head.tableName}`);
  });
  api.put('/online/cgform/api/editAll', { config: { auth: 'online:cgform:edit' } }, (req) => saveAll(req, 'edit'));

  api.get('/online/cgform/field/listByHeadId', { config: { auth: 'online:cgform:list' } }, async (req) => {
    const { fields } = await loadForm(ctx, str((req.query as Q).headId));
    return ok(fields);
  });

  api.post('/online/cgform/api/doDbSynch/:code/:synMethod', { config: { auth: 'online:cgform:sync' } }, async (req) => {
    const { code, synMethod } = req.params as { code: string; synMethod: string };
    if (synMethod !== 'normal') throw new BizError('只支持普通同步（不删除数据的增量同步）');
    const { head, entity } = await loadForm(ctx, code);
    checkFormEntity(ctx, entity);
    const plan = await syncPlan(ctx.db, entity);
    if (!plan.allowed) throw new BizError(plan.steps.filter((x) => x.startsWith('不能执行')).join('；'));
    await ctx.db.connection().execute(async (conn) => {
      await syncForm(conn, entity);
      await conn.updateTable('onl_cgform_head').set({ is_db_synch: 'Y' }).where('id', '=', head.id).execute();
    });
    await ensureFormMenu(ctx, req, head);
    return ok('同步数据库成功!', '同步数据库成功!');
  });

  api.get('/online/cgform/api/getColumns/:code', { config: { auth: 'online:cgform:list' } }, async (req) => {
    const { head, fields, entity } = await loadForm(ctx, (req.params as { code: string }).code);
    const shown = new Set(fields.filter((f) => Number(f.isShowList) === 1).map((f) => camel(str(f.dbFieldName))));
    const listFields = entity.fields.filter((f) => shown.has(f.name));
    const all = await allDictItems(ctx.db);
    const dictOptions: Record<string, DictModel[]> = {};
    for (const f of entity.fields) if (f.dict) dictOptions[f.name] = all[f.dict] ?? [];
    const formFields = entity.fields
      .filter((f) => fields.some((x) => camel(str(x.dbFieldName)) === f.name && Number(x.isShowForm) === 1))
      .map((f) => {
        const def = fields.find((x) => camel(str(x.dbFieldName)) === f.name)!;
        return { field: f.name, title: f.title, type: f.type, view: str(def.fieldShowType) || VIEW_OF[f.type], required: !!f.required, readonly: !!f.readonly, dictCode: f.dict ?? (f.dictTable ? `${f.dictTable.table},${f.dictTable.text},${f.dictTable.code}` : undefined), length: f.length, pattern: f.pattern };
      });
    return ok({
      columns: listFields.map(column), dictOptions, formTemplate: '1', description: head.tableTxt, currentTableName: head.tableName, currentTableId: head.id,
      paginationFlag: str(head.isPage) || 'Y', checkboxFlag: str(head.isCheckbox) || 'Y', scrollFlag: 1, isDesForm: 'N', desFormCode: '',
      cgButtonList: [], enhanceJs: '', hideColumns: [], fieldHrefSlots: [], isDbSynch: head.isDbSynch, formFields,
    });
  });

  api.get('/online/cgform/api/getQueryInfo/:code', { config: { auth: 'online:cgform:list' } }, async (req) => {
    const { fields, entity } = await loadForm(ctx, (req.params as { code: string }).code);
    return ok(entity.fields.filter((f) => f.filterable && f.name !== 'sysOrgCode').map((f) => {
      const def = fields.find((x) => camel(str(x.dbFieldName)) === f.name);
      return { field: f.name, label: f.title, view: str(def?.fieldShowType) || VIEW_OF[f.type], mode: str(def?.queryMode) || 'single', dictCode: f.dict ?? '' };
    }));
  });

  api.get('/online/cgform/api/getData/:code', { config: { auth: 'online:cgform:list' } }, async (req, reply) => {
    let form;
    try {
      form = await ready(ctx, (req.params as { code: string }).code);
    } catch (err) {
      if (err instanceof BizError && err.message === 'NO_DB_SYNC') return reply.send(fail('NO_DB_SYNC'));
      throw err;
    }
    const q = req.query as Query;
    const h = hookContext(ctx, req, form.entity);
    if (str(q.pageSize) === '-521') {
      const records = await exportRows(h, q, 10_000);
      return ok({ records, total: records.length });
    }
    return ok(await listRows(h, q));
  });

  api.get('/online/cgform/api/exportXls/:code', { config: { auth: 'online:cgform:exportXls' } }, async (req, reply) => {
    const { entity } = await ready(ctx, (req.params as { code: string }).code);
    return sendExport(ctx, req, reply, entity);
  });
  api.post('/online/cgform/api/importXls/:code', { config: { auth: 'online:cgform:importExcel' } }, async (req) => {
    const { entity } = await ready(ctx, (req.params as { code: string }).code);
    return handleImport(ctx, req, entity);
  });

  api.post('/online/cgform/api/form/:code', { config: { auth: 'online:cgform:add' } }, async (req) => {
    const { entity } = await ready(ctx, (req.params as { code: string }).code);
    const saved = await saveRow(hookContext(ctx, req, entity), req.body as Row, 'add');
    return ok(saved.id, '添加成功！');
  });
  api.put('/online/cgform/api/form/:code', { config: { auth: 'online:cgform:edit' } }, async (req) => {
    const { entity } = await ready(ctx, (req.params as { code: string }).code);
    await saveRow(hookContext(ctx, req, entity), req.body as Row, 'edit');
    return ok('编辑成功!', '编辑成功!');
  });
  api.get('/online/cgform/api/form/:code/:id', { config: { auth: 'online:cgform:list' } }, async (req) => {
    const { code, id } = req.params as { code: string; id: string };
    const { entity } = await ready(ctx, code);
    const row = await getRow(hookContext(ctx, req, entity), id);
    if (!row) throw new BizError('未找到对应数据');
    return ok(row);
  });
  api.delete('/online/cgform/api/form/:code/:ids', { config: { auth: 'online:cgform:delete' } }, async (req) => {
    const { code, ids } = req.params as { code: string; ids: string };
    const { entity } = await ready(ctx, code);
    await deleteRows(hookContext(ctx, req, entity), ids.split(','));
    return ok('删除成功!', '删除成功!');
  });
}
