import { cloneElement, isValidElement, useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactElement, type ReactNode } from 'react';
import { Menu, type MenuProps } from 'antd';
import useMenuStyle from 'antd/es/menu/style';
import type { MenuNode } from '@core/session/store';
import { isContainer } from '@core/menu';
import { menuIcon } from '@core/ui/icons';
import { moveFocus } from '@core/ui/moveFocus';

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

/**
 * The expanded inline menu, drawn as antd Menu's markup and class names (its styles apply; the
 * collapsed and the horizontal menus are antd's Menu, for their popups and overflow). antd's Menu
 * gives every item a component with its own hooks and renders the items a second time, hidden, to
 * collect their key paths: on the first screen it was a quarter of the layout's render. Keyboard:
 * ↑/↓ move between the visible entries, Enter or Space opens one, → / ← open and close a branch.
 */
function InlineMenu({
  items, theme, selected, trail, openKeys, onOpen, onClose, onPick,
}: {
  items: Item[];
  theme: 'dark' | 'light';
  selected: string[];
  trail: Set<string>;
  openKeys: string[];
  onOpen: (key: string) => void;
  onClose: (key: string) => void;
  onPick: (key: string) => void;
}) {
  const [, hashId] = useMenuStyle('ant-menu'); // antd's menu styles (generated in development; pre-built in production)
  const open = new Set(openKeys);
  const draw = (list: Item[], level: number): ReactNode[] =>
    list.map((item) => {
      const { key, icon, label, children } = item as { key: string; icon?: ReactNode; label: ReactNode; children?: Item[] };
      const iconEl = withClass(icon, 'ant-menu-item-icon');
      const title = <span className="ant-menu-title-content">{label}</span>;
      const indent = { paddingLeft: 24 * level };
      if (children) {
        const isOpen = open.has(key);
        return (
          <li key={key} role="none" className={`ant-menu-submenu ant-menu-submenu-inline${isOpen ? ' ant-menu-submenu-open' : ''}${trail.has(key) ? ' ant-menu-submenu-selected' : ''}`}>
            <div role="menuitem" tabIndex={-1} aria-haspopup="true" aria-expanded={isOpen} data-key={key} className="ant-menu-submenu-title" style={indent} onClick={() => (isOpen ? onClose : onOpen)(key)}>
              {iconEl}
              {title}
              <i className="ant-menu-submenu-arrow" />
            </div>
            {isOpen && (
              <ul role="menu" className="ant-menu ant-menu-sub ant-menu-inline">
                {draw(children, level + 1)}
              </ul>
            )}
          </li>
        );
      }
      return (
        <li key={key} role="menuitem" tabIndex={-1} data-key={key} style={indent} onClick={() => onPick(key)}
          className={`ant-menu-item${selected.includes(key) ? ' ant-menu-item-selected' : ''}${icon ? '' : ' ant-menu-item-only-child'}`}>
          {iconEl}
          {title}
        </li>
      );
    });
  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const entries = [...e.currentTarget.querySelectorAll<HTMLElement>('[role=menuitem]')];
    const at = entries.indexOf(document.activeElement as HTMLElement);
    const key = (document.activeElement as HTMLElement | null)?.dataset.key;
    const branch = key !== undefined && entries[at]?.classList.contains('ant-menu-submenu-title');
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') moveFocus(entries, e.key === 'ArrowDown' ? 1 : -1);
    else if ((e.key === 'Enter' || e.key === ' ') && at >= 0) entries[at]!.click();
    else if (e.key === 'ArrowRight' && branch && !open.has(key)) onOpen(key);
    else if (e.key === 'ArrowLeft' && branch && open.has(key)) onClose(key);
    else return;
    e.preventDefault();
  };
  return (
    <ul role="menu" tabIndex={0} className={`ant-menu ant-menu-root ant-menu-inline ant-menu-${theme} ${hashId}`} style={{ borderInlineEnd: 0 }} onKeyDown={onKeyDown}>
      {draw(items, 1)}
    </ul>
  );
}

/** An icon element with `className` added (antd's Menu does the same to its items' icons). */
function withClass(icon: ReactNode, className: string): ReactNode {
  if (!isValidElement(icon)) return icon;
  const el = icon as ReactElement<{ className?: string }>;
  return cloneElement(el, { className: [el.props.className, className].filter(Boolean).join(' ') });
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
  // The branches holding a selected entry (antd marks them selected too).
  const selectedBranches = useMemo(() => new Set(selected.flatMap((k) => ancestors(menu, k) ?? [])), [menu, selected]);
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

  const pick = (key: string) => {
    const n = byPath.get(key);
    if (n) onPick(n);
  };
  if (mode === 'inline' && !collapsed)
    return (
      <InlineMenu
        items={items}
        theme={theme}
        selected={selected}
        trail={selectedBranches}
        openKeys={openKeys}
        onOpen={(key) => onOpenChange([...openKeys, key])}
        onClose={(key) => setOpenKeys(openKeys.filter((k) => k !== key))}
        onPick={pick}
      />
    );
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
      onClick={({ key }) => pick(String(key))}
      style={mode === 'horizontal' ? { flex: 1, minWidth: 0, borderBottom: 0, lineHeight: '64px' } : { borderInlineEnd: 0 }}
    />
  );
}
