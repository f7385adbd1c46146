import { useState } from 'react';
import { App, Button, Descriptions, Form, Input, InputNumber, Space, Tag } from 'antd';
import { http } from '@core/http/client';
import { JUpload } from '../upload/JUpload';
import { IMP_STATUS_COLOR, IMP_STATUS_TEXT, type ImpStatus } from '@shared/rules';

/**
 * Improvement tasks and subtasks (DESIGN §4) in list-page `widget` actions: one transition with its
 * comment (and, for feedback / submit, the evidence upload). The detail is a page schema
 * (improvement/TaskDetail, SubtaskDetail).
 */
type Row = Record<string, any>;
type Kind = 'task' | 'subtask';

const statusTag = (s: unknown) => {
  const st = String(s ?? '') as ImpStatus;
  const [text, color] = IMP_STATUS_TEXT[st] ? [IMP_STATUS_TEXT[st], IMP_STATUS_COLOR[st]] : [st, 'default'];
  return <Tag color={color}>{text}</Tag>;
};
export interface ImpTransitionProps {
  record: Row;
  onClose: () => void;
  onDone: () => void;
  kind: Kind;
  action: string;
  /** The comment is required (退回 / 撤销 must say why). */
  commentRequired?: boolean;
  commentLabel?: string;
  /** Feedback / submit: the 整改情况 text, evidence upload (and the task's progress). */
  feedback?: boolean;
  submitText?: string;
}

/** One transition: comment box (+ evidence) → POST /improvement/{kind}/transition. */
export function ImpTransition({ record, onClose, onDone, kind, action, commentRequired, commentLabel = '意见', feedback, submitText = '确定' }: ImpTransitionProps) {
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const textField = kind === 'task' ? 'feedback' : 'result';
  const submit = async () => {
    const v = (await form.validateFields()) as Row;
    setSaving(true);
    try {
      const r = await http.post<Row>(`/improvement/${kind}/transition`, { id: record.id, action, comment: v.comment ?? '', ...(feedback ? { [textField]: v.text ?? '', attachments: v.attachments ?? '', ...(kind === 'task' && v.progress !== undefined ? { progress: v.progress } : {}) } : {}) });
      if (!r.success) {
        message.warning(r.message);
        return;
      }
      message.success(r.message || '操作成功！');
      onDone();
      onClose();
    } finally {
      setSaving(false);
    }
  };
  return (
    <div data-testid="imp-transition">
      <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={kind === 'task' ? '整改任务' : '子任务'}>{String(record.title ?? '')}</Descriptions.Item>
        <Descriptions.Item label="当前状态">{statusTag(record.status)}</Descriptions.Item>
      </Descriptions>
      <Form form={form} layout="vertical" initialValues={{ text: record[textField] ?? undefined, attachments: record.attachments ?? undefined, progress: record.progress ?? undefined }}>
        {feedback && (
          <>
            <Form.Item name="text" label="整改情况" rules={[{ required: true, message: '请填写整改情况' }]}>
              <Input.TextArea aria-label="整改情况" rows={4} maxLength={2000} showCount />
            </Form.Item>
            <Form.Item name="attachments" label="佐证材料">
              <JUpload bizPath="improvement" number={5} text="上传佐证材料" />
            </Form.Item>
            {kind === 'task' && action === 'FEEDBACK' && (
              <Form.Item name="progress" label="整改进度（%）">
                <InputNumber aria-label="整改进度" min={0} max={100} precision={0} />
              </Form.Item>
            )}
          </>
        )}
        <Form.Item name="comment" label={commentLabel} rules={commentRequired ? [{ required: true, whitespace: true, message: `请填写${commentLabel}` }] : []}>
          <Input.TextArea aria-label={commentLabel} rows={3} maxLength={2000} showCount />
        </Form.Item>
      </Form>
      <Space>
        <Button type="primary" loading={saving} onClick={() => void submit()}>
          {submitText}
        </Button>
        <Button onClick={onClose}>取消</Button>
      </Space>
    </div>
  );
}
