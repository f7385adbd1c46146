import { useState } from 'react';
import type { ColumnsType } from 'antd/es/table';
import { ListPickerModal, PickerField, type Row } from './ListPicker';
import { splitMulti } from '../logic/inputs';

export const BIZ_PICKER_WIDTH = 900;
export const BIZ_PAGE_SIZE = 5;
export const BIZ_PAGE_SIZES = [5, 10, 20, 30];
export const BIZ_LABEL_ELLIPSIS = 12;
export const BIZ_SELECTED_HEIGHT = 240;

export interface JSelectBizComponentProps {
  value?: string;
  onChange?: (v: string | undefined, rows?: Row[]) => void;
  listUrl: string;
  columns: ColumnsType<Row>;
  /** Stored key (default id) and label field (default id). */
  valueKey?: string;
  displayKey?: string;
  multiple?: boolean;
  queryParamText?: string;
  queryParamCode?: string;
  title?: string;
  /** Label ellipsis length; -1 disables. */
  ellipsisLength?: number;
  placeholder?: string;
  disabled?: boolean;
}

/** Business-record picker (900 wide, page size 5). */
export function JSelectBizComponent({ value, onChange, listUrl, columns, valueKey = 'id', displayKey = 'id', multiple = true, queryParamCode, queryParamText = '名称', title = '选择记录', ellipsisLength = BIZ_LABEL_ELLIPSIS, placeholder, disabled }: JSelectBizComponentProps) {
  const [open, setOpen] = useState(false);
  const [known, setKnown] = useState<Row[]>([]);
  const vals = splitMulti(value);
  const labels = vals.map((v) => String(known.find((k) => String(k[valueKey]) === v)?.[displayKey] ?? v));
  return (
    <>
      <PickerField text={labels.join(',')} tags={multiple ? labels : undefined} ellipsisLength={ellipsisLength} placeholder={placeholder} disabled={disabled} onOpen={() => setOpen(true)} onClear={() => onChange?.(undefined, [])} />
      <ListPickerModal
        open={open}
        title={title}
        width={BIZ_PICKER_WIDTH}
        url={listUrl}
        rowKey={valueKey}
        multiple={multiple}
        searchField={queryParamCode}
        searchLabel={queryParamText}
        pageSize={BIZ_PAGE_SIZE}
        pageSizeOptions={BIZ_PAGE_SIZES}
        columns={columns}
        selectedKeys={vals}
        selectedTableHeight={multiple ? BIZ_SELECTED_HEIGHT : undefined}
        onCancel={() => setOpen(false)}
        onOk={(rows) => {
          setKnown(rows);
          onChange?.(rows.map((r) => String(r[valueKey])).join(','), rows);
          setOpen(false);
        }}
      />
    </>
  );
}

export default JSelectBizComponent;
