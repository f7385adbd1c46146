import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import { toWire } from '../crud/engine.js';
import { columnOf, primaryField, type EntitySchema } from '../crud/entity-types.js';
import { defineEntityHooks, type Row } from '../crud/hooks.js';
import { BizError, ok } from '../http/envelope.js';
import { newId, now } from '../util.js';

/**
 * 数据日志: every edit (through the CRUD engine's saveRow) that changes a record of an opted-in
 * entity writes a version row (table, data id, version, JSON content, who, when). The first logged
 * edit also records the state before it as version 1, so there is always something to compare.
 * Secret fields never leave toWire, and keys that look like secrets are dropped as well.
 */
export const DATA_LOG_ENTITIES = [
  'sys_user', 'sup_lecture_record', 'sys_depart', 'sys_role', 'sys_position', 'sys_check_rule', 'sys_fill_rule',
  'sys_data_source', 'sys_gateway_route', 'sys_quartz_job', 'imp_task',
];
/** Bookkeeping fields: a save that only touches these is not a change. */
const IGNORED = new Set(['updateBy', 'updateTime']);
const SECRET_KEY = /pass(word)?|pwd|secret|salt|token/i;

async function snapshot(db: DB, e: EntitySchema, id: unknown): Promise<Row | undefined> {
  const r = await db.selectFrom(e.table).selectAll().where(sql.ref(columnOf(primaryField(e))), '=', id).executeTakeFirst();
  if (!r) return undefined;
  return Object.fromEntries(Object.entries(toWire(e, r)).filter(([k]) => !SECRET_KEY.test(k)));
}

const essence = (r: Row) => JSON.stringify(Object.entries(r).filter(([k]) => !IGNORED.has(k)).sort(([a], [b]) => (a < b ? -1 : 1)));

export async function registerDataLog(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  const before = new WeakMap<Row, Row>();
  for (const name of DATA_LOG_ENTITIES) {
    if (!ctx.entities.byName.has(name)) continue;
    defineEntityHooks(
      name,
      {
        async beforeSave(h, row, mode, old) {
          if (mode !== 'edit' || !old) return;
          const snap = await snapshot(h.db, h.entity, old[primaryField(h.entity).name]);
          if (snap) before.set(row, snap);
        },
        async afterSave(h, row, mode) {
          const old = before.get(row);
          if (mode !== 'edit' || !old) return;
          const e = h.entity;
          const id = String(row[primaryField(e).name]);
          const fresh = await snapshot(h.db, e, row[primaryField(e).name]);
          if (!fresh || essence(fresh) === essence(old)) return;
          const last = await h.db
            .selectFrom('sys_data_log')
            .select((eb) => eb.fn.max('data_version').as('v'))
            .where('data_table', '=', e.table)
            .where('data_id', '=', id)
            .executeTakeFirst();
          const version = Number(last?.v ?? 0);
          const rows: Row[] = [];
          const base = { data_table: e.table, table_title: e.title ?? e.table, data_id: id };
          if (!version)
            rows.push({ ...base, id: newId(), data_version: 1, data_content: JSON.stringify(old), create_by: String(old.updateBy ?? old.createBy ?? ''), create_time: String(old.updateTime ?? old.createTime ?? now()) });
          rows.push({ ...base, id: newId(), data_version: Math.max(version, 1) + 1, data_content: JSON.stringify(fresh), create_by: h.user.username, create_time: now() });
          await h.db.insertInto('sys_data_log').values(rows).execute();
        },
      },
      'data-log',
    );
  }

  /** Two versions side by side: every field of the record's entity, with the changed ones flagged. */
  api.get('/sys/dataLog/compare', { config: { auth: 'system:dataLog:list' } }, async (req) => {
    const q = req.query as Record<string, unknown>;
    const ids = [q.id1, q.id2].map((v) => (typeof v === 'string' ? v : ''));
    if (!ids[0] || !ids[1]) throw new BizError('请选择两个版本进行比较');
    const found = await ctx.db.selectFrom('sys_data_log').selectAll().where('id', 'in', ids).execute();
    const [a, b] = ids.map((id) => found.find((r) => r.id === id));
    if (!a || !b) throw new BizError('未找到对应数据');
    const parse = (r: Record<string, unknown>): Row => {
      try {
        const v = JSON.parse(String(r.data_content ?? '{}'));
        return v && typeof v === 'object' ? (v as Row) : {};
      } catch {
        return {};
      }
    };
    const left = parse(a);
    const right = parse(b);
    const e = ctx.entities.byTable.get(String(a.data_table));
    const titles = new Map<string, string>((e ? [...e.fields, { name: 'createBy', title: '创建人' }, { name: 'createTime', title: '创建时间' }, { name: 'updateBy', title: '更新人' }, { name: 'updateTime', title: '更新时间' }] : []).map((f) => [f.name, f.title ?? f.name]));
    const names = [...new Set([...titles.keys(), ...Object.keys(left), ...Object.keys(right)])].filter((k) => k in left || k in right).filter((k) => !SECRET_KEY.test(k));
    const text = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
    const head = (r: Record<string, unknown>) => ({ id: r.id, dataTable: r.data_table, dataId: r.data_id, dataVersion: r.data_version, createBy: r.create_by, createTime: r.create_time });
    return ok({
      left: head(a),
      right: head(b),
      fields: names.map((name) => ({ name, title: titles.get(name) ?? name, left: text(left[name]), right: text(right[name]), changed: text(left[name]) !== text(right[name]) })),
    });
  });
}
