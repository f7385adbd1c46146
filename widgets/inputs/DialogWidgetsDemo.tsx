import { useRef, useState } from 'react';
import { Button, Space, Typography } from 'antd';
import { JFilePop } from '../upload/JFilePop';
import { JPrompt } from './JPrompt';
import { JDetailsModal } from './JDetailsModal';
import { JSubTablePopover } from './JSubTablePopover';

type Open = 'file' | 'prompt' | 'details' | 'sub' | undefined;

/** Demo page body (schemas/pages/demo/widgets/dialogs.json): the dialog widgets, each behind a button. */
export function DialogWidgetsDemo() {
  const [open, setOpen] = useState<Open>();
  const [out, setOut] = useState('');
  const anchor = useRef<HTMLDivElement>(null);
  const close = () => setOpen(undefined);
  return (
    <div style={{ padding: 16 }}>
      <Space wrap>
        <Button onClick={() => setOpen('file')}>上传文件（JFilePop）</Button>
        <Button onClick={() => setOpen('prompt')}>输入工号（JPrompt）</Button>
        <Button onClick={() => setOpen('details')}>查看详情（JDetailsModal）</Button>
        <Button onClick={() => setOpen(open === 'sub' ? undefined : 'sub')}>展开子表（JSubTablePopover）</Button>
      </Space>
      <div ref={anchor} style={{ marginTop: 16, padding: 8, border: '1px solid #f0f0f0' }}>
        听课记录 R-2026-001 · 计算机学院 · 高等数学
      </div>
      <Typography.Paragraph data-testid="value" style={{ marginTop: 8 }}>{out}</Typography.Paragraph>
      <JFilePop open={open === 'file'} bizPath="demo" onCancel={close} onOk={(v) => (setOut(`文件: ${v}`), close())} />
      <JPrompt open={open === 'prompt'} label="工号" rules={[{ required: true, message: '请输入工号' }, { pattern: 'n6-16', message: '工号为6到16位数字' }]} onCancel={close} onOk={(v) => (setOut(`工号: ${v}`), close())} />
      <JDetailsModal
        open={open === 'details'}
        items={[
          { label: '授课教师', value: '王磊' },
          { label: '课程', value: '高等数学' },
          { label: '听课日期', value: '2026-03-02' },
          { label: '总分', value: '92' },
        ]}
        onClose={close}
      />
      <JSubTablePopover anchor={() => anchor.current} open={open === 'sub'} title="评价明细" onClose={close}>
        <div>教学态度 20 / 20 · 教学内容 36 / 40 · 教学方法 36 / 40</div>
      </JSubTablePopover>
    </div>
  );
}

export default DialogWidgetsDemo;
