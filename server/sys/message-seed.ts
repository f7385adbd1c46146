import type { SeedStep } from '../seed/index.js';
import { dictId } from '../seed/dicts-base.js';
import { newId, now, sha256 } from '../util.js';

/** Dictionaries of the system services (announcements, logs, jobs, messages). */
const DICTS: Array<{ code: string; name: string; items: Array<[string, string, string?]> }> = [
  { code: 'priority', name: '优先级', items: [['L', '一般', 'blue'], ['M', '重要', 'orange'], ['H', '紧急', 'red']] },
  { code: 'msg_category', name: '消息类型', items: [['1', '通知公告'], ['2', '系统消息']] },
  { code: 'msg_type', name: '通告对象类型', items: [['ALL', '全体用户'], ['USER', '指定用户']] },
  { code: 'send_status', name: '发布状态', items: [['0', '未发布'], ['1', '已发布', 'green'], ['2', '已撤销', 'red']] },
  { code: 'read_flag', name: '阅读状态', items: [['0', '未读', 'red'], ['1', '已读']] },
  { code: 'log_type', name: '日志类型', items: [['1', '登录日志'], ['2', '操作日志']] },
  { code: 'operate_type', name: '操作类型', items: [['1', '查询'], ['2', '添加'], ['3', '编辑'], ['4', '删除'], ['5', '导入'], ['6', '导出']] },
  { code: 'quartz_status', name: '任务状态', items: [['0', '正常', 'green'], ['-1', '停止', 'red']] },
  { code: 'msgType', name: '消息发送方式', items: [['1', '短信'], ['2', '邮件'], ['3', '微信'], ['4', '系统']] },
  { code: 'msgSendStatus', name: '推送状态', items: [['0', '未发送'], ['1', '发送成功', 'green'], ['2', '发送失败', 'red']] },
];

const JOBS: Array<{ name: string; cron: string; status: number; description: string; parameter?: string }> = [
  { name: 'cleanExpiredSessions', cron: '0 0 3 * * ?', status: 0, description: '每天3点清理过期和已注销的会话' },
  { name: 'cleanJobRuns', cron: '0 30 3 * * ?', status: 0, description: '每天3点30分清理90天前的任务执行记录', parameter: '90' },
  { name: 'overdueImprovementReminder', cron: '0 0 8 * * ?', status: -1, description: '每天8点提醒逾期的整改任务' },
  { name: 'demoHello', cron: '0 0/5 * * * ?', status: -1, description: '示例任务：每5分钟写一条日志', parameter: 'hello' },
];

export const systemServiceSeeds: SeedStep[] = [
  {
    // Keyed by content: a dictionary added here is seeded into existing databases too (inserts are idempotent).
    name: `sys-services-dicts:${sha256(JSON.stringify(DICTS)).slice(0, 8)}`,
    async run(ctx) {
      const ts = now();
      for (const d of DICTS) {
        const id = dictId(d.code);
        await ctx.db
          .insertInto('sys_dict')
          .values({ id, dict_name: d.name, dict_code: d.code, del_flag: 0, type: 0, tenant_id: 0, create_by: 'system', create_time: ts })
          .onConflict((oc) => oc.doNothing())
          .execute();
        await ctx.db
          .insertInto('sys_dict_item')
          .values(d.items.map(([value, text, color], i) => ({
            id: sha256(`dictItem|${d.code}|${value}`).slice(0, 32), dict_id: id, item_value: value, item_text: text,
            item_color: color ?? null, sort_order: i + 1, status: 1, create_by: 'system', create_time: ts,
          })))
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
    },
  },
  {
    name: 'sys-services-jobs',
    async run(ctx) {
      const ts = now();
      await ctx.db
        .insertInto('sys_quartz_job')
        .values(JOBS.map((j) => ({
          id: sha256(`job|${j.name}`).slice(0, 32), job_class_name: j.name, cron_expression: j.cron, parameter: j.parameter ?? null,
          description: j.description, status: j.status, create_by: 'system', create_time: ts,
        })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    },
  },
  {
    name: 'sys-services-templates',
    async run(ctx) {
      await ctx.db
        .insertInto('sys_sms_template')
        .values([
          {
            id: sha256('tpl|lecture_notice').slice(0, 32), template_code: 'lecture_notice', template_name: '听课通知',
            template_type: '4', template_content: '${realname}老师：督导将于${time}听取您的课程《${course}》，请做好准备。',
            template_test_json: '{"realname":"张三","time":"周三第3节","course":"高等数学"}', create_by: 'system', create_time: now(),
          },
        ])
        .onConflict((oc) => oc.doNothing())
        .execute();
    },
  },
  {
    name: 'sys-services-demo-announcement',
    demo: true,
    async run(ctx) {
      const ts = now();
      await ctx.db
        .insertInto('sys_announcement')
        .values({
          id: newId(), titile: '欢迎使用督导听课系统', msg_content: '<p>本学期听课工作已启动，请各位督导按计划完成听课任务。</p>',
          msg_abstract: '本学期听课工作已启动', sender: 'admin', priority: 'M', msg_category: '1', msg_type: 'ALL', send_status: '1',
          send_time: ts, del_flag: '0', create_by: 'admin', create_time: ts, tenant_id: 0,
        })
        .execute();
    },
  },
];
