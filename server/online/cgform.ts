import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import { BizError, fail, ok } from '../http/envelope.js';
import { checkAgainst, type EntityRegistry } from '../crud/entities.js';
import { allFields, columnOf, type EntityField, type EntitySchema, type FieldType } from '../crud/entity-types.js';
import { deleteRows, exportRows, getRow, hookContext, inTransaction, listRows, saveRow, validateInput } from '../crud/engine.js';
import { defineEntityHooks, type HookContext, type Row } from '../crud/hooks.js';
import { treeHooks } from '../crud/tree-hooks.js';
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
const MANAGED = new Set(['id', 'create_by', 'create_time', 'update_by', 'update_time', 'sys_org_code', 'sub_sort_no']);
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

/** A form marked as a tree (isTree = Y): its parent field (default pid) and the field shown as the node's name. */
export const isTreeForm = (head: Row) => str(head.isTree) === 'Y';
const treeParentOf = (head: Row) => str(head.treeParentIdField) || 'pid';

/**
 * One stored definition (head + fields + indexes) → the EntitySchema the generic engine serves. A tree form
 * gets its parent field (when not defined: pid, text 32, root '0') and has_child; a sub-table's foreign-key
 * field (mainTable set) is filterable so its rows can be listed per master record.
 */
export function formEntity(head: Row, fields: Row[], indexes: Row[] = []): EntitySchema {
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
      // the foreign key of a sub-table is set by the server from the master record
      if (str(f.mainTable)) Object.assign(out, { filterable: true, required: false });
      return out;
    });
  // a sub-table's rows keep the order they were entered in (set by the server on every save of the master)
  if (fields.some((f) => str(f.mainTable))) own.push({ name: 'subSortNo', column: 'sub_sort_no', type: 'integer', title: '行号', sortable: true });
  let tree: EntitySchema['tree'];
  if (isTreeForm(head)) {
    const pid = treeParentOf(head);
    let parent = own.find((f) => f.column === pid);
    if (!parent) own.push((parent = { name: camel(pid), column: pid, type: 'string', length: 32, title: '父级节点' }));
    Object.assign(parent, { filterable: true, required: false, default: parent.default ?? '0' });
    if (!own.some((f) => f.column === 'has_child')) own.push({ name: 'hasChild', column: 'has_child', type: 'string', length: 3, title: '是否有子节点', readonly: true, default: '0' });
    tree = { parentField: parent.name, hasChildField: 'hasChild' };
  }
  const byColumn = new Map(own.map((f) => [f.column, f]));
  const entityIndexes = indexes.map((ix) => {
    const cols = str(ix.indexField).split(',').map((c) => c.trim()).filter(Boolean);
    if (!cols.length) throw new BizError(`索引“${str(ix.indexName) || '未命名'}”没有字段`);
    const missing = cols.find((c) => !byColumn.has(c));
    if (missing) throw new BizError(`索引“${str(ix.indexName) || cols.join(',')}”的字段“${missing}”不在表单字段中`);
    if (new Set(cols).size !== cols.length) throw new BizError(`索引“${str(ix.indexName) || cols.join(',')}”的字段重复`);
    if (!['normal', 'unique'].includes(str(ix.indexType) || 'normal')) throw new BizError(`索引类型只能是 normal（普通）或 unique（唯一）`);
    return { fields: cols.map((c) => byColumn.get(c)!.name), ...(str(ix.indexType) === 'unique' ? { unique: true } : {}) };
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
    ...(entityIndexes.length ? { indexes: entityIndexes } : {}),
    ...(tree ? { tree } : {}),
    scope: { department: 'sysOrgCode' },
    defaultSort: { field: 'createTime', order: 'desc' },
  };
}

/** Validates a built definition like any schema file, plus the online-specific rules. */
export function checkFormEntity(ctx: ServerContext, e: EntitySchema, head: Row = {}): void {
  if (!/^[a-z][a-z0-9_]{1,49}$/.test(e.table)) throw new BizError('表名只允许小写字母、数字、下划线，以字母开头');
  if (RESERVED_PREFIX.test(e.table) || ctx.entities.byTable.has(e.table)) throw new BizError(`表名“${e.table}”是系统保留的，请换一个`);
  if (e.tree) {
    const name = str(head.treeFieldname);
    if (!name) throw new BizError('树表单请填写树显示字段（节点名称的字段名）');
    if (!e.fields.some((f) => f.column === name)) throw new BizError(`树显示字段“${name}”不在表单字段中`);
    if (name === str(head.treeParentIdField || 'pid')) throw new BizError('树显示字段不能是父级字段');
  }
  for (const f of e.fields) if (f.column && !/^[a-z][a-z0-9_]{0,31}$/.test(f.column)) throw new BizError(`字段名“${f.column}”只允许小写字母、数字、下划线，以字母开头`);
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

const wireRow = (r: Record<string, unknown>): Row => Object.fromEntries(Object.entries(r).map(([k, v]) => [camel(k), v]));

interface LoadedForm {
  head: FormHead;
  fields: Row[];
  indexes: Row[];
  entity: EntitySchema;
}

async function loadForm(ctx: ServerContext, code: string, db: DB = ctx.db): Promise<LoadedForm> {
  if (!code || code.length > 64) throw new BizError('表单不存在');
  const head = await db.selectFrom('onl_cgform_head').selectAll().where((eb) => eb.or([eb('id', '=', code), eb('table_name', '=', code)])).executeTakeFirst();
  if (!head) throw new BizError('表单不存在');
  const fields = await db.selectFrom('onl_cgform_field').selectAll().where('cgform_head_id', '=', head.id).orderBy('order_num').execute();
  const indexes = await db.selectFrom('onl_cgform_index').selectAll().where('cgform_head_id', '=', head.id).orderBy('index_name').execute();
  const h = wireRow(head) as FormHead;
  const fs = fields.map(wireRow);
  const ixs = indexes.map(wireRow);
  const entity = formEntity(h, fs, ixs);
  installFormHooks(entity);
  return { head: h, fields: fs, indexes: ixs, entity };
}

/**
 * Hooks of a generated table: a tree form keeps has_child up to date and refuses to delete a node with
 * children; a unique index is checked before the write with a message naming its fields and values.
 */
function installFormHooks(e: EntitySchema): void {
  if (e.tree) defineEntityHooks(e.name, treeHooks('该节点下还有子节点，请先删除子节点'), 'online-tree');
  const unique = (e.indexes ?? []).filter((ix) => ix.unique);
  if (!unique.length) return;
  defineEntityHooks(e.name, {
    async beforeSave(h: HookContext, row, mode, old) {
      const values = { ...(old ?? {}), ...row };
      for (const ix of unique) {
        const fs = ix.fields.map((n) => h.entity.fields.find((f) => f.name === n)!);
        if (fs.some((f) => values[f.name] === undefined || values[f.name] === null || values[f.name] === '')) continue;
        let q = h.db.selectFrom(h.entity.table).select('id');
        for (const f of fs) q = q.where(sql.ref(columnOf(f)), '=', values[f.name]);
        if (mode === 'edit' && old) q = q.where('id', '<>', str(old.id));
        if (await q.executeTakeFirst())
          throw new BizError(`${h.entity.title}中已存在${fs.map((f) => `${f.title ?? f.name}为“${str(values[f.name])}”`).join('、')}的记录，不能重复`);
      }
    },
  }, 'online-unique');
}

/** The sub-tables of a main table: definitions whose foreign-key field names it in mainTable. */
async function subFormsOf(ctx: ServerContext, mainTable: string, db: DB = ctx.db): Promise<Array<LoadedForm & { fk: EntityField }>> {
  const refs = await db.selectFrom('onl_cgform_field').select(['cgform_head_id', 'db_field_name']).where('main_table', '=', mainTable).execute();
  const out: Array<LoadedForm & { fk: EntityField }> = [];
  for (const r of refs) {
    const f = await loadForm(ctx, String(r.cgform_head_id), db);
    if (str(f.head.tableName) === mainTable) continue;
    out.push({ ...f, fk: f.entity.fields.find((x) => x.column === r.db_field_name)! });
  }
  return out.sort((a, b) => str(a.head.tableName).localeCompare(str(b.head.tableName)));
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

/** Form fields of a definition as the generated screen draws them. */
function formFieldsOf(fields: Row[], entity: EntitySchema) {
  return entity.fields
    .filter((f) => fields.some((x) => camel(str(x.dbFieldName)) === f.name && Number(x.isShowForm) === 1 && !str(x.mainTable)))
    .filter((f) => f.name !== entity.tree?.parentField)
    .map((f) => {
      const def = fields.find((x) => camel(str(x.dbFieldName)) === f.name)!;
      const shown = str(def.fieldShowType);
      return { field: f.name, title: f.title, type: f.type, view: shown && shown !== 'text' ? shown : VIEW_OF[f.type], required: !!f.required, readonly: !!f.readonly, dictCode: f.dict ?? (f.dictTable ? `${f.dictTable.table},${f.dictTable.text},${f.dictTable.code}` : undefined), length: f.length, pattern: f.pattern };
    });
}

const CELL_OF: Record<string, string> = { number: 'number', date: 'date', datetime: 'datetime', switch: 'switch', textarea: 'textarea' };

const FIELD_KEYS = [
  'dbFieldName', 'dbFieldTxt', 'dbType', 'dbLength', 'dbPointLength', 'dbDefaultVal', 'dbIsKey', 'dbIsNull', 'fieldShowType', 'fieldValidType', 'fieldMustInput',
  'dictField', 'dictTable', 'dictText', 'isShowForm', 'isShowList', 'isQuery', 'queryMode', 'sortFlag', 'isReadOnly', 'orderNum', 'mainTable', 'mainField',
] as const;
const INDEX_KEYS = ['indexName', 'indexField', 'indexType'] as const;
const HEAD_KEYS = ['tableName', 'tableTxt', 'tableType', 'isTree', 'treeParentIdField', 'treeFieldname', 'isCheckbox', 'isPage', 'queryMode', 'formCategory', 'description'] as const;
/** A definition's head without ids, audit fields or sync state (what export, copy and versions keep). */
const definitionHead = (h: Row): Row => Object.fromEntries(HEAD_KEYS.filter((k) => h[k] !== undefined && h[k] !== null).map((k) => [k, h[k]]));
const definitionField = (f: Row): Row => Object.fromEntries(FIELD_KEYS.filter((k) => f[k] !== undefined && f[k] !== null).map((k) => [k, f[k]]));
const definitionIndex = (f: Row): Row => Object.fromEntries(INDEX_KEYS.filter((k) => f[k] !== undefined && f[k] !== null).map((k) => [k, f[k]]));

interface Definition {
  head: Row;
  fields: Row[];
  indexes?: Row[];
}
/** The file format of 导出 / 导入: one definition and, for a main table, its sub-tables. */
export const DEFINITION_FORMAT = 'online-form';
interface DefinitionFile extends Definition {
  format?: string;
  subTables?: Definition[];
}

/**
 * An imported definition is checked key by key before anything else reads it: only the known keys of a
 * head, a field and an index, scalar values of a bounded size; anything else is refused with its path.
 */
export function checkDefinitionFile(raw: unknown): DefinitionFile {
  const bad = (path: string, why: string): never => {
    throw new BizError(`导入的定义不正确：${path} ${why}，未导入任何内容`);
  };
  const plain = (v: unknown, path: string): Row => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) bad(path, '应为对象');
    return v as Row;
  };
  const only = (o: Row, keys: readonly string[], path: string) => {
    for (const [k, v] of Object.entries(o)) {
      if (!keys.includes(k)) bad(`${path}.${k}`, '是未知内容');
      if (v !== null && !['string', 'number', 'boolean'].includes(typeof v)) bad(`${path}.${k}`, '应为文本、数字或是否');
      if (typeof v === 'string' && v.length > 500) bad(`${path}.${k}`, '过长');
    }
  };
  const one = (v: unknown, path: string): Definition => {
    const d = plain(v, path);
    for (const k of Object.keys(d)) if (!['head', 'fields', 'indexes', 'format', 'subTables'].includes(k)) bad(`${path}.${k}`, '是未知内容');
    const head = plain(d.head, `${path}.head`);
    only(head, HEAD_KEYS, `${path}.head`);
    if (!Array.isArray(d.fields)) bad(`${path}.fields`, '应为字段列表');
    const fields = d.fields as unknown[];
    if (fields.length > 200) bad(`${path}.fields`, '最多200个字段');
    fields.forEach((f, i) => only(plain(f, `${path}.fields[${i}]`), FIELD_KEYS, `${path}.fields[${i}]`));
    const indexes = d.indexes === undefined ? [] : Array.isArray(d.indexes) ? (d.indexes as unknown[]) : bad(`${path}.indexes`, '应为索引列表');
    if (indexes.length > 20) bad(`${path}.indexes`, '最多20个索引');
    indexes.forEach((x, i) => only(plain(x, `${path}.indexes[${i}]`), INDEX_KEYS, `${path}.indexes[${i}]`));
    return { head, fields: fields as Row[], indexes: indexes as Row[] };
  };
  const top = plain(raw, '定义');
  if (top.format !== undefined && top.format !== DEFINITION_FORMAT) bad('format', `应为“${DEFINITION_FORMAT}”`);
  const main = one(top, '定义');
  const subs = top.subTables === undefined ? [] : Array.isArray(top.subTables) ? (top.subTables as unknown[]) : bad('subTables', '应为子表列表');
  if (subs.length > 10) bad('subTables', '最多10个子表');
  return { ...main, subTables: subs.map((x, i) => one(x, `subTables[${i}]`)) };
}

async function storeVersion(db: DB, req: FastifyRequest, headId: string, definition: Definition, note: string): Promise<void> {
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
 * A sub-table gets none: its rows are edited in its main table's record form.
 */
async function ensureFormMenu(ctx: ServerContext, req: FastifyRequest, head: FormHead): Promise<void> {
  if (Number(head.tableType) === 3) return;
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

const yes = (v: unknown) => v === true || v === 1 || v === '1' || v === 'Y';

/**
 * The 新增 / 编辑 dialog's flat body → a definition: head keys, the field rows of the editable table, the
 * index rows; a sub-table's 主表 and 外键字段 mark (or add) its foreign-key field.
 */
function definitionOfDialog(b: Row): Definition {
  const head = Object.fromEntries(HEAD_KEYS.filter((k) => b[k] !== undefined && b[k] !== null && b[k] !== '').map((k) => [k, b[k]]));
  if (head.isTree !== undefined) head.isTree = yes(head.isTree) ? 'Y' : 'N';
  const rows = Array.isArray(b.fields) ? (b.fields as Row[]) : [];
  const fields: Row[] = rows
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
  for (const f of fields) {
    delete f.mainTable;
    delete f.mainField;
  }
  if (Number(head.tableType) === 3) {
    const main = str(b.mainTable).trim();
    const fk = str(b.foreignKey).trim() || `${main.replace(/^form_/, '')}_id`.slice(0, 32);
    if (!main) throw new BizError('附表请填写主表（主表的表名）');
    let f = fields.find((x) => x.dbFieldName === fk);
    if (!f) fields.push((f = { dbFieldName: fk, dbFieldTxt: '主表ID', dbType: 'string', dbLength: 32, fieldMustInput: '0', isShowList: 0, isShowForm: 0, isQuery: 0, sortFlag: '0', orderNum: fields.length }));
    Object.assign(f, { mainTable: main, mainField: 'id', dbType: 'string', dbLength: 32 });
  }
  const indexes = (Array.isArray(b.indexes) ? (b.indexes as Row[]) : [])
    .filter((x) => x && typeof x === 'object' && str(x.indexField).trim())
    .map((x, i) => ({ indexName: str(x.indexName).trim() || `索引${i + 1}`, indexField: str(x.indexField).split(/[,，\s]+/).filter(Boolean).join(','), indexType: str(x.indexType) === 'unique' ? 'unique' : 'normal' }));
  return { head, fields, indexes };
}

/** What the 编辑 dialog starts from: the head's keys flat, the field and index rows as its editable tables hold them. */
function dialogOf(f: LoadedForm): Row {
  const fk = f.fields.find((x) => str(x.mainTable));
  return {
    ...definitionHead(f.head),
    isTree: isTreeForm(f.head) ? 'Y' : 'N',
    ...(fk ? { mainTable: fk.mainTable, foreignKey: fk.dbFieldName } : {}),
    fields: f.fields.map((x) => ({
      ...definitionField(x),
      fieldMustInput: str(x.fieldMustInput) === '1' ? '1' : '0',
      isShowList: Number(x.isShowList) === 1 ? '1' : '0',
      isShowForm: Number(x.isShowForm) === 1 ? '1' : '0',
      isQuery: Number(x.isQuery) === 1 ? '1' : '0',
      sortFlag: str(x.sortFlag) === '1' ? '1' : '0',
    })),
    indexes: f.indexes.map(definitionIndex),
  };
}

export async function registerOnlineForms(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  const headEntity = () => ctx.entities.get('onl_cgform_head');
  const fieldEntity = () => ctx.entities.get('onl_cgform_field');
  const indexEntity = () => ctx.entities.get('onl_cgform_index');
  // Deleting a definition removes its fields; the data table itself is kept (nothing is ever dropped).
  defineEntityHooks('onl_cgform_head', {
    // The list shows, for a definition not yet synced, what 同步数据库 would do (its confirmation reads it),
    // and carries what the 编辑 dialog starts from.
    async decorateRows(h, rows, purpose) {
      if (purpose !== 'list') return rows;
      for (const r of rows) {
        try {
          const form = await loadForm(ctx, str(r.id), h.db);
          r.dialog = dialogOf(form);
          const fk = form.fields.find((x) => str(x.mainTable));
          if (fk) r.mainTable = fk.mainTable;
          if (r.isDbSynch === 'Y') continue;
          const plan = await syncPlan(h.db, form.entity);
          r.syncPlanText = plan.steps.join('；');
        } catch (err) {
          r.syncPlanText = err instanceof BizError ? err.message : '无法生成同步计划';
        }
      }
      return rows;
    },
    async beforeDelete(h, rows) {
      const ids = rows.map((r) => str(r.id));
      const mains = rows.map((r) => str(r.tableName));
      const subs = await h.db.selectFrom('onl_cgform_field').select('cgform_head_id').where('main_table', 'in', mains).where('cgform_head_id', 'not in', ids).executeTakeFirst();
      if (subs) throw new BizError('该表单还有附表，请先删除附表的定义');
      await h.db.deleteFrom('onl_cgform_field').where('cgform_head_id', 'in', ids).execute();
      await h.db.deleteFrom('onl_cgform_index').where('cgform_head_id', 'in', ids).execute();
    },
  }, 'online');

  /** A new table name must not belong to anything already in the database. */
  const assertFreeTable = async (db: DB, name: unknown) => {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_schema = current_schema() and table_name = ${str(name)}`.execute(db);
    if (rows[0]!.n > 0) throw new BizError(`数据库中已存在表“${str(name)}”，请换一个表名`);
  };

  /** A sub-table's foreign key must point at another form definition (the main table), one level deep. */
  const checkRelation = async (db: DB, table: string, fields: Row[]) => {
    const fks = fields.filter((f) => str(f.mainTable));
    if (fks.length > 1) throw new BizError('一个附表只能有一个外键字段');
    const fk = fks[0];
    if (!fk) return;
    const main = str(fk.mainTable);
    if (main === table) throw new BizError('附表的主表不能是它自己');
    const head = await db.selectFrom('onl_cgform_head').select(['id', 'table_type']).where('table_name', '=', main).executeTakeFirst();
    if (!head) throw new BizError(`主表“${main}”不存在，请先定义主表`);
    if (Number(head.table_type) === 3) throw new BizError(`“${main}”本身是附表，不能再作为主表`);
    if (str(fk.dbType) !== 'string' || Number(fk.dbLength) < 32) throw new BizError(`外键字段“${str(fk.dbFieldName)}”应为长度不少于32的文本`);
    await db.updateTable('onl_cgform_head').set({ table_type: 2 }).where('id', '=', head.id).execute();
  };

  /** Saves head + fields + indexes (replacing the lists) after checking the resulting table definition. */
  const saveAll = async (req: FastifyRequest, mode: 'add' | 'edit', raw: unknown = req.body, note = '', db: DB = ctx.db) => {
    const body = (raw ?? {}) as { head?: Row; fields?: Row[]; indexes?: Row[] };
    if (!body.head || typeof body.head !== 'object' || !Array.isArray(body.fields)) throw new BizError('请求内容应为 {head, fields}');
    if (!body.fields.length) throw new BizError('请至少定义一个字段');
    if (body.fields.length > 200) throw new BizError('字段最多200个');
    if (body.indexes !== undefined && !Array.isArray(body.indexes)) throw new BizError('索引应为列表');
    const pick = <K extends readonly string[]>(keys: K, f: unknown): Row => {
      const picked: Row = {};
      for (const k of keys) if (f && typeof f === 'object' && k in f) picked[k] = (f as Row)[k];
      return picked;
    };
    const fields = body.fields.map((f, i) => {
      const picked = pick(FIELD_KEYS, f);
      picked.orderNum ??= i;
      return picked;
    });
    const indexes = (body.indexes ?? []).map((x) => pick(INDEX_KEYS, x));
    if (indexes.length > 20) throw new BizError('索引最多20个');
    const h = hookContext(ctx, req, headEntity());
    return inTransaction(db, async (trx) => {
      const th = { ...h, db: trx };
      let headId: string;
      let table: string;
      if (mode === 'edit') {
        headId = str(body.head!.id);
        const old = await getRow(th, headId, trx);
        if (!old) throw new BizError('未找到对应数据');
        if (old.isDbSynch === 'Y' && body.head!.tableName !== undefined && body.head!.tableName !== old.tableName) throw new BizError('表已同步到数据库，不能修改表名');
        const entity = formEntity({ ...old, ...body.head }, fields, indexes);
        checkFormEntity(ctx, entity, { ...old, ...body.head });
        if (entity.table !== old.tableName) await assertFreeTable(trx, entity.table);
        table = entity.table;
        await saveRow(th, { ...body.head, id: headId }, 'edit');
        await trx.updateTable('onl_cgform_head').set({ is_db_synch: 'N' }).where('id', '=', headId).execute();
      } else {
        const entity = formEntity(body.head!, fields, indexes);
        checkFormEntity(ctx, entity, body.head!);
        await assertFreeTable(trx, entity.table);
        if (await trx.selectFrom('onl_cgform_head').select('id').where('table_name', '=', entity.table).executeTakeFirst()) throw new BizError(`已有表名为“${entity.table}”的表单，请换一个表名`);
        table = entity.table;
        headId = str((await saveRow(th, body.head!, 'add')).id);
      }
      await checkRelation(trx, table, fields);
      if (fields.some((f) => str(f.mainTable))) await trx.updateTable('onl_cgform_head').set({ table_type: 3 }).where('id', '=', headId).execute();
      // a table that has sub-tables stays a main table (e.g. rolled back to a version saved before them)
      else if (await trx.selectFrom('onl_cgform_field').select('id').where('main_table', '=', table).executeTakeFirst()) await trx.updateTable('onl_cgform_head').set({ table_type: 2 }).where('id', '=', headId).execute();
      await trx.deleteFrom('onl_cgform_field').where('cgform_head_id', '=', headId).execute();
      const insert = async (entity: EntitySchema, target: string, row: Row) => {
        const valid = validateInput(entity, row, 'add');
        const cols = Object.fromEntries(Object.entries(valid).map(([k, v]) => [columnOf(allFields(entity).find((x) => x.name === k)!), v]));
        await trx.insertInto(target).values({ ...cols, id: newId() }).execute();
      };
      for (const f of fields) await insert(fieldEntity(), 'onl_cgform_field', { ...f, cgformHeadId: headId });
      await trx.deleteFrom('onl_cgform_index').where('cgform_head_id', '=', headId).execute();
      for (const x of indexes) await insert(indexEntity(), 'onl_cgform_index', { indexType: 'normal', ...x, cgformHeadId: headId });
      // Every saved definition is a version (GET …/versions/:headId, POST …/rollback/:headId/:version).
      const saved = await trx.selectFrom('onl_cgform_head').selectAll().where('id', '=', headId).executeTakeFirstOrThrow();
      await storeVersion(trx, req, headId, { head: definitionHead(wireRow(saved)), fields, indexes }, note);
      return ok(mode === 'add' ? headId : '编辑成功!', mode === 'add' ? '添加成功！' : '编辑成功!');
    });
  };

  api.post('/online/cgform/api/addAll', { config: { auth: 'online:cgform:add' } }, (req) => saveAll(req, 'add'));
  api.put('/online/cgform/api/editAll', { config: { auth: 'online:cgform:edit' } }, (req) => saveAll(req, 'edit'));

  // 新增 / 编辑 in 表单开发 (a form dialog): the head's keys flat, the field and index rows from editable tables.
  api.post('/online/cgform/api/define', { config: { auth: 'online:cgform:add' } }, async (req) => {
    const def = definitionOfDialog((req.body ?? {}) as Row);
    return saveAll(req, 'add', def, '新增');
  });
  api.put('/online/cgform/api/define', { config: { auth: 'online:cgform:edit' } }, async (req) => {
    const b = (req.body ?? {}) as Row;
    const { head } = await loadForm(ctx, str(b.id));
    const def = definitionOfDialog(b);
    return saveAll(req, 'edit', { ...def, head: { ...def.head, id: head.id } }, str(b.versionNote) || '编辑');
  });

  // The database change in words before 同步数据库 applies it (additive only; server/online/cgform-plan.ts).
  api.get('/online/cgform/api/syncPlan/:code', { config: { auth: 'online:cgform:sync' } }, async (req) => {
    const { head, entity } = await loadForm(ctx, (req.params as { code: string }).code);
    checkFormEntity(ctx, entity, head);
    return ok(await syncPlan(ctx.db, entity));
  });

  // Versions of a definition, rollback, export / import as JSON, copy.
  const versionsOf = async (headId: string) => {
    const rows = await ctx.db.selectFrom('onl_cgform_version').select(['version', 'note', 'create_by', 'create_time', 'definition']).where('cgform_head_id', '=', headId).orderBy('version', 'desc').execute();
    return rows.map((r) => {
      const def = JSON.parse(String(r.definition)) as Definition;
      return { id: `${headId}:${Number(r.version)}`, headId, version: Number(r.version), note: r.note ?? '', createBy: r.create_by, createTime: r.create_time, definition: def, fieldCount: def.fields.length, indexCount: def.indexes?.length ?? 0 };
    });
  };
  api.get('/online/cgform/api/versions/:headId', { config: { auth: 'online:cgform:list' } }, async (req) => {
    const { head } = await loadForm(ctx, (req.params as { headId: string }).headId);
    return ok(await versionsOf(head.id));
  });
  // The same as a list page (版本 drawer of 表单开发): ?headId=
  api.get('/online/cgform/api/versionList', { config: { auth: 'online:cgform:list' } }, async (req) => {
    const { head } = await loadForm(ctx, str((req.query as Q).headId));
    const all = (await versionsOf(head.id)).map(({ definition, ...v }) => (void definition, { ...v, current: '' }));
    if (all[0]) all[0].current = '当前';
    return ok({ records: all, total: all.length, size: all.length || 10, current: 1, pages: 1 });
  });
  api.post('/online/cgform/api/rollback/:headId/:version', { config: { auth: 'online:cgform:edit' } }, async (req) => {
    const { headId, version } = req.params as { headId: string; version: string };
    const { head } = await loadForm(ctx, headId);
    const row = await ctx.db.selectFrom('onl_cgform_version').select(['definition']).where('cgform_head_id', '=', head.id).where('version', '=', Number(version) || 0).executeTakeFirst();
    if (!row) throw new BizError('版本不存在');
    const def = JSON.parse(String(row.definition)) as Definition;
    await saveAll(req, 'edit', { head: { ...def.head, id: head.id, tableName: head.tableName }, fields: def.fields, indexes: def.indexes ?? [] }, `回滚到版本 ${version}`);
    return ok(null, `已回滚到版本 ${version}，请同步数据库`);
  });

  /** A definition as exported: its head, fields and indexes, and its sub-tables' for a main table. */
  const exportOf = async (code: string): Promise<DefinitionFile> => {
    const { head, fields, indexes } = await loadForm(ctx, code);
    const subs = await subFormsOf(ctx, head.tableName);
    return {
      format: DEFINITION_FORMAT,
      head: definitionHead(head), fields: fields.map(definitionField), indexes: indexes.map(definitionIndex),
      ...(subs.length ? { subTables: subs.map((s) => ({ head: definitionHead(s.head), fields: s.fields.map(definitionField), indexes: s.indexes.map(definitionIndex) })) } : {}),
    };
  };
  api.get('/online/cgform/api/exportDefinition/:code', { config: { auth: 'online:cgform:list' } }, async (req) => ok(await exportOf((req.params as { code: string }).code)));
  // 导出 (a row button): the same as a .json file.
  api.get('/online/cgform/api/exportDefinitionFile/:code', { config: { auth: 'online:cgform:list' } }, async (req, reply) => {
    const def = await exportOf((req.params as { code: string }).code);
    // a file to save, not an answer to read (the browser's download reads a JSON type as an error envelope)
    reply.header('Content-Type', 'application/octet-stream');
    reply.header('Content-Disposition', `attachment; filename="${str(def.head.tableName)}.json"`);
    return reply.send(JSON.stringify(def, null, 2));
  });

  /** Imports a checked definition file: the main definition, then its sub-tables pointing at it — all or nothing. */
  const importFile = async (req: FastifyRequest, raw: unknown) => {
    const file = checkDefinitionFile(raw);
    return inTransaction(ctx.db, async (trx) => {
      const r = await saveAll(req, 'add', file, '导入', trx);
      const main = str(file.head.tableName);
      for (const sub of file.subTables ?? []) {
        const fields = sub.fields.map((f) => (str(f.mainTable) ? { ...f, mainTable: main, mainField: 'id' } : f));
        if (!fields.some((f) => str(f.mainTable))) throw new BizError(`导入的定义不正确：附表“${str(sub.head.tableName)}”没有外键字段`);
        await saveAll(req, 'add', { ...sub, fields }, '导入', trx);
      }
      return ok(r.result, file.subTables?.length ? `导入成功（含 ${file.subTables.length} 个附表），请同步数据库` : '导入成功，请同步数据库');
    });
  };
  api.post('/online/cgform/api/importDefinition', { config: { auth: 'online:cgform:add' } }, (req) => importFile(req, req.body));
  // 导入 (the toolbar's file dialog): one .json file exported by 导出.
  api.post('/online/cgform/api/importDefinitionFile', { config: { auth: 'online:cgform:add' } }, async (req) => {
    if (!req.isMultipart()) throw new BizError('请使用 multipart/form-data 上传文件');
    let text: string | undefined;
    for await (const part of req.parts()) {
      if (part.type !== 'file') continue;
      if (text !== undefined) throw new BizError('一次只能导入一个定义文件');
      if (!/\.json$/i.test(part.filename || '')) throw new BizError(`文件“${part.filename}”不是 JSON 文件，只支持 .json`);
      const data = await part.toBuffer();
      if (data.length > 1024 * 1024) throw new BizError('定义文件不能超过1MB');
      text = data.toString('utf8');
    }
    if (text === undefined) throw new BizError('请选择要导入的文件');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new BizError('文件不是有效的 JSON，未导入任何内容');
    }
    return importFile(req, parsed);
  });
  api.post('/online/cgform/api/copy/:code', { config: { auth: 'online:cgform:add' } }, async (req) => {
    const { head, fields, indexes } = await loadForm(ctx, (req.params as { code: string }).code);
    const to = (req.body ?? {}) as { tableName?: unknown; tableTxt?: unknown };
    // a copied main table has none of the sub-tables (it is a single table); a copied sub-table belongs to the same main table
    const tableType = Number(head.tableType) === 2 ? 1 : head.tableType;
    return saveAll(req, 'add', { head: { ...definitionHead(head), tableType, tableName: str(to.tableName), tableTxt: str(to.tableTxt) || `${head.tableTxt}（复制）` }, fields: fields.map(definitionField), indexes: indexes.map(definitionIndex) }, `复制自 ${head.tableName}`);
  });

  api.get('/online/cgform/field/listByHeadId', { config: { auth: 'online:cgform:list' } }, async (req) => {
    const { fields } = await loadForm(ctx, str((req.query as Q).headId));
    return ok(fields);
  });

  api.post('/online/cgform/api/doDbSynch/:code/:synMethod', { config: { auth: 'online:cgform:sync' } }, async (req) => {
    const { code, synMethod } = req.params as { code: string; synMethod: string };
    if (synMethod !== 'normal') throw new BizError('只支持普通同步（不删除数据的增量同步）');
    const { head, entity, fields } = await loadForm(ctx, code);
    checkFormEntity(ctx, entity, head);
    const fk = fields.find((f) => str(f.mainTable));
    if (fk) {
      const main = await ctx.db.selectFrom('onl_cgform_head').select('is_db_synch').where('table_name', '=', str(fk.mainTable)).executeTakeFirst();
      if (main?.is_db_synch !== 'Y') throw new BizError(`请先同步主表“${str(fk.mainTable)}”`);
    }
    const plan = await syncPlan(ctx.db, entity);
    if (!plan.allowed) throw new BizError(plan.steps.filter((x) => x.startsWith('不能执行')).join('；'));
    await ctx.db.connection().execute(async (conn) => {
      await syncForm(conn, entity);
      await conn.updateTable('onl_cgform_head').set({ is_db_synch: 'Y' }).where('id', '=', head.id).execute();
    });
    await ensureFormMenu(ctx, req, head);
    return ok('同步数据库成功!', '同步数据库成功!');
  });

  /**
   * The generated screen's definition: list columns, form fields, the tree (parent and name fields) and,
   * for a main table, its sub-tables (columns of their rows, the foreign key). `preview=1` includes
   * sub-tables not yet synced (预览 before publishing).
   */
  api.get('/online/cgform/api/getColumns/:code', { config: { auth: 'online:cgform:list' } }, async (req) => {
    const { head, fields, entity } = await loadForm(ctx, (req.params as { code: string }).code);
    const preview = str((req.query as Q).preview) === '1';
    const shown = new Set(fields.filter((f) => Number(f.isShowList) === 1 && !str(f.mainTable)).map((f) => camel(str(f.dbFieldName))));
    const listFields = entity.fields.filter((f) => shown.has(f.name));
    const all = await allDictItems(ctx.db);
    const dictOptions: Record<string, DictModel[]> = {};
    for (const f of entity.fields) if (f.dict) dictOptions[f.name] = all[f.dict] ?? [];
    const subs = (await subFormsOf(ctx, head.tableName)).filter((s) => preview || s.head.isDbSynch === 'Y');
    const subTables = subs.map((s) => ({
      key: s.head.tableName,
      title: s.head.tableTxt || s.head.tableName,
      foreignKey: s.fk.name,
      listUrl: `/online/cgform/api/getData/${s.head.tableName}?column=subSortNo&order=asc`,
      columns: formFieldsOf(s.fields, s.entity).map((f) => ({ key: f.field, title: f.title ?? f.field, type: f.dictCode && !f.dictCode.includes(',') ? 'select' : (CELL_OF[f.view] ?? 'input'), ...(f.dictCode && !f.dictCode.includes(',') ? { dict: f.dictCode } : {}), ...(f.required ? { required: true } : {}) })),
    }));
    const tree = entity.tree ? { parentField: entity.tree.parentField, hasChildField: entity.tree.hasChildField, nameField: camel(str(head.treeFieldname)) || listFields[0]?.name } : undefined;
    return ok({
      columns: listFields.map(column), dictOptions, formTemplate: '1', description: head.tableTxt, currentTableName: head.tableName, currentTableId: head.id,
      paginationFlag: str(head.isPage) || 'Y', checkboxFlag: str(head.isCheckbox) || 'Y', scrollFlag: 1, isDesForm: 'N', desFormCode: '',
      cgButtonList: [], enhanceJs: '', hideColumns: [], fieldHrefSlots: [], isDbSynch: head.isDbSynch, formFields: formFieldsOf(fields, entity),
      tableType: Number(head.tableType) || 1, subTables, ...(tree ? { tree } : {}),
    });
  });

  api.get('/online/cgform/api/getQueryInfo/:code', { config: { auth: 'online:cgform:list' } }, async (req) => {
    const { fields, entity } = await loadForm(ctx, (req.params as { code: string }).code);
    const hidden = new Set([entity.tree?.parentField, ...fields.filter((f) => str(f.mainTable)).map((f) => camel(str(f.dbFieldName)))]);
    return ok(entity.fields.filter((f) => f.filterable && f.name !== 'sysOrgCode' && !hidden.has(f.name)).map((f) => {
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

  /**
   * A record and, for a main table, its sub-table rows (`body[<sub table name>]`: the full list of that
   * sub-table's rows; absent = unchanged) in one transaction: each row is validated by its own definition,
   * its foreign key set to the master's id; rows no longer listed are deleted. Any error saves nothing.
   */
  const saveRecord = async (req: FastifyRequest, code: string, mode: 'add' | 'edit') => {
    const { entity, head } = await ready(ctx, code);
    const body = (req.body ?? {}) as Row;
    if (typeof body !== 'object' || Array.isArray(body)) throw new BizError('请求内容格式不正确');
    const subs = await subFormsOf(ctx, head.tableName);
    return inTransaction(ctx.db, async (trx) => {
      const input = { ...body };
      if (entity.tree && mode === 'add' && !str(input[entity.tree.parentField])) input[entity.tree.parentField] = '0';
      const saved = await saveRow(hookContext(ctx, req, entity, trx), input, mode);
      for (const sub of subs) {
        const rows = body[sub.head.tableName];
        if (rows === undefined) continue;
        if (sub.head.isDbSynch !== 'Y') throw new BizError(`附表“${sub.head.tableTxt}”尚未同步数据库`);
        if (!Array.isArray(rows)) throw new BizError(`${sub.head.tableTxt}的内容应为列表`);
        if (rows.length > 1000) throw new BizError(`${sub.head.tableTxt}最多1000行`);
        const sh = hookContext(ctx, req, sub.entity, trx);
        const existing = new Set((await trx.selectFrom(sub.entity.table).select('id').where(sub.fk.column!, '=', str(saved.id)).execute()).map((r) => String(r.id)));
        const kept = new Set<string>();
        for (const [i, raw] of rows.entries()) {
          if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new BizError(`${sub.head.tableTxt}第${i + 1}行格式不正确`);
          const row = { ...(raw as Row), [sub.fk.name]: saved.id, subSortNo: i + 1 };
          const id = str(row.id);
          try {
            if (id && existing.has(id)) {
              kept.add(id);
              await saveRow(sh, row, 'edit');
            } else {
              delete row.id;
              await saveRow(sh, row, 'add');
            }
          } catch (err) {
            if (err instanceof BizError) throw new BizError(`${sub.head.tableTxt}第${i + 1}行：${err.message}`);
            throw err;
          }
        }
        const removed = [...existing].filter((x) => !kept.has(x));
        if (removed.length) await deleteRows(sh, removed);
      }
      return saved;
    });
  };
  // 预览's 新增 / 编辑: the record and its sub-table rows checked against the definitions, nothing written.
  const previewCheck = async (req: FastifyRequest) => {
    const { entity, head } = await loadForm(ctx, (req.params as { code: string }).code);
    const body = (req.body ?? {}) as Row;
    if (typeof body !== 'object' || Array.isArray(body)) throw new BizError('请求内容格式不正确');
    validateInput(entity, body, 'add');
    for (const sub of await subFormsOf(ctx, head.tableName)) {
      const rows = body[sub.head.tableName];
      if (!Array.isArray(rows)) continue;
      for (const [i, r] of rows.entries()) {
        try {
          validateInput(sub.entity, { ...(r as Row), [sub.fk.name]: 'preview' }, 'add');
        } catch (err) {
          if (err instanceof BizError) throw new BizError(`${sub.head.tableTxt}第${i + 1}行：${err.message}`);
          throw err;
        }
      }
    }
    return ok(null, '预览：数据有效，未保存');
  };
  api.post('/online/cgform/api/previewCheck/:code', { config: { auth: 'online:cgform:add' } }, previewCheck);
  api.put('/online/cgform/api/previewCheck/:code', { config: { auth: 'online:cgform:add' } }, previewCheck);
  api.post('/online/cgform/api/form/:code', { config: { auth: 'online:cgform:add' } }, async (req) => {
    const saved = await saveRecord(req, (req.params as { code: string }).code, 'add');
    return ok(saved.id, '添加成功！');
  });
  api.put('/online/cgform/api/form/:code', { config: { auth: 'online:cgform:edit' } }, async (req) => {
    await saveRecord(req, (req.params as { code: string }).code, 'edit');
    return ok('编辑成功!', '编辑成功!');
  });
  api.get('/online/cgform/api/form/:code/:id', { config: { auth: 'online:cgform:list' } }, async (req) => {
    const { code, id } = req.params as { code: string; id: string };
    const { entity, head } = await ready(ctx, code);
    const row = await getRow(hookContext(ctx, req, entity), id);
    if (!row) throw new BizError('未找到对应数据');
    // a main table's record carries its sub-table rows
    for (const sub of await subFormsOf(ctx, head.tableName)) {
      if (sub.head.isDbSynch !== 'Y') continue;
      row[sub.head.tableName] = (await listRows(hookContext(ctx, req, sub.entity), { [sub.fk.name]: id, pageSize: '1000', column: 'subSortNo', order: 'asc' } as Query)).records;
    }
    return ok(row);
  });
  // Deleting a master record deletes its sub-table rows with it.
  api.delete('/online/cgform/api/form/:code/:ids', { config: { auth: 'online:cgform:delete' } }, async (req) => {
    const { code, ids } = req.params as { code: string; ids: string };
    const { entity, head } = await ready(ctx, code);
    const subs = await subFormsOf(ctx, head.tableName);
    const list = ids.split(',');
    await inTransaction(ctx.db, async (trx) => {
      for (const sub of subs) {
        if (sub.head.isDbSynch !== 'Y') continue;
        const rows = await trx.selectFrom(sub.entity.table).select('id').where(sub.fk.column!, 'in', list.slice(0, 1000)).execute();
        if (rows.length) await deleteRows(hookContext(ctx, req, sub.entity, trx), rows.map((r) => String(r.id)));
      }
      await deleteRows(hookContext(ctx, req, entity, trx), list);
    });
    return ok('删除成功!', '删除成功!');
  });
}
