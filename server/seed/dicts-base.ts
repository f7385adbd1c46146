import type { ServerContext } from '../context.js';
import { now } from '../util.js';
import { sha256 } from '../util.js';

export type Items = Array<[value: string, text: string, color?: string]>;
export interface DictSeed {
  code: string;
  name: string;
  items: Items;
}

/** Dictionaries the user, department, menu and tenant screens need. Inserted only where missing. */
export const BASE_DICTS: DictSeed[] = [
  { code: 'sex', name: '性别', items: [['1', '男'], ['2', '女']] },
  { code: 'user_status', name: '用户状态', items: [['1', '正常', 'green'], ['2', '冻结', 'red']] },
  { code: 'user_identity', name: '用户身份', items: [['1', '普通用户'], ['2', '上级']] },
  { code: 'menu_type', name: '菜单类型', items: [['0', '一级菜单'], ['1', '子菜单'], ['2', '按钮权限']] },
  { code: 'org_category', name: '机构类别', items: [['1', '学校'], ['2', '部门'], ['3', '岗位']] },
  { code: 'depart_type', name: '部门类型', items: [['1', '教学单位'], ['2', '职能部门'], ['3', '教辅单位']] },
  { code: 'tenant_status', name: '租户状态', items: [['1', '正常', 'green'], ['0', '冻结', 'red']] },
  { code: 'dict_item_status', name: '字典项状态', items: [['1', '启用'], ['0', '不启用']] },
  {
    code: 'listener_category', name: '听课人类别',
    items: [['school_leader', '校领导'], ['college_leader', '院领导'], ['supervisor', '督导'], ['section_head', '教研室主任'], ['teacher', '教师'], ['new_teacher', '新教师']],
  },
  { code: 'teacher_title', name: '职称', items: [['professor', '教授'], ['assoc_professor', '副教授'], ['lecturer', '讲师'], ['assistant', '助教']] },
];

export const dictId = (code: string) => sha256(`dict|${code}`).slice(0, 32);

export const seedBaseDicts = (ctx: ServerContext) => seedDicts(ctx, BASE_DICTS);

/** Inserts the given dictionaries and items where missing (by code and item value); never changes existing ones. */
export async function seedDicts(ctx: ServerContext, dicts: DictSeed[]): Promise<void> {
  const ts = now();
  const existing = await ctx.db.selectFrom('sys_dict').select(['id', 'dict_code']).where('dict_code', 'in', dicts.map((d) => d.code)).execute();
  const idOf = new Map(existing.map((r) => [r.dict_code as string, r.id as string]));
  const missing = dicts.filter((d) => !idOf.has(d.code));
  if (missing.length) {
    await ctx.db
      .insertInto('sys_dict')
      .values(missing.map((d) => ({ id: dictId(d.code), dict_name: d.name, dict_code: d.code, del_flag: 0, type: 0, tenant_id: 0, create_by: 'system', create_time: ts })))
      .execute();
    for (const d of missing) idOf.set(d.code, dictId(d.code));
  }
  const items = dicts.flatMap((d) =>
    d.items.map(([value, text, color], i) => ({
      id: sha256(`dictItem|${d.code}|${value}`).slice(0, 32),
      dict_id: idOf.get(d.code)!,
      item_value: value,
      item_text: text,
      item_color: color ?? null,
      sort_order: i + 1,
      status: 1,
      create_by: 'system',
      create_time: ts,
    })),
  );
  await ctx.db.insertInto('sys_dict_item').values(items).onConflict((oc) => oc.columns(['dict_id', 'item_value']).doNothing()).execute();
}
