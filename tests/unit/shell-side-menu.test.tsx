import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { SideMenu, toItems } from '@app/layouts/SideMenu';
import type { MenuNode } from '@core/session/store';
import { MenuIconSelect } from '@widgets/admin/MenuIconSelect';
import { MENU_ICON_NAMES } from '@core/ui/icons';

const node = (path: string, title: string, children?: MenuNode[]): MenuNode => ({
  id: path, path, name: title, component: children ? 'layouts/RouteView' : 'demo/Page', meta: { title }, ...(children ? { children, redirect: children[0]!.path } : {}),
});
const MENU = [
  node('/a', '听课管理', [node('/a/one', '听课记录'), node('/a/two', '听课安排')]),
  node('/b', '系统管理', [node('/b/users', '用户管理'), node('/b/roles', '角色管理')]),
];

describe('side menu', () => {
  it('gives antd the items of expanded branches only (a closed branch stays a submenu without children)', () => {
    const items = toItems(MENU, true, new Set(['/a'])) as Array<{ key: string; children?: Array<{ key: string }> }>;
    expect(items.map((i) => [i.key, i.children?.map((c) => c.key)])).toEqual([['/a', ['/a/one', '/a/two']], ['/b', []]]);
    // The horizontal menu opens its popups itself: every item.
    expect((toItems(MENU, true) as typeof items)[1]!.children!.map((c) => c.key)).toEqual(['/b/users', '/b/roles']);
  });

  it("draws the children of the selected entry's branch only, and a branch's children once it is opened", async () => {
    const onPick = vi.fn();
    const { container } = render(<SideMenu menu={MENU} mode="inline" theme="dark" selected={['/a/two']} onPick={onPick} />);
    expect(screen.getByText('听课安排')).toBeInTheDocument();
    expect(container.querySelector('.ant-menu-item-selected')?.textContent).toBe('听课安排');
    // The closed branch is a submenu without its items (antd would render them all, twice).
    expect(screen.getByText('系统管理')).toBeInTheDocument();
    expect(screen.queryByText('用户管理')).toBeNull();

    await act(async () => void fireEvent.click(screen.getByText('系统管理')));
    expect(screen.getByText('用户管理')).toBeInTheDocument();
    fireEvent.click(screen.getByText('角色管理'));
    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ path: '/b/roles' }));
  });

  it('keeps a branch the user opened when the layout renders again on the same page', async () => {
    const { rerender } = render(<SideMenu menu={MENU} mode="inline" theme="dark" selected={['/a/one']} onPick={() => undefined} />);
    await act(async () => void fireEvent.click(screen.getByText('系统管理')));
    expect(screen.getByText('用户管理')).toBeInTheDocument();
    // A new `selected` array for the same page (every layout render makes one) leaves the open branch alone.
    rerender(<SideMenu menu={MENU} mode="inline" theme="dark" selected={['/a/one']} onPick={() => undefined} />);
    expect(document.querySelector('.ant-menu-submenu-open')?.textContent).toContain('系统管理');
  });

  it('marks the branch of the selected entry, and works from the keyboard: ↑/↓ move, → / ← open and close a branch, Enter picks', async () => {
    const onPick = vi.fn();
    const { container } = render(<SideMenu menu={MENU} mode="inline" theme="dark" selected={['/a/two']} onPick={onPick} />);
    expect(container.querySelector('.ant-menu-submenu-selected')?.textContent).toContain('听课管理');
    const root = container.querySelector<HTMLElement>('.ant-menu-root')!;
    const key = (k: string) => act(async () => void fireEvent.keyDown(root, { key: k }));
    screen.getByText('听课管理').closest<HTMLElement>('[role=menuitem]')!.focus();
    await key('ArrowDown');
    await key('ArrowDown');
    await key('ArrowDown');
    expect(document.activeElement?.textContent).toBe('系统管理');
    await key('ArrowRight');
    expect(screen.getByText('用户管理')).toBeInTheDocument();
    expect(screen.queryByText('听课记录')).toBeNull(); // one top-level branch open at a time
    await key('ArrowDown');
    await key('Enter');
    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ path: '/b/users' }));
    await key('ArrowUp');
    await key('ArrowLeft');
    expect(screen.queryByText('用户管理')).toBeNull();
  });

  it('collapsed, it is antd\'s menu (its popups show the branches); expanded, not', () => {
    const antd = (collapsed: boolean) => {
      const { container, unmount } = render(<SideMenu menu={MENU} mode="inline" theme="dark" collapsed={collapsed} selected={['/a/two']} onPick={() => undefined} />);
      const found = container.querySelector('[data-menu-list]') !== null; // rc-menu's own attribute
      unmount();
      return found;
    };
    expect([antd(true), antd(false)]).toEqual([true, false]);
  });

  it('the menu form offers the icons the side menu can draw, each with its picture, and keeps an unknown stored name', async () => {
    const onChange = vi.fn();
    const { container, rerender } = render(<MenuIconSelect onChange={onChange} />);
    fireEvent.mouseDown(container.querySelector('.ant-select-selector')!);
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'set' } });
    const shown = () => [...document.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent);
    await vi.waitFor(() => expect(shown()).toEqual(MENU_ICON_NAMES.filter((n) => n.includes('set'))));
    expect(document.querySelector('.ant-select-item-option .anticon-setting')).not.toBeNull();
    fireEvent.click(document.querySelector('.ant-select-item-option')!);
    expect(onChange).toHaveBeenCalledWith('setting');
    rerender(<MenuIconSelect value="icon-from-elsewhere" onChange={onChange} />);
    expect(container.querySelector('.ant-select-selection-item')).toHaveTextContent('icon-from-elsewhere');
  });
});
