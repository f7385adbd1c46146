import { Avatar, Card, Col, Descriptions, Empty, List, Result, Row, Spin, Tabs, Tag } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router-dom';
import { fileUrl } from '@core/http/client';
import { JDictTag } from '@widgets/dict/JDictSelectTag';
import { useAccount } from './useAccount';

/** 个人中心: the signed-in user's own profile, departments, roles, positions and recent records/notices. */
export default function AccountCenter() {
  const { data, error } = useAccount();
  const nav = useNavigate();
  if (error) return <Result status="warning" title={error} />;
  if (!data)
    return (
      <div className="page-spin">
        <Spin />
      </div>
    );
  const u = data.userInfo;
  return (
    <Row gutter={24} className="account-center">
      <Col xs={24} md={8}>
        <Card variant="borderless" style={{ marginBottom: 24 }}>
          <div style={{ textAlign: 'center', marginBottom: 24 }}>
            <Avatar size={104} src={u.avatar ? fileUrl(String(u.avatar)) : undefined} icon={<UserOutlined />} />
            <div className="account-center-name" style={{ fontSize: 20, fontWeight: 500, marginTop: 12 }}>
              {u.realname}
            </div>
            <div style={{ color: 'rgba(0,0,0,.45)' }}>{u.username}</div>
          </div>
          <Descriptions column={1} size="small">
            <Descriptions.Item label="工号">{String(u.workNo ?? '') || '—'}</Descriptions.Item>
            <Descriptions.Item label="职称">{u.title ? <JDictTag dictCode="teacher_title" value={String(u.title)} /> : '—'}</Descriptions.Item>
            <Descriptions.Item label="职务">{data.positions.join('、') || '—'}</Descriptions.Item>
            <Descriptions.Item label="邮箱">{String(u.email ?? '') || '—'}</Descriptions.Item>
            <Descriptions.Item label="手机">{String(u.phone ?? '') || '—'}</Descriptions.Item>
          </Descriptions>
          <div style={{ marginTop: 16 }}>
            <div style={{ fontWeight: 500, marginBottom: 8 }}>部门</div>
            {data.departs.length
              ? data.departs.map((d) => (
                  <Tag key={d.id} color={d.orgCode === u.orgCode ? 'blue' : undefined}>
                    {d.departName}
                  </Tag>
                ))
              : '—'}
          </div>
          <div style={{ marginTop: 16 }}>
            <div style={{ fontWeight: 500, marginBottom: 8 }}>角色</div>
            {data.roles.length ? data.roles.map((r) => <Tag key={r.roleCode}>{r.roleName}</Tag>) : '—'}
          </div>
        </Card>
      </Col>
      <Col xs={24} md={16}>
        <Card variant="borderless">
          <Tabs
            items={[
              {
                key: 'records',
                label: '最近听课记录',
                children: data.records.length ? (
                  <List
                    dataSource={data.records}
                    renderItem={(r) => (
                      <List.Item extra={<JDictTag dictCode="record_status" value={String(r.status ?? '')} />}>
                        <List.Item.Meta
                          title={`${String(r.courseName ?? '')}（${String(r.teacherName ?? '')}）`}
                          description={`${String(r.lectureDate ?? '').slice(0, 10)} · 听课人 ${String(r.listenerName ?? '')} · 编号 ${String(r.recordNo ?? '')}${r.totalScore != null ? ` · ${String(r.totalScore)} 分` : ''}`}
                        />
                      </List.Item>
                    )}
                  />
                ) : (
                  <Empty description="暂无听课记录" />
                ),
              },
              {
                key: 'notices',
                label: '最近通知',
                children: data.notices.length ? (
                  <List
                    dataSource={data.notices}
                    renderItem={(n) => (
                      <List.Item extra={n.readFlag === '1' ? <Tag>已读</Tag> : <Tag color="red">未读</Tag>}>
                        <List.Item.Meta title={<a onClick={() => nav('/isps/userAnnouncement')}>{n.titile}</a>} description={String(n.sendTime ?? '')} />
                      </List.Item>
                    )}
                  />
                ) : (
                  <Empty description="暂无通知" />
                ),
              },
            ]}
          />
        </Card>
      </Col>
    </Row>
  );
}
