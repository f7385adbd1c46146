import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Card } from 'antd';

export const FLIP_THRESHOLD = 350;
export const RETRY_MS = 100;
export const RETRIES = 3;

/** Where the sub-table popover goes: above the row when less than 350 px remain below it. */
export function popoverPlacement(rowBottom: number, viewportHeight: number): 'top' | 'bottom' {
  return viewportHeight - rowBottom < FLIP_THRESHOLD ? 'top' : 'bottom';
}

export interface JSubTablePopoverProps {
  /** The row element the popover is attached to (or a function finding it — retried 3 × every 100 ms). */
  anchor: HTMLElement | (() => HTMLElement | null) | null;
  open: boolean;
  title?: string;
  children?: ReactNode;
  onClose?: () => void;
}

/** A sub-table shown under (or above) a table row. */
export function JSubTablePopover({ anchor, open, title, children, onClose }: JSubTablePopoverProps) {
  const [pos, setPos] = useState<{ top: number; left: number; width: number; place: 'top' | 'bottom' }>();
  const [failed, setFailed] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    let tries = 0;
    let timer: ReturnType<typeof setTimeout>;
    const place = () => {
      const el = typeof anchor === 'function' ? anchor() : anchor;
      if (!el) {
        if (++tries > RETRIES) {
          setFailed(true);
          console.error('Failed to open sub table');
          return;
        }
        timer = setTimeout(place, RETRY_MS);
        return;
      }
      const r = el.getBoundingClientRect();
      const p = popoverPlacement(r.bottom, window.innerHeight);
      setPos({ top: p === 'bottom' ? r.bottom + window.scrollY : r.top + window.scrollY, left: r.left + window.scrollX, width: r.width, place: p });
    };
    place();
    return () => clearTimeout(timer);
  }, [open, anchor]);
  if (!open) return null;
  if (failed) return <div role="alert" style={{ color: '#ff4d4f' }}>Failed to open sub table</div>;
  if (!pos) return null;
  return (
    <div ref={box} className={`j-sub-table-popover j-sub-table-${pos.place}`} style={{ position: 'absolute', zIndex: 1000, left: pos.left, width: pos.width, top: pos.top, transform: pos.place === 'top' ? 'translateY(-100%)' : undefined }}>
      <Card size="small" title={title} extra={onClose && <a onClick={onClose}>关闭</a>} style={{ boxShadow: '0 6px 16px rgba(0,0,0,.15)' }}>
        {children}
      </Card>
    </div>
  );
}

export default JSubTablePopover;
