import type { Meta, StoryObj } from '@storybook/react-vite';
import { Controlled } from '../story-util';
import { JMarkdownEditor } from './JMarkdownEditor';
import { JEditor } from './JEditor';
import { JCodeEditor } from './JCodeEditor';

const meta: Meta = { title: '编辑器/Editors' };
export default meta;
type S = StoryObj;

export const Markdown: S = { render: () => <Controlled component={JMarkdownEditor} initial={'# 听课记录\n\n- [ ] 待办'} width={800} /> };
export const RichText: S = { render: () => <Controlled component={JEditor} initial="<p>督导<b>意见</b></p>" width={800} /> };
export const Code: S = { render: () => <Controlled component={JCodeEditor} language="sql" initial={'select * from sys_user\nwhere status = 1;'} width={600} /> };
