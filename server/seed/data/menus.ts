/**
 * The product's menu and button tree (SPEC §2). Seeded by server/seed/menus.ts; documented in
 * docs/menus.md. A leaf screen with `perms` (a prefix such as "supervisor:term") carries
 * `<prefix>:list` on its menu row; `crud: true` adds the standard buttons
 * add/edit/delete/deleteBatch/queryById/exportXls/importExcel; `buttons` adds screen-specific ones.
 */
export interface MenuSeed {
  name: string;
  url: string;
  component?: string;
  componentName?: string;
  redirect?: string;
  icon?: string;
  perms?: string;
  crud?: boolean;
  buttons?: Array<[suffix: string, name: string]>;
  hidden?: boolean;
  keepAlive?: boolean;
  children?: MenuSeed[];
  /** Data rules of the screen (sys_permission_data_rule), granted per role by name. */
  dataRules?: Array<{ name: string; column: string; condition: string; value: string }>;
}

export const STANDARD_BUTTONS: Array<[string, string]> = [
  ['add', '添加'],
  ['edit', '编辑'],
  ['delete', '删除'],
  ['deleteBatch', '批量删除'],
  ['queryById', '查看'],
  ['exportXls', '导出'],
  ['importExcel', '导入'],
];

const RV = 'layouts/RouteView';
const list = (name: string, url: string, component: string, perms: string, extra: Partial<MenuSeed> = {}): MenuSeed => ({
  name,
  url,
  component,
  perms,
  crud: true,
  ...extra,
});
const view = (name: string, url: string, component: string, perms: string, extra: Partial<MenuSeed> = {}): MenuSeed => ({
  name,
  url,
  component,
  perms,
  ...extra,
});

export const MENU_TREE: MenuSeed[] = [
  { name: '首页', url: '/dashboard/analysis', component: 'dashboard/Analysis', icon: 'home' },
  {
    name: '督导管理', url: '/supervisor', component: RV, icon: 'audit',
    children: [
      // Today's lessons from the timetable, each opened on a phone to score (issue 30).
      { name: '今日听课', url: '/supervisor/lectureToday', component: 'supervisor/LectureToday', icon: 'schedule' },
      // A classroom's QR code opens /lecture/scan?room=<id>: the lesson on now there, ready to score on a phone.
      { name: '扫码听课', url: '/lecture/scan', component: 'lecture/Scan', hidden: true },
      list('学期管理', '/supervisor/term', 'supervisor/TermList', 'supervisor:term', { buttons: [['setCurrent', '设为当前学期']] }),
      list('作息时间', '/supervisor/sectionTime', 'supervisor/SectionTimeList', 'supervisor:sectionTime'),
      list('教室管理', '/supervisor/classroom', 'supervisor/ClassroomList', 'supervisor:classroom'),
      list('班级管理', '/supervisor/classes', 'supervisor/ClassesList', 'supervisor:classes'),
      list('课程管理', '/supervisor/course', 'supervisor/CourseList', 'supervisor:course'),
      list('教学任务', '/supervisor/courseTask', 'supervisor/CourseTaskList', 'supervisor:courseTask'),
      list('排课管理', '/supervisor/courseSchedule', 'supervisor/CourseScheduleList', 'supervisor:courseSchedule'),
      list('评价指标', '/supervisor/index', 'supervisor/IndexList', 'supervisor:index', { buttons: [['publish', '发布'], ['copy', '复制新版本']] }),
      list('指标分值', '/supervisor/indexScore', 'supervisor/IndexScoreList', 'supervisor:indexScore'),
      list('听课任务要求', '/supervisor/requireTask', 'supervisor/RequireTaskList', 'supervisor:requireTask'),
      list('听课记录', '/supervisor/lectureRecord', 'supervisor/LectureRecordList', 'supervisor:lectureRecord', {
        buttons: [['submit', '提交'], ['return', '退回'], ['confirm', '确认'], ['archive', '归档'], ['feedback', '教师反馈'], ['viewAll', '查看全部记录'], ['viewDepart', '查看本部门记录'], ['review', '复核']],
      }),
    ],
  },
  {
    name: '听课统计', url: '/statistics', component: RV, icon: 'bar-chart',
    children: [
      view('听课频次', '/statistics/frequency', 'statistics/LectureFrequency', 'supervisor:report', { buttons: [['exportXls', '导出']] }),
      view('听课成绩', '/statistics/performance', 'statistics/LecturePerformance', 'supervisor:report'),
      view('成绩明细', '/statistics/performance/detail', 'statistics/LecturePerformanceDetail', 'supervisor:report', { hidden: true }),
    ],
  },
  {
    name: '整改管理', url: '/improvement', component: RV, icon: 'tool',
    children: [
      list('整改任务', '/improvement/task', 'improvement/TaskList', 'improvement:task', {
        buttons: [['issue', '下发'], ['submitVerify', '提交验收'], ['verify', '验收'], ['cancel', '取消']],
      }),
      list('整改子任务', '/improvement/subtask', 'improvement/SubtaskList', 'improvement:subtask', {
        buttons: [['submit', '提交整改'], ['verify', '验收'], ['cancel', '取消']],
      }),
      // A teacher named responsible for a task works on it here (签收, 反馈, 提交验收).
      view('我的整改任务', '/improvement/myTask', 'improvement/MyTaskList', 'improvement:task', { buttons: [['queryById', '查看'], ['submitVerify', '提交验收']] }),
    ],
  },
  {
    name: '审核评估', url: '/audit', component: RV, icon: 'solution',
    children: [
      list('审核指标', '/audit/index', 'audit/AuditIndexList', 'audit:index'),
      list('审核要点', '/audit/item', 'audit/AuditItemList', 'audit:item'),
      list('工作组', '/audit/workgroup', 'audit/WorkgroupList', 'audit:workgroup'),
    ],
  },
  {
    name: '实验室管理', url: '/lab', component: RV, icon: 'experiment',
    children: [
      list('实验室目录', '/lab/catalogue', 'lab/CatalogueList', 'lab:catalogue'),
      list('实验室服务', '/lab/service', 'lab/ServiceList', 'lab:service'),
      list('合同管理', '/lab/contract', 'lab/ContractList', 'lab:contract'),
      list('实验计划', '/lab/plan', 'lab/PlanList', 'lab:plan'),
      list('实验订单', '/lab/order', 'lab/OrderList', 'lab:order'),
      list('实验室预约', '/lab/reservation', 'lab/ReservationList', 'lab:reservation', { buttons: [['approve', '审核']] }),
      list('使用记录', '/lab/useRecord', 'lab/UseRecordList', 'lab:useRecord'),
    ],
  },
  {
    name: '审批流程', url: '/workflow', component: RV, icon: 'apartment',
    children: [
      list('模型管理', '/workflow/model', 'workflow/ModelList', 'workflow:model', { buttons: [['deploy', '部署']] }),
      list('流程模型', '/workflow/processModel', 'workflow/ProcessModelList', 'workflow:processModel'),
      view('发起申请', '/workflow/apply', 'workflow/ApplyList', 'workflow:apply'),
      view('我的待办', '/workflow/todo', 'workflow/TodoList', 'workflow:todo'),
      view('我的已办', '/workflow/done', 'workflow/DoneList', 'workflow:done'),
      view('流程历史', '/workflow/history', 'workflow/HistoryList', 'workflow:history'),
      view('审批任务', '/workflow/task', 'workflow/TaskAdmin', 'workflow:task', { buttons: [['reassign', '改派'], ['terminate', '终止']] }),
    ],
  },
  view('在线文档', '/document/online', 'document/OnlineDocument', 'document:online', { icon: 'file-text' }),
  // The editor opens from the library (and from evidence links) with ?id=; every document route needs 在线文档's code.
  view('文档编辑', '/document/edit', 'document/DocumentEditor', 'document:online', { hidden: true }),
  {
    name: '课表管理', url: '/timetable', component: RV, icon: 'table',
    children: [
      list('基础信息', '/timetable/baseInfo', 'timetable/BaseInfo', 'timetable:baseInfo'),
      view('课表', '/timetable/schedule', 'timetable/Schedule', 'timetable:schedule', { buttons: [['exportXls', '导出']] }),
      view('课表导入', '/timetable/import', 'timetable/Import', 'timetable:import', { buttons: [['importExcel', '导入']] }),
      view('时间设置', '/timetable/setTime', 'timetable/SetTime', 'timetable:setTime', { buttons: [['edit', '保存']] }),
    ],
  },
  {
    name: '消息中心', url: '/message', component: RV, icon: 'message',
    children: [
      list('消息管理', '/message/list', 'modules/message/SysMessageList', 'system:message'),
      list('消息模板', '/message/template', 'modules/message/SysMessageTemplateList', 'system:messageTemplate', { buttons: [['send', '发送测试']] }),
    ],
  },
  {
    name: '系统监控', url: '/monitor', component: RV, icon: 'dashboard',
    children: [
      view('系统信息', '/monitor/SystemInfo', 'modules/monitor/SystemInfo', 'monitor:system', { buttons: [['metrics', 'Prometheus指标采集']] }),
      view('磁盘监控', '/monitor/Disk', 'modules/monitor/DiskMonitoring', 'monitor:disk'),
      view('请求追踪', '/monitor/HttpTrace', 'modules/monitor/HttpTrace', 'monitor:httpTrace'),
      view('Node运行时', '/monitor/JvmInfo', 'modules/monitor/JvmInfo', 'monitor:jvm'),
      view('数据库监控', '/monitor/RedisInfo', 'modules/monitor/RedisInfo', 'monitor:redis'),
      view('HTTP服务', '/monitor/TomcatInfo', 'modules/monitor/TomcatInfo', 'monitor:tomcat'),
      view('在线用户', '/monitor/onlineUser', 'system/SysUserOnlineList', 'system:onlineUser', { buttons: [['forceLogout', '强制退出']] }),
      list('日志管理', '/monitor/log', 'system/LogList', 'system:log'),
      list('定时任务', '/monitor/quartzJob', 'system/QuartzJobList', 'system:quartzJob', {
        buttons: [['pause', '停止'], ['resume', '启动'], ['execute', '立即执行']],
      }),
      list('数据日志', '/monitor/dataLog', 'system/DataLogList', 'system:dataLog'),
      list('文件存储', '/monitor/file', 'modules/oss/OSSFileList', 'system:file', { buttons: [['upload', '上传']] }),
    ],
  },
  {
    name: '系统管理', url: '/isystem', component: RV, icon: 'setting',
    children: [
      list('用户管理', '/isystem/user', 'system/UserList', 'system:user', {
        dataRules: [{ name: '本部门及下级部门用户', column: 'orgCode', condition: 'RIGHT_LIKE', value: '#{sys_org_code}' }],
        buttons: [['frozen', '冻结/解冻'], ['resetPassword', '重置密码'], ['recycleBin', '回收站'], ['smsOutbox', '短信发件箱'], ['agent', '代理人']],
      }),
      list('角色管理', '/isystem/role', 'system/RoleList', 'system:role', { buttons: [['authorize', '授权'], ['users', '角色用户']] }),
      list('部门管理', '/isystem/depart', 'system/DepartList', 'system:depart', { buttons: [['authorize', '部门权限']] }),
      list('菜单管理', '/isystem/permission', 'system/PermissionList', 'system:permission'),
      list('数据规则', '/isystem/dataRule', 'system/PermissionDataRuleList', 'system:dataRule'),
      list('数据字典', '/isystem/dict', 'system/DictList', 'system:dict', { buttons: [['refreshCache', '刷新缓存'], ['recycleBin', '回收站']] }),
      list('分类字典', '/isystem/category', 'system/SysCategoryList', 'system:category'),
      list('职务管理', '/isystem/position', 'system/SysPositionList', 'system:position'),
      list('租户管理', '/isystem/tenant', 'system/TenantList', 'system:tenant'),
      list('编码校验规则', '/isystem/checkRule', 'system/SysCheckRuleList', 'system:checkRule'),
      list('填值规则', '/isystem/fillRule', 'system/SysFillRuleList', 'system:fillRule'),
      list('多数据源', '/isystem/dataSource', 'system/SysDataSourceList', 'system:dataSource'),
      list('网关路由', '/isystem/gateway', 'system/SysGatewayRouteList', 'system:gateway'),
      list('通讯录', '/isystem/address', 'system/AddressList', 'system:address'),
      list('通知公告', '/isystem/announcement', 'system/SysAnnouncementList', 'system:announcement', {
        buttons: [['release', '发布'], ['revoke', '撤销']],
      }),
    ],
  },
  {
    name: '在线开发', url: '/online', component: RV, icon: 'cloud',
    children: [
      list('表单开发', '/online/cgform', 'modules/online/cgform/OnlCgformHeadList', 'online:cgform', { buttons: [['sync', '同步数据库']] }),
      // Designing a report (报表配置's builder, issue 31) is its own permission: online:cgreport:design.
      list('报表配置', '/online/cgreport', 'modules/online/cgreport/OnlCgreportHeadList', 'online:cgreport', { buttons: [['design', '设计报表']] }),
      // Issue 31: edit any screen's page schema in the browser (server/design); its own permission, admin only.
      view('页面设计', '/online/design', 'design/PageDesigner', 'design:page', { icon: 'layout', buttons: [['save', '保存'], ['rollback', '回滚']] }),
    ],
  },
  {
    name: '个人页', url: '/account', component: RV, icon: 'user', hidden: true,
    children: [
      { name: '个人中心', url: '/account/center', component: 'account/center/Index' },
      {
        name: '个人设置', url: '/account/settings', component: 'account/settings/Index', hidden: true, redirect: '/account/settings/base',
        // JeecgBoot 3.4's hidden settings routes (stock view names; our client maps them to its settings page).
        children: [
          { name: '基本设置', url: '/account/settings/base', component: 'account/settings/BaseSetting', hidden: true },
          { name: '安全设置', url: '/account/settings/security', component: 'account/settings/Security', hidden: true },
          { name: '个性化设置', url: '/account/settings/custom', component: 'account/settings/Custom', hidden: true },
          { name: '账户绑定', url: '/account/settings/binding', component: 'account/settings/Binding', hidden: true },
          { name: '新消息通知', url: '/account/settings/notification', component: 'account/settings/Notification', hidden: true },
        ],
      },
      // JeecgBoot 3.4's hidden 我的消息 route (the header's notice centre links to it).
      { name: '我的消息', url: '/isps/userAnnouncement', component: 'system/UserAnnouncementList', hidden: true },
    ],
  },
];

/** Parent of entity permission prefixes that no menu screen claims (kept hidden). */
export const UNASSIGNED_MENU: MenuSeed = { name: '其他接口权限', url: '/isystem/unassigned', component: 'system/UnassignedPermissions', hidden: true };

/**
 * What each seeded role may do. `menus` are screen urls (their ancestors come along; a url ending
 * in `/*` means every screen under it); `buttons` lists button suffixes granted on those screens
 * ('*' = every button). A later rule for the same screen adds to an earlier one.
 */
export interface RoleSeed {
  code: string;
  name: string;
  description: string;
  grants: Array<{ menus: string[]; buttons: string[] | '*'; dataRules?: string[] }>;
}

const READ = ['queryById', 'exportXls'];
/** Any teaching staff may look up the labs and book one (managing them is the lab office's, here the admin's). */
const LAB_BOOKING = [
  { menus: ['/lab/catalogue'], buttons: ['queryById'] },
  { menus: ['/lab/reservation'], buttons: ['add', 'edit', 'delete', 'queryById'] },
];
const BASE_DATA = ['/supervisor/term', '/supervisor/sectionTime', '/supervisor/classroom', '/supervisor/classes', '/supervisor/course', '/supervisor/courseTask', '/supervisor/courseSchedule'];
/** Base data owned by the university (the quality office), not by a department. */
const UNIVERSITY_DATA = ['/supervisor/term', '/supervisor/sectionTime'];
const ACCOUNT = { menus: ['/account/*', '/isps/userAnnouncement'], buttons: '*' as const };
const HOME = { menus: ['/dashboard/analysis'], buttons: '*' as const };
/** Online documents: every role has a library; what each may do with a document is decided by its shares. */
const DOCS = { menus: ['/document/online', '/document/edit'], buttons: '*' as const };
/** 审批流程 for everyone: apply, to-do, done, history (what each sees is scoped on the server). */
const WORKFLOW = { menus: ['/workflow/apply', '/workflow/todo', '/workflow/done', '/workflow/history'], buttons: '*' as const };

export const ROLES: RoleSeed[] = [
  { code: 'admin', name: '系统管理员', description: '拥有全部权限', grants: [{ menus: ['*'], buttons: '*' }] },
  {
    code: 'supervisor', name: '校级督导', description: '听课评价、统计与整改下发验收',
    grants: [
      HOME, ACCOUNT, DOCS, WORKFLOW,
      { menus: [...BASE_DATA, '/supervisor/index', '/supervisor/indexScore', '/supervisor/requireTask', '/timetable/schedule'], buttons: READ },
      { menus: ['/supervisor/lectureRecord', '/supervisor/lectureToday', '/lecture/scan'], buttons: '*' },
      { menus: ['/statistics/*'], buttons: '*' },
      { menus: ['/improvement/task'], buttons: ['add', 'edit', 'queryById', 'exportXls', 'issue', 'verify', 'cancel'] },
      { menus: ['/improvement/subtask'], buttons: ['queryById', 'verify', 'exportXls'] },
      { menus: ['/audit/*'], buttons: '*' },
    ],
  },
  {
    code: 'leader', name: '部门领导', description: '本部门听课、统计与整改',
    grants: [
      HOME, ACCOUNT, DOCS, WORKFLOW,
      { menus: ['/statistics/*'], buttons: '*' },
      { menus: ['/supervisor/lectureRecord'], buttons: ['add', 'edit', 'queryById', 'exportXls', 'submit', 'confirm', 'viewDepart'] },
      { menus: ['/supervisor/lectureToday', '/lecture/scan'], buttons: '*' },
      { menus: ['/improvement/task'], buttons: ['add', 'edit', 'queryById', 'exportXls', 'issue', 'submitVerify', 'verify', 'cancel'] },
      { menus: ['/improvement/subtask'], buttons: ['add', 'edit', 'queryById', 'exportXls', 'verify'] },
      { menus: ['/audit/*'], buttons: READ },
      ...LAB_BOOKING,
    ],
  },
  {
    code: 'secretary', name: '部门秘书', description: '本部门基础数据、课表、听课记录与整改',
    grants: [
      HOME, ACCOUNT, DOCS, WORKFLOW,
      // Terms and section times are university-wide (issue 27 rule 2): read only for a department.
      { menus: BASE_DATA.filter((m) => !UNIVERSITY_DATA.includes(m)), buttons: '*' },
      { menus: UNIVERSITY_DATA, buttons: READ },
      { menus: ['/timetable/*'], buttons: '*' },
      { menus: ['/supervisor/lectureRecord'], buttons: ['add', 'edit', 'queryById', 'exportXls', 'importExcel', 'submit', 'return', 'confirm', 'viewDepart'] },
      { menus: ['/supervisor/lectureToday', '/lecture/scan'], buttons: '*' },
      { menus: ['/statistics/*'], buttons: '*' },
      { menus: ['/improvement/*'], buttons: '*' },
      ...LAB_BOOKING,
    ],
  },
  {
    code: 'deptadmin', name: '部门管理员', description: '本部门用户与基础数据',
    grants: [
      HOME, ACCOUNT, DOCS, WORKFLOW,
      { menus: ['/isystem/user'], buttons: ['add', 'edit', 'queryById', 'exportXls', 'importExcel', 'frozen', 'resetPassword'], dataRules: ['本部门及下级部门用户'] },
      { menus: ['/isystem/role'], buttons: ['queryById'] },
      { menus: ['/isystem/depart'], buttons: ['queryById'] },
      { menus: ['/supervisor/classroom', '/supervisor/classes', '/supervisor/course'], buttons: '*' },
    ],
  },
  {
    code: 'teacher', name: '教师', description: '查看本人听课记录、反馈与整改',
    grants: [
      HOME, ACCOUNT, DOCS, WORKFLOW,
      { menus: ['/supervisor/lectureRecord'], buttons: ['add', 'edit', 'delete', 'queryById', 'submit', 'feedback'] },
      { menus: ['/improvement/subtask'], buttons: ['queryById', 'edit', 'submit'] },
      { menus: ['/improvement/myTask'], buttons: ['queryById', 'submitVerify'] },
      ...LAB_BOOKING,
    ],
  },
];
