import { DatePicker } from 'antd';

/**
 * The query form's date controls, in a chunk of their own: antd's date picker is its largest
 * component and most list pages have no date field, so a list without one never loads it.
 */
export function QueryDate({ kind, ...props }: { kind: 'DatePicker' | 'DateRange' | 'DateTimeRange' } & Record<string, unknown>) {
  if (kind === 'DatePicker') return <DatePicker style={{ width: '100%' }} {...props} />;
  return <DatePicker.RangePicker showTime={kind === 'DateTimeRange'} style={{ width: '100%' }} {...props} />;
}
