import type { SeedStep } from '../seed/index.js';
import { seedDicts } from '../seed/dicts-base.js';
import { userId } from '../seed/data/org.js';
import { toWire } from '../crud/engine.js';
import { newId, now } from '../util.js';
import { encryptSecret } from './data-source.js';

/** Seeds of the configuration screens: check rules, fill rules, data sources, gateway routes, a data-log history. */
const CHECK_RULES = [
  {
    rule_name: '教师工号', rule_code: 'teacher_work_no', rule_description: '工号为大写T加7到8位数字，如 T0000003、T20100001',
    rule_json: [{ digits: 1, pattern: '^T$', message: '工号须以大写字母T开头' }, { digits: '*', pattern: '^\\d{7,8}$', message: '工号T之后须为7到8位数字' }],
  },
  {
    rule_name: '课程号', rule_code: 'course_code', rule_description: '课程号为7位数字：开课单位代码2位+序号5位，如 0410001',
    rule_json: [{ digits: 2, pattern: '^\\d{2}$', message: '课程号前2位须为开课单位代码（数字）' }, { digits: '*', pattern: '^\\d{5}$', message: '课程号后5位须为数字序号' }],
  },
  {
    rule_name: '手机号码', rule_code: 'mobile', rule_description: '11位中国大陆手机号',
    rule_json: [{ digits: '*', pattern: '^1[3-9]\\d{9}$', message: '请输入正确的11位手机号' }],
  },
];

const FILL_RULES = [
  { rule_name: '督导简报编号', rule_code: 'supervision_brief_no', prefix: 'DDJB', date_format: 'YYYY', seq_length: 3, rule_description: '每年从001开始，如 DDJB2026001' },
  { rule_name: '评估报告编号', rule_code: 'assessment_report_no', prefix: 'PGBG', date_format: 'YYYYMM', seq_length: 4, rule_description: '每月从0001开始，如 PGBG2026110001' },
  { rule_name: '通知文号', rule_code: 'notice_no', prefix: 'JWTZ', date_format: 'YYYYMMDD', seq_length: 2, rule_description: '每天从01开始' },
];

const DATA_SOURCES = [
  { code: 'jwxt', name: '教务系统（只读库）', db_type: 'oracle', db_driver: 'oracle.jdbc.OracleDriver', db_url: 'jdbc:oracle:thin:@10.10.2.15:1521/JWXT', db_username: 'jw_reader', password: 'Jw#Reader2026', remark: '课表与学生名单来源' },
  { code: 'hr', name: '人事系统', db_type: 'mysql', db_driver: 'com.mysql.cj.jdbc.Driver', db_url: 'jdbc:mysql://10.10.3.20:3306/hr?useUnicode=true&characterEncoding=utf8', db_username: 'hr_sync', password: 'Hr@Sync2026', remark: '教师工号、职称同步' },
  { code: 'bigdata', name: '校级数据中心', db_type: 'postgresql', db_driver: 'org.postgresql.Driver', db_url: 'jdbc:postgresql://10.10.8.5:5432/dc', db_username: 'dc_view', password: 'Dc!View2026', remark: '质量报告数据交换' },
];

const GATEWAY_ROUTES = [
  { router_id: 'supervisor-api', name: '督导听课接口', uri: 'lb://supervisor-service', predicates: [{ name: 'Path', args: { _genkey_0: '/supervisor/**' } }], filters: [], status: 1 },
  { router_id: 'system-api', name: '系统管理接口', uri: 'lb://system-service', predicates: [{ name: 'Path', args: { _genkey_0: '/sys/**' } }], filters: [{ name: 'RequestRateLimiter', args: { 'redis-rate-limiter.replenishRate': '20', 'redis-rate-limiter.burstCapacity': '40' } }], status: 1 },
  { router_id: 'legacy-jwxt', name: '旧教务系统转发', uri: 'http://10.10.2.16:8080', predicates: [{ name: 'Path', args: { _genkey_0: '/jwxt/**' } }], filters: [{ name: 'StripPrefix', args: { _genkey_0: '1' } }], status: 0 },
];

export const adminConfigSeeds: SeedStep[] = [
  {
    name: 'admin-config-base',
    async run(ctx) {
      await seedDicts(ctx, [
        { code: 'database_type', name: '数据库类型', items: [['mysql', 'MySQL'], ['oracle', 'Oracle'], ['sqlserver', 'SQL Server'], ['postgresql', 'PostgreSQL'], ['dm', '达梦'], ['kingbase', '人大金仓']] },
        { code: 'gateway_route_status', name: '路由状态', items: [['1', '启用', 'green'], ['0', '禁用', 'red']] },
        { code: 'data_rule_status', name: '数据规则状态', items: [['1', '有效', 'green'], ['0', '无效', 'red']] },
        { code: 'job_run_status', name: '任务执行结果', items: [['success', '成功', 'green'], ['fail', '失败', 'red'], ['skipped', '跳过', 'orange'], ['running', '执行中', 'blue']] },
      ]);
      const ts = now();
      for (const r of CHECK_RULES)
        await ctx.db.insertInto('sys_check_rule').values({ ...r, id: newId(), rule_json: JSON.stringify(r.rule_json), create_by: 'system', create_time: ts }).onConflict((oc) => oc.column('rule_code').doNothing()).execute();
      for (const r of FILL_RULES)
        await ctx.db.insertInto('sys_fill_rule').values({ ...r, id: newId(), current_seq: 0, create_by: 'system', create_time: ts }).onConflict((oc) => oc.column('rule_code').doNothing()).execute();
    },
  },
  {
    name: 'admin-config-demo',
    demo: true,
    async run(ctx) {
      const ts = now();
      for (const { password, ...d } of DATA_SOURCES)
        await ctx.db.insertInto('sys_data_source').values({ ...d, id: newId(), db_password: encryptSecret(ctx, password), create_by: 'admin', create_time: ts }).onConflict((oc) => oc.column('code').doNothing()).execute();
      for (const g of GATEWAY_ROUTES)
        await ctx.db
          .insertInto('sys_gateway_route')
          .values({ ...g, id: newId(), predicates: JSON.stringify(g.predicates, null, 2), filters: JSON.stringify(g.filters, null, 2), create_by: 'admin', create_time: ts })
          .onConflict((oc) => oc.column('router_id').doNothing())
          .execute();
      // A data-log history: the demo teacher's office phone was changed by the administrator.
      const e = ctx.entities.get('sys_user');
      const id = userId('teacher');
      const before = await ctx.db.selectFrom('sys_user').selectAll().where('id', '=', id).executeTakeFirst();
      if (!before) return;
      const v1 = toWire(e, before);
      await ctx.db.updateTable('sys_user').set({ telephone: '0571-88206615', post: '教研室主任', update_by: 'admin', update_time: ts }).where('id', '=', id).execute();
      const v2 = toWire(e, (await ctx.db.selectFrom('sys_user').selectAll().where('id', '=', id).executeTakeFirstOrThrow()));
      const base = { data_table: 'sys_user', table_title: e.title ?? '用户', data_id: id };
      await ctx.db
        .insertInto('sys_data_log')
        .values([
          { ...base, id: newId(), data_version: 1, data_content: JSON.stringify(v1), create_by: String(v1.createBy ?? 'system'), create_time: String(v1.createTime ?? ts) },
          { ...base, id: newId(), data_version: 2, data_content: JSON.stringify(v2), create_by: 'admin', create_time: ts },
        ])
        .execute();
    },
  },
];
