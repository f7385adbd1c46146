import dayjs from 'dayjs';
import type { DB } from '../db/index.js';
import { defineEntityHooks, type Row } from '../crud/hooks.js';
import { treeHooks } from '../crud/tree-hooks.js';
import { BizError } from '../http/envelope.js';
import { entityFileOwner, registerFileOwner } from '../sys/file-access.js';

/**
 * 审核评估 (undergraduate teaching audit assessment, reference/domain.md §4): the index tree (一级指标 →
 * 二级指标 → 审核重点, numbered 2 → 2.4 → 2.4.1), the audit items with their evidence and self-check,
 * and the workgroups. An item whose self-check found a problem raises an improvement task
 * (`improvementFromAuditItem`, source AUDIT).
 */
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const ROOT = '0';
const LEVEL_TEXT = ['', '一级指标', '二级指标', '审核重点'];

interface IndexRow {
  id: string;
  parent_id: string | null;
  level: number;
  code: string;
  name: string;
  scheme_type: string;
}

const indexById = (db: DB, id: string) =>
  db.selectFrom('audit_index').select(['id', 'parent_id', 'level', 'code', 'name', 'scheme_type']).where('id', '=', id).executeTakeFirst() as Promise<IndexRow | undefined>;

export function registerAuditHooks() {
  // Evidence files of an audit item are readable by who reads the audit items.
  registerFileOwner(entityFileOwner('audit-evidence', 'audit_item', ['attachments']));
  defineEntityHooks('audit_index', treeHooks('该指标下还有下级指标，请先删除下级指标'), 'tree');
  defineEntityHooks('audit_index', {
    async beforeSave(h, row, mode, old) {
      const pid = str(mode === 'edit' ? old!.parentId : row.parentId) || ROOT;
      if (mode === 'edit' && row.parentId !== undefined && (str(row.parentId) || ROOT) !== pid) throw new BizError('不能修改上级指标，请删除后在新的上级下添加');
      const parent = pid === ROOT ? undefined : await indexById(h.db, pid);
      if (pid !== ROOT && !parent) throw new BizError('上级指标不存在');
      const level = parent ? Number(parent.level) + 1 : 1;
      if (level > 3) throw new BizError('审核重点下不能再添加下级指标');
      const merged = { ...(old ?? {}), ...row };
      const code = str(merged.code).trim();
      if (code.split('.').length !== level) throw new BizError(`${LEVEL_TEXT[level]}的编号应为${level}段，例如 ${['', '2', '2.4', '2.4.1'][level]}`);
      if (parent && !code.startsWith(`${parent.code}.`)) throw new BizError(`编号应以上级编号“${parent.code}.”开头`);
      const scheme = parent ? parent.scheme_type : str(merged.schemeType);
      if (mode === 'edit' && str(old!.hasChild) === '1') {
        if (code !== str(old!.code)) throw new BizError('该指标下还有下级指标，不能修改编号');
        if (scheme !== str(old!.schemeType)) throw new BizError('该指标下还有下级指标，不能修改评估类型');
      }
      const same = await h.db.selectFrom('audit_index').select('id').where('scheme_type', '=', scheme).where('code', '=', code).where('id', '!=', str(merged.id)).executeTakeFirst();
      if (same) throw new BizError(`编号“${code}”已存在`);
      Object.assign(row, { parentId: pid, level, code, schemeType: scheme });
      if (mode === 'add' && !Number(row.sortNo)) {
        // A new index goes after its siblings.
        const last = await h.db.selectFrom('audit_index').select((eb) => eb.fn.max('sort_no').as('m')).where('parent_id', '=', pid).executeTakeFirst();
        row.sortNo = Number(last?.m ?? -1) + 1;
      }
    },
    async afterSave(h, row, mode) {
      // The items listed under an index show its number.
      if (mode === 'edit') await h.db.updateTable('audit_item').set({ index_code: str(row.code) }).where('index_id', '=', str(row.id)).execute();
    },
    async beforeDelete(h, rows) {
      const used = await h.db.selectFrom('audit_item').select('id').where('index_id', 'in', rows.map((r) => str(r.id))).executeTakeFirst();
      if (used) throw new BizError('该指标下还有审核要点，请先删除审核要点');
    },
  }, 'audit');
  defineEntityHooks('audit_item', {
    async beforeSave(h, row, mode, old) {
      const merged = { ...(old ?? {}), ...row };
      const index = await indexById(h.db, str(merged.indexId));
      if (!index) throw new BizError('审核指标不存在');
      if (Number(index.level) < 2) throw new BizError('审核要点应挂在二级指标或审核重点下，请选择下级指标');
      row.indexCode = index.code;
      if (str(merged.status) === 'PROBLEM' && !str(merged.problem).trim()) throw new BizError('状态为“存在问题”时请填写存在问题');
    },
  });
  defineEntityHooks('audit_workgroup', {
    beforeDelete: async (h, rows) => {
      const used = await h.db.selectFrom('audit_item').select('id').where('workgroup_id', 'in', rows.map((r) => str(r.id))).executeTakeFirst();
      if (used) throw new BizError('还有审核要点由该工作组负责，请先调整审核要点');
    },
  });
}

/** The values of an improvement task raised from an audit item whose self-check found a problem. */
export async function improvementFromAuditItem(item: Row, db: DB): Promise<Row> {
  if (str(item.status) !== 'PROBLEM' || !str(item.problem).trim()) throw new BizError('该审核要点没有记录存在的问题，无需整改');
  const index = await indexById(db, str(item.indexId));
  return {
    title: `审核评估 ${str(item.indexCode)}${index ? ` ${index.name}` : ''} 问题整改`.slice(0, 200),
    source: 'AUDIT', sourceId: item.id, category: 'OTHER', severity: 'NORMAL',
    description: str(item.problem), requirement: str(item.evidenceHint) ? `整改后补充佐证材料：${str(item.evidenceHint)}` : '',
    respPersonId: null, respDepartId: item.respDepartId ?? null, deadline: dayjs().add(30, 'day').format('YYYY-MM-DD'),
  };
}
