import { useRef, useState } from 'react';
import { CheckCircleFilled, DoubleRightOutlined } from '@ant-design/icons';
import './slider-check.css';

/** Drag-to-verify (SPEC §4): verified only when dragged to full width; released early it snaps back. */
export function SliderCheck({ onSuccess, width = 336 }: { onSuccess: () => void; width?: number }) {
  const HANDLE = 40;
  const [x, setX] = useState(0);
  const [done, setDone] = useState(false);
  const start = useRef<number | null>(null);
  const max = width - HANDLE;

  const down = (e: React.PointerEvent<HTMLDivElement>) => {
    if (done) return;
    start.current = e.clientX - x;
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const move = (e: React.PointerEvent<HTMLDivElement>) => {
    if (start.current === null || done) return;
    setX(Math.min(max, Math.max(0, e.clientX - start.current)));
  };
  const up = () => {
    if (start.current === null) return;
    start.current = null;
    if (x >= max) {
      setDone(true);
      onSuccess();
    } else setX(0);
  };
  return (
    <div className={`slider-check${done ? ' done' : ''}`} style={{ width }} data-testid="slider-check">
      <div className="slider-check-bar" style={{ width: x + HANDLE / 2 }} />
      <div className="slider-check-text">{done ? '验证通过' : '请按住滑块拖动'}</div>
      <div
        className="slider-check-handle"
        role="slider"
        aria-label="滑块验证"
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={Math.round(x)}
        style={{ left: x, transition: start.current === null ? 'left .3s' : 'none' }}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
      >
        {done ? <CheckCircleFilled /> : <DoubleRightOutlined />}
      </div>
    </div>
  );
}
