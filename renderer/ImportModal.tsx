import { useState } from 'react';
import { App, Button, Modal, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { API_BASE, http, withFileToken } from '@core/http/client';

/**
 * The Excel import dialog (SPEC §3/§4/§8): .xls/.xlsx only, several files, 201 → warning with a link.
 * `accept` offers other file types instead (e.g. ".docx" for 导入 Word of 在线文档).
 */
export default function ImportModal({ url, onClose, onDone, accept }: { url: string; onClose: () => void; onDone: () => void; accept?: string }) {
  const types = (accept ?? '.xls,.xlsx').split(',').map((t) => t.trim().toLowerCase()).filter(Boolean);
  const excel = !accept;
  const { message, modal } = App.useApp();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [uploading, setUploading] = useState(false);

  async function upload() {
    const form = new FormData();
    for (const f of files) form.append('files[]', f.originFileObj ?? (f as unknown as File));
    form.append('isSingleTableImport', 'true');
    setUploading(true);
    try {
      const r = await http.upload<{ fileUrl?: string; msg?: string }>(url, form);
      if (r.success && r.code === 201) {
        const href = r.result?.fileUrl ? withFileToken(`${API_BASE}${r.result.fileUrl}`) : undefined;
        modal.warning({
          title: r.message || '导入成功，但有错误数据！',
          content: (
            <span>
              {r.result?.msg} {href && <a href={href} target="_blank" rel="noreferrer">点击下载错误明细</a>}
            </span>
          ),
        });
        onDone();
      } else if (r.success) {
        message.success(r.message);
        onDone();
      } else message.warning(r.message);
    } catch (err) {
      message.error(`文件上传失败：${(err as Error).message}`);
    } finally {
      setUploading(false);
    }
  }

  return (
    <Modal
      open
      title={excel ? 'Import EXCEL' : '导入文件'}
      width={600}
      onCancel={onClose}
      footer={[
        <Button key="close" onClick={onClose}>
          关闭
        </Button>,
        <Button key="go" type="primary" disabled={!files.length} loading={uploading} onClick={() => void upload()}>
          {uploading ? 'uploading...' : '开始上传'}
        </Button>,
      ]}
    >
      <Upload
        accept={types.join(',')}
        multiple={excel}
        fileList={files}
        beforeUpload={(f) => {
          if (!types.some((t) => f.name.toLowerCase().endsWith(t))) {
            message.warning(excel ? '只能上传 .xls 或 .xlsx 文件' : `只能上传 ${types.join(' 或 ')} 文件`);
            return Upload.LIST_IGNORE;
          }
          setFiles((l) => [...l, { uid: f.uid, name: f.name, originFileObj: f } as UploadFile]);
          return false;
        }}
        onRemove={(f) => setFiles((l) => l.filter((x) => x.uid !== f.uid))}
      >
        <Button icon={<UploadOutlined />}>选择导入文件</Button>
      </Upload>
    </Modal>
  );
}
