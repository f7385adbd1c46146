import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button } from 'antd';
import { Controlled } from '../story-util';
import { JImageUpload, JUpload } from './JUpload';
import { JFilePop } from './JFilePop';

const meta: Meta = { title: '上传/Uploads' };
export default meta;
type S = StoryObj;

export const File: S = { render: () => <Controlled component={JUpload} bizPath="demo" number={3} /> };
export const Image: S = { render: () => <Controlled component={JImageUpload} bizPath="demo" number={4} width={600} /> };
export const FilePop: S = {
  render: function Render() {
    const [open, setOpen] = useState(false);
    const [v, setV] = useState('');
    return (
      <>
        <Button onClick={() => setOpen(true)}>打开</Button> {v}
        <JFilePop open={open} onCancel={() => setOpen(false)} onOk={(x) => (setV(x), setOpen(false))} />
      </>
    );
  },
};
