import { Tooltip } from 'antd';
import { ellipsis, ELLIPSIS_LENGTH } from '../logic/inputs';

/** Text cut at `length` characters (default 25) on one line, the whole text in a tooltip. */
export function JEllipsis({ value, length = ELLIPSIS_LENGTH }: { value?: unknown; length?: number }) {
  const full = value === undefined || value === null ? '' : String(value);
  const shown = ellipsis(full, length);
  const span = <span style={{ whiteSpace: 'nowrap', overflow: 'hidden', display: 'inline-block', maxWidth: '100%', verticalAlign: 'bottom' }}>{shown}</span>;
  return shown === full ? span : <Tooltip title={full}>{span}</Tooltip>;
}

export default JEllipsis;
