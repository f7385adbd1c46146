import { List, Select, Switch } from 'antd';
import { useAtom } from 'jotai';
import { normalizeSettings, PRIMARY_COLORS, settingsAtom, type AppSettings } from '@core/settings';

/** 个性化: the browser's own display settings (menu theme, colour, navigation mode, tabs, colour weakness), kept on this device. */
export function AppearanceSettings() {
  const [s, setS] = useAtom(settingsAtom);
  const set = <K extends keyof AppSettings>(k: K, v: AppSettings[K]) => setS((old) => normalizeSettings({ ...old, [k]: v }));
  return (
    <List itemLayout="horizontal">
      <List.Item actions={[<Switch key="s" aria-label="风格配色" checked={s.navTheme === 'dark'} checkedChildren="暗色" unCheckedChildren="亮色" onChange={(v) => set('navTheme', v ? 'dark' : 'light')} />]}>
        <List.Item.Meta title="风格配色" description="整体风格：暗色或亮色菜单" />
      </List.Item>
      <List.Item actions={[<Select key="s" aria-label="主题色" style={{ width: 120 }} value={s.primaryColor} onChange={(v) => set('primaryColor', v)} options={PRIMARY_COLORS.map((c) => ({ value: c.color, label: c.name }))} />]}>
        <List.Item.Meta title="主题色" description="页面风格配色" />
      </List.Item>
      <List.Item actions={[<Select key="s" aria-label="导航模式" style={{ width: 120 }} value={s.layout} onChange={(v) => set('layout', v)} options={[{ value: 'sidemenu', label: '侧边菜单' }, { value: 'topmenu', label: '顶部菜单' }]} />]}>
        <List.Item.Meta title="导航模式" description="侧边菜单或顶部菜单" />
      </List.Item>
      <List.Item actions={[<Switch key="s" aria-label="多页签模式" checked={s.multipage} onChange={(v) => set('multipage', v)} />]}>
        <List.Item.Meta title="多页签模式" description="以页签形式打开多个页面" />
      </List.Item>
      <List.Item actions={[<Switch key="s" aria-label="色弱模式" checked={s.colorWeak} onChange={(v) => set('colorWeak', v)} />]}>
        <List.Item.Meta title="色弱模式" description="为色弱用户调整页面颜色" />
      </List.Item>
    </List>
  );
}
