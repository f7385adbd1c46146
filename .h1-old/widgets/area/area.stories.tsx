import type { Meta, StoryObj } from '@storybook/react-vite';
import { Controlled } from '../story-util';
import { JAreaLinkage } from './JAreaLinkage';

const meta: Meta = { title: '省市区/Area linkage' };
export default meta;
type S = StoryObj;

export const Cascader: S = { render: () => <Controlled component={JAreaLinkage} initial="110101" /> };
export const Select: S = { render: () => <Controlled component={JAreaLinkage} type="select" initial="320102" width={480} /> };
export const BadType: S = { render: () => <Controlled component={JAreaLinkage} type="tree" /> };
