import { useMemo, useState, type ReactNode } from 'react';
import { Avatar, Layout, Modal, Select, Space } from 'antd';
import { LazyDropdown, LazyTooltip } from '@core/ui/LazyOverlay';
import {
  ClearOutlined, ClusterOutlined, DownOutlined, KeyOutlined, LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined, SearchOutlined,
  SettingOutlined, UserOutlined,
} from '@ant-design/icons';
import { useAtomValue, useSetAtom } from 'jotai';
import { useNavigate } from 'react-router-dom';
import type { MenuNode } from '@core/session/store';
import { allAuthAtom, authAtom, dictAtom, userInfoAtom } from '@core/session/store';
import { can } from '@core/auth';
import { http } from '@core/http/client';
import { LOGIN_PATH, logout } from '@core/session/actions';
import { feedback } from '@core/feedback';
import { APP_TITLE, greeting } from '@core/branding';
import { searchableEntries } from '@core/menu';
import type { AppSettings } from '@core/settings';
import type { Device } from '@app/layouts/useDevice';
import { Logo } from '@app/layouts/Logo';
import { SettingsDrawer } from '@app/layouts/SettingsDrawer';
import { PasswordDialog } from '@app/layouts/PasswordDialog';
import { DepartDialog } from '@app/layouts/DepartDialog';
import { NoticeCenter } from '@app/layouts/NoticeCenter';
import { TODO_PATH, TodoCount } from '@app/layouts/TodoCount';

function MenuSearch({ menu, onPick, autoFocus }: { menu: MenuNode[]; onPick: (n: MenuNode) => void; autoFocus?: boolean }) {
  const entries = useMemo(() => searchableEntries(menu), [menu]);
  return (
    <Select
      showSearch
      autoFocus={autoFocus}
      placeholder="搜索菜单"
      style={{ width: '100%' }}
      optionFilterProp="label"
      aria-label="搜索菜单"
      options={entries.map((n) => ({ value: n.id ?? n.path, label: n.meta?.title ?? n.name }))}
      onChange={(v) => {
        const n = entries.find((e) => (e.id ?? e.path) === v);
        if (n) onPick(n);
      }}
    />
  );
}

export function HeaderBar({
  menu, settings, device, collapsed, hidden, topMenu, onToggle,
}: {
  menu: MenuNode[];
  settings: AppSettings;
  device: Device;
  collapsed: boolean;
  hidden: boolean;
  topMenu?: ReactNode;
  onToggle: () => void;
}) {
  const user = useAtomValue(userInfoAtom);
  // 清理缓存 reloads the server's dictionary cache: an administrator's action (system:dict:refreshCache).
  const grants = useAtomValue(authAtom);
  const allGrants = useAtomValue(allAuthAtom);
  const mayRefreshCache = can('system:dict:refreshCache', { auth: grants, allAuth: allGrants });
  const setDict = useSetAtom(dictAtom);
  const nav = useNavigate();
  const [searching, setSearching] = useState(false);
  const [dialog, setDialog] = useState<'settings' | 'password' | 'depart' | null>(null);
  const [settingsOpened, setSettingsOpened] = useState(false);
  if (dialog === 'settings' && !settingsOpened) setSettingsOpened(true);
  const isMobile = device === 'mobile';
  // 我的待办's count shows for users who have 我的待办 in their menu.
  const hasTodo = useMemo(() => searchableEntries(menu).some((n) => n.path === TODO_PATH), [menu]);

  const pick = (n: MenuNode) => {
    setSearching(false);
    // An iframe page is pushed as a whole entry so the tab gets its title and url.
    if (n.component === 'layouts/IframePageView') nav(n.path, { state: { url: n.meta?.url, title: n.meta?.title } });
    else if (n.meta?.internalOrExternal && n.meta.url) window.open(n.meta.url, '_blank', 'noopener');
    else nav(n.path);
  };

  const clearCache = async () => {
    try {
      const r = await http.get('/sys/dict/refleshCache');
      if (!r.success) throw new Error(r.message);
      const all = await http.get('/sys/dict/queryAllDictItems');
      if (!all.success) throw new Error(all.message);
      setDict(all.result ?? {});
      feedback.message.success('刷新缓存完成！');
    } catch {
      feedback.message.error('刷新缓存失败！');
    }
  };

  const confirmLogout = () =>
    feedback.modal.confirm({
      title: '提示',
      content: '真的要注销登录吗 ?',
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        try {
          await logout();
        } catch (e) {
          feedback.message.error(e instanceof Error ? e.message : String(e));
        }
        nav(LOGIN_PATH, { replace: true });
      },
    });

  const userMenu = {
    items: [
      { key: 'center', icon: <UserOutlined />, label: '个人中心' },
      { key: 'settings', icon: <SettingOutlined />, label: '系统设置' },
      { key: 'password', icon: <KeyOutlined />, label: '密码修改' },
      { key: 'depart', icon: <ClusterOutlined />, label: '切换部门' },
      ...(mayRefreshCache ? [{ key: 'cache', icon: <ClearOutlined />, label: '清理缓存' }] : []),
      { type: 'divider' as const },
      { key: 'logout', icon: <LogoutOutlined />, label: '退出登录' },
    ],
    onClick: ({ key }: { key: string }) => {
      if (key === 'center') nav('/account/center');
      else if (key === 'settings' || key === 'password' || key === 'depart') setDialog(key);
      else if (key === 'cache') void clearCache();
      else if (key === 'logout') confirmLogout();
    },
  };

  const name = user?.realname || user?.username || '';
  return (
    <Layout.Header className={`layout-header ${settings.fixedHeader ? 'fixed' : ''} ${hidden ? 'hidden' : ''} ${topMenu ? `top-${settings.navTheme}` : ''}`}>
      {topMenu ? (
        <div className={`header-top ${settings.contentWidth === 'Fixed' ? 'content-fixed' : ''}`}>
          <div className="header-top-logo"><Logo theme={settings.navTheme} /></div>
          {topMenu}
        </div>
      ) : (
        <Space size={16} className="header-left">
          <span className="header-trigger" onClick={onToggle} role="button" aria-label="切换菜单">
            {collapsed || isMobile ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          </span>
          {!isMobile && <span className="header-title">欢迎进入 {APP_TITLE}</span>}
        </Space>
      )}
      <Space size={4} className="header-right">
        {searching && !isMobile ? (
          <div style={{ width: 220 }} onBlur={() => setSearching(false)}>
            <MenuSearch menu={menu} onPick={pick} autoFocus />
          </div>
        ) : (
          <LazyTooltip title="搜索菜单">
            <span className="header-action" role="button" aria-label="搜索菜单" onClick={() => setSearching(true)}><SearchOutlined /></span>
          </LazyTooltip>
        )}
        {hasTodo && <TodoCount compact={isMobile} />}
        <NoticeCenter />
        <LazyDropdown menu={userMenu} placement="bottomRight">
          <span className="header-action header-user" data-testid="user-menu">
            <Avatar size="small" src={user?.avatar || undefined} icon={<UserOutlined />} />
            {!isMobile && <span className="header-welcome">{greeting()}，{name}</span>}
            <DownOutlined style={{ fontSize: 10 }} />
          </span>
        </LazyDropdown>
        <LazyTooltip title="退出登录">
          <span className="header-action" role="button" aria-label="退出登录" onClick={confirmLogout}><LogoutOutlined /></span>
        </LazyTooltip>
      </Space>
      {searching && isMobile && (
        <Modal title="搜索菜单" open footer={null} onCancel={() => setSearching(false)}>
          <MenuSearch menu={menu} onPick={pick} autoFocus />
        </Modal>
      )}
      {/* Mounted from its first opening on (it closes with its animation); the first screen skips it. */}
      {settingsOpened && <SettingsDrawer open={dialog === 'settings'} isMobile={isMobile} onClose={() => setDialog(null)} />}
      {dialog === 'password' && <PasswordDialog onClose={() => setDialog(null)} />}
      {dialog === 'depart' && <DepartDialog onClose={() => setDialog(null)} />}
    </Layout.Header>
  );
}
