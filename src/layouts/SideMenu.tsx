import { useEffect, useMemo, useRef, useState } from 'react';
import { Menu, type MenuProps } from 'antd';
import type { MenuNode } from '@/session/store';
import { isContainer } from '@/router/menu';
import { menuIcon } from '@/layouts/icons';

type Item = Required<MenuProps>['items'][number];

/**
 * Menu items; a submenu outside `expanded` gets no children (antd still draws it as a submenu). antd's
 * Menu renders every item it is given twice (once hidden, to collect key paths), so a first screen
 * with one open branch skips most of a large menu. `expanded` undefined: every item (horizontal menu,
 * whose popups open on their own).
 */
export function toItems(nodes: MenuNode[], top: boolean, expanded?: Set<string>): Item[] {
  return nodes
    .filter((n) => !n.hidden)
    .map((n): Item => {
      const icon = top || n.meta?.icon ? menuIcon(n.meta?.icon) : undefined;
      const kids = (n.children ?? []).filter((c) => !c.hidden);
      if (isContainer(n) && (kids.length > 0 || n.alwaysShow))
        return { key: n.path, icon, label: n.meta?.title ?? n.name, children: !expanded || expanded.has(n.path) ? toItems(kids, false, expanded) : [] };
      return { key: n.path, icon, label: n.meta?.title ?? n.name };
    });
}

const sameKeys = (a: string[], b: string[]) => a.length === b.length && a.every((k, i) => k === b[i]);

/** Menu keys of the ancestors of `path`. */
function ancestors(nodes: MenuNode[], path: string, trail: string[] = []): string[] | undefined {
  for (const n of nodes) {
    if (n.path === path) return trail;
    const r = n.children && ancestors(n.children, path, [...trail, n.path]);
    if (r) return r;
  }
  return undefined;
}

export function SideMenu({
  menu, mode, theme, collapsed, selected, onPick,
}: {
  menu: MenuNode[];
  mode: 'inline' | 'horizontal';
  theme: 'dark' | 'light';
  collapsed?: boolean;
  selected: string[];
  onPick: (node: MenuNode) => void;
}) {
  const byPath = useMemo(() => {
    const m = new Map<string, MenuNode>();
    const walk = (ns: MenuNode[]) => ns.forEach((n) => (m.set(n.path, n), walk(n.children ?? [])));
    walk(menu);
    return m;
  }, [menu]);
  const roots = useMemo(() => new Set(menu.map((n) => n.path)), [menu]);
  const selectedKey = selected[0] ?? '';
  const selectedTrail = useMemo(() => ancestors(menu, selectedKey) ?? [], [menu, selectedKey]);
  const [openKeys, setOpenKeys] = useState<string[]>(selectedTrail);
  const cached = useRef<string[]>([]);
  // Children of the open submenus and of the selected entry's ancestors (they mark the way to it, also when collapsed).
  const items = useMemo(
    () => toItems(menu, true, mode === 'horizontal' ? undefined : new Set([...openKeys, ...selectedTrail])),
    [menu, mode, openKeys, selectedTrail],
  );

  // Follow the route: open the ancestors of the selected entry.
  useEffect(() => {
    if (collapsed || mode === 'horizontal') return;
    if (selectedTrail.length) setOpenKeys((k) => (sameKeys(k, selectedTrail) ? k : selectedTrail));
  }, [selectedTrail, collapsed, mode]);
  // Open keys are cached while collapsed and restored after.
  useEffect(() => {
    if (collapsed) {
      cached.current = openKeys;
      setOpenKeys([]);
    } else if (cached.current.length) setOpenKeys(cached.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [collapsed]);

  const onOpenChange = (keys: string[]) => {
    if (mode === 'horizontal') return setOpenKeys(keys);
    // Only one top-level submenu open at a time.
    const latest = keys.find((k) => !openKeys.includes(k));
    if (latest && roots.has(latest)) setOpenKeys([latest]);
    else setOpenKeys(keys);
  };

  return (
    <Menu
      mode={mode}
      theme={theme}
      items={items}
      selectedKeys={selected}
      openKeys={mode === 'horizontal' ? undefined : openKeys}
      // Item titles are tooltips only in a collapsed menu; otherwise antd mounts a closed tooltip per item.
      _internalDisableMenuItemTitleTooltip={!collapsed}
      onOpenChange={onOpenChange}
      onClick={({ key }) => {
        const n = byPath.get(String(key));
        if (n) onPick(n);
      }}
      style={mode === 'horizontal' ? { flex: 1, minWidth: 0, borderBottom: 0, lineHeight: '64px' } : { borderInlineEnd: 0 }}
    />
  );
}
