import { useRef, useState } from 'react';

export const SLIDER_OK_TEXT = '验证通过';

export interface JSliderProps {
  value?: boolean;
  onChange?: (ok: boolean) => void;
  width?: number;
  text?: string;
}

/** Slider check: drag the handle to the end to verify; released early it snaps back. */
export function JSlider({ value, onChange, width = 300, text = '请按住滑块拖动' }: JSliderProps) {
  const handle = 40;
  const max = width - handle;
  const [x, setX] = useState(value ? max : 0);
  const start = useRef<number | null>(null);
  const ok = value ?? x >= max;
  const onDown = (e: React.PointerEvent) => {
    if (ok) return;
    start.current = e.clientX - x;
    (e.target as HTMLElement).setPointerCapture(e.pointerId);
  };
  const onMove = (e: React.PointerEvent) => {
    if (start.current === null) return;
    setX(Math.max(0, Math.min(max, e.clientX - start.current)));
  };
  const onUp = () => {
    if (start.current === null) return;
    start.current = null;
    if (x >= max) onChange?.(true);
    else setX(0);
  };
  return (
    <div role="slider" aria-valuenow={ok ? 100 : Math.round((x / max) * 100)} style={{ position: 'relative', width, height: 34, background: '#e8e8e8', borderRadius: 2, userSelect: 'none', textAlign: 'center', lineHeight: '34px' }}>
      <div style={{ position: 'absolute', left: 0, top: 0, bottom: 0, width: ok ? width : x + handle / 2, background: '#7ac23c' }} />
      <span style={{ position: 'relative', color: ok ? '#fff' : '#999', fontSize: 13 }}>{ok ? SLIDER_OK_TEXT : text}</span>
      <div
        className="j-slider-handle"
        onPointerDown={onDown}
        onPointerMove={onMove}
        onPointerUp={onUp}
        style={{ position: 'absolute', top: 0, left: ok ? max : x, width: handle, height: 34, background: '#fff', border: '1px solid #ccc', cursor: ok ? 'default' : 'move', boxSizing: 'border-box', lineHeight: '32px', color: ok ? '#7ac23c' : '#666' }}
      >
        {ok ? '✓' : '»'}
      </div>
    </div>
  );
}

export default JSlider;
