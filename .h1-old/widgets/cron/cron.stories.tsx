import type { Meta, StoryObj } from '@storybook/react-vite';
import { Controlled } from '../story-util';
import { JCron, JEasyCron } from './JEasyCron';

const meta: Meta = { title: 'Cron/Cron builder' };
export default meta;
type S = StoryObj;

export const Input: S = { render: () => <Controlled component={JEasyCron} initial="0 0 8 ? * 2 *" /> };
export const Builder: S = { render: () => <Controlled component={JCron} initial="0 0/5 * * * ? *" width={608} /> };
