import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type WheelEvent } from 'react';
import { Dropdown, type MenuProps } from 'antd';
import { CloseOutlined, EllipsisOutlined } from '@ant-design/icons';
import useTabsStyle from 'antd/es/tabs/style';
import { moveFocus } from '@core/ui/moveFocus';
import { hiddenBeyond } from '@core/ui/hiddenBeyond';

export type TabAction = 'refresh' | 'left' | 'right' | 'others';

const ACTIONS: MenuProps['items'] = [
  { key: 'refresh', label: '刷新' },
  { key: 'left', label: '关闭左侧' },
  { key: 'right', label: '关闭右侧' },
  { key: 'others', label: '关闭其他' },
];

/** Shadows at the bar's edges while tabs are hidden beyond them (basic-layout.css); whether any are. */
function edges(w: HTMLElement): boolean {
  const nav = w.parentElement!;
  const beyond = hiddenBeyond(w);
  nav.classList.toggle('tabs-more-left', beyond.left);
  nav.classList.toggle('tabs-more-right', beyond.right);
  return beyond.left || beyond.right;
}

const keyOf = (el: EventTarget | null) => (el instanceof Element ? el.closest<HTMLElement>('[data-node-key]')?.dataset.nodeKey : undefined);

/**
 * The open pages' tab bar (multi-tab mode), drawn as antd's editable-card Tabs markup and class names
 * (its styles apply). antd's Tabs measures every tab in a layout effect (forcing the page's first
 * layout inside React's commit) and wraps each label in its own dropdown; this bar measures nothing
 * while drawing: it scrolls sideways when the tabs overflow (the wheel scrolls it too; shadows mark
 * the edges with tabs beyond them, and a 更多 button lists every tab), and one right-click menu
 * serves every tab. Keyboard: ←/→ move between tabs, Enter or Space opens one,
 * Delete closes it.
 */
export function PageTabs({
  tabs, activeKey, onPick, onClose, onAction,
}: {
  tabs: Array<{ key: string; title: string; closable: boolean }>;
  activeKey: string;
  onPick: (key: string) => void;
  onClose: (key: string) => void;
  onAction: (key: string, action: TabAction) => void;
}) {
  const [, hashId] = useTabsStyle('ant-tabs'); // antd's tab styles (generated in development; pre-built in production)
  const wrap = useRef<HTMLDivElement>(null);
  const [menuFor, setMenuFor] = useState<string>();
  const [menuOpen, setMenuOpen] = useState(false);
  const [overflow, setOverflow] = useState(false); // tabs hidden beyond an edge: the 更多 list of every tab shows

  // The active tab scrolled into the bar's view when it changes, and the edge shadows: measured after the
  // browser's own layout (a ResizeObserver's callbacks: once when observed, then when the bar resizes),
  // never forcing one — a page's first layout can hold a whole list.
  useEffect(() => {
    const w = wrap.current;
    if (!w) return;
    const ro = new ResizeObserver(() => {
      const t = w.querySelector<HTMLElement>('.ant-tabs-tab-active');
      if (t && w.scrollWidth > w.clientWidth) {
        if (t.offsetLeft < w.scrollLeft) w.scrollLeft = t.offsetLeft;
        else if (t.offsetLeft + t.offsetWidth > w.scrollLeft + w.clientWidth) w.scrollLeft = t.offsetLeft + t.offsetWidth - w.clientWidth;
      }
      setOverflow(edges(w));
    });
    ro.observe(w);
    return () => ro.disconnect();
  }, [activeKey, tabs.length]);

  const pick = (key: string) => key !== activeKey && onPick(key);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const all = [...e.currentTarget.querySelectorAll<HTMLElement>('[role=tab].ant-tabs-tab-btn')];
    const at = all.indexOf(document.activeElement as HTMLElement);
    const key = keyOf(document.activeElement);
    if (at < 0 || key === undefined) return;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') moveFocus(all, e.key === 'ArrowRight' ? 1 : -1);
    else if (e.key === 'Enter' || e.key === ' ') pick(key);
    else if (e.key === 'Delete' && tabs.find((t) => t.key === key)?.closable) onClose(key);
    else return;
    e.preventDefault();
  };
  const onWheel = (e: WheelEvent<HTMLDivElement>) => {
    const w = e.currentTarget;
    if (w.scrollWidth > w.clientWidth && Math.abs(e.deltaY) > Math.abs(e.deltaX)) w.scrollLeft += e.deltaY;
  };

  return (
    <div className={`ant-tabs ant-tabs-top ant-tabs-editable ant-tabs-small ant-tabs-card ant-tabs-editable-card ${hashId}`}>
      <Dropdown
        trigger={['contextMenu']}
        open={menuOpen && menuFor !== undefined}
        onOpenChange={setMenuOpen}
        menu={{ items: ACTIONS, onClick: ({ key }) => (setMenuOpen(false), menuFor !== undefined && onAction(menuFor, key as TabAction)) }}
      >
        <div role="tablist" aria-orientation="horizontal" className="ant-tabs-nav" onKeyDown={onKeyDown} onContextMenu={(e: MouseEvent) => setMenuFor(keyOf(e.target))}>
          <div ref={wrap} className="ant-tabs-nav-wrap" onWheel={onWheel} onScroll={(e) => setOverflow(edges(e.currentTarget))}>
            <div className="ant-tabs-nav-list">
              {tabs.map((t) => {
                const active = t.key === activeKey;
                return (
                  <div key={t.key} data-node-key={t.key} className={`ant-tabs-tab${t.closable ? ' ant-tabs-tab-with-remove' : ''}${active ? ' ant-tabs-tab-active' : ''}${menuOpen && menuFor === t.key ? ' tab-menu-open' : ''}`} onClick={() => pick(t.key)}>
                    <div role="tab" aria-selected={active} tabIndex={active ? 0 : -1} className="ant-tabs-tab-btn">
                      <span className="tab-label" data-tab={t.key}>{t.title}</span>
                    </div>
                    {t.closable && (
                      <button type="button" aria-label="关闭" tabIndex={-1} className="ant-tabs-tab-remove" onClick={(e) => (e.stopPropagation(), onClose(t.key))}>
                        <CloseOutlined />
                      </button>
                    )}
                  </div>
                );
              })}
            </div>
          </div>
          {overflow && (
            <div className="ant-tabs-nav-operations">
              <Dropdown trigger={['click']} menu={{ items: tabs.map((t) => ({ key: t.key, label: t.title })), selectable: true, selectedKeys: [activeKey], onClick: ({ key }) => pick(key) }}>
                <button type="button" className="ant-tabs-nav-more" aria-label="更多标签页" title="更多标签页">
                  <EllipsisOutlined />
                </button>
              </Dropdown>
            </div>
          )}
        </div>
      </Dropdown>
    </div>
  );
}
