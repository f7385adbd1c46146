import { useEffect, useState } from 'react';

export type Device = 'desktop' | 'tablet' | 'mobile';

/** SPEC §4 breakpoints: ≤767.99 px mobile, ≤1087.99 px tablet (sidebar closed), else desktop. */
export function deviceOf(width: number): Device {
  return width < 768 ? 'mobile' : width < 1088 ? 'tablet' : 'desktop';
}

export function useDevice(): Device {
  const [d, setD] = useState<Device>(() => deviceOf(window.innerWidth));
  useEffect(() => {
    const f = () => setD(deviceOf(window.innerWidth));
    window.addEventListener('resize', f);
    return () => window.removeEventListener('resize', f);
  }, []);
  return d;
}
