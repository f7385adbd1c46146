/**
 * The entity schema (`schemas/entities/**.json`): one table, its fields and how the generic CRUD
 * engine serves it. The JSON meta-schema is `schemas/meta/entity.schema.json`; keep both in step.
 */
export type FieldType =
  | 'string' // varchar(length)
  | 'text'
  | 'integer'
  | 'bigint'
  | 'number' // numeric(precision, scale)
  | 'boolean'
  | 'date' // 'YYYY-MM-DD'
  | 'datetime' // 'YYYY-MM-DD HH:mm:ss'
  | 'time'
  | 'json';

export interface EntityField {
  /** Property name on the wire (camelCase). */
  name: string;
  /** Column name; defaults to snake_case of `name`. */
  column?: string;
  type: FieldType;
  title?: string;
  length?: number;
  precision?: number;
  scale?: number;
  primary?: boolean;
  required?: boolean;
  unique?: boolean;
  default?: string | number | boolean | null;
  /** System dictionary code (sys_dict.dict_code): adds `<name>_dictText` to list rows. */
  dict?: string;
  /** Table dictionary source declared here, the only ones `getDictItems` serves for tables. */
  dictTable?: { table: string; text: string; code: string };
  /** Validation pattern preset or regular expression (SPEC §5) with its message. */
  pattern?: string;
  patternMessage?: string;
  min?: number;
  max?: number;
  sortable?: boolean;
  filterable?: boolean;
  /** Column title in Excel export/import; omit to leave the field out of Excel. */
  excel?: string;
  /** Never returned to clients (e.g. password hashes). */
  secret?: boolean;
  /** Clients cannot set it through add/edit (server-managed). */
  readonly?: boolean;
}

export interface EntityIndex {
  fields: string[];
  unique?: boolean;
  /** Fields stored descending (DESC NULLS LAST, the order of the engine's descending sort), so a list sorted by them reads the index in order. */
  desc?: string[];
}

export interface EntitySchema {
  /** Unique entity id, e.g. "sys_user". */
  name: string;
  table: string;
  title: string;
  /** Resource path of the generic CRUD endpoints (e.g. "/sys/position"); omit for no generic routes. */
  resource?: string;
  /** Permission code prefix; the engine requires `<prefix>:list`, `:add`, `:edit`, `:delete`, ... */
  permission?: string;
  /** Which generic operations are mounted (default: all). */
  operations?: Array<'list' | 'add' | 'edit' | 'delete' | 'deleteBatch' | 'queryById' | 'exportXls' | 'importExcel'>;
  fields: EntityField[];
  indexes?: EntityIndex[];
  tree?: { parentField: string; hasChildField?: string };
  /** Adds createBy, createTime, updateBy, updateTime (default true). */
  audit?: boolean;
  /** Row scoping applied on the server to list, get, export, edit and delete. */
  scope?: {
    /** Field holding the tenant id; rows are limited to the session's tenant. */
    tenant?: string;
    /** Field holding the department orgCode (hierarchical prefix) used by data rules. */
    department?: string;
    /**
     * Who may write rows (engine.ts assertWriteScope): `university` = only university roles (scope
     * `all`); `departField` = the field holding the owning department id (sys_depart.id), writable by
     * department roles within their subtree; `via` = a reference field whose row (`table`.`column`) holds it.
     */
    write?: 'university' | { departField: string } | { via: string; table: string; column: string };
  };
  /** Default sort when the client sends none. */
  defaultSort?: { field: string; order: 'asc' | 'desc' };
  /** Many-to-one relations: the only joins 报表配置's query builder makes (server/online/report-builder.ts). */
  relations?: EntityRelation[];
}

export interface EntityRelation {
  /** Alias of the join (also the prefix of its fields in a report: `teacherDepart.departName`). */
  name: string;
  title: string;
  /** Field of this entity holding the reference. */
  field: string;
  entity: string;
  /** Field of the target matched (default: its primary key). */
  key?: string;
  /** Target fields a report may use (required for sys_ targets and targets without a permission prefix). */
  fields?: string[];
}

export const snake = (s: string) => s.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
const columns = new WeakMap<EntityField, string>();
/** The database column of a field (memoised: it is asked for every field of every row). */
export function columnOf(f: EntityField): string {
  let c = columns.get(f);
  if (c === undefined) columns.set(f, (c = f.column ?? snake(f.name)));
  return c;
}

export const AUDIT_FIELDS: EntityField[] = [
  { name: 'createBy', type: 'string', length: 50, title: '创建人', readonly: true },
  { name: 'createTime', type: 'datetime', title: '创建时间', sortable: true, filterable: true, readonly: true },
  { name: 'updateBy', type: 'string', length: 50, title: '更新人', readonly: true },
  { name: 'updateTime', type: 'datetime', title: '更新时间', sortable: true, readonly: true },
];

const withAudit = new WeakMap<EntitySchema, EntityField[]>();
/** The entity's fields plus the audit fields it does not declare itself (memoised; do not mutate). */
export function allFields(e: EntitySchema): EntityField[] {
  if (e.audit === false) return e.fields;
  let all = withAudit.get(e);
  if (!all) {
    const own = new Set(e.fields.map((f) => f.name));
    withAudit.set(e, (all = [...e.fields, ...AUDIT_FIELDS.filter((f) => !own.has(f.name))]));
  }
  return all;
}

export function primaryField(e: EntitySchema): EntityField {
  return e.fields.find((f) => f.primary) ?? { name: 'id', type: 'string', length: 32, primary: true };
}
