import { useState } from 'react';
import { Button, message, Modal } from 'antd';
import { JUpload } from './JUpload';

export const FILE_POP_WIDTH = 520;
export const FILE_POP_HEIGHT = 200;

export interface JFilePopProps {
  open: boolean;
  title?: string;
  value?: string;
  bizPath?: string;
  number?: number;
  onOk: (value: string) => void;
  onCancel: () => void;
}

/** File pop: a small dialog (520 × 200) with an upload; confirming with no file warns 'No file uploaded'. */
export function JFilePop({ open, title = '上传文件', value, bizPath, number, onOk, onCancel }: JFilePopProps) {
  const [v, setV] = useState(value);
  return (
    <Modal
      open={open}
      title={title}
      width={FILE_POP_WIDTH}
      destroyOnHidden
      styles={{ body: { height: FILE_POP_HEIGHT, overflow: 'auto' } }}
      afterOpenChange={(o) => o && setV(value)}
      onCancel={onCancel}
      footer={[
        <Button key="c" onClick={onCancel}>取消</Button>,
        <Button key="o" type="primary" onClick={() => (v ? onOk(v) : void message.warning('No file uploaded'))}>确定</Button>,
      ]}
    >
      <JUpload value={v} onChange={setV} bizPath={bizPath} number={number} />
    </Modal>
  );
}

export default JFilePop;
