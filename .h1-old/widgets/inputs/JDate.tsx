import { DatePicker, TimePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';

export const DATE_FORMAT = 'YYYY-MM-DD';
export const DATETIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const TIME_FORMAT = 'HH:mm:ss';

export interface JDateProps {
  value?: string;
  onChange?: (v: string | undefined) => void;
  showTime?: boolean;
  /** Default YYYY-MM-DD, or YYYY-MM-DD HH:mm:ss with showTime. */
  dateFormat?: string;
  placeholder?: string;
  disabled?: boolean;
  style?: React.CSSProperties;
}

const parse = (v: string | undefined, fmt: string): Dayjs | null => {
  if (!v) return null;
  const d = dayjs(v, fmt);
  return d.isValid() ? d : dayjs(v).isValid() ? dayjs(v) : null;
};

/** Date or date-time picker storing a formatted string. */
export function JDate({ value, onChange, showTime, dateFormat, placeholder = '请选择日期', disabled, style }: JDateProps) {
  const fmt = dateFormat ?? (showTime ? DATETIME_FORMAT : DATE_FORMAT);
  return (
    <DatePicker
      value={parse(value, fmt)}
      showTime={showTime}
      format={fmt}
      placeholder={placeholder}
      disabled={disabled}
      style={{ width: '100%', ...style }}
      onChange={(d) => onChange?.(d ? d.format(fmt) : undefined)}
    />
  );
}

/** Time picker storing HH:mm:ss by default. */
export function JTime({ value, onChange, format = TIME_FORMAT, placeholder = '请选择时间', disabled }: { value?: string; onChange?: (v: string | undefined) => void; format?: string; placeholder?: string; disabled?: boolean }) {
  return <TimePicker value={value ? dayjs(value, format) : null} format={format} placeholder={placeholder} disabled={disabled} style={{ width: '100%' }} onChange={(d) => onChange?.(d ? d.format(format) : undefined)} />;
}

export default JDate;
