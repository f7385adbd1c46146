import { useCallback, useEffect, useState } from 'react';
import { Button, Space, Table, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { http } from '@core/http/client';

type Run = { id: string; fireTime: string; triggerType: string; startTime: string; endTime: string | null; costTime: number | null; status: string; message: string | null; node: string | null };

const STATUS: Record<string, [string, string]> = { success: ['成功', 'green'], fail: ['失败', 'red'], running: ['执行中', 'blue'], skipped: ['跳过', 'orange'] };
const TRIGGER: Record<string, string> = { cron: '定时触发', manual: '手动执行' };

/** 执行记录 of one scheduled job (`/sys/quartzJob/runs?jobId=`), newest first, refreshed every 5 s. */
export function JobRunHistory({ record }: { record?: Record<string, unknown> }) {
  const jobId = String(record?.id ?? '');
  const [rows, setRows] = useState<Run[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState({ current: 1, size: 10 });
  const [loading, setLoading] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const r = await http.get<{ records: Run[]; total: number }>('/sys/quartzJob/runs', { jobId, pageNo: page.current, pageSize: page.size });
      if (r.success) {
        setRows(r.result.records);
        setTotal(Number(r.result.total));
      }
    } finally {
      setLoading(false);
    }
  }, [jobId, page]);

  useEffect(() => {
    void load();
    const t = setInterval(() => void load(), 5000);
    return () => clearInterval(t);
  }, [load]);

  return (
    <div className="job-run-history">
      <Space style={{ marginBottom: 12 }}>
        <Typography.Text>
          任务：{String(record?.jobClassName_dictText ?? record?.jobClassName ?? '')}，Cron：{String(record?.cronExpression ?? '')}
        </Typography.Text>
        <Button size="small" icon={<ReloadOutlined />} onClick={() => void load()}>
          刷新
        </Button>
      </Space>
      <Table<Run>
        size="small"
        bordered
        rowKey="id"
        loading={loading && !rows.length}
        dataSource={rows}
        columns={[
          { title: '执行时间', dataIndex: 'startTime', width: 165 },
          { title: '触发方式', dataIndex: 'triggerType', width: 90, render: (v: string) => TRIGGER[v] ?? v },
          { title: '状态', dataIndex: 'status', width: 80, render: (v: string) => <Tag color={STATUS[v]?.[1]}>{STATUS[v]?.[0] ?? v}</Tag> },
          { title: '耗时(毫秒)', dataIndex: 'costTime', width: 95, align: 'right' },
          { title: '信息', dataIndex: 'message', ellipsis: true },
          { title: '执行节点', dataIndex: 'node', width: 150, ellipsis: true },
        ]}
        locale={{ emptyText: '暂无执行记录' }}
        pagination={{
          current: page.current,
          pageSize: page.size,
          total,
          showTotal: (t, range) => `${range[0]}-${range[1]} 共${t}条`,
          onChange: (current, size) => setPage({ current, size }),
        }}
      />
    </div>
  );
}
