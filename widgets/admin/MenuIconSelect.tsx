import { Select } from 'antd';
import { MENU_ICON_NAMES, menuIcon } from '@core/ui/icons';

const label = (name: string) => (
  <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
    {menuIcon(name)}
    {name}
  </span>
);

/**
 * 菜单图标: the icons the side menu can draw, each shown with its name (an unknown name would be drawn
 * as the default icon). A stored name outside the set (an imported menu) stays selectable.
 */
export function MenuIconSelect({ value, onChange, disabled }: { value?: string; onChange?: (v: string | undefined) => void; disabled?: boolean }) {
  const names = value && !MENU_ICON_NAMES.includes(value) ? [value, ...MENU_ICON_NAMES] : MENU_ICON_NAMES;
  return (
    <Select
      allowClear
      showSearch
      aria-label="菜单图标"
      placeholder="请选择菜单图标"
      disabled={disabled}
      value={value || undefined}
      onChange={(v?: string) => onChange?.(v)}
      options={names.map((n) => ({ value: n, label: label(n) }))}
      filterOption={(input, o) => String(o?.value ?? '').includes(input.trim().toLowerCase())}
      style={{ width: '100%' }}
    />
  );
}
