import { useRef, useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button } from 'antd';
import { Controlled } from '../story-util';
import { DialogWidgetsDemo } from './DialogWidgetsDemo';
import { JSlider } from './JSlider';
import { JPrompt } from './JPrompt';
import { JEllipsis } from './JEllipsis';
import { JInputTags } from './JInputTags';
import { JInputNumber } from './JInputNumber';
import { JDate, JTime } from './JDate';
import { JDetailsModal } from './JDetailsModal';
import { JSubTablePopover } from './JSubTablePopover';

const meta: Meta = { title: '输入/Inputs' };
export default meta;
type S = StoryObj;

export const Slider: S = { render: () => <Controlled component={JSlider} /> };
export const Prompt: S = {
  render: function Render() {
    const [open, setOpen] = useState(false);
    const [v, setV] = useState('');
    return (
      <>
        <Button onClick={() => setOpen(true)}>输入手机号</Button> {v}
        <JPrompt open={open} label="手机号" rules={[{ required: true, message: '请输入手机号' }, { pattern: 'm', message: '请输入正确手机号' }]} onCancel={() => setOpen(false)} onOk={(x) => (setV(x), setOpen(false))} />
      </>
    );
  },
};
export const Ellipsis: S = { render: () => <JEllipsis value="本科教学质量评估系统听课子系统的督导听课记录说明文字很长很长很长" /> };
export const InputTags: S = { render: () => <Controlled component={JInputTags} /> };
export const InputNumber: S = { render: () => <Controlled component={JInputNumber} /> };
export const Date: S = { render: () => <Controlled component={JDate} /> };
export const DateTime: S = { render: () => <Controlled component={JDate} showTime /> };
export const Time: S = { render: () => <Controlled component={JTime} /> };
export const DetailsModal: S = {
  render: function Render() {
    const [open, setOpen] = useState(false);
    return (
      <>
        <Button onClick={() => setOpen(true)}>查看详情</Button>
        <JDetailsModal open={open} onClose={() => setOpen(false)} column={2} items={[{ label: '课程', value: '高等数学' }, { label: '教师', value: '张三' }, { label: '督导', value: '李四' }, { label: '评分', value: 92 }]} />
      </>
    );
  },
};
export const SubTablePopover: S = {
  render: function Render() {
    const row = useRef<HTMLDivElement>(null);
    const [open, setOpen] = useState(false);
    return (
      <div>
        <div ref={row} style={{ border: '1px solid #eee', padding: 8, width: 500 }} onClick={() => setOpen(!open)}>点击此行查看子表</div>
        <JSubTablePopover anchor={row.current} open={open} title="子表" onClose={() => setOpen(false)}>
          子表内容
        </JSubTablePopover>
      </div>
    );
  },
};

/** The demo page body of schemas/pages/demo/widgets/dialogs.json. */
export const DialogsDemoPage: S = { render: () => <DialogWidgetsDemo /> };
