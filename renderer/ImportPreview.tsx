import { useState } from 'react';
import { Alert, App, Button, Descriptions, Modal, Space, Table, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { http } from '@core/http/client';
import type { ActionSchema } from '@shared/page-schema';
import { fillText, fillUrl, pathOf } from './template';

type Row = Record<string, unknown>;

/**
 * The `importPreview` action's dialog: files to `preview` (the server writes nothing), its summary and
 * rows (rows with `errorField` highlighted), then the same files to `commit` — or 取消.
 */
export default function ImportPreview({ action: a, data, onClose }: { action: ActionSchema; data: Row; onClose: (changed: boolean) => void }) {
  const { message } = App.useApp();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [plan, setPlan] = useState<Row>();
  const [busy, setBusy] = useState<'preview' | 'commit'>();
  const [result, setResult] = useState<{ ok: boolean; text: string }>();
  const [done, setDone] = useState(false);

  const send = async (step: 'preview' | 'commit') => {
    if (!files.length) return void message.warning('请先选择要导入的文件');
    const form = new FormData();
    for (const f of files) if (f.originFileObj) form.append(a.fileField ?? 'file', f.originFileObj, f.name);
    setBusy(step);
    setResult(undefined);
    try {
      const r = await http.upload<Row>(fillUrl(step === 'preview' ? a.preview! : a.commit!, data), form);
      if (r.result && typeof r.result === 'object') setPlan(r.result);
      if (step === 'commit') {
        setResult({ ok: r.success, text: r.message });
        if (r.success) setDone(true);
      } else if (!r.success) setResult({ ok: false, text: r.message });
    } catch (e) {
      setResult({ ok: false, text: `文件上传失败：${(e as Error).message}` });
    } finally {
      setBusy(undefined);
    }
  };

  const rows = plan && a.rowsPath ? ((pathOf(plan, a.rowsPath) as Row[] | undefined) ?? []) : [];
  const err = a.errorField;
  const cols = (a.columns ?? []).map((c) => ({ key: c.dataIndex, dataIndex: c.dataIndex, title: c.title, width: c.width, ellipsis: !!c.ellipsis }));
  return (
    <Modal
      open
      title={a.title ?? a.label}
      width={Math.min(a.width ?? 900, window.innerWidth - 16)}
      onCancel={() => onClose(done)}
      destroyOnHidden
      footer={
        <Space wrap>
          <Button onClick={() => onClose(done)}>{done ? '关闭' : '取消'}</Button>
          <Button onClick={() => void send('preview')} loading={busy === 'preview'} disabled={!!busy || done}>
            预览
          </Button>
          <Button type="primary" onClick={() => void send('commit')} loading={busy === 'commit'} disabled={!!busy || !plan || done}>
            确认导入
          </Button>
        </Space>
      }
    >
      <div data-testid="import-preview">
        {a.hint && <Typography.Paragraph type="secondary">{a.hint}</Typography.Paragraph>}
        <Upload.Dragger
          multiple
          accept={a.accept ?? '.xlsx'}
          fileList={files}
          beforeUpload={() => false}
          onChange={({ fileList }) => {
            setFiles(fileList);
            setPlan(undefined);
            setResult(undefined);
            setDone(false);
          }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">点击或拖拽文件到此处</p>
        </Upload.Dragger>
        {result && <Alert type={result.ok ? 'success' : 'error'} showIcon message={result.text} style={{ margin: '16px 0' }} />}
        {plan && (
          <>
            {(a.summary?.length ?? 0) > 0 && (
              <Descriptions bordered size="small" column={{ xs: 1, sm: 2, md: 3 }} style={{ margin: '16px 0' }} className="import-summary">
                {a.summary!.map((s) => (
                  <Descriptions.Item key={s.label} label={s.label}>
                    {fillText(s.value, plan)}
                  </Descriptions.Item>
                ))}
              </Descriptions>
            )}
            {a.rowsPath && (
              <Table<Row>
                rowKey={(_, i) => String(i)}
                size="small"
                title={a.rowsTitle ? () => `${a.rowsTitle}（${rows.length}）` : undefined}
                dataSource={rows}
                columns={cols}
                rowClassName={(r) => (err && r[err] ? 'import-row-error' : '')}
                onRow={(r) => (err && r[err] ? { style: { background: '#fff1f0' } } : {})}
                scroll={{ x: 'max-content' }}
                pagination={{ pageSize: 10, hideOnSinglePage: true }}
              />
            )}
          </>
        )}
      </div>
    </Modal>
  );
}
