import type { ServerContext } from '../context.js';
import { seedDicts, type DictSeed } from './dicts-base.js';

/**
 * Dictionaries the stock JeecgBoot 3.4 screens name (user form, menu form, data rules, online forms),
 * with JeecgBoot's items, so a stock client's selects are filled (issue 33). Inserted only where missing.
 */
export const JEECG_DICTS: DictSeed[] = [
  { code: 'activiti_sync', name: '同步工作流引擎', items: [['1', '同步'], ['0', '不同步']] },
  { code: 'global_perms_type', name: '全局权限策略', items: [['1', '可见/可访问(授权后可见/可访问)'], ['2', '可编辑(未授权时禁用)']] },
  { code: 'valid_status', name: '有效无效状态', items: [['1', '有效'], ['0', '无效']] },
  {
    code: 'rule_conditions', name: '条件规则',
    items: [
      ['>', '大于'], ['<', '小于'], ['!=', '不等于'], ['=', '等于'], ['>=', '大于等于'], ['<=', '小于等于'],
      ['LEFT_LIKE', '左模糊'], ['RIGHT_LIKE', '右模糊'], ['LIKE', '模糊'], ['IN', '包含'], ['USE_SQL_RULES', '自定义SQL表达式'],
    ],
  },
  { code: 'cgform_table_type', name: 'Online表单类型', items: [['1', '单表'], ['2', '主表'], ['3', '附表']] },
  { code: 'ol_form_biz_type', name: 'Online表单业务分类', items: [['demo', '官方示例'], ['bpm', '流程表单'], ['temp', '测试表单'], ['bdfl_include', '导入表单']] },
];

export const seedJeecgDicts = (ctx: ServerContext) => seedDicts(ctx, JEECG_DICTS);
