import { useState, type ReactNode } from 'react';
import { Button, Descriptions, Modal } from 'antd';
import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';

export const DETAILS_WIDTH = 1200;

export interface JDetailsModalProps {
  open: boolean;
  title?: string;
  /** Label/value pairs shown in up to 4 columns. */
  items?: { label: string; value: ReactNode }[];
  column?: number;
  children?: ReactNode;
  onClose: () => void;
}

/** Details modal (1200 wide) with a full-screen toggle. */
export function JDetailsModal({ open, title = '详情', items = [], column = 2, children, onClose }: JDetailsModalProps) {
  const [full, setFull] = useState(false);
  return (
    <Modal
      open={open}
      width={full ? '100%' : DETAILS_WIDTH}
      style={full ? { top: 0, maxWidth: '100vw', paddingBottom: 0 } : undefined}
      title={
        <span>
          {title}
          <Button type="text" size="small" aria-label={full ? '退出全屏' : '全屏'} icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />} onClick={() => setFull(!full)} style={{ float: 'right', marginRight: 32 }} />
        </span>
      }
      footer={<Button onClick={onClose}>关闭</Button>}
      onCancel={onClose}
    >
      {items.length > 0 && (
        <Descriptions bordered size="small" column={Math.min(4, column)}>
          {items.map((i) => (
            <Descriptions.Item key={i.label} label={i.label}>{i.value}</Descriptions.Item>
          ))}
        </Descriptions>
      )}
      {children}
    </Modal>
  );
}

export default JDetailsModal;
