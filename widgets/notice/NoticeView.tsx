import { useEffect } from 'react';
import { Button, Space, Typography } from 'antd';
import { useNavigate } from 'react-router-dom';
import { http, withFileTokens } from '@core/http/client';

/** A notice as listByUser / getMyAnnouncementSend give it (JeecgBoot field names, `titile` sic). */
export interface NoticeRow {
  id?: string;
  anntId?: string;
  titile?: string;
  msgContent?: string;
  sender?: string;
  /** The sender's real name (the server resolves `sender`, a login name). */
  senderName?: string;
  sendTime?: string;
  openType?: string;
  openPage?: string;
  busType?: string;
  readFlag?: string;
}

/** The button that opens what a notice is about, by its business type. */
const TARGET_LABEL: Record<string, string> = {
  lecture_record: '查看听课记录',
  imp_task: '查看整改任务',
  imp_subtask: '查看整改子任务',
  lab_reservation: '查看预约',
};
export const targetLabel = (n: NoticeRow) => (n.busType && TARGET_LABEL[n.busType]) || '去处理';
/** Where the notice's button leads: an address inside the product (`openType` url), never another site. */
export const targetOf = (n: NoticeRow) => (n.openType === 'url' && n.openPage?.startsWith('/') && !n.openPage.startsWith('//') ? n.openPage : undefined);

/**
 * A notice as readable text: its title, who sent it (real name) and when, its body, and a button that opens
 * the record or task it is about. `markRead`: the notice is marked read when shown (我的消息's 查看).
 */
export function NoticeView({ record, onClose, markRead }: { record?: NoticeRow; onClose?: () => void; markRead?: boolean }) {
  const nav = useNavigate();
  const n = record ?? {};
  const target = targetOf(n);
  const id = n.anntId ?? n.id;
  useEffect(() => {
    if (markRead && id && n.readFlag !== '1') void http.put('/sys/sysAnnouncementSend/editByAnntIdAndUserId', { anntId: id }).catch(() => undefined);
  }, [markRead, id, n.readFlag]);
  return (
    <div data-testid="notice-detail" className="notice-view">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {n.titile}
      </Typography.Title>
      <Space size={16} wrap style={{ color: 'rgba(0,0,0,.45)', marginBottom: 12 }}>
        <span data-testid="notice-sender">发布人：{n.senderName || n.sender || ''}</span>
        <span>发布时间：{n.sendTime ?? ''}</span>
      </Space>
      {/* The body is sanitised by the server when it is saved (xss whitelist); a domain notice's text is escaped. */}
      <div className="notice-body" style={{ lineHeight: 1.8, overflowWrap: 'anywhere' }} dangerouslySetInnerHTML={{ __html: withFileTokens(n.msgContent ?? '') }} />
      {target && (
        <div style={{ marginTop: 16 }}>
          <Button
            type="primary"
            data-testid="notice-target"
            onClick={() => {
              onClose?.();
              nav(target);
            }}
          >
            {targetLabel(n)}
          </Button>
        </div>
      )}
    </div>
  );
}
