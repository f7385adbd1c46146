import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ConfigProvider, Table } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';

/**
 * The floor of the front-end bench: a minimal hand-written React + antd Table page showing the same
 * rows as the schema-rendered bench list (demo/bench/BenchList) from the same API. `?n=` rows; the
 * token is read from localStorage exactly where the product keeps it.
 */
type Row = Record<string, unknown>;
const n = Number(new URLSearchParams(location.search).get('n') ?? 50);
const token = (JSON.parse(localStorage.getItem('Access-Token') ?? 'null') as { value?: string } | null)?.value ?? '';

const COLS: Array<[string, string, number]> = [
  ['recordNo', '记录编号', 150], ['lectureDate', '听课日期', 120], ['week', '周次', 80], ['weekday', '星期', 80],
  ['teacherName', '授课教师姓名', 120], ['courseName', '课程名称', 160], ['classNames', '上课班级', 160], ['classroomName', '教室名称', 120],
  ['listenerName', '听课人姓名', 120], ['lectureType', '听课类型', 120], ['mode', '听课方式', 120], ['topic', '授课内容', 180],
  ['expectedCount', '应到人数', 90], ['actualCount', '实到人数', 90], ['lateCount', '迟到人数', 90], ['totalScore', '总分', 90],
  ['grade', '等级', 90], ['needImprove', '需整改', 90], ['status', '状态', 120], ['submitTime', '提交时间', 170],
];
const columns = COLS.map(([k, title, width]) => ({
  key: k,
  title,
  width,
  align: 'center' as const,
  render: (_: unknown, r: Row) => String(r[`${k}_dictText`] ?? (k === 'needImprove' ? (r[k] ? '是' : '否') : (r[k] ?? ''))),
}));

function Floor() {
  const [rows, setRows] = useState<Row[]>([]);
  const [total, setTotal] = useState(0);
  useEffect(() => {
    // The same request as the product's list page (same columns in `field`).
    const q = new URLSearchParams({ column: 'createTime', order: 'desc', field: ['id', '', ...COLS.map((c) => c[0])].join(','), pageNo: '1', pageSize: String(n) });
    void fetch(`/jeecg-boot/supervisor/lectureRecord/list?${q}`, { headers: { 'X-Access-Token': token } })
      .then((r) => r.json())
      .then((j: { result: { records: Row[]; total: number } }) => {
        setRows(j.result.records);
        setTotal(Number(j.result.total));
      });
  }, []);
  return (
    <Table<Row> rowKey="id" size="middle" bordered columns={columns} dataSource={rows} scroll={{ x: 'max-content' }} pagination={{ pageSize: n, total, showSizeChanger: false }} />
  );
}

createRoot(document.getElementById('root')!).render(
  <ConfigProvider locale={zhCN}>
    <Floor />
  </ConfigProvider>,
);
