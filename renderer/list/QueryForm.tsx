import { memo, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Button, Col, Form, Input, InputNumber, Row, Select, Space } from 'antd';
import { DownOutlined, ReloadOutlined, SearchOutlined, UpOutlined } from '@ant-design/icons';
import type { DictOption } from '@core/dict';
import type { QueryFieldSchema } from '@shared/page-schema';
import { lazyWidget } from '@widgets/index';
import { getWidget } from '@widgets/registry';

/** A list's query form (`query.fields`, the first `visibleCount` shown until 展开) and the input of a query field. */

const QueryDate = lazyWidget(() => import('../QueryDate'), 'QueryDate');

function NumberRange({ value, onChange }: { value?: [number?, number?]; onChange?: (v: [number?, number?]) => void }) {
  return (
    <Space.Compact style={{ width: '100%' }}>
      <InputNumber style={{ width: '50%' }} value={value?.[0]} onChange={(v) => onChange?.([v ?? undefined, value?.[1]])} placeholder="最小值" />
      <InputNumber style={{ width: '50%' }} value={value?.[1]} onChange={(v) => onChange?.([value?.[0], v ?? undefined])} placeholder="最大值" />
    </Space.Compact>
  );
}

/** The input of a query field (also the dashboard's filters). */
export function queryControl(f: QueryFieldSchema, dicts: Record<string, DictOption[]>): ReactNode {
  const props = f.props ?? {};
  const options = f.options ?? (f.dict ? (dicts[f.dict] ?? []).map((d) => ({ label: d.text, value: d.value })) : undefined);
  switch (f.widget ?? (options ? 'Select' : 'Input')) {
    case 'Select':
      return <Select allowClear placeholder={`请选择${f.label}`} options={options} {...props} />;
    case 'MultiSelect':
      return <Select mode="multiple" allowClear placeholder={`请选择${f.label}`} options={options} {...props} />;
    case 'DatePicker':
      return <QueryDate kind="DatePicker" placeholder={`请选择${f.label}`} {...props} />;
    case 'DateRange':
    case 'DateTimeRange':
      return <QueryDate kind={f.widget} {...props} />;
    case 'NumberRange':
      return <NumberRange />;
    case 'InputNumber':
      return <InputNumber style={{ width: '100%' }} {...props} />;
    case 'Input':
      return <Input allowClear placeholder={`请输入${f.label}`} {...props} />;
    default: {
      const W = getWidget(f.widget!);
      return W ? <W {...props} dictCode={f.dict} /> : <Input allowClear placeholder={`请输入${f.label}`} {...props} />;
    }
  }
}

export const QueryForm = memo(function QueryForm(props: {
  fields: QueryFieldSchema[];
  visibleCount: number;
  dicts: Record<string, DictOption[]>;
  onSearch: (v: Record<string, unknown>) => void;
  onReset: () => void;
}) {
  const [form] = Form.useForm();
  const [open, setOpen] = useState(false);
  const initial = useMemo(() => Object.fromEntries(props.fields.filter((f) => f.default !== undefined).map((f) => [f.name, f.default])), [props.fields]);
  // A default known later (`defaultFrom`: the current term) fills its field unless the user changed it.
  useEffect(() => {
    const later = Object.fromEntries(Object.entries(initial).filter(([k]) => !form.isFieldTouched(k) && form.getFieldValue(k) === undefined));
    if (Object.keys(later).length) form.setFieldsValue(later);
  }, [initial, form]);
  const shown = open ? props.fields : props.fields.slice(0, props.visibleCount);
  return (
    <Form form={form} initialValues={initial} onFinish={props.onSearch} className="schema-query" style={{ marginBottom: 16 }}>
      <Row gutter={24}>
        {shown.map((f) => (
          <Col key={f.name} xl={6} lg={8} md={12} xs={24}>
            <Form.Item name={f.name} label={f.label} style={{ marginBottom: 12 }}>
              {queryControl(f, props.dicts)}
            </Form.Item>
          </Col>
        ))}
        <Col xl={6} lg={8} md={12} xs={24}>
          <Space>
            {/* With their icons, as JeecgBoot's query bars have them (a button without one mounts its loading icon's motion); the buttons are named by their text. */}
            <Button type="primary" htmlType="submit" icon={<SearchOutlined aria-hidden />}>
              查询
            </Button>
            <Button
              icon={<ReloadOutlined aria-hidden />}
              onClick={() => {
                form.resetFields();
                form.setFieldsValue(initial);
                props.onReset();
              }}
            >
              重置
            </Button>
            {props.fields.length > props.visibleCount && (
              <a onClick={() => setOpen(!open)}>
                {open ? '收起' : '展开'} {open ? <UpOutlined /> : <DownOutlined />}
              </a>
            )}
          </Space>
        </Col>
      </Row>
    </Form>
  );
});
