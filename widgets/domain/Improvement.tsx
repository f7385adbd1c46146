import { useEffect, useState } from 'react';
import { Alert, Descriptions, Empty, Spin, Table, Tag, Timeline, Typography } from 'antd';
import { fileUrl, http } from '@core/http/client';
import { IMP_LOG_TEXT, IMP_STATUS_COLOR, IMP_STATUS_TEXT, type ImpStatus } from '@shared/rules';

/**
 * Improvement tasks and subtasks (DESIGN §4) in a list-page `widget` action: the detail with subtasks
 * and the transition log. (The transitions are `form` actions of the list schemas.)
 */
type Row = Record<string, any>;
type Kind = 'task' | 'subtask';

const statusTag = (s: unknown) => {
  const st = String(s ?? '') as ImpStatus;
  const [text, color] = IMP_STATUS_TEXT[st] ? [IMP_STATUS_TEXT[st], IMP_STATUS_COLOR[st]] : [st, 'default'];
  return <Tag color={color}>{text}</Tag>;
};
/** Links to uploaded files, under the names they were uploaded with (`names`: stored path → name). */
const files = (v: unknown, names: Record<string, string> = {}) =>
  String(v ?? '')
    .split(',')
    .filter(Boolean)
    .map((p) => (
      <a key={p} href={fileUrl(p)} target="_blank" rel="noreferrer" style={{ marginRight: 8 }}>
        {names[p] || p.split('/').pop()}
      </a>
    ));

export interface ImpDetailProps {
  record: Row;
  kind: Kind;
}

/** Task / subtask detail: fields, subtasks and the transition log (who, when, comment, attachments). */
export function ImpDetail({ record, kind }: ImpDetailProps) {
  const [row, setRow] = useState<Row | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    let live = true;
    void http.get<Row>(`/improvement/${kind}/queryById`, { id: record.id }).then((r) => {
      if (!live) return;
      if (r.success) setRow(r.result);
      else setError(r.message);
    });
    return () => {
      live = false;
    };
  }, [kind, record.id]);
  if (error) return <Alert type="warning" message={error} />;
  if (!row) return <Spin />;
  const logs = (row.logs ?? []) as Row[];
  const names = (row.fileNames ?? {}) as Record<string, string>;
  return (
    <div data-testid="imp-detail">
      <Descriptions size="small" column={2} bordered>
        {kind === 'task' && <Descriptions.Item label="任务编号">{row.taskNo}</Descriptions.Item>}
        <Descriptions.Item label="状态">{statusTag(row.status)}</Descriptions.Item>
        <Descriptions.Item label={kind === 'task' ? '任务标题' : '子任务标题'} span={2}>
          {row.title}
        </Descriptions.Item>
        {kind === 'task' ? (
          <>
            <Descriptions.Item label="责任部门">{row.respDepartId_dictText}</Descriptions.Item>
            <Descriptions.Item label="责任人">{row.respPersonId_dictText}</Descriptions.Item>
            <Descriptions.Item label="问题描述" span={2}>{row.description}</Descriptions.Item>
            <Descriptions.Item label="整改要求" span={2}>{row.requirement}</Descriptions.Item>
            <Descriptions.Item label="整改情况" span={2}>{row.feedback}</Descriptions.Item>
            <Descriptions.Item label="进度">{row.progress ?? 0}%</Descriptions.Item>
          </>
        ) : (
          <>
            <Descriptions.Item label="负责人">{row.assigneeId_dictText}</Descriptions.Item>
            <Descriptions.Item label="整改措施" span={2}>{row.measures}</Descriptions.Item>
            <Descriptions.Item label="整改情况" span={2}>{row.result}</Descriptions.Item>
          </>
        )}
        <Descriptions.Item label="期限">{String(row.deadline ?? '').slice(0, 10)}</Descriptions.Item>
        <Descriptions.Item label="佐证材料" span={2}>{files(row.attachments, names)}</Descriptions.Item>
        <Descriptions.Item label="验收意见" span={2}>{row.verifyOpinion}</Descriptions.Item>
      </Descriptions>
      {kind === 'task' && (
        <>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            子任务
          </Typography.Title>
          <Table
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={(row.subtasks ?? []) as Row[]}
            columns={[
              { title: '子任务标题', dataIndex: 'title' },
              { title: '负责人', dataIndex: 'assigneeId_dictText' },
              { title: '期限', dataIndex: 'deadline', render: (v) => String(v ?? '').slice(0, 10) },
              { title: '状态', dataIndex: 'status', render: statusTag },
            ]}
          />
        </>
      )}
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        处理记录
      </Typography.Title>
      {logs.length ? (
        <Timeline
          data-testid="imp-log"
          items={logs.map((l) => ({
            children: (
              <div className="imp-log-item">
                <Typography.Text strong>{IMP_LOG_TEXT[String(l.action)] ?? l.action}</Typography.Text> <span style={{ marginLeft: 4 }}>{l.operatorName}</span>{' '}
                <Typography.Text type="secondary" style={{ marginLeft: 4 }}>
                  {String(l.actionTime ?? '').slice(0, 19)}
                </Typography.Text>{' '}
                {l.toStatus && <span style={{ marginLeft: 4 }}>{statusTag(l.toStatus)}</span>}
                {l.comment && <div>意见：{l.comment}</div>}
                {l.attachments && <div>附件：{files(l.attachments, names)}</div>}
              </div>
            ),
          }))}
        />
      ) : (
        <Empty description="暂无处理记录" />
      )}
    </div>
  );
}
