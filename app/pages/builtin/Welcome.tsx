import { useMemo } from 'react';
import { Avatar, Card, Col, Row, Steps, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useNavigate } from 'react-router-dom';
import { AuditOutlined, BarChartOutlined, ReadOutlined, ToolOutlined } from '@ant-design/icons';
import { menuAtom, userInfoAtom } from '@core/session/store';
import { greeting } from '@core/branding';
import { searchableEntries } from '@core/menu';
import { menuIcon } from '@core/ui/icons';
import { HOME_PATH } from '@core/session/actions';
import { VisitCard } from '@widgets/dashboard/VisitCard';

// The 7-day login chart (echarts) loads on its own, after the page.

/** Home fallback when no dashboard/Analysis page schema exists: greeting, the user's own shortcuts, the term's workflow. */
export default function Welcome() {
  const user = useAtomValue(userInfoAtom);
  const menu = useAtomValue(menuAtom);
  const nav = useNavigate();
  const shortcuts = useMemo(
    () => searchableEntries(menu ?? []).filter((n) => n.path !== HOME_PATH && !n.meta?.internalOrExternal && !n.path.includes(':')).slice(0, 8),
    [menu],
  );
  const tiles = [
    { icon: <ReadOutlined />, title: '听课评价', text: '按课表选择课堂，逐项评分并填写优点、问题与建议' },
    { icon: <BarChartOutlined />, title: '听课统计', text: '应听/实听/完成率与教师课堂教学成绩分析' },
    { icon: <ToolOutlined />, title: '整改闭环', text: '整改任务下达、反馈、验收，全程留痕' },
    { icon: <AuditOutlined />, title: '审核评估', text: '审核评估指标、要点与工作组管理' },
  ];
  return (
    <div className="welcome">
      <Card variant="borderless" style={{ marginBottom: 16 }}>
        <Row align="middle" gutter={16} wrap={false}>
          <Col flex="none">
            <Avatar size={56} src={user?.avatar || undefined} style={{ background: 'var(--app-primary)', fontSize: 24 }}>
              {(user?.realname ?? user?.username ?? '').slice(0, 1)}
            </Avatar>
          </Col>
          <Col flex="auto">
            <Typography.Title level={4} style={{ margin: 0 }}>
              {greeting()}，{user?.realname ?? user?.username ?? ''}，欢迎使用本科教学质量评估系统·听课子系统
            </Typography.Title>
            <Typography.Text type="secondary">{user?.orgCodeTxt ? `当前部门：${user.orgCodeTxt}` : '请从左侧菜单选择要使用的功能。'}</Typography.Text>
          </Col>
        </Row>
      </Card>
      <Row gutter={[16, 16]}>
        {tiles.map((t) => (
          <Col key={t.title} xs={24} sm={12} xl={6}>
            <Card variant="borderless" style={{ height: '100%' }}>
              <Card.Meta
                avatar={<span style={{ fontSize: 28, color: 'var(--app-primary)' }}>{t.icon}</span>}
                title={t.title}
                description={t.text}
              />
            </Card>
          </Col>
        ))}
        <Col xs={24} xl={14}>
          <Card variant="borderless" title="常用功能" style={{ height: '100%' }}>
            <Row gutter={[12, 12]}>
              {shortcuts.map((n) => (
                <Col key={n.path} xs={12} sm={8} md={6}>
                  <Card size="small" hoverable onClick={() => nav(n.path)} styles={{ body: { textAlign: 'center', padding: '16px 8px' } }}>
                    <div style={{ fontSize: 22, color: 'var(--app-primary)' }}>{menuIcon(n.meta?.icon || 'appstore')}</div>
                    <div style={{ marginTop: 6, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>{n.meta?.title}</div>
                  </Card>
                </Col>
              ))}
            </Row>
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card variant="borderless" title="学期听课工作流程" style={{ height: '100%' }}>
            <Steps
              direction="vertical"
              size="small"
              current={-1}
              items={[
                { title: '学期准备', description: '学期、作息时间、课程与排课、评价指标、听课任务要求' },
                { title: '听课评价', description: '依据课表听课，逐项评分，教师确认或反馈' },
                { title: '统计分析', description: '听课频次、完成率与课堂教学成绩，导出报表' },
                { title: '整改闭环', description: '问题整改任务下达、反馈、验收与跟踪听课' },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24}>
          <VisitCard />
        </Col>
      </Row>
    </div>
  );
}
