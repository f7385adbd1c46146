import type { RouteDef } from '@core/menu';

const def = (path: string, title: string, extra: Partial<RouteDef> = {}): RouteDef => ({ path, name: path.slice(1).replace(/\//g, '-'), title, keepAlive: false, parents: [], fromMenu: false, ...extra });
const demo = (path: string, title: string, parent: string) => def(path, title, { pageId: `demo/${path.slice(1)}`, parents: [{ title: parent, path: '' }] });

/** The static routes of SPEC §2 inside the main layout (menu routes come first and win). */
export const STATIC_ROUTES: RouteDef[] = [
  def('/dashboard/analysis', '首页', { component: 'dashboard/Analysis' }),
  def('/dashboard/workplace', '工作台', { component: 'dashboard/Workplace', parents: [{ title: '仪表盘', path: '' }] }),
  def('/dashboard/monitor', '监控页', { component: 'dashboard/Monitor', hidden: true, parents: [{ title: '仪表盘', path: '' }] }),
  demo('/form/base-form', '基础表单', '表单页'),
  demo('/form/step-form', '分步表单', '表单页'),
  demo('/form/advanced-form', '高级表单', '表单页'),
  demo('/list/query-list', '查询表格', '列表页'),
  demo('/list/edit-table', '内联编辑表格', '列表页'),
  demo('/list/user-list', '用户列表', '列表页'),
  demo('/list/role-list', '角色列表', '列表页'),
  demo('/list/permission-list', '权限列表', '列表页'),
  demo('/list/basic-list', '标准列表', '列表页'),
  demo('/list/card', '卡片列表', '列表页'),
  demo('/list/search/article', '搜索列表（文章）', '列表页'),
  demo('/list/search/project', '搜索列表（项目）', '列表页'),
  demo('/list/search/application', '搜索列表（应用）', '列表页'),
  demo('/profile/basic', '基础详情页', '详情页'),
  demo('/profile/advanced', '高级详情页', '详情页'),
  demo('/result/success', '成功', '结果页'),
  demo('/result/fail', '失败', '结果页'),
  // The account pages work on the signed-in user's own profile (page schemas account/center/Index and account/settings/Index).
  def('/account/center', '个人中心', { component: 'account/center/Index', parents: [{ title: '个人页', path: '' }] }),
  ...['base', 'security', 'custom', 'binding', 'notification'].map((k) =>
    def(`/account/settings/${k}`, '个人设置', { component: 'account/settings/Index', parents: [{ title: '个人页', path: '' }] }),
  ),
  def('/exception/403', '403', { component: 'exception/403', parents: [{ title: '异常页', path: '' }] }),
  def('/exception/404', '404', { component: 'exception/404', parents: [{ title: '异常页', path: '' }] }),
  def('/exception/500', '500', { component: 'exception/500', parents: [{ title: '异常页', path: '' }] }),
  def('/test/home', '测试主页', { component: 'test/Home' }),
  def('/isps/userAnnouncement', '我的消息', { pageId: 'system/MyAnnouncement' }),
  // A role's users (角色管理 → 用户 links here with ?roleId=).
  def('/isystem/role/users', '角色用户', { pageId: 'system/RoleUserList', parents: [{ title: '系统管理', path: '' }, { title: '角色管理', path: '/isystem/role' }] }),
];

/** Static redirects of SPEC §2 (menu containers add theirs at runtime). */
export const STATIC_REDIRECTS: Record<string, string> = {
  '/': '/dashboard/analysis',
  '/dashboard': '/dashboard/workplace',
  '/form': '/form/base-form',
  '/list': '/list/query-list',
  '/list/search': '/list/search/article',
  '/profile': '/profile/basic',
  '/result': '/result/success',
  '/exception': '/exception/403',
  '/account': '/account/center',
  '/account/settings': '/account/settings/base',
  '/test': '/test/home',
};
