import Ajv2020 from 'ajv/dist/2020.js';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { allFields, type EntitySchema } from './entity-types.js';

/** The schemas folder; SCHEMAS_DIR in the environment points elsewhere (e.g. a config author's scratch copy). */
export const SCHEMAS_DIR = resolve(process.env.SCHEMAS_DIR || resolve(import.meta.dirname, '../../schemas'));

export interface SchemaProblem {
  file: string;
  path: string;
  reason: string;
}

export interface EntityRegistry {
  byName: Map<string, EntitySchema>;
  byTable: Map<string, EntitySchema>;
  problems: SchemaProblem[];
  get(name: string): EntitySchema;
}

export function listJson(dir: string): string[] {
  let out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return out;
  }
  for (const n of names) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out = out.concat(listJson(p));
    else if (n.endsWith('.json')) out.push(p);
  }
  return out;
}

let ajv: InstanceType<typeof Ajv2020> | undefined;
/** One ajv instance with every meta-schema of `schemas/meta/` registered by file name. */
export function metaAjv() {
  if (ajv) return ajv;
  ajv = new Ajv2020({ allErrors: true, strict: false });
  const meta = join(SCHEMAS_DIR, 'meta');
  const parts = { kinds: metaParts(join(meta, 'kinds')), actions: metaParts(join(meta, 'actions')) };
  for (const f of listJson(meta)) {
    if (/[\\/](kinds|actions)[\\/][^\\/]+\.json$/.test(f)) continue;
    const doc = JSON.parse(readFileSync(f, 'utf8'));
    ajv.addSchema(doc.$id === 'page.schema.json' ? composePageSchema(doc, parts) : doc);
  }
  for (const [dir, list] of Object.entries(parts)) for (const [name, part] of list) ajv.addSchema({ ...part, $id: `${dir}/${name}.json` });
  return ajv;
}

/** The meta-schema parts of one folder (schemas/meta/kinds or actions): file name → JSON schema. */
export function metaParts(dir: string): Array<[string, Record<string, unknown>]> {
  return listJson(dir).map((f) => [basename(f, '.json'), JSON.parse(readFileSync(f, 'utf8')) as Record<string, unknown>]);
}

/**
 * The page meta-schema with its registered parts: each page kind (schemas/meta/kinds/<kind>.json) and
 * action type (schemas/meta/actions/<type>.json) adds the properties it understands, applied by `kind` /
 * `type`; `kind` and `type` accept exactly the registered names. Properties no part and no common
 * definition names are refused (unevaluatedProperties).
 */
function composePageSchema(doc: Record<string, any>, parts: { kinds: Array<[string, unknown]>; actions: Array<[string, unknown]> }) {
  const when = (field: string, dir: string, list: Array<[string, unknown]>) =>
    list.map(([name]) => ({ if: { properties: { [field]: { const: name } }, required: [field] }, then: { $ref: `${dir}/${name}.json` } }));
  const out = structuredClone(doc);
  out.properties.kind = { enum: parts.kinds.map(([n]) => n) };
  out.allOf = [...(out.allOf ?? []), ...when('kind', 'kinds', parts.kinds)];
  delete out.additionalProperties;
  out.unevaluatedProperties = false;
  const action = out.$defs.action;
  action.properties.type = { enum: parts.actions.map(([n]) => n) };
  action.allOf = [...(action.allOf ?? []), ...when('type', 'actions', parts.actions)];
  delete action.additionalProperties;
  action.unevaluatedProperties = false;
  return out;
}

/** Validates one JSON document against a meta-schema; returns problems with file and JSON path. */
export function checkAgainst(metaId: string, doc: unknown, file: string): SchemaProblem[] {
  const validate = metaAjv().getSchema(metaId);
  if (!validate) throw new Error(`meta-schema ${metaId} not found`);
  if (validate(doc)) return [];
  return (validate.errors ?? []).map((e) => ({ file, path: e.instancePath || '/', reason: reasonZh(e) }));
}

const TYPE_ZH: Record<string, string> = { string: '文本', number: '数字', integer: '整数', boolean: '布尔值（true/false）', object: '对象', array: '数组', null: 'null' };

/**
 * One meta-schema problem in Chinese: config authors read these in the page designer and in the
 * start-up report, so they name the expected type, property or value rather than ajv's English.
 */
export function reasonZh(e: { keyword: string; params?: Record<string, any>; message?: string }): string {
  const p = e.params ?? {};
  switch (e.keyword) {
    case 'type': return `应为${String(p.type).split(',').map((t) => TYPE_ZH[t] ?? t).join('或')}`;
    case 'required': return `缺少必填属性“${String(p.missingProperty)}”`;
    case 'enum': return `应为以下值之一：${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join('、')}`;
    case 'const': return `应为 ${JSON.stringify(p.allowedValue)}`;
    case 'additionalProperties': return `不支持的属性“${String(p.additionalProperty)}”`;
    case 'unevaluatedProperties': return `不支持的属性“${String(p.unevaluatedProperty)}”`;
    case 'minLength': return `长度不能少于 ${p.limit} 个字符`;
    case 'maxLength': return `长度不能超过 ${p.limit} 个字符`;
    case 'minItems': return `至少需要 ${p.limit} 项`;
    case 'maxItems': return `最多 ${p.limit} 项`;
    case 'minimum': case 'exclusiveMinimum': return `应${e.keyword === 'minimum' ? '不小于' : '大于'} ${p.limit}`;
    case 'maximum': case 'exclusiveMaximum': return `应${e.keyword === 'maximum' ? '不大于' : '小于'} ${p.limit}`;
    case 'pattern': return `格式不符合 ${String(p.pattern)}`;
    case 'format': return `格式应为 ${String(p.format)}`;
    case 'uniqueItems': return `第 ${p.j} 项与第 ${p.i} 项重复`;
    case 'oneOf': case 'anyOf': return '不符合任何一种允许的写法';
    case 'not': return '不允许这种写法';
    case 'if': return `不满足“${String(p.failingKeyword)}”分支的要求`;
    default: return e.message ?? '无效';
  }
}

/** Cross-field checks the JSON meta-schema cannot express. */
function semanticProblems(e: EntitySchema, file: string): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const names = new Set<string>();
  e.fields.forEach((f, i) => {
    if (names.has(f.name)) out.push({ file, path: `/fields/${i}/name`, reason: `duplicate field "${f.name}"` });
    names.add(f.name);
    if (f.type === 'string' && !f.length) out.push({ file, path: `/fields/${i}/length`, reason: 'a string field needs a length' });
  });
  const has = (n: string) => names.has(n) || ['createBy', 'createTime', 'updateBy', 'updateTime'].includes(n);
  (e.indexes ?? []).forEach((ix, i) =>
    ix.fields.forEach((n, j) => {
      if (!has(n)) out.push({ file, path: `/indexes/${i}/fields/${j}`, reason: `unknown field "${n}"` });
    }),
  );
  (e.indexes ?? []).forEach((ix, i) =>
    (ix.desc ?? []).forEach((n, j) => {
      if (!ix.fields.includes(n)) out.push({ file, path: `/indexes/${i}/desc/${j}`, reason: `"${n}" is not one of the index's fields` });
    }),
  );
  if (e.tree && !has(e.tree.parentField)) out.push({ file, path: '/tree/parentField', reason: `unknown field "${e.tree.parentField}"` });
  if (e.tree?.hasChildField && !has(e.tree.hasChildField)) out.push({ file, path: '/tree/hasChildField', reason: `unknown field "${e.tree.hasChildField}"` });
  if (e.scope?.tenant && !has(e.scope.tenant)) out.push({ file, path: '/scope/tenant', reason: `unknown field "${e.scope.tenant}"` });
  if (e.scope?.department && !has(e.scope.department)) out.push({ file, path: '/scope/department', reason: `unknown field "${e.scope.department}"` });
  if (e.defaultSort && !has(e.defaultSort.field)) out.push({ file, path: '/defaultSort/field', reason: `unknown field "${e.defaultSort.field}"` });
  if (e.resource && !e.permission) out.push({ file, path: '/permission', reason: 'an entity with a resource needs a permission prefix' });
  return out;
}

/**
 * Loads every entity schema. A bad file is reported (file, JSON path, reason) and left out;
 * the rest of the product works on.
 */
export function loadEntities(dir = join(SCHEMAS_DIR, 'entities')): EntityRegistry {
  const byName = new Map<string, EntitySchema>();
  const byTable = new Map<string, EntitySchema>();
  const problems: SchemaProblem[] = [];
  for (const abs of listJson(dir)) {
    const file = relative(SCHEMAS_DIR, abs);
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(abs, 'utf8'));
    } catch (err) {
      problems.push({ file, path: '/', reason: `invalid JSON: ${(err as Error).message}` });
      continue;
    }
    const found = checkAgainst('entity.schema.json', doc, file);
    const e = doc as EntitySchema;
    if (!found.length) found.push(...semanticProblems(e, file));
    if (!found.length && byName.has(e.name)) found.push({ file, path: '/name', reason: `entity "${e.name}" is defined twice` });
    if (!found.length && byTable.has(e.table)) found.push({ file, path: '/table', reason: `table "${e.table}" is defined twice` });
    if (found.length) {
      problems.push(...found);
      continue;
    }
    byName.set(e.name, e);
    byTable.set(e.table, e);
  }
  problems.push(...relationProblems(byName));
  return {
    byName,
    byTable,
    problems,
    get(name) {
      const e = byName.get(name);
      if (!e) throw new Error(`unknown entity ${name}`);
      return e;
    },
  };
}

/** Declared relations must name existing fields and entities; a sys_ target (or one without a permission prefix) must list its usable fields. */
function relationProblems(byName: Map<string, EntitySchema>): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const has = (e: EntitySchema, f: string) => allFields(e).some((x) => x.name === f);
  for (const e of byName.values())
    (e.relations ?? []).forEach((r, i) => {
      const file = `entities/${e.name}`;
      const t = byName.get(r.entity);
      if (!has(e, r.field)) out.push({ file, path: `/relations/${i}/field`, reason: `unknown field "${r.field}"` });
      if (!t) out.push({ file, path: `/relations/${i}/entity`, reason: `unknown entity "${r.entity}"` });
      else {
        if (r.key && !has(t, r.key)) out.push({ file, path: `/relations/${i}/key`, reason: `entity "${t.name}" has no field "${r.key}"` });
        for (const f of r.fields ?? []) if (!has(t, f)) out.push({ file, path: `/relations/${i}/fields`, reason: `entity "${t.name}" has no field "${f}"` });
        if ((t.name.startsWith('sys_') || !t.permission) && !r.fields?.length) out.push({ file, path: `/relations/${i}/fields`, reason: `a relation to "${t.name}" must list its fields` });
      }
      if ((e.relations ?? []).findIndex((x) => x.name === r.name) !== i) out.push({ file, path: `/relations/${i}/name`, reason: `relation "${r.name}" is declared twice` });
    });
  return out;
}
