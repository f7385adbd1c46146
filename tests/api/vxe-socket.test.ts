import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** The editable-table live-update socket /vxeSocket/{userId}/{pageId}. */
let s: TestServer;
let base: string;
const ids: Record<string, string> = {};
const tokens: Record<string, string> = {};

beforeAll(async () => {
  s = await startTestServer({ listen: true });
  for (const u of ['admin', 'teacher']) {
    tokens[u] = await s.login(u);
    ids[u] = (await s.running.ctx.db.selectFrom('sys_user').select('id').where('username', '=', u).executeTakeFirstOrThrow()).id as string;
  }
  const addr = s.running.app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('not listening');
  base = `ws://127.0.0.1:${addr.port}/jeecg-boot`;
});
afterAll(() => s?.close());

function open(user: string, pageId: string, as: string | null = tokens[user]!) {
  const token = as ?? undefined;
  const ws = new WebSocket(`${base}/vxeSocket/${ids[user] ?? user}/${pageId}`, token ? [token] : []);
  const messages: Array<Record<string, unknown>> = [];
  ws.on('message', (d) => messages.push(JSON.parse(String(d)) as Record<string, unknown>));
  const opened = new Promise<void>((res, rej) => {
    ws.once('open', () => res());
    ws.once('error', rej);
    ws.once('unexpected-response', (_req, resp) => rej(new Error(`HTTP ${resp.statusCode}`)));
  });
  return { ws, messages, opened };
}

const until = async (pred: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('vxeSocket', () => {
  it('refuses no token, another user id, and a bad page id', async () => {
    await expect(open('teacher', 'p1', null).opened).rejects.toThrow(/401/);
    await expect(open('admin', 'p1', tokens.teacher!).opened).rejects.toThrow(/HTTP/);
    await expect(open('teacher', 'bad%20page!').opened).rejects.toThrow(/HTTP/);
  });

  it('answers heartbeats, ignores invalid JSON, relays row updates to other sockets of the same page only', async () => {
    const a = open('admin', 'lecture-list');
    const b = open('teacher', 'lecture-list');
    const c = open('teacher', 'other-page');
    await Promise.all([a.opened, b.opened, c.opened]);
    a.ws.send('not json');
    a.ws.send(JSON.stringify({ type: 'heart_beat', data: '-' }));
    await until(() => a.messages.length === 1);
    expect(a.messages[0]).toEqual({ type: 'heart_beat', data: '-' });
    const row = { id: 'r1', name: '张三', tug_status: { locked: true } };
    a.ws.send(JSON.stringify({ type: 'common_send_date', data: { socketKey: 'k1', args: ['update_vxe_table', row] } }));
    await until(() => b.messages.length === 1);
    expect(b.messages[0]).toEqual({ type: 'common_send_date', data: { socketKey: 'k1', args: ['update_vxe_table', row] } });
    await new Promise((r) => setTimeout(r, 200));
    expect(a.messages).toHaveLength(1); // not echoed to the sender
    expect(c.messages).toHaveLength(0); // other page
    for (const x of [a, b, c]) x.ws.close();
  });

  it('closes a socket whose session has ended', async () => {
    const token = await s.login('teacher');
    const x = open('teacher', 'p2', token);
    await x.opened;
    const closed = new Promise<number>((res) => x.ws.once('close', (code) => res(code)));
    expect((await s.call({ method: 'POST', url: 'sys/logout', token })).statusCode).toBe(200);
    x.ws.send(JSON.stringify({ type: 'heart_beat', data: '-' }));
    expect(await closed).toBe(4001);
    expect(x.messages).toHaveLength(0);
  });
});
