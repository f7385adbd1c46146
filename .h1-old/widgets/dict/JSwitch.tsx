import { useEffect } from 'react';
import { Switch } from 'antd';
import { SWITCH_OPTIONS, switchChecked, switchValue } from '../logic/inputs';

export interface JSwitchProps {
  value?: unknown;
  onChange?: (v: unknown) => void;
  /** [on, off]; default ['Y', 'N']. */
  options?: [unknown, unknown];
  disabled?: boolean;
}

/** Switch over two values; an empty value emits the off value. */
export function JSwitch({ value, onChange, options = SWITCH_OPTIONS, disabled }: JSwitchProps) {
  const empty = value === undefined || value === null || value === '';
  useEffect(() => {
    if (empty) onChange?.(options[1]);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [empty]);
  return <Switch checked={switchChecked(value, options)} disabled={disabled} onChange={(c) => onChange?.(switchValue(c, options))} />;
}

export default JSwitch;
