import { Card, Col, Row, Statistic, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { AuditOutlined, BarChartOutlined, ReadOutlined, ToolOutlined } from '@ant-design/icons';
import { userInfoAtom } from '@/session/store';
import { greeting } from '@/branding';

/** Home fallback when no dashboard/Analysis page schema exists. */
export default function Welcome() {
  const user = useAtomValue(userInfoAtom);
  const tiles = [
    { icon: <ReadOutlined />, title: '听课记录', text: '按课表选择课堂，逐项评分并填写评价与建议' },
    { icon: <BarChartOutlined />, title: '听课统计', text: '听课频次、完成率与教师课堂教学成绩分析' },
    { icon: <ToolOutlined />, title: '整改管理', text: '问题整改任务下达、反馈、验收与闭环' },
    { icon: <AuditOutlined />, title: '审核评估', text: '审核评估指标、要点与工作组管理' },
  ];
  return (
    <div>
      <Card bordered={false} style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {greeting()}，{user?.realname ?? user?.username ?? ''}，欢迎使用本科教学质量评估系统·听课子系统
        </Typography.Title>
        <Typography.Text type="secondary">{user?.orgCodeTxt ? `当前部门：${user.orgCodeTxt}` : '请从左侧菜单选择要使用的功能。'}</Typography.Text>
      </Card>
      <Row gutter={[16, 16]}>
        {tiles.map((t) => (
          <Col key={t.title} xs={24} sm={12} xl={6}>
            <Card bordered={false} hoverable>
              <Statistic title={t.title} valueRender={() => <span style={{ fontSize: 28, color: 'var(--ant-color-primary)' }}>{t.icon}</span>} />
              <Typography.Paragraph type="secondary" style={{ marginBottom: 0, marginTop: 8 }}>{t.text}</Typography.Paragraph>
            </Card>
          </Col>
        ))}
      </Row>
    </div>
  );
}
