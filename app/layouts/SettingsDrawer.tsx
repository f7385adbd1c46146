import { Button, Divider, Drawer, List, Select, Switch, Tooltip } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useAtom } from 'jotai';
import { DEFAULT_SETTINGS, normalizeSettings, PRIMARY_COLORS, settingsAtom, type AppSettings } from '@core/settings';
import { feedback } from '@core/feedback';

/** Settings drawer (SPEC §2): every option is persisted locally as soon as it changes. */
export function SettingsDrawer({ open, isMobile, onClose }: { open: boolean; isMobile: boolean; onClose: () => void }) {
  const [s, setS] = useAtom(settingsAtom);
  const set = <K extends keyof AppSettings>(k: K, v: AppSettings[K]) => setS((old) => normalizeSettings({ ...old, [k]: v }));
  const top = s.layout === 'topmenu';

  const row = (title: string, action: React.ReactNode, disabled?: string) => (
    <List.Item actions={[action]}>
      <Tooltip title={disabled}>
        <span style={{ opacity: disabled ? 0.5 : 1 }}>{title}</span>
      </Tooltip>
    </List.Item>
  );
  const thumb = (value: string, current: string, label: string, onPick: () => void, cls: string) => (
    <Tooltip title={label} key={value}>
      <div className={`setting-thumb ${cls}`} onClick={onPick} role="radio" aria-checked={value === current} aria-label={label}>
        {value === current && <CheckOutlined className="setting-thumb-check" />}
      </div>
    </Tooltip>
  );

  return (
    <Drawer title="系统设置" width={300} open={open} onClose={onClose} className="settings-drawer">
      <h3 className="setting-title">整体风格设置</h3>
      <div className="setting-thumbs">
        {thumb('dark', s.navTheme, '暗色菜单风格', () => set('navTheme', 'dark'), 'thumb-dark')}
        {thumb('light', s.navTheme, '亮色菜单风格', () => set('navTheme', 'light'), 'thumb-light')}
      </div>
      <h3 className="setting-title">主题色</h3>
      <div className="setting-colors">
        {PRIMARY_COLORS.map((c) => (
          <Tooltip title={c.name} key={c.color}>
            <div
              className="setting-color"
              role="radio"
              aria-label={c.name}
              aria-checked={s.primaryColor.toUpperCase() === c.color}
              style={{ background: c.color }}
              onClick={() => {
                if (s.primaryColor.toUpperCase() === c.color) return;
                feedback.message.loading({ content: '正在切换主题！', key: 'theme', duration: 0.6 });
                set('primaryColor', c.color);
              }}
            >
              {s.primaryColor.toUpperCase() === c.color && <CheckOutlined />}
            </div>
          </Tooltip>
        ))}
      </div>
      <Divider />
      <h3 className="setting-title">导航模式</h3>
      <div className="setting-thumbs">
        {thumb('sidemenu', s.layout, '侧边栏导航', () => set('layout', 'sidemenu'), 'thumb-side')}
        {thumb('topmenu', s.layout, '顶部栏导航', () => set('layout', 'topmenu'), 'thumb-top')}
      </div>
      <List split={false} size="small">
        {row(
          '内容区域宽度',
          <Select
            size="small"
            style={{ width: 88 }}
            value={s.contentWidth}
            aria-label="内容区域宽度"
            onChange={(v) => set('contentWidth', v)}
            options={[{ value: 'Fixed', label: '固定' }, { value: 'Fluid', label: '流式', disabled: !top }]}
          />,
          top ? undefined : '该设定仅 [顶部栏导航] 时有效',
        )}
        {row('固定 Header', <Switch size="small" checked={s.fixedHeader} aria-label="固定 Header" onChange={(v) => set('fixedHeader', v)} />)}
        {row('下滑时隐藏 Header', <Switch size="small" checked={s.autoHideHeader} disabled={!s.fixedHeader} aria-label="下滑时隐藏 Header" onChange={(v) => set('autoHideHeader', v)} />, s.fixedHeader ? undefined : '固定 Header 时可配置')}
        {row('固定侧边菜单', <Switch size="small" checked={s.fixSiderbar} disabled={top} aria-label="固定侧边菜单" onChange={(v) => set('fixSiderbar', v)} />, top ? '该设定仅 [侧边栏导航] 时有效' : undefined)}
      </List>
      <Divider />
      <h3 className="setting-title">其他设置</h3>
      <List split={false} size="small">
        {row('色弱模式', <Switch size="small" checked={s.colorWeak} aria-label="色弱模式" onChange={(v) => set('colorWeak', v)} />)}
        {row('多页签模式', <Switch size="small" checked={s.multipage} disabled={isMobile} aria-label="多页签模式" onChange={(v) => set('multipage', v)} />, isMobile ? '移动端不支持多页签' : undefined)}
      </List>
      <Divider />
      <Button block type="primary" onClick={() => feedback.message.success('保存成功')} style={{ marginBottom: 8 }}>保存配置</Button>
      <Button block onClick={() => { setS(DEFAULT_SETTINGS); feedback.message.success('已恢复默认配置'); }}>恢复默认</Button>
    </Drawer>
  );
}
