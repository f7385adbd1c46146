import { useCallback, useEffect, useRef, useState } from 'react';
import { Badge, Button, Empty, List, Modal, Tabs, Tag } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useAtomValue } from 'jotai';
import { useNavigate } from 'react-router-dom';
import { API_BASE, http, type Envelope } from '@core/http/client';
import { tokenAtom, userInfoAtom } from '@core/session/store';
import { LazyPopover } from '@core/ui/LazyOverlay';
import { arrivedEarly, takeEarly } from '@core/session/prefetch';
import { NoticeView } from '@widgets/notice/NoticeView';

/** One item of listByUser (JeecgBoot field names, `titile` sic). */
export interface Notice {
  id: string;
  titile: string;
  msgContent?: string;
  sender?: string;
  sendTime?: string;
  priority?: 'L' | 'M' | 'H';
  openType?: string;
  openPage?: string;
  senderName?: string;
  busType?: string;
  msgCategory?: string;
}

interface NoticeList {
  anntMsgList: Notice[];
  anntMsgTotal: number;
  sysMsgList: Notice[];
  sysMsgTotal: number;
}

const EMPTY: NoticeList = { anntMsgList: [], anntMsgTotal: 0, sysMsgList: [], sysMsgTotal: 0 };
/** listByUser's answer as the list shown (undefined for a failed answer). */
const noticeList = (r: Envelope<NoticeList> | undefined): NoticeList | undefined => (r?.success ? { ...EMPTY, ...r.result } : undefined);
const POLL_MS = 6_000;
const HEARTBEAT_MS = 20_000;
const HEARTBEAT_TIMEOUT_MS = 20_000;
const RECONNECT_MS = 5_000;
const PRIORITY: Record<string, [string, string]> = { L: ['blue', '一般'], M: ['orange', '重要'], H: ['red', '紧急'] };
export const MY_ANNOUNCEMENT_PATH = '/isps/userAnnouncement';

/** Other parts of the header told of every socket message's `cmd` (the 我的待办 count refetches on `todo` / `user`). */
const socketListeners = new Set<(cmd: string) => void>();
export function onNoticeSocket(fn: (cmd: string) => void): () => void {
  socketListeners.add(fn);
  return () => void socketListeners.delete(fn);
}

/** The notice socket (SPEC §7): heartbeat 20 s, closed without a reply in 20 s, reconnect 5 s after close or error. */
function useNoticeSocket(userId: string | undefined, token: string, onPush: () => void) {
  const push = useRef(onPush);
  push.current = onPush;
  useEffect(() => {
    if (!userId || !token) return;
    let ws: WebSocket | undefined;
    let stopped = false;
    let beat: number | undefined;
    let waitReply: number | undefined;
    let retry: number | undefined;
    const connect = () => {
      const proto = location.protocol === 'https:' ? 'wss' : 'ws';
      try {
        ws = new WebSocket(`${proto}://${location.host}${API_BASE}/websocket/${encodeURIComponent(userId)}`, [token]);
      } catch {
        retry = window.setTimeout(connect, RECONNECT_MS);
        return;
      }
      ws.onopen = () => {
        beat = window.setInterval(() => {
          if (ws?.readyState !== WebSocket.OPEN) return;
          ws.send('HeartBeat');
          window.clearTimeout(waitReply);
          waitReply = window.setTimeout(() => ws?.close(), HEARTBEAT_TIMEOUT_MS);
        }, HEARTBEAT_MS);
      };
      ws.onmessage = (e) => {
        window.clearTimeout(waitReply);
        let data: { cmd?: string };
        try {
          data = JSON.parse(String(e.data)) as { cmd?: string };
        } catch {
          return;
        }
        if (data.cmd === 'topic' || data.cmd === 'user') push.current();
        if (data.cmd) for (const fn of socketListeners) fn(data.cmd);
      };
      ws.onclose = () => {
        window.clearInterval(beat);
        window.clearTimeout(waitReply);
        if (!stopped) retry = window.setTimeout(connect, RECONNECT_MS);
      };
      ws.onerror = () => ws?.close();
    };
    // The first connection waits until the browser is idle (2 s at most): the list is fetched on mount and polled, so
    // the socket is not needed for the first screen, and its handshake then does not compete with the page's first render.
    const first = window.requestIdleCallback?.(connect, { timeout: 2_000 }) ?? window.setTimeout(connect, 0);
    return () => {
      stopped = true;
      (window.cancelIdleCallback ?? window.clearTimeout)(first);
      window.clearInterval(beat);
      window.clearTimeout(waitReply);
      window.clearTimeout(retry);
      ws?.close();
    };
  }, [userId, token]);
}

/** A notice opened from the header: readable text, the sender's real name, a button to what it is about. */
export function NoticeDetail({ notice, onClose }: { notice: Notice; onClose: () => void }) {
  return (
    <Modal open title="通知消息" width={720} onCancel={onClose} footer={[<Button key="close" onClick={onClose}>关闭</Button>]}>
      <NoticeView record={notice} onClose={onClose} />
    </Modal>
  );
}

/** The tab of the newest unread message: 系统消息 (records, tasks) when it is newer than the newest 通知. */
export function newestTab(d: Pick<NoticeList, 'anntMsgList' | 'sysMsgList'>): 'annt' | 'sys' {
  const a = d.anntMsgList[0]?.sendTime ?? '';
  const m = d.sysMsgList[0]?.sendTime ?? '';
  return m > a ? 'sys' : 'annt';
}

/** Header notice centre (SPEC §2): bell with the unread count, 300-wide popover with two tabs. */
export function NoticeCenter() {
  const user = useAtomValue(userInfoAtom);
  const token = useAtomValue(tokenAtom);
  const nav = useNavigate();
  // The list asked for while the page loaded (core/session/early-requests.ts), when it is already here,
  // is in the first render: no second render and commit of the header (and its badge) as the page is drawn.
  const [early] = useState(() => arrivedEarly('notices') as Envelope<NoticeList> | undefined);
  const [data, setData] = useState<NoticeList>(() => noticeList(early) ?? EMPTY);
  const [open, setOpen] = useState(false);
  const [detail, setDetail] = useState<Notice | null>(null);
  const polling = useRef(true);

  const load = useCallback(async () => {
    try {
      const r = await http.get<NoticeList>('/sys/annountCement/listByUser', { pageSize: 5 });
      const list = noticeList(r);
      if (!list) throw new Error(r.message);
      setData(list);
    } catch {
      polling.current = false; // SPEC §6: polling stops on list failure
    }
  }, []);

  useEffect(() => {
    polling.current = true;
    // The first load: the early answer (drawn already, or still on its way), else asked now.
    const asked = takeEarly('notices') as Promise<Envelope<NoticeList> | undefined> | undefined;
    if (!asked) void load();
    else
      void asked.then((r) => {
        if (r === early) return;
        const list = noticeList(r);
        if (list) setData(list);
        else void load();
      });
    const t = window.setInterval(() => {
      if (polling.current) void load();
    }, POLL_MS);
    return () => window.clearInterval(t);
  }, [load, early]);

  useNoticeSocket(user?.id, token, () => void load());

  const openNotice = async (n: Notice) => {
    setOpen(false);
    setDetail(n);
    await http.put('/sys/sysAnnouncementSend/editByAnntIdAndUserId', { anntId: n.id }).catch(() => undefined);
    void load();
  };

  const list = (items: Notice[]) =>
    items.length ? (
      <List
        size="small"
        dataSource={items}
        renderItem={(n) => (
          <List.Item style={{ cursor: 'pointer' }} onClick={() => void openNotice(n)} data-testid="notice-item">
            <List.Item.Meta
              title={
                <span>
                  {n.titile}
                  {n.priority && PRIORITY[n.priority] && <Tag color={PRIORITY[n.priority]![0]} style={{ marginLeft: 6 }}>{PRIORITY[n.priority]![1]}</Tag>}
                </span>
              }
              description={n.sendTime}
            />
          </List.Item>
        )}
      />
    ) : (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无消息" />
    );

  const total = data.anntMsgTotal + data.sysMsgTotal;
  // The popover opens on the tab holding the newest unread message (a new record's notice is what one sees first).
  const [tab, setTab] = useState('annt');
  const onOpenChange = (o: boolean) => {
    if (o) setTab(newestTab(data));
    setOpen(o);
  };
  const content = (
    <div style={{ width: 300 }}>
      <Tabs
        centered
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'annt', label: `通知(${data.anntMsgTotal})`, children: list(data.anntMsgList) },
          { key: 'sys', label: `系统消息(${data.sysMsgTotal})`, children: list(data.sysMsgList) },
        ]}
      />
      <div style={{ textAlign: 'center' }}>
        <Button
          type="dashed"
          block
          onClick={() => {
            setOpen(false);
            nav(MY_ANNOUNCEMENT_PATH);
          }}
        >
          查看更多
        </Button>
      </div>
    </div>
  );

  return (
    <>
      <LazyPopover content={content} placement="bottomRight" open={open} onOpenChange={onOpenChange} arrow={false}>
        <span className="header-action" role="button" aria-label="消息通知" data-testid="notice-bell">
          <Badge count={total} size="small" data-testid="notice-badge">
            <BellOutlined style={{ fontSize: 16 }} />
          </Badge>
        </span>
      </LazyPopover>
      {detail && <NoticeDetail notice={detail} onClose={() => setDetail(null)} />}
    </>
  );
}
