import { useEffect, useRef, useState } from 'react';
import { App, Button, Card, Form, Input, Select, Space, Typography } from 'antd';
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import 'bpmn-js/dist/assets/bpmn-font/css/bpmn-embedded.css';
import { http } from '@core/http/client';
import './diagram.css';

const APP_URI = 'http://supervise.edu/schema/bpmn/app';
/** The `app:` moddle extension (same descriptor as server/workflow/engine.ts). */
const appModdle = {
  name: 'app', prefix: 'app', uri: APP_URI, xml: { tagAlias: 'lowerCase' },
  types: [
    { name: 'Assignable', isAbstract: true, extends: ['bpmn:UserTask'], properties: ['assignee', 'countersign', 'formKey', 'dueTime', 'onTimeout'].map((name) => ({ name, isAttr: true, type: 'String' })) },
    { name: 'Collection', isAbstract: true, extends: ['bpmn:MultiInstanceLoopCharacteristics'], properties: ['collection', 'elementVariable'].map((name) => ({ name, isAttr: true, type: 'String' })) },
    { name: 'Startable', isAbstract: true, extends: ['bpmn:Process'], properties: [{ name: 'formKey', isAttr: true, type: 'String' }] },
  ],
};

const EMPTY = (key: string, name: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:app="${APP_URI}" id="Definitions_1" targetNamespace="${APP_URI}">
  <process id="${key}" name="${name}" isExecutable="true"><startEvent id="start" name="开始"/></process>
  <bpmndi:BPMNDiagram id="Diagram_1"><bpmndi:BPMNPlane id="Plane_1" bpmnElement="${key}"><bpmndi:BPMNShape id="start_di" bpmnElement="start"><dc:Bounds x="100" y="120" width="36" height="36"/></bpmndi:BPMNShape></bpmndi:BPMNPlane></bpmndi:BPMNDiagram>
</definitions>`;

type El = { id: string; type: string; businessObject: any };
const ASSIGNEE_KINDS = [
  { value: 'leader', label: '申请人所在部门领导' },
  { value: 'secretary', label: '申请人所在部门秘书' },
  { value: 'applicant', label: '申请人本人' },
  { value: 'role', label: '角色' },
  { value: 'user', label: '指定用户' },
  { value: 'expr', label: '表达式（表单字段）' },
];

/**
 * 流程设计: the bpmn-js Modeler (loaded with this module only) with an antd panel for the selected
 * element's `app:` attributes (处理人, 会签, 表单, 期限) or a flow's condition; 保存草稿 and 部署.
 */
export function WorkflowModeler({ record, onDone }: { record: Record<string, any>; onDone?: () => void }) {
  const { message } = App.useApp();
  const box = useRef<HTMLDivElement>(null);
  const modeler = useRef<any>(null);
  const [el, setEl] = useState<El | null>(null);
  const [, force] = useState(0);
  const [busy, setBusy] = useState(false);
  const [forms, setForms] = useState<Array<{ id: string; title: string }>>([]);
  useEffect(() => {
    void http.get<Array<{ id: string; title: string }>>('/workflow/forms').then((r) => r.success && setForms(r.result ?? []));
  }, []);

  const { id: modelId, modelKey, name } = record as { id: string; modelKey: string; name: string };
  useEffect(() => {
    let alive = true;
    void (async () => {
      const { default: Modeler } = await import('bpmn-js/lib/Modeler');
      if (!alive || !box.current) return;
      const m = new Modeler({ container: box.current, moddleExtensions: { app: appModdle } });
      modeler.current = m;
      (window as any).__wfModeler = m; // for end-to-end tests that cannot drag and drop
      const r = await http.get('/workflow/model/queryById', { id: modelId });
      await m.importXML(r.result?.xml || EMPTY(modelKey, name));
      (m.get('canvas') as any).zoom('fit-viewport');
      force((n) => n + 1); // the panel reads the imported process (its start form)
      m.on('selection.changed', (e: any) => setEl(e.newSelection?.length === 1 ? e.newSelection[0] : null));
      m.on('element.changed', () => force((n) => n + 1));
    })();
    return () => {
      alive = false;
      modeler.current?.destroy();
    };
  }, [modelId, modelKey, name]);

  const bo = el?.businessObject;
  const update = (props: Record<string, unknown>) => el && (modeler.current.get('modeling') as any).updateProperties(el, props);
  // The process itself (nothing selected): its start form.
  const root = modeler.current?.get('canvas').getRootElement() as El | undefined;
  const rootForm: string | undefined = root?.businessObject?.get?.('app:formKey') || undefined;
  /** A form page picker: the form pages this author may name (a value naming no such page shows as such; deploy refuses it). */
  const formPicker = (value: string | undefined, onChange: (v: string | undefined) => void, testId: string, placeholder: string) => (
    <Select
      allowClear
      showSearch
      optionFilterProp="label"
      popupMatchSelectWidth={false}
      value={value}
      placeholder={placeholder}
      onChange={(v) => onChange(v || undefined)}
      options={[
        ...forms.map((f) => ({ value: f.id, label: `${f.title}（${f.id}）` })),
        ...(value && !forms.some((f) => f.id === value) ? [{ value, label: `${value}（页面不存在）` }] : []),
      ]}
      data-testid={testId}
    />
  );
  const assignee: string = bo?.get?.('app:assignee') ?? '';
  const kind = assignee.includes(':') ? assignee.slice(0, assignee.indexOf(':')) : assignee;
  const arg = assignee.includes(':') ? assignee.slice(assignee.indexOf(':') + 1) : '';
  const setCountersign = (v?: string) => {
    const moddle = modeler.current.get('moddle');
    if (!v) return update({ 'app:countersign': undefined, loopCharacteristics: undefined });
    const loop = moddle.create('bpmn:MultiInstanceLoopCharacteristics', { isSequential: false });
    loop.set('app:collection', '${$assignees}');
    loop.set('app:elementVariable', 'assignee');
    loop.completionCondition = moddle.create('bpmn:FormalExpression', { body: '${$countersignDone}' });
    update({ 'app:countersign': v, loopCharacteristics: loop });
  };
  const setCondition = (text: string) => {
    const moddle = modeler.current.get('moddle');
    update({ conditionExpression: text.trim() ? moddle.create('bpmn:FormalExpression', { body: text.trim().startsWith('${') ? text.trim() : `\${${text.trim()}}` }) : undefined });
  };
  const save = async (deploy: boolean) => {
    setBusy(true);
    try {
      const { xml } = await modeler.current.saveXML({ format: true });
      const r = deploy ? await http.post('/workflow/model/deploy', { id: record.id, xml }) : await http.put('/workflow/model/edit', { id: record.id, name: record.name, xml });
      if (r.success) {
        message.success(r.message);
        onDone?.();
      } else message.error(r.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap' }} data-testid="wf-modeler">
      <div ref={box} className="wf-diagram wf-modeler" style={{ flex: '1 1 560px', minWidth: 300 }} />
      <Card size="small" title="属性" style={{ flex: '0 1 300px', minWidth: 260 }}>
        {!el ? (
          <Form layout="vertical" size="small">
            <Typography.Paragraph type="secondary">选择一个节点或连线以设置其属性。</Typography.Paragraph>
            <Form.Item label="发起表单（页面）" extra="发起申请时填写的表单；不选：通用申请表单">
              {formPicker(rootForm, (v) => root && (modeler.current.get('modeling') as any).updateProperties(root, { 'app:formKey': v }), 'wf-prop-start-form', '通用申请表单')}
            </Form.Item>
          </Form>
        ) : (
          <Form layout="vertical" size="small">
            <Form.Item label="名称">
              <Input value={bo.name ?? ''} onChange={(e) => update({ name: e.target.value })} data-testid="wf-prop-name" />
            </Form.Item>
            {el.type === 'bpmn:UserTask' ? (
              <>
                <Form.Item label="处理人">
                  <Select value={kind || undefined} options={ASSIGNEE_KINDS} placeholder="请选择" onChange={(v) => update({ 'app:assignee': ['role', 'user', 'expr'].includes(v) ? `${v}:${arg}` : v })} data-testid="wf-prop-assignee" />
                </Form.Item>
                {['role', 'user', 'expr'].includes(kind) ? (
                  <Form.Item label={kind === 'role' ? '角色编码' : kind === 'user' ? '用户名（多个用逗号分隔）' : '表达式，如 managerId'}>
                    <Input value={arg} onChange={(e) => update({ 'app:assignee': `${kind}:${e.target.value}` })} data-testid="wf-prop-assignee-arg" />
                  </Form.Item>
                ) : null}
                <Form.Item label="会签">
                  <Select
                    allowClear
                    value={bo.get('app:countersign') || undefined}
                    placeholder="不会签"
                    onChange={(v) => setCountersign(v)}
                    options={[{ value: 'all', label: '全部同意' }, { value: 'any', label: '任一同意' }, { value: '60%', label: '60%同意' }, { value: '50%', label: '过半同意' }]}
                    data-testid="wf-prop-countersign"
                  />
                </Form.Item>
                <Form.Item label="任务表单（页面）" extra="办理时填写或查看的表单；不选：只读显示申请内容">
                  {formPicker(bo.get('app:formKey') || undefined, (v) => update({ 'app:formKey': v }), 'wf-prop-form', '申请内容（只读）')}
                </Form.Item>
                <Form.Item label="办理期限（如 PT24H、P3D）">
                  <Input value={bo.get('app:dueTime') ?? ''} onChange={(e) => update({ 'app:dueTime': e.target.value || undefined })} />
                </Form.Item>
                <Form.Item label="超时处理">
                  <Select allowClear value={bo.get('app:onTimeout') || undefined} onChange={(v) => update({ 'app:onTimeout': v })} options={[{ value: 'notify', label: '提醒上级' }, { value: 'approve', label: '自动通过' }, { value: 'reject', label: '自动驳回' }]} />
                </Form.Item>
              </>
            ) : null}
            {el.type === 'bpmn:SequenceFlow' ? (
              <Form.Item label="条件（表单字段表达式，如 amount > 1000）">
                <Input value={String(bo.conditionExpression?.body ?? '').replace(/^\$\{|\}$/g, '')} onChange={(e) => setCondition(e.target.value)} data-testid="wf-prop-condition" />
              </Form.Item>
            ) : null}
          </Form>
        )}
      </Card>
      <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
        <Button onClick={() => void save(false)} loading={busy} data-testid="wf-save">保存草稿</Button>
        <Button type="primary" onClick={() => void save(true)} loading={busy} data-testid="wf-deploy">部署</Button>
      </Space>
    </div>
  );
}
