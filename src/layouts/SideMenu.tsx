import { useEffect, useMemo, useRef, useState } from 'react';
import { Menu, type MenuProps } from 'antd';
import type { MenuNode } from '@/session/store';
import { isContainer } from '@/router/menu';
import { menuIcon } from '@/layouts/icons';

type Item = Required<MenuProps>['items'][number];

function toItems(nodes: MenuNode[], top: boolean): Item[] {
  return nodes
    .filter((n) => !n.hidden)
    .map((n): Item => {
      const icon = top || n.meta?.icon ? menuIcon(n.meta?.icon) : undefined;
      const kids = (n.children ?? []).filter((c) => !c.hidden);
      if (isContainer(n) && (kids.length > 0 || n.alwaysShow)) return { key: n.path, icon, label: n.meta?.title ?? n.name, children: toItems(kids, false) };
      return { key: n.path, icon, label: n.meta?.title ?? n.name };
    });
}

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
  const items = useMemo(() => toItems(menu, true), [menu]);
  const byPath = useMemo(() => {
    const m = new Map<string, MenuNode>();
    const walk = (ns: MenuNode[]) => ns.forEach((n) => (m.set(n.path, n), walk(n.children ?? [])));
    walk(menu);
    return m;
  }, [menu]);
  const roots = useMemo(() => new Set(menu.map((n) => n.path)), [menu]);
  const [openKeys, setOpenKeys] = useState<string[]>(() => ancestors(menu, selected[0] ?? '') ?? []);
  const cached = useRef<string[]>([]);

  // Follow the route: open the ancestors of the selected entry.
  useEffect(() => {
    if (collapsed || mode === 'horizontal') return;
    const a = ancestors(menu, selected[0] ?? '');
    if (a?.length) setOpenKeys(a);
  }, [menu, selected, collapsed, mode]);
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
      onOpenChange={onOpenChange}
      onClick={({ key }) => {
        const n = byPath.get(String(key));
        if (n) onPick(n);
      }}
      style={mode === 'horizontal' ? { flex: 1, minWidth: 0, borderBottom: 0, lineHeight: '64px' } : { borderInlineEnd: 0 }}
    />
  );
}
