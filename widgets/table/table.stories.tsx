import { useMemo, useRef, useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button, message, Space } from 'antd';
import { JEditableTable, type JEditableTableApi } from './JEditableTable';
import { DEMO_COLUMNS, demoRows } from './demo-data';
import type { EditColumn, Row, SelectionChange, TableSize } from './model';

const meta: Meta = { title: '可编辑表格/JEditableTable' };
export default meta;
type S = StoryObj;

function Demo({ n = 1000, size = 'medium', alwaysEdit = true, disabledRows }: { n?: number; size?: TableSize; alwaysEdit?: boolean; disabledRows?: Record<string, unknown> }) {
  const data = useMemo(() => demoRows(n), [n]);
  const ref = useRef<JEditableTableApi>(null);
  const [out, setOut] = useState('');
  const [sel, setSel] = useState<SelectionChange>();
  return (
    <div style={{ width: 1400 }}>
      <JEditableTable ref={ref} columns={DEMO_COLUMNS} dataSource={data} dragSort size={size} alwaysEdit={alwaysEdit} disabledRows={disabledRows} onSelectionChange={setSel} onSave={(rows) => setOut(`保存 ${rows.length} 行`)} />
      <Space style={{ marginTop: 8 }}>
        <Button
          data-testid="get-values"
          onClick={async () => {
            try {
              const rows = await ref.current!.getValues();
              setOut(`共 ${rows.length} 行; 删除 ${ref.current!.getDeleteIds().join(',')}; 首行 ${rows[0]?.name} 序号 ${rows[0]?.orderNum}`);
            } catch (e) {
              setOut(`校验失败: ${(e as Error).message}`);
              void message.error((e as Error).message);
            }
          }}
        >
          获取值
        </Button>
        <Button onClick={() => ref.current!.addRows(1, 1)}>在首行插入</Button>
        <Button onClick={() => { const id = ref.current!.getRows()[0]?.id; if (id) ref.current!.moveRow(id, 'down'); }}>首行下移</Button>
        <Button onClick={() => ref.current!.liveUpdate({ id: 'r2', name: '远程更新', tug_status: { locked: true } })}>模拟远程更新</Button>
      </Space>
      <pre data-testid="value">{out}</pre>
      <pre data-testid="selection">{sel ? `${sel.action}:${sel.selectedRowIds.length}` : ''}</pre>
    </div>
  );
}

export const Rows1000: S = { render: () => <Demo /> };
export const ClickToEdit: S = { render: () => <Demo n={20} alwaysEdit={false} /> };
export const DisabledRows: S = { render: () => <Demo n={20} disabledRows={{ sex: '2' }} /> };
export const Small: S = { render: () => <Demo n={20} size="small" /> };
export const Mini: S = { render: () => <Demo n={20} size="mini" /> };
export const Tiny: S = { render: () => <Demo n={20} size="tiny" /> };

const modeColumns: EditColumn[] = [
  { key: 'name', title: '姓名', type: 'input', validateRules: [{ required: true, message: '请输入姓名' }] },
  { key: 'score', title: '评分', type: 'inputNumber' },
  { key: 'keywords', title: '关键词', type: 'tags', width: 160 },
  { key: 'sex', title: '性别', type: 'select', options: [{ value: '1', text: '男' }, { value: '2', text: '女' }] },
];
const modeRows = (): Row[] => [
  { id: 'm1', name: '王磊', score: 90, keywords: 'ab;cd;', sex: '1' },
  { id: 'm2', name: '赵婷', score: 85, keywords: '', sex: '2' },
];
function ModeTable({ alwaysEdit, testId }: { alwaysEdit: boolean; testId: string }) {
  const ref = useRef<JEditableTableApi>(null);
  const data = useMemo(modeRows, []);
  const [out, setOut] = useState('');
  return (
    <div data-testid={testId} style={{ width: 640, marginBottom: 24 }}>
      <h4>{alwaysEdit ? '始终编辑（alwaysEdit）' : '点击编辑（alwaysEdit=false）'}</h4>
      <JEditableTable ref={ref} columns={modeColumns} dataSource={data} alwaysEdit={alwaysEdit} toolbar={false} rowSelection={false} />
      <Button style={{ marginTop: 8 }} onClick={async () => setOut(JSON.stringify((await ref.current!.getValues()).map(({ name, score, keywords, sex }) => ({ name, score, keywords, sex }))))}>获取值</Button>
      <pre data-testid={`${testId}-value`}>{out}</pre>
    </div>
  );
}
/** Always-edit (input look-alikes that become inputs on focus) next to click-to-edit (values; an editor on click). */
export const EditModes: S = {
  render: () => (
    <>
      <ModeTable alwaysEdit testId="always" />
      <ModeTable alwaysEdit={false} testId="click" />
    </>
  ),
};

const treeColumns: EditColumn[] = [
  { key: 'name', title: '名称', type: 'input' },
  { key: 'score', title: '分值', type: 'inputNumber', statistics: ['sum'] },
];
const treeRows: Row[] = [
  { id: 't1', name: '教学态度', score: 20, children: [{ id: 't1-1', name: '备课充分', score: 10 }, { id: 't1-2', name: '按时上下课', score: 10 }] },
  { id: 't2', name: '教学内容', score: 40, children: [{ id: 't2-1', name: '内容充实', score: 40 }] },
];
export const Tree: S = { render: () => <div style={{ width: 600 }}><JEditableTable columns={treeColumns} dataSource={treeRows} rowSelection={false} /></div> };

export const AllCellTypes: S = {
  render: () => (
    <div style={{ width: 1400 }}>
      <JEditableTable
        columns={[
          { key: 'depart', title: '部门', type: 'sel_depart' },
          { key: 'user', title: '用户', type: 'sel_user' },
          { key: 'img', title: '图片', type: 'image' },
          { key: 'popup', title: '课程', type: 'popup', popupCode: 'course', orgFields: 'name', destFields: 'popup' },
          { key: 'async', title: '异步搜索', type: 'sel_search_async', dict: 'sys_user,realname,username' },
          { key: 'slot', title: '插槽', type: 'slot', slotName: 'action' },
        ]}
        slots={{ action: ({ row }) => <a>查看 {row.id}</a> }}
        dataSource={[{ id: 'a1' }, { id: 'a2' }]}
        rowSelection="radio"
      />
    </div>
  ),
};
