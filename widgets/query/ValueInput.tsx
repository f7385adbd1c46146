import { Input } from 'antd';
import { valueWidgetOf, type QueryRow } from '../logic/query';
import { JDictSelectTag } from '../dict/JDictSelectTag';
import { JMultiSelectTag } from '../dict/JMultiSelectTag';
import { JSearchSelectTag } from '../dict/JSearchSelectTag';
import { JSelectDepart } from '../pickers/JSelectDepart';
import { JSelectUser } from '../pickers/JSelectUser';
import { JDate, JTime } from '../inputs/JDate';
import { JInputNumber } from '../inputs/JInputNumber';
import { JSwitch } from '../dict/JSwitch';
import { JPopup } from '../pickers/JPopup';

/** The value control of one advanced-query row, chosen by the field's type (SPEC §5). */
export default function ValueInput({ row, onChange }: { row: QueryRow; onChange: (v: unknown) => void }) {
  const multi = row.rule === 'in';
  const opts = row.options?.map((o) => ({ value: String(o.value), text: o.text ?? o.label ?? String(o.value) }));
  const dict = row.dictTable ? `${row.dictTable},${row.dictText},${row.dictCode}` : row.dictCode;
  switch (valueWidgetOf(row.type)) {
    case 'dictSearch':
      return multi ? <JMultiSelectTag dictCode={dict} options={opts} value={row.val} onChange={onChange} /> : <JSearchSelectTag dict={dict} dictOptions={opts} value={row.val} onChange={onChange} />;
    case 'dict':
    case 'dictMulti':
      return multi || valueWidgetOf(row.type) === 'dictMulti' ? <JMultiSelectTag dictCode={dict} options={opts} value={row.val} onChange={onChange} /> : <JDictSelectTag dictCode={dict} options={opts} value={row.val} onChange={onChange} />;
    case 'user':
      return <JSelectUser value={row.val} multi={multi} onChange={onChange} />;
    case 'depart':
      return <JSelectDepart value={row.val} multi={multi} customReturnField={(row.customReturnField as 'id') ?? 'id'} onChange={onChange} />;
    case 'popup': {
      const p = (row.popup ?? {}) as { code?: string; field?: string; orgFields?: string; destFields?: string };
      return <JPopup value={row.val} code={p.code} orgFields={p.orgFields} destFields={p.destFields} field={p.field} onChange={onChange} />;
    }
    case 'date':
      return <JDate value={row.val} onChange={onChange} />;
    case 'datetime':
      return <JDate value={row.val} showTime onChange={onChange} />;
    case 'time':
      return <JTime value={row.val} onChange={onChange} />;
    case 'number':
      return <JInputNumber value={row.val} onChange={onChange} />;
    case 'switch':
      return <JSwitch value={row.val} onChange={onChange} />;
    case 'area':
    default:
      return <Input value={row.val ?? ''} placeholder={multi ? '多个值用逗号分隔' : '请输入值'} onChange={(e) => onChange(e.target.value)} />;
  }
}
