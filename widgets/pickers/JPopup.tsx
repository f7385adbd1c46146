import { useEffect, useState } from 'react';
import { Alert, message } from 'antd';
import { http } from '@core/http/client';
import { ListPickerModal, PickerField, type Row } from './ListPicker';
import { checkPopupConfig } from '../logic/inputs';

export const POPUP_WIDTH = 1200;

export interface JPopupProps {
  value?: string;
  /** Called with the value of the first destination field, and all destination values. */
  onChange?: (v: string | undefined, values?: Record<string, string>) => void;
  /** Online report code. */
  code?: string;
  /** Report fields, comma-separated, copied into … */
  orgFields?: string;
  /** … these destination fields. */
  destFields?: string;
  /** The destination field this control shows. */
  field?: string;
  multi?: boolean;
  placeholder?: string;
  disabled?: boolean;
}

interface RpColumns {
  columns: { dataIndex: string; title: string }[];
  cgRpConfigId: string;
  cgRpConfigName: string;
}

/** Popup picker over an online report (1200 wide). */
export function JPopup({ value, onChange, code, orgFields, destFields, field, multi = false, placeholder = '请选择', disabled }: JPopupProps) {
  const configError = checkPopupConfig(code, orgFields, destFields);
  const [open, setOpen] = useState(false);
  const [cfg, setCfg] = useState<RpColumns>();
  useEffect(() => {
    if (!open || configError || cfg) return;
    void http.get<RpColumns>(`/online/cgreport/api/getRpColumns/${encodeURIComponent(code!)}`).then((r) => {
      if (r.success && r.result) setCfg(r.result);
      else {
        void message.error(r.message || '加载报表配置失败');
        setOpen(false);
      }
    });
  }, [open, configError, cfg, code]);
  if (configError) return <Alert type="error" showIcon message={configError} />;
  const org = orgFields!.split(',');
  const dest = destFields!.split(',');
  return (
    <>
      <PickerField text={value ?? ''} placeholder={placeholder} disabled={disabled} onOpen={() => setOpen(true)} onClear={() => onChange?.(undefined, Object.fromEntries(dest.map((d) => [d, ''])))} />
      {cfg && (
        <ListPickerModal
          open={open}
          title={cfg.cgRpConfigName}
          width={POPUP_WIDTH}
          url={`/online/cgreport/api/getData/${encodeURIComponent(cfg.cgRpConfigId)}`}
          rowKey="id"
          multiple={multi}
          columns={cfg.columns.map((c) => ({ title: c.title, dataIndex: c.dataIndex }))}
          onCancel={() => setOpen(false)}
          onOk={(rows: Row[]) => {
            const values = Object.fromEntries(dest.map((d, i) => [d, rows.map((r) => String(r[org[i]!] ?? '')).join(',')]));
            onChange?.(values[field ?? dest[0]!], values);
            setOpen(false);
          }}
        />
      )}
    </>
  );
}

export default JPopup;
