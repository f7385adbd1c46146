import type { Meta, StoryObj } from '@storybook/react-vite';
import { Controlled } from '../story-util';
import { JDictSelectTag, JDictTag } from './JDictSelectTag';
import { JMultiSelectTag } from './JMultiSelectTag';
import { JSearchSelectTag } from './JSearchSelectTag';
import { JSwitch } from './JSwitch';
import { JCategorySelect, JTreeDict } from './JTreeDict';

const meta: Meta = { title: '字典/Dictionary widgets' };
export default meta;
type S = StoryObj;

export const Select: S = { render: () => <Controlled component={JDictSelectTag} dictCode="sex" /> };
export const Radio: S = { render: () => <Controlled component={JDictSelectTag} dictCode="sex" type="radio" initial="1" /> };
export const Checkbox: S = { render: () => <Controlled component={JDictSelectTag} dictCode="priority" type="checkbox" initial="L,H" /> };
export const Tag: S = { render: () => <JDictTag dictCode="priority" value="L,H" /> };
export const MultiSelect: S = { render: () => <Controlled component={JMultiSelectTag} dictCode="priority" initial="M" /> };
export const SearchSelect: S = { render: () => <Controlled component={JSearchSelectTag} dict="sex" /> };
export const SearchSelectAsync: S = { render: () => <Controlled component={JSearchSelectTag} dict="sys_user,realname,id" async /> };
export const TreeDict: S = { render: () => <Controlled component={JTreeDict} dict="sys_category,name,id" /> };
export const TreeDictBadCondition: S = { render: () => <Controlled component={JTreeDict} dict="sys_category,name,id" condition="status=1" /> };
export const CategorySelect: S = { render: () => <Controlled component={JCategorySelect} pcode="B01" /> };
export const Switch: S = { render: () => <Controlled component={JSwitch} /> };
export const SwitchCustom: S = { render: () => <Controlled component={JSwitch} options={[1, 0]} initial={1} /> };
