import { lazy, Suspense, useState } from 'react';
import { Button, Col, Empty, Input, List, message, Modal, Popconfirm, Radio, Row, Select, Space } from 'antd';
import { DeleteOutlined, MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { buildQuery, changeRule, chooseField, DELETE_SAVED_CONFIRM, deleteSaved, isActive, loadSaved, QUERY_RULES, saveQuery, valueOf, type MatchType, type QueryField, type QueryRow } from '../logic/query';

// The value controls (pickers, dictionaries, dates) load when the builder first opens.
const ValueInput = lazy(() => import('./ValueInput'));

export interface SuperQueryBuilderProps {
  fieldList: QueryField[];
  saveCode: string;
  open: boolean;
  onClose: () => void;
  /** A query run (or reset): its conditions, and whether any condition is set. */
  onSearch: (params: QueryRow[], matchType: MatchType, active: boolean) => void;
}

/** The advanced query builder's dialogs (高级查询构造器), mounted by JSuperQuery's button when first opened. */
export function SuperQueryBuilder({ fieldList, saveCode, open, onClose, onSearch }: SuperQueryBuilderProps) {
  const [rows, setRows] = useState<QueryRow[]>([{ rule: 'eq' }]);
  const [matchType, setMatchType] = useState<MatchType>('and');
  const [saved, setSaved] = useState(() => loadSaved(saveCode));
  const [saveOpen, setSaveOpen] = useState(false);
  const [saveName, setSaveName] = useState('');
  const set = (i: number, r: QueryRow) => setRows(rows.map((x, j) => (j === i ? r : x)));

  const run = () => {
    try {
      const q = buildQuery(rows, matchType);
      onSearch(q.params, q.matchType, isActive(q.params));
      onClose();
    } catch (e) {
      void message.warning((e as Error).message);
    }
  };
  const reset = () => {
    setRows([{ rule: 'eq' }]);
    setMatchType('and');
    onSearch([], 'and', false);
  };
  const save = async () => {
    try {
      const ok = await saveQuery(saveCode, saveName, matchType, rows, (msg) => new Promise((resolve) => Modal.confirm({ title: '提示', content: msg, okText: '覆盖', cancelText: '取消', onOk: () => resolve(true), onCancel: () => resolve(false) })));
      if (ok) {
        setSaved(loadSaved(saveCode));
        setSaveOpen(false);
        void message.success('保存成功');
      }
    } catch (e) {
      void message.warning((e as Error).message);
    }
  };

  return (
    <>
      <Modal
        open={open}
        title="高级查询构造器"
        width={1000}
        onCancel={onClose}
        footer={
          <Space>
            <Button onClick={reset}>重置</Button>
            <Button
              onClick={() => {
                if (rows.some((r) => !r.field || !r.rule || !r.val)) return void message.warning('空条件不能保存');
                setSaveName('');
                setSaveOpen(true);
              }}
            >
              保存查询条件
            </Button>
            <Button type="primary" onClick={run}>查询</Button>
          </Space>
        }
      >
        <Row gutter={16}>
          <Col span={18}>
            <Space style={{ marginBottom: 12 }}>
              <span>过滤条件匹配：</span>
              <Radio.Group value={matchType} onChange={(e) => setMatchType(e.target.value as MatchType)} options={[{ value: 'and', label: 'AND（所有条件都要求匹配）' }, { value: 'or', label: 'OR（条件中的任意一个匹配）' }]} />
            </Space>
            {rows.map((row, i) => (
              <Row key={i} gutter={8} style={{ marginBottom: 8 }} className="j-super-query-row">
                <Col span={7}>
                  <Select
                    aria-label="字段"
                    style={{ width: '100%' }}
                    placeholder="选择查询字段"
                    value={row.field}
                    showSearch
                    optionFilterProp="label"
                    options={fieldList.map((f) => ({ value: f.value, label: f.text }))}
                    onChange={(v: string) => set(i, chooseField(row, fieldList.find((f) => f.value === v)!))}
                  />
                </Col>
                <Col span={5}>
                  <Select aria-label="规则" style={{ width: '100%' }} value={row.rule} options={QUERY_RULES} onChange={(v) => set(i, changeRule(row, v))} />
                </Col>
                <Col span={9}>
                  <Suspense fallback={<Input disabled placeholder="加载中…" />}>
                    <ValueInput row={row} onChange={(v) => set(i, { ...row, val: valueOf(row.rule, v) })} />
                  </Suspense>
                </Col>
                <Col span={3}>
                  <Space>
                    <Button size="small" aria-label="添加条件" icon={<PlusOutlined />} onClick={() => setRows([...rows.slice(0, i + 1), { rule: 'eq' }, ...rows.slice(i + 1)])} />
                    <Button size="small" aria-label="删除条件" icon={<MinusCircleOutlined />} disabled={rows.length === 1} onClick={() => setRows(rows.filter((_, j) => j !== i))} />
                  </Space>
                </Col>
              </Row>
            ))}
          </Col>
          <Col span={6}>
            <div style={{ fontWeight: 500, marginBottom: 8 }}>保存的查询</div>
            {saved.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有保存任何查询" />
            ) : (
              <List
                size="small"
                dataSource={saved}
                renderItem={(q) => (
                  <List.Item
                    actions={[
                      <Popconfirm key="d" title={DELETE_SAVED_CONFIRM} onConfirm={() => (deleteSaved(saveCode, q.title), setSaved(loadSaved(saveCode)))}>
                        <DeleteOutlined aria-label="删除查询" />
                      </Popconfirm>,
                    ]}
                  >
                    <a onClick={() => (setRows(q.records), setMatchType(q.matchType))}>{q.title}</a>
                  </List.Item>
                )}
              />
            )}
          </Col>
        </Row>
      </Modal>
      <Modal open={saveOpen} title="请输入保存的名称" onCancel={() => setSaveOpen(false)} onOk={save} destroyOnHidden>
        <Input value={saveName} onChange={(e) => setSaveName(e.target.value)} placeholder="请输入保存的名称" />
      </Modal>
    </>
  );
}

