import type { Meta, StoryObj } from '@storybook/react-vite';
import { Controlled } from '../story-util';
import { JSelectDepart } from './JSelectDepart';
import { JSelectUser, JSelectUserByDep } from './JSelectUser';
import { JSearchUser } from './JSearchUser';
import { JSelectPosition, JSelectRole } from './JSelectRecords';
import { JPopup } from './JPopup';
import { JSelectBizComponent } from './JSelectBizComponent';

const meta: Meta = { title: '选择器/Pickers' };
export default meta;
type S = StoryObj;

export const Depart: S = { render: () => <Controlled component={JSelectDepart} /> };
export const DepartMulti: S = { render: () => <Controlled component={JSelectDepart} multi /> };
export const UserByDep: S = { render: () => <Controlled component={JSelectUserByDep} /> };
export const User: S = { render: () => <Controlled component={JSelectUser} /> };
export const SearchUser: S = { render: () => <Controlled component={JSearchUser} /> };
export const Role: S = { render: () => <Controlled component={JSelectRole} /> };
export const Position: S = { render: () => <Controlled component={JSelectPosition} /> };
export const Popup: S = { render: () => <Controlled component={JPopup} code="course" orgFields="name,code" destFields="courseName,courseCode" /> };
export const PopupMisconfigured: S = { render: () => <Controlled component={JPopup} code="course" orgFields="name,code" destFields="courseName" /> };
export const BizRecord: S = {
  render: () => (
    <Controlled
      component={JSelectBizComponent}
      listUrl="/sys/position/list"
      displayKey="name"
      queryParamCode="name"
      columns={[
        { title: '职务名称', dataIndex: 'name' },
        { title: '职务编码', dataIndex: 'code' },
      ]}
    />
  ),
};
