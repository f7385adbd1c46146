import { useState } from 'react';
import { Alert, App, Button, Card, Descriptions, Space, Table, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { http } from '@core/http/client';

interface Plan {
  rows: number;
  summary: {
    courses: { create: number; update: number };
    classes: { create: number };
    rooms: { create: number };
    tasks: { create: number; update: number };
    lines: { create: number; replace: number };
    skippedRows: number;
  };
  problems: Array<{ file: string; row: number; reason: string }>;
}

const COLUMNS = '课程号、课程名称、课序号、开课单位、学分、教师工号、教师姓名、上课班级、选课人数、上课时间、上课地点';

/** Timetable import (教务课表 .xlsx): preview what would change, then import all files in one transaction. */
export function TimetableImport() {
  const { message } = App.useApp();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [plan, setPlan] = useState<Plan>();
  const [busy, setBusy] = useState<'preview' | 'import'>();
  const [result, setResult] = useState<{ ok: boolean; text: string }>();

  const send = async (what: 'preview' | 'import') => {
    if (!files.length) return void message.warning('请先选择课表文件（.xlsx）');
    const form = new FormData();
    for (const f of files) if (f.originFileObj) form.append('file', f.originFileObj, f.name);
    setBusy(what);
    setResult(undefined);
    try {
      const r = await http.upload<Plan>(what === 'preview' ? '/supervisor/courseSchedule/importPreview' : '/supervisor/courseSchedule/importTimetable', form);
      if (r.result && typeof r.result === 'object' && 'summary' in r.result) setPlan(r.result);
      if (what === 'import') setResult({ ok: r.success, text: r.message });
      else if (!r.success) setResult({ ok: false, text: r.message });
    } finally {
      setBusy(undefined);
    }
  };

  const s = plan?.summary;
  return (
    <Card variant="borderless" title="课表导入">
      <Typography.Paragraph type="secondary">
        上传教务系统导出的课表（.xlsx，可多个文件），表头依次为：{COLUMNS}。上课时间示例：1-8,10-16周星期一1-2节。先“预览”核对，再“确认导入”；全部文件在一个事务中导入，出错的行不会导入并列在下方。
      </Typography.Paragraph>
      <Upload.Dragger
        multiple
        accept=".xlsx"
        fileList={files}
        beforeUpload={() => false}
        onChange={({ fileList }) => {
          setFiles(fileList);
          setPlan(undefined);
          setResult(undefined);
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">点击或拖拽课表文件到此处</p>
      </Upload.Dragger>
      <Space style={{ margin: '16px 0' }}>
        <Button onClick={() => void send('preview')} loading={busy === 'preview'} disabled={!!busy}>
          预览
        </Button>
        <Button type="primary" onClick={() => void send('import')} loading={busy === 'import'} disabled={!!busy || !plan}>
          确认导入
        </Button>
      </Space>
      {result && <Alert type={result.ok ? 'success' : 'error'} showIcon message={result.text} style={{ marginBottom: 16 }} />}
      {s && (
        <>
          <Descriptions bordered size="small" column={3} style={{ marginBottom: 16 }}>
            <Descriptions.Item label="数据行">{plan.rows}</Descriptions.Item>
            <Descriptions.Item label="教学任务">新增 {s.tasks.create}，更新 {s.tasks.update}</Descriptions.Item>
            <Descriptions.Item label="排课">新增 {s.lines.create}，替换 {s.lines.replace}</Descriptions.Item>
            <Descriptions.Item label="新课程">{s.courses.create}</Descriptions.Item>
            <Descriptions.Item label="新班级">{s.classes.create}</Descriptions.Item>
            <Descriptions.Item label="新教室">{s.rooms.create}</Descriptions.Item>
          </Descriptions>
          {plan.problems.length > 0 && (
            <Table
              rowKey={(r) => `${r.file}:${r.row}:${r.reason}`}
              size="small"
              title={() => `未能导入的行（${plan.problems.length}）`}
              dataSource={plan.problems}
              pagination={{ pageSize: 10 }}
              columns={[
                { title: '文件', dataIndex: 'file', width: 200 },
                { title: '行号', dataIndex: 'row', width: 80 },
                { title: '原因', dataIndex: 'reason' },
              ]}
            />
          )}
        </>
      )}
    </Card>
  );
}
