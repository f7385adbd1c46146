import { lazy, Suspense, useEffect, useState } from 'react';
import { Alert, Descriptions, Empty, Spin, Tag, Timeline, Typography } from 'antd';
import { http, fileUrl } from '@core/http/client';
const Diagram = lazy(() => import('./WorkflowDiagram').then((m) => ({ default: m.WorkflowDiagram })));

const STATUS: Record<string, [string, string]> = {
  RUNNING: ['审批中', 'blue'], RETURNED: ['已退回', 'orange'], COMPLETED: ['已通过', 'green'], WITHDRAWN: ['已撤回', 'default'], TERMINATED: ['已终止', 'red'],
};
const EVENT: Record<string, string> = {
  START: '发起申请', TASK: '审批', RETURN: '退回申请人', BACK: '退回上一步', RESUBMIT: '重新提交', TRANSFER: '转办', ADDSIGN: '加签', COMMENT: '意见', REASSIGN: '改派',
  TIMER: '定时', OVERDUE: '超时', END: '流程结束', WITHDRAW: '撤回', TERMINATE: '终止',
};
const DECISION: Record<string, [string, string]> = { approve: ['同意', 'green'], reject: ['驳回', 'red'], resubmit: ['重新提交', 'blue'] };

const decisionTag = (d?: string) => {
  const x = d ? DECISION[d] : undefined;
  return x ? <Tag color={x[1]}>{x[0]}</Tag> : null;
};

export const durationText = (ms: unknown) => {
  const n = Number(ms);
  if (!Number.isFinite(n) || n <= 0) return '';
  const m = Math.round(n / 60000);
  if (m < 1) return '不到1分钟';
  if (m < 60) return `${m}分钟`;
  const h = Math.floor(m / 60);
  return h < 24 ? `${h}小时${m % 60 ? `${m % 60}分` : ''}` : `${Math.floor(h / 24)}天${h % 24 ? `${h % 24}小时` : ''}`;
};

interface Step { id: string; event: string; elementName?: string; userName?: string; decision?: string; comment?: string; attachments?: string; time: string; duration?: number; form?: Record<string, string> }
interface Detail { id: string; title: string; modelName: string; version: number; applicantName: string; status: string; currentNodes?: string; startTime: string; endTime?: string; endReason?: string; xml?: string; steps: Step[]; markers: { done: string[]; current: string[] }; variables?: Record<string, unknown> }

/**
 * One approval: its facts, the diagram with the path taken, and every step (who, when, decision, comment,
 * attachments, duration). Opened from 流程历史, 我的待办/已办 and a business record (`bizType`: the record's latest approval).
 */
export function WorkflowInstanceView({ record, idField, bizType }: { record?: Record<string, any>; idField?: string; bizType?: string }) {
  const [data, setData] = useState<Detail | null>();
  const [error, setError] = useState('');
  const id = record?.[idField ?? (record?.instanceId ? 'instanceId' : 'id')];
  const bizId = record?.id as string | undefined;
  useEffect(() => {
    void (async () => {
      try {
        let instanceId = id as string | undefined;
        if (bizType) {
          const b = await http.get('/workflow/instance/byBusiness', { bizType, bizId });
          instanceId = b.result?.id;
          if (!instanceId) return setData(null);
        }
        const r = await http.get<Detail>('/workflow/instance/queryById', { id: instanceId });
        if (!r.success) setError(r.message);
        else setData(r.result);
      } catch (e) {
        setError((e as Error).message);
      }
    })();
  }, [id, bizType, bizId]);
  if (error) return <Alert type="error" message={error} />;
  if (data === undefined) return <Spin />;
  if (data === null) return <Empty description="该记录没有审批流程" />;
  const [statusText, statusColor] = STATUS[data.status] ?? [data.status, 'default'];
  return (
    <div data-testid="wf-instance">
      <Descriptions size="small" column={{ xs: 1, sm: 2 }} bordered style={{ marginBottom: 16 }}>
        <Descriptions.Item label="标题" span={2}>{data.title}</Descriptions.Item>
        <Descriptions.Item label="流程">{data.modelName}（V{data.version}）</Descriptions.Item>
        <Descriptions.Item label="状态"><Tag color={statusColor}>{statusText}</Tag>{data.currentNodes ? <Typography.Text type="secondary">当前：{data.currentNodes}</Typography.Text> : null}</Descriptions.Item>
        <Descriptions.Item label="申请人">{data.applicantName}</Descriptions.Item>
        <Descriptions.Item label="发起时间">{data.startTime}</Descriptions.Item>
        {data.endReason ? <Descriptions.Item label="结束原因" span={2}>{data.endReason}</Descriptions.Item> : null}
      </Descriptions>
      <Typography.Title level={5}>流程图</Typography.Title>
      <Suspense fallback={<Spin />}>
        <Diagram xml={data.xml} done={data.markers.done} current={data.markers.current} />
      </Suspense>
      <Typography.Title level={5} style={{ marginTop: 16 }}>审批记录</Typography.Title>
      <Timeline
        data-testid="wf-steps"
        items={data.steps.map((s) => ({
          color: s.decision === 'reject' || s.event === 'RETURN' || s.event === 'TERMINATE' ? 'red' : s.decision === 'approve' ? 'green' : 'blue',
          children: (
            <div>
              <div>
                <b>{s.elementName ?? EVENT[s.event]}</b> {s.event !== 'TASK' && s.event !== 'RESUBMIT' ? <Tag>{EVENT[s.event] ?? s.event}</Tag> : null}
                {decisionTag(s.decision)}
              </div>
              <Typography.Text type="secondary">
                {s.userName ?? '系统'} · {s.time}
                {durationText(s.duration) ? ` · 用时${durationText(s.duration)}` : ''}
              </Typography.Text>
              {s.form && Object.keys(s.form).length ? (
                <div data-testid="wf-step-form">
                  {Object.entries(s.form).map(([label, text]) => (
                    <div key={label}>
                      <Typography.Text type="secondary">{label}：</Typography.Text>
                      {text}
                    </div>
                  ))}
                </div>
              ) : null}
              {s.comment ? <div>意见：{s.comment}</div> : null}
              {s.attachments ? (
                <div>
                  附件：
                  {s.attachments.split(',').map((f) => (
                    <a key={f} href={fileUrl(f)} target="_blank" rel="noreferrer" style={{ marginRight: 8 }}>{f.split('/').pop()}</a>
                  ))}
                </div>
              ) : null}
            </div>
          ),
        }))}
      />
    </div>
  );
}
