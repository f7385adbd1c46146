import type { ServerContext } from '../context.js';
import type { SeedStep } from '../seed/index.js';
import { seedDicts } from '../seed/dicts-base.js';
import { roleId, userId } from '../seed/data/org.js';
import { newId, now, sha256 } from '../util.js';
import { deployModel, SYSTEM } from './service.js';
import { APP_URI } from './engine.js';

/** Node of a generated model: laid out left to right (lane `y` 0 = main line, 1 = below). */
interface N {
  id: string;
  type: 'startEvent' | 'endEvent' | 'userTask' | 'exclusiveGateway';
  name?: string;
  attrs?: Record<string, string>;
  countersign?: string;
  col: number;
  row?: number;
}
interface F {
  id: string;
  from: string;
  to: string;
  cond?: string;
  name?: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const SIZE = { startEvent: [36, 36], endEvent: [36, 36], userTask: [100, 80], exclusiveGateway: [50, 50] } as const;

/** A BPMN file with its diagram (so the modeler and the viewer can draw it). */
export function buildXml(processId: string, name: string, nodes: N[], flows: F[], defaults: Record<string, string> = {}, processAttrs: Record<string, string> = {}): string {
  const box = (n: N) => {
    const [w, h] = SIZE[n.type];
    const cx = 100 + n.col * 170;
    const cy = 140 + (n.row ?? 0) * 140;
    return { x: cx - w / 2, y: cy - h / 2, w, h, cx, cy };
  };
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const el = nodes
    .map((n) => {
      const attrs = Object.entries(n.attrs ?? {}).map(([k, v]) => ` app:${k}="${esc(v)}"`).join('');
      const def = defaults[n.id] ? ` default="${defaults[n.id]}"` : '';
      const nm = n.name ? ` name="${esc(n.name)}"` : '';
      if (n.type === 'userTask' && n.countersign)
        return `<userTask id="${n.id}"${nm}${attrs} app:countersign="${n.countersign}"><multiInstanceLoopCharacteristics isSequential="false" app:collection="\${$assignees}" app:elementVariable="assignee"><completionCondition xsi:type="tFormalExpression">\${$countersignDone}</completionCondition></multiInstanceLoopCharacteristics></userTask>`;
      return `<${n.type} id="${n.id}"${nm}${attrs}${def}/>`;
    })
    .join('\n    ');
  const fl = flows
    .map((f) => {
      const nm = f.name ? ` name="${esc(f.name)}"` : '';
      return f.cond
        ? `<sequenceFlow id="${f.id}"${nm} sourceRef="${f.from}" targetRef="${f.to}"><conditionExpression xsi:type="tFormalExpression">${esc(f.cond)}</conditionExpression></sequenceFlow>`
        : `<sequenceFlow id="${f.id}"${nm} sourceRef="${f.from}" targetRef="${f.to}"/>`;
    })
    .join('\n    ');
  const shapes = nodes.map((n) => {
    const b = box(n);
    return `<bpmndi:BPMNShape id="${n.id}_di" bpmnElement="${n.id}"${n.type === 'exclusiveGateway' ? ' isMarkerVisible="true"' : ''}><dc:Bounds x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}"/></bpmndi:BPMNShape>`;
  });
  const edges = flows.map((f) => {
    const a = box(byId.get(f.from)!);
    const b = box(byId.get(f.to)!);
    const pts = a.cy === b.cy ? [[a.x + a.w, a.cy], [b.x, b.cy]] : a.cy < b.cy ? [[a.cx, a.y + a.h], [a.cx, b.cy], [b.x, b.cy]] : [[a.x + a.w, a.cy], [b.cx, a.cy], [b.cx, b.y + b.h]];
    return `<bpmndi:BPMNEdge id="${f.id}_di" bpmnElement="${f.id}">${pts.map(([x, y]) => `<di:waypoint x="${x}" y="${y}"/>`).join('')}</bpmndi:BPMNEdge>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:app="${APP_URI}" id="Definitions_${processId}" targetNamespace="${APP_URI}">
  <process id="${processId}" name="${esc(name)}" isExecutable="true"${Object.entries(processAttrs).map(([k, v]) => ` app:${k}="${esc(v)}"`).join('')}>
    ${el}
    ${fl}
  </process>
  <bpmndi:BPMNDiagram id="Diagram_${processId}"><bpmndi:BPMNPlane id="Plane_${processId}" bpmnElement="${processId}">
    ${[...shapes, ...edges].join('\n    ')}
  </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>
</definitions>
`;
}

export const SEED_MODELS = [
  {
    // 发起申请's general process: its start form and the reviewer's form are page schemas (workflow/forms/*);
    // the gateway routes on the amount the reviewer approved.
    key: 'general', name: '通用审批', category: '通用', bizType: '',
    description: '填写申请（标题、金额、事由、附件）→ 部门领导审核并核定金额；核定金额超过1万元再由财务审核',
    xml: buildXml(
      'general', '通用审批',
      [
        { id: 'start', type: 'startEvent', name: '提交申请', col: 0 },
        { id: 'leader', type: 'userTask', name: '部门领导审核', col: 1, attrs: { assignee: 'leader', formKey: 'workflow/forms/GeneralReview' } },
        { id: 'big', type: 'exclusiveGateway', name: '核定金额超过1万元？', col: 2 },
        { id: 'finance', type: 'userTask', name: '财务审核', col: 3, row: 1, attrs: { assignee: 'role:finance', formKey: 'workflow/forms/GeneralReview' } },
        { id: 'end', type: 'endEvent', name: '结束', col: 4 },
      ],
      [
        { id: 'f1', from: 'start', to: 'leader' },
        { id: 'f2', from: 'leader', to: 'big' },
        { id: 'f3', from: 'big', to: 'finance', cond: '${approvedAmount > 10000}', name: '是' },
        { id: 'f4', from: 'big', to: 'end', name: '否' },
        { id: 'f5', from: 'finance', to: 'end' },
      ],
      { big: 'f4' },
      { formKey: 'workflow/forms/GeneralApply' },
    ),
  },
  {
    key: 'lab_reservation', name: '实验室预约审批', category: '实验室', bizType: 'lab_reservation',
    description: '实验室负责人审核；开放时间（第1-8节）以外的预约还需部门领导审批',
    xml: buildXml(
      'lab_reservation', '实验室预约审批',
      [
        { id: 'start', type: 'startEvent', name: '提交预约', col: 0 },
        { id: 'manager', type: 'userTask', name: '实验室负责人审核', col: 1, attrs: { assignee: 'expr:labManagerId', dueTime: 'P2D', onTimeout: 'notify' } },
        { id: 'hours', type: 'exclusiveGateway', name: '开放时间外？', col: 2 },
        { id: 'leader', type: 'userTask', name: '部门领导审批', col: 3, row: 1, attrs: { assignee: 'leader' } },
        { id: 'end', type: 'endEvent', name: '通过', col: 4 },
      ],
      [
        { id: 'f1', from: 'start', to: 'manager' },
        { id: 'f2', from: 'manager', to: 'hours' },
        { id: 'f3', from: 'hours', to: 'leader', cond: '${outsideHours}', name: '是' },
        { id: 'f4', from: 'hours', to: 'end', name: '否' },
        { id: 'f5', from: 'leader', to: 'end' },
      ],
      { hours: 'f4' },
    ),
  },
  {
    key: 'contract', name: '合同审批', category: '合同', bizType: '',
    description: '部门领导审批 → 财务审核 → 两位会签人会签',
    xml: buildXml(
      'contract', '合同审批',
      [
        { id: 'start', type: 'startEvent', name: '提交合同', col: 0 },
        { id: 'leader', type: 'userTask', name: '部门领导审批', col: 1, attrs: { assignee: 'leader' } },
        { id: 'finance', type: 'userTask', name: '财务审核', col: 2, attrs: { assignee: 'role:finance' } },
        { id: 'sign', type: 'userTask', name: '会签', col: 3, countersign: 'all', attrs: { assignee: 'user:supervisor,admin' } },
        { id: 'end', type: 'endEvent', name: '结束', col: 4 },
      ],
      [
        { id: 'f1', from: 'start', to: 'leader' },
        { id: 'f2', from: 'leader', to: 'finance' },
        { id: 'f3', from: 'finance', to: 'sign' },
        { id: 'f4', from: 'sign', to: 'end' },
      ],
    ),
  },
  {
    key: 'imp_extension', name: '整改延期申请', category: '整改', bizType: 'imp_extension',
    description: '整改责任人申请延期，由下发人审批；通过后整改期限变更并记入处理记录',
    xml: buildXml(
      'imp_extension', '整改延期申请',
      [
        { id: 'start', type: 'startEvent', name: '申请延期', col: 0 },
        { id: 'issuer', type: 'userTask', name: '下发人审批', col: 1, attrs: { assignee: 'expr:issuerId' } },
        { id: 'end', type: 'endEvent', name: '结束', col: 2 },
      ],
      [
        { id: 'f1', from: 'start', to: 'issuer' },
        { id: 'f2', from: 'issuer', to: 'end' },
      ],
    ),
  },
];

async function seedWorkflow(ctx: ServerContext) {
  await seedDicts(ctx, [
    { code: 'wf_model_status', name: '流程模型状态', items: [['DRAFT', '草稿', 'default'], ['DEPLOYED', '已部署', 'green']] },
    { code: 'wf_version_status', name: '流程版本状态', items: [['ACTIVE', '激活', 'green'], ['SUSPENDED', '挂起', 'orange']] },
    { code: 'wf_instance_status', name: '流程状态', items: [['RUNNING', '审批中', 'blue'], ['RETURNED', '已退回', 'orange'], ['COMPLETED', '已通过', 'green'], ['WITHDRAWN', '已撤回', 'default'], ['TERMINATED', '已终止', 'red']] },
    { code: 'wf_task_status', name: '任务状态', items: [['OPEN', '待办', 'blue'], ['DONE', '已办', 'green'], ['CANCELLED', '已取消', 'default']] },
    { code: 'wf_decision', name: '审批结果', items: [['approve', '同意', 'green'], ['reject', '驳回', 'red'], ['resubmit', '重新提交', 'blue']] },
    {
      code: 'wf_event', name: '流程事件',
      items: [['START', '发起'], ['TASK', '审批'], ['RETURN', '退回申请人'], ['BACK', '退回上一步'], ['RESUBMIT', '重新提交'], ['TRANSFER', '转办'], ['ADDSIGN', '加签'], ['COMMENT', '意见'], ['REASSIGN', '改派'], ['TIMER', '定时'], ['OVERDUE', '超时'], ['END', '结束'], ['WITHDRAW', '撤回'], ['TERMINATE', '终止']],
    },
  ]);
}

/** A 财务 role (the contract's finance step), held by the demo department administrator. */
async function seedFinanceRole(ctx: ServerContext) {
  const rid = roleId('finance');
  if (await ctx.db.selectFrom('sys_role').select('id').where('role_code', '=', 'finance').executeTakeFirst()) return;
  await ctx.db.insertInto('sys_role').values({ id: rid, role_name: '财务', role_code: 'finance', description: '合同审批中的财务审核', tenant_id: 0, create_by: 'system', create_time: now() }).execute();
  const u = await ctx.db.selectFrom('sys_user').select('id').where('id', '=', userId('deptadmin')).executeTakeFirst();
  if (u) await ctx.db.insertInto('sys_user_role').values({ id: sha256(`ur|finance|deptadmin`).slice(0, 32), user_id: u.id, role_id: rid }).execute();
}

async function seedModels(ctx: ServerContext) {
  for (const m of SEED_MODELS) {
    if (await ctx.db.selectFrom('wf_model').select('id').where('model_key', '=', m.key).executeTakeFirst()) continue;
    const id = newId();
    await ctx.db
      .insertInto('wf_model')
      .values({ id, name: m.name, model_key: m.key, category: m.category, biz_type: m.bizType || null, description: m.description, xml: m.xml, status: 'DRAFT', latest_version: 0, create_by: 'system', create_time: now() })
      .execute();
    await deployModel(ctx, SYSTEM, id);
  }
}

export const workflowSeedSteps: SeedStep[] = [
  { name: 'workflow-dicts', run: seedWorkflow },
  { name: 'workflow-finance-role', demo: true, run: seedFinanceRole },
  { name: 'workflow-models', run: seedModels },
  // 通用审批 (forms from page schemas) on a database seeded before it existed
  { name: 'workflow-general-model', run: seedModels },
];
