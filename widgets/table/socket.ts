import { useEffect, useRef } from 'react';
import { getDefaultStore } from 'jotai';
import { API_BASE } from '@core/http/client';
import { tokenAtom, userInfoAtom } from '@core/session/store';

/** Table live-update socket client (SPEC §4, §9): heartbeat 10 s, reply timeout 6 s, reconnect 5 s. */
export const HEARTBEAT_MS = 10_000;
export const REPLY_TIMEOUT_MS = 6_000;
export const RECONNECT_MS = 5_000;
export const UPDATE_TYPE = 'update_vxe_table';

export function vxeSocketUrl(userId: string, pageId: string, base = API_BASE, loc: Pick<Location, 'protocol' | 'host'> = location): string {
  const httpUrl = /^https?:\/\//.test(base) ? base : `${loc.protocol}//${loc.host}${base}`;
  return `${httpUrl.replace(/^http/, 'ws')}/vxeSocket/${encodeURIComponent(userId)}/${encodeURIComponent(pageId)}`;
}

/** Parses an incoming frame; invalid JSON or unknown shapes give undefined. */
export function parseSocketMessage(data: unknown): { type: 'heart_beat' } | { type: 'update'; socketKey: string; record: Record<string, unknown> } | undefined {
  let m: { type?: unknown; data?: { socketKey?: unknown; args?: unknown } };
  try {
    m = JSON.parse(String(data)) as typeof m;
  } catch {
    return undefined;
  }
  if (!m || typeof m !== 'object') return undefined;
  if (m.type === 'heart_beat') return { type: 'heart_beat' };
  if (m.type === 'common_send_date' && m.data && typeof m.data.socketKey === 'string' && Array.isArray(m.data.args)) {
    const [kind, record] = m.data.args as [unknown, unknown];
    if (kind === UPDATE_TYPE && record && typeof record === 'object') return { type: 'update', socketKey: m.data.socketKey, record: record as Record<string, unknown> };
  }
  return undefined;
}

export interface VxeSocketOptions {
  pageId?: string;
  socketKey?: string;
  onUpdate: (record: Record<string, unknown>) => void;
}

/** Connects while pageId and socketKey are set; returns a sender for row updates. */
export function useVxeSocket({ pageId, socketKey, onUpdate }: VxeSocketOptions): (record: Record<string, unknown>) => void {
  const ws = useRef<WebSocket | null>(null);
  const handler = useRef(onUpdate);
  handler.current = onUpdate;
  useEffect(() => {
    if (!pageId || !socketKey) return;
    const store = getDefaultStore();
    const userId = store.get(userInfoAtom)?.id;
    const token = store.get(tokenAtom);
    if (!userId || !token) return;
    let closed = false;
    let beat: ReturnType<typeof setInterval> | undefined;
    let reply: ReturnType<typeof setTimeout> | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const connect = () => {
      const s = new WebSocket(vxeSocketUrl(userId, pageId), [token]);
      ws.current = s;
      const reconnect = () => {
        clearInterval(beat);
        clearTimeout(reply);
        if (closed) return;
        clearTimeout(retry);
        retry = setTimeout(connect, RECONNECT_MS);
      };
      s.onopen = () => {
        beat = setInterval(() => {
          if (s.readyState !== s.OPEN) return;
          s.send(JSON.stringify({ type: 'heart_beat', data: '-' }));
          clearTimeout(reply);
          reply = setTimeout(() => s.close(), REPLY_TIMEOUT_MS);
        }, HEARTBEAT_MS);
      };
      s.onmessage = (e) => {
        const m = parseSocketMessage(e.data);
        if (!m) return;
        if (m.type === 'heart_beat') clearTimeout(reply);
        else if (m.socketKey === socketKey) handler.current(m.record);
      };
      s.onclose = reconnect;
      s.onerror = () => s.close();
    };
    connect();
    return () => {
      closed = true;
      clearInterval(beat);
      clearTimeout(reply);
      clearTimeout(retry);
      ws.current?.close();
      ws.current = null;
    };
  }, [pageId, socketKey]);
  return (record) => {
    const s = ws.current;
    if (s && s.readyState === s.OPEN) s.send(JSON.stringify({ type: 'common_send_date', data: { socketKey, args: [UPDATE_TYPE, record] } }));
  };
}
