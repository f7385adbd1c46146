import { useState, type ComponentType } from 'react';

/** Story helper: a controlled widget with its current value printed under it. */
export function Controlled<P extends { value?: unknown; onChange?: (v: any, ...rest: any[]) => void }>({ component: C, initial, width = 360, ...props }: { component: ComponentType<P>; initial?: unknown; width?: number } & Omit<P, 'value' | 'onChange'>) {
  const [value, setValue] = useState<unknown>(initial);
  const Any = C as ComponentType<any>;
  return (
    <div style={{ width }}>
      <Any {...props} value={value} onChange={(v: unknown) => setValue(v)} />
      <pre data-testid="value" style={{ marginTop: 8, fontSize: 12, color: '#666' }}>值: {JSON.stringify(value ?? null)}</pre>
    </div>
  );
}
