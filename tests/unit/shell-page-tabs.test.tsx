import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { PageTabs } from '@app/layouts/PageTabs';
import { stubResizeObserver } from '../helpers/resize-observer';

const TABS = [
  { key: '/home', title: '首页', closable: false },
  { key: '/a', title: '学期管理', closable: true },
  { key: '/b', title: '课程管理', closable: true },
];

function draw(activeKey = '/a') {
  const on = { pick: vi.fn(), close: vi.fn(), action: vi.fn() };
  const r = render(<PageTabs tabs={TABS} activeKey={activeKey} onPick={on.pick} onClose={on.close} onAction={on.action} />);
  return { ...r, on };
}

describe('page tab bar', () => {
  it("draws antd's editable-card markup: the active tab, close buttons on closable tabs only", () => {
    const { container } = draw();
    expect([...container.querySelectorAll('.ant-tabs-tab')].map((t) => t.textContent)).toEqual(['首页', '学期管理', '课程管理']);
    expect(container.querySelector('.ant-tabs-tab-active')!.textContent).toBe('学期管理');
    expect(screen.getByRole('tab', { name: '学期管理' }).getAttribute('aria-selected')).toBe('true');
    expect(container.querySelectorAll('.ant-tabs-tab-remove')).toHaveLength(2);
    expect(container.querySelector('[data-node-key="/home"] .ant-tabs-tab-remove')).toBeNull();
  });

  it('a click opens another tab (not the active one again); the close button closes without opening', () => {
    const { on } = draw();
    fireEvent.click(screen.getByText('学期管理'));
    expect(on.pick).not.toHaveBeenCalled();
    fireEvent.click(screen.getByText('课程管理'));
    expect(on.pick).toHaveBeenCalledWith('/b');
    fireEvent.click(screen.getAllByRole('button', { name: '关闭' })[1]!);
    expect(on.close).toHaveBeenCalledWith('/b');
    expect(on.pick).toHaveBeenCalledTimes(1);
  });

  it('keyboard: ←/→ move the focus, Enter opens, Delete closes a closable tab only', () => {
    const { on } = draw();
    const active = screen.getByRole('tab', { name: '学期管理' });
    active.focus();
    fireEvent.keyDown(active, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: '课程管理' }));
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    expect(on.pick).toHaveBeenCalledWith('/b');
    fireEvent.keyDown(document.activeElement!, { key: 'Delete' });
    expect(on.close).toHaveBeenCalledWith('/b');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: '首页' }));
    fireEvent.keyDown(document.activeElement!, { key: 'Delete' });
    expect(on.close).toHaveBeenCalledTimes(1); // 首页 cannot be closed
  });

  it('scrolls the active tab into view and marks the edges only after layout (a ResizeObserver callback), never while committing', () => {
    const layout = stubResizeObserver();
    // A 100 px bar holding 300 px of tabs, the active one at 200–300 px.
    const reads = vi.fn();
    const geometry: Record<string, (el: HTMLElement) => number> = {
      scrollWidth: (el) => (el.classList.contains('ant-tabs-nav-wrap') ? 300 : 0),
      clientWidth: (el) => (el.classList.contains('ant-tabs-nav-wrap') ? 100 : 0),
      offsetLeft: (el) => (el.classList.contains('ant-tabs-tab-active') ? 200 : 0),
      offsetWidth: () => 100,
    };
    const saved = Object.keys(geometry).map((k) => [k, Object.getOwnPropertyDescriptor(HTMLElement.prototype, k) ?? Object.getOwnPropertyDescriptor(Element.prototype, k)] as const);
    for (const [k, f] of Object.entries(geometry))
      Object.defineProperty(HTMLElement.prototype, k, { configurable: true, get(this: HTMLElement) { reads(k); return f(this); } });
    try {
      const { container } = draw('/b');
      expect(reads).not.toHaveBeenCalled(); // nothing measured while React commits
      const wrap = container.querySelector<HTMLElement>('.ant-tabs-nav-wrap')!;
      layout.fire();
      expect(wrap.scrollLeft).toBe(200);
      expect(wrap.parentElement!.classList.contains('tabs-more-left')).toBe(true);
    } finally {
      for (const [k, d] of saved) if (d) Object.defineProperty(HTMLElement.prototype, k, d);
      else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[k];
      layout.restore();
    }
  });
});
