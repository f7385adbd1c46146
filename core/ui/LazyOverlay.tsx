import { cloneElement, useState, type ReactElement, type ReactNode } from 'react';
import { Dropdown, Popconfirm, Popover, Tooltip, type DropdownProps, type PopoverProps } from 'antd';

/**
 * antd overlays (Dropdown, Popconfirm, Popover, Tooltip) mounted only when the user reaches for them. A
 * list of 500 rows would otherwise mount one trigger per row and cell (each with its own hooks and
 * style lookups) although at most one is ever opened; the header's overlays cost every first screen.
 * Until then the child renders alone; the first hover (or click) mounts the overlay already open.
 */
type Trigger = ReactElement<{ onMouseEnter?: (e: unknown) => void; onClick?: (e: unknown) => void }>;

function useArmed() {
  const [open, setOpen] = useState<boolean | undefined>(undefined);
  return { armed: open !== undefined, open: !!open, setOpen };
}

export function LazyDropdown({ menu, placement, children }: { menu: DropdownProps['menu']; placement?: DropdownProps['placement']; children: Trigger }) {
  const { armed, open, setOpen } = useArmed();
  if (!armed) return cloneElement(children, { onMouseEnter: () => setOpen(true) });
  return (
    <Dropdown menu={menu} placement={placement} open={open} onOpenChange={setOpen}>
      {children}
    </Dropdown>
  );
}

export function LazyPopconfirm({ title, onConfirm, children }: { title: ReactNode; onConfirm: () => void; children: Trigger }) {
  const { armed, open, setOpen } = useArmed();
  if (!armed) return cloneElement(children, { onClick: () => setOpen(true) });
  return (
    <Popconfirm title={title} open={open} onOpenChange={setOpen} onConfirm={onConfirm}>
      {children}
    </Popconfirm>
  );
}

/** Without a title there is nothing to show: the child stays as it is (arming would remount it under a hover, and an empty tip would open). */
export function LazyTooltip({ title, children }: { title: ReactNode; children: Trigger }) {
  const { armed, open, setOpen } = useArmed();
  if (!title) return children;
  if (!armed) return cloneElement(children, { onMouseEnter: () => setOpen(true) });
  return (
    <Tooltip title={title} open={open} onOpenChange={setOpen}>
      {children}
    </Tooltip>
  );
}

/** A click-opened Popover; `open`/`onOpenChange` may be controlled by the caller (e.g. to close it from its content). */
export function LazyPopover({ open, onOpenChange, children, ...props }: Omit<PopoverProps, 'trigger'> & { children: Trigger }) {
  const [armed, setArmed] = useState(false);
  if (!armed)
    return cloneElement(children, {
      onClick: () => {
        setArmed(true);
        onOpenChange?.(true);
      },
    });
  return (
    <Popover {...props} trigger="click" open={open} onOpenChange={onOpenChange}>
      {children}
    </Popover>
  );
}
