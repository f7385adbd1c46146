import { useState } from 'react';
import { ListPickerModal, PickerField, type Row } from './ListPicker';
import { splitMulti } from '../logic/inputs';
import type { ColumnsType } from 'antd/es/table';

interface SimplePickerProps {
  value?: string;
  onChange?: (v: string | undefined, texts?: string) => void;
  multi?: boolean;
  placeholder?: string;
  disabled?: boolean;
}

function makePicker(cfg: { title: string; width: number; url: string; store: string; text: string; searchField: string; searchLabel: string; columns: ColumnsType<Row> }) {
  return function Picker({ value, onChange, multi = false, placeholder = `请选择${cfg.searchLabel.replace(/名称|编码/, '')}`, disabled }: SimplePickerProps) {
    const [open, setOpen] = useState(false);
    const [known, setKnown] = useState<Row[]>([]);
    const vals = splitMulti(value);
    const text = vals.map((v) => String(known.find((k) => String(k[cfg.store]) === v)?.[cfg.text] ?? v)).join(',');
    return (
      <>
        <PickerField text={text} placeholder={placeholder} disabled={disabled} onOpen={() => setOpen(true)} onClear={() => onChange?.(undefined, '')} />
        <ListPickerModal
          open={open}
          title={cfg.title}
          width={cfg.width}
          url={cfg.url}
          rowKey={cfg.store}
          multiple={multi}
          searchField={cfg.searchField}
          searchLabel={cfg.searchLabel}
          columns={cfg.columns}
          selectedKeys={vals}
          onCancel={() => setOpen(false)}
          onOk={(rows) => {
            setKnown(rows);
            onChange?.(rows.map((r) => String(r[cfg.store])).join(','), rows.map((r) => String(r[cfg.text] ?? '')).join(','));
            setOpen(false);
          }}
        />
      </>
    );
  };
}

/** Role picker: returns roleCode (id available through the text callback's rows), shows roleName. */
export const JSelectRole = makePicker({
  title: '选择角色',
  width: 800,
  url: '/sys/role/list',
  store: 'roleCode',
  text: 'roleName',
  searchField: 'roleName',
  searchLabel: '角色名称',
  columns: [
    { title: '角色编码', dataIndex: 'roleCode' },
    { title: '角色名称', dataIndex: 'roleName' },
  ],
});

export const POSITION_PICKER_WIDTH = 1000;
/** Position picker (1000 wide): returns code, shows name. */
export const JSelectPosition = makePicker({
  title: '选择职务',
  width: POSITION_PICKER_WIDTH,
  url: '/sys/position/list',
  store: 'code',
  text: 'name',
  searchField: 'name',
  searchLabel: '职务名称',
  columns: [
    { title: '职务编码', dataIndex: 'code' },
    { title: '职务名称', dataIndex: 'name' },
    { title: '职级', dataIndex: 'rank_dictText' },
  ],
});
