import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { JSuperQuery } from './JSuperQuery';

const meta: Meta = { title: '高级查询/Query builder' };
export default meta;
type S = StoryObj;

export const SuperQuery: S = {
  render: function Render() {
    const [q, setQ] = useState<unknown>();
    return (
      <>
        <JSuperQuery
          saveCode="/story/query"
          fieldList={[
            { value: 'name', text: '姓名', type: 'string' },
            { value: 'sex', text: '性别', type: 'list', dictCode: 'sex' },
            { value: 'age', text: '年龄', type: 'int' },
            { value: 'birthday', text: '生日', type: 'date' },
            { value: 'depart', text: '部门', type: 'select-depart' },
            { value: 'enabled', text: '启用', type: 'switch' },
          ]}
          onSearch={(params, matchType) => setQ({ matchType, params })}
        />
        <pre data-testid="value">{JSON.stringify(q ?? null, null, 2)}</pre>
      </>
    );
  },
};
