import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sha256 } from '../../server/util.js';
import { readCacheOf } from '../../server/db/read-cache.js';

let s: TestServer;
let admin: string;
let teacher: string;
let teacherId: string;
let base: string;

beforeAll(async () => {
  s = await startTestServer({ listen: true });
  admin = await s.login('admin');
  teacher = await s.login('teacher');
  const u = await s.running.ctx.db.selectFrom('sys_user').select('id').where('username', '=', 'teacher').executeTakeFirstOrThrow();
  teacherId = u.id as string;
  const addr = s.running.app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('not listening');
  base = `ws://127.0.0.1:${addr.port}/jeecg-boot`;
});
afterAll(() => s?.close());

/** Opens the notice socket and collects every message it receives. */
function openSocket(userId: string, token: string | undefined) {
  const ws = new WebSocket(`${base}/websocket/${userId}`, token ? [token] : []);
  const messages: Array<Record<string, unknown>> = [];
  ws.on('message', (d) => messages.push(JSON.parse(String(d)) as Record<string, unknown>));
  const opened = new Promise<void>((res, rej) => {
    ws.once('open', () => res());
    ws.once('error', rej);
    ws.once('unexpected-response', (_req, resp) => rej(new Error(`HTTP ${resp.statusCode}`)));
  });
  const closed = new Promise<number>((res) => ws.once('close', (code) => res(code)));
  return { ws, messages, opened, closed };
}

const until = async (pred: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

async function addAnnouncement(body: Record<string, unknown>) {
  const r = await s.post('sys/annountCement/add', { titile: '期中听课安排', msgContent: '<p>请查看</p>', msgCategory: '1', priority: 'H', ...body }, admin);
  expect(r.json()).toMatchObject({ success: true });
  const row = await s.running.ctx.db.selectFrom('sys_announcement').select('id').where('titile', '=', body.titile ?? '期中听课安排').orderBy('create_time', 'desc').executeTakeFirstOrThrow();
  return row.id as string;
}

describe('announcements and the notice socket', () => {
  it('refuses a socket without a token, with a bad token, or for another user', async () => {
    await expect(openSocket(teacherId, undefined).opened).rejects.toThrow(/401/);
    await expect(openSocket(teacherId, 'not-a-token').opened).rejects.toThrow(/401/);
    const adminId = (await s.running.ctx.db.selectFrom('sys_user').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id as string;
    await expect(openSocket(adminId, teacher).opened).rejects.toThrow();
  });

  it('echoes the token protocol and answers heartbeats', async () => {
    const c = openSocket(teacherId, teacher);
    await c.opened;
    expect(c.ws.protocol).toBe(teacher);
    c.ws.send('HeartBeat');
    await until(() => c.messages.length > 0);
    expect(c.messages[0]).toEqual({ cmd: 'heartcheck', msgTxt: '心跳响应' });
    c.ws.close();
  });

  it('publishes to chosen users: pushed at once, listed unread, marked read', async () => {
    const c = openSocket(teacherId, teacher);
    await c.opened;
    const id = await addAnnouncement({ titile: '给王老师的通知', msgType: 'USER', userIds: `${teacherId},`, openType: 'url', openPage: '/supervisor/lectureRecord' });
    const pub = await s.get(`sys/annountCement/doReleaseData?id=${id}`, admin);
    expect(pub.json()).toMatchObject({ success: true });
    await until(() => c.messages.some((m) => m.msgId === id));
    expect(c.messages.find((m) => m.msgId === id)).toMatchObject({ cmd: 'user', msgTxt: '给王老师的通知' });

    const list = (await s.get('sys/annountCement/listByUser?pageSize=5', teacher)).json();
    expect(list.success).toBe(true);
    const item = list.result.anntMsgList.find((a: { id: string }) => a.id === id);
    expect(item).toMatchObject({ titile: '给王老师的通知', priority: 'H', openType: 'url', readFlag: '0', sendStatus: '1' });
    // Another user does not see it.
    const other = (await s.get('sys/annountCement/listByUser', await s.login('teacher2'))).json();
    expect(other.result.anntMsgList.some((a: { id: string }) => a.id === id)).toBe(false);

    const read = await s.put('sys/sysAnnouncementSend/editByAnntIdAndUserId', { anntId: id }, teacher);
    expect(read.json().success).toBe(true);
    const after = (await s.get('sys/annountCement/listByUser', teacher)).json();
    expect(after.result.anntMsgList.some((a: { id: string }) => a.id === id)).toBe(false);
    const mine = (await s.get('sys/sysAnnouncementSend/getMyAnnouncementSend?pageNo=1&pageSize=50', teacher)).json();
    expect(mine.result.records.find((a: { id: string }) => a.id === id)).toMatchObject({ readFlag: '1' });
    c.ws.close();
  });

  it('broadcasts to everyone, strips scripts from the body, and revokes', async () => {
    const c = openSocket(teacherId, teacher);
    await c.opened;
    const id = await addAnnouncement({ titile: '全体通知', msgContent: '<p onclick="x()">好</p><script>alert(1)</script><img src=x onerror=alert(1)>' });
    const stored = await s.running.ctx.db.selectFrom('sys_announcement').select('msg_content').where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.msg_content).not.toMatch(/script|onclick|onerror/);
    expect(stored.msg_content).toContain('好');
    await s.get(`sys/annountCement/doReleaseData?id=${id}`, admin);
    await until(() => c.messages.some((m) => m.msgId === id && m.cmd === 'topic'));
    const list = (await s.get('sys/annountCement/listByUser', teacher)).json();
    expect(list.result.anntMsgTotal).toBeGreaterThan(0);
    expect(list.result.anntMsgList.some((a: { id: string }) => a.id === id)).toBe(true);

    const readAll = await s.put('sys/sysAnnouncementSend/readAll', {}, teacher);
    expect(readAll.json().success).toBe(true);
    expect((await s.get('sys/annountCement/listByUser', teacher)).json().result.anntMsgTotal).toBe(0);

    expect((await s.get(`sys/annountCement/doReovkeData?id=${id}`, admin)).json()).toMatchObject({ success: true });
    const again = (await s.get(`sys/annountCement/doReovkeData?id=${id}`, admin)).json();
    expect(again).toMatchObject({ success: false, message: '只能撤销已发布的通告' });
    c.ws.close();
  });

  it('lists the newest unread notices of each category with their totals, leaving out expired ones', async () => {
    const reader = await s.login('teacher2');
    const readerId = (await s.running.ctx.db.selectFrom('sys_user').select('id').where('username', '=', 'teacher2').executeTakeFirstOrThrow()).id as string;
    const before = (await s.get('sys/annountCement/listByUser?pageSize=2', reader)).json().result;
    const publish = async (titile: string, msgCategory: string, sendTime: string, endTime?: string) => {
      const id = await addAnnouncement({ titile, msgCategory, msgType: 'USER', userIds: readerId });
      expect((await s.get(`sys/annountCement/doReleaseData?id=${id}`, admin)).json()).toMatchObject({ success: true });
      // Distinct send times (stored to the second): the newest-first order is then certain.
      await s.running.ctx.db.updateTable('sys_announcement').set({ send_time: sendTime, end_time: endTime ?? null }).where('id', '=', id).execute();
      return id;
    };
    await publish('分类一甲', '1', '2099-01-01 08:00:01'); // third newest: counted, beyond the page
    const a2 = await publish('分类一乙', '1', '2099-01-01 08:00:03');
    const a3 = await publish('分类一丙', '1', '2099-01-01 08:00:02');
    await publish('分类一已过期', '1', '2099-01-01 08:00:04', '2020-01-01 00:00:00');
    const m1 = await publish('系统消息甲', '2', '2099-01-01 08:00:05');
    const m2 = await publish('系统消息乙', '2', '2099-01-01 08:00:06');

    const list = (await s.get('sys/annountCement/listByUser?pageSize=2', reader)).json();
    expect(list).toMatchObject({ success: true, code: 0 });
    const r = list.result;
    expect(r.anntMsgList.map((n: { id: string }) => n.id)).toEqual([a2, a3]);
    expect(r.anntMsgTotal).toBe(before.anntMsgTotal + 3);
    expect(r.sysMsgList.map((n: { id: string }) => n.id)).toEqual([m2, m1]);
    expect(r.sysMsgTotal).toBe(before.sysMsgTotal + 2);
    expect(r.anntMsgList[0]).toMatchObject({ titile: '分类一乙', msgCategory: '1', readFlag: '0', sendStatus: '1' });
    expect(Object.keys(r.anntMsgList[0])).not.toContain('rank');
    expect(Object.keys(r.anntMsgList[0])).not.toContain('categoryTotal');
  });

  it('a notice poll writes nothing once the user has every receipt, and one receipt per new broadcast', async () => {
    const writes: string[][] = [];
    await s.get('sys/annountCement/listByUser', teacher); // receipts for whatever was published before
    // Only the receipts' table: a scheduled job may write elsewhere meanwhile.
    const stop = readCacheOf(s.running.ctx.db)!.onWrite((tables) => tables.includes('sys_announcement_send') && writes.push(tables));
    try {
      await s.get('sys/annountCement/listByUser', teacher);
      expect(writes).toEqual([]); // no insert: nothing was missing
      const id = await addAnnouncement({ titile: '新的全体通知' });
      await s.get(`sys/annountCement/doReleaseData?id=${id}`, admin);
      writes.length = 0;
      const list = (await s.get('sys/annountCement/listByUser', teacher)).json();
      expect(list.result.anntMsgList.some((a: { id: string }) => a.id === id)).toBe(true);
      expect(writes).toEqual([['sys_announcement_send']]);
    } finally {
      stop();
    }
  });

  it('refuses management to a non-admin with 510', async () => {
    for (const url of ['sys/annountCement/list', 'sys/annountCement/doReleaseData?id=x', 'sys/annountCement/doReovkeData?id=x', 'sys/online/list'])
      expect((await s.get(url, teacher)).json()).toMatchObject({ success: false, code: 510 });
    expect((await s.post('sys/annountCement/add', { titile: 'x' }, teacher)).json()).toMatchObject({ code: 510 });
    expect((await s.post('sys/online/forceLogout', { id: 'x' }, teacher)).json()).toMatchObject({ code: 510 });
  });
});

describe('online users and force logout', () => {
  it('lists the session, and force logout ends it on the next request and closes its socket', async () => {
    const victim = await s.login('teacher');
    expect((await s.get('sys/annountCement/listByUser', victim)).statusCode).toBe(200);
    const c = openSocket(teacherId, victim);
    await c.opened;
    const list = (await s.get('sys/online/list?pageSize=100', admin)).json();
    expect(list.success).toBe(true);
    const mine = list.result.records.filter((r: { username: string }) => r.username === 'teacher');
    expect(mine.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(list.result)).not.toContain(victim);
    const target = (await s.running.ctx.db.selectFrom('sys_session').select('id').where('token_hash', '=', sha256(victim)).executeTakeFirstOrThrow()).id as string;
    expect(mine.some((r: { id: string }) => r.id === target)).toBe(true);
    expect((await s.post('sys/online/forceLogout', { id: target }, admin)).json()).toMatchObject({ success: true });
    expect((await s.get('sys/annountCement/listByUser', victim)).statusCode).toBe(401);
    expect((await s.get('sys/annountCement/listByUser', teacher)).statusCode).toBe(200);
    // The socket of the ended session is closed by the hub's session check (at most 5 s later).
    expect(await c.closed).toBe(4001);
  });
});

describe('message templates', () => {
  it('sends a template literally: ${7*7} and {{7*7}} are not evaluated', async () => {
    const add = await s.post(
      'sys/message/sysMessageTemplate/add',
      { templateCode: 'inj_test', templateName: '测试${name}', templateType: '4', templateContent: '你好${name}，${7*7}与{{7*7}}及#{7*7}' },
      admin,
    );
    expect(add.json()).toMatchObject({ success: true });
    const c = openSocket(teacherId, teacher);
    await c.opened;
    const r = await s.post('sys/message/sysMessageTemplate/sendMsg', { templateCode: 'inj_test', testData: '{"name":"${7*7}<b>"}', receiver: teacherId }, admin);
    expect(r.json()).toMatchObject({ success: true });
    await until(() => c.messages.some((m) => m.cmd === 'user'));
    const msg = await s.running.ctx.db.selectFrom('sys_sms').selectAll().where('es_type', '=', '4').orderBy('create_time', 'desc').executeTakeFirstOrThrow();
    expect(msg.es_content).toBe('你好${7*7}<b>，${7*7}与{{7*7}}及#{7*7}');
    expect(msg.es_content).not.toContain('49');
    expect(msg.es_title).toBe('测试${7*7}<b>');
    expect(msg.es_send_status).toBe('1');
    const list = (await s.get('sys/annountCement/listByUser', teacher)).json();
    const sys = list.result.sysMsgList.find((a: { titile: string }) => a.titile === '测试${7*7}<b>');
    expect(sys.msgContent).toContain('&#60;b&#62;');
    c.ws.close();
  });

  it('records e-mail and SMS in the outbox when no gateway is configured, and lists them with status', async () => {
    await s.post('sys/message/sysMessageTemplate/add', { templateCode: 'sms_test', templateName: '短信', templateType: '1', templateContent: '验证码${code}' }, admin);
    const r = (await s.post('sys/message/sysMessageTemplate/sendMsg', { templateCode: 'sms_test', testData: { code: '1234' }, receiver: teacherId }, admin)).json();
    expect(r).toMatchObject({ success: true, result: { waiting: 1 } });
    const list = (await s.get('sys/message/sysMessage/list?esType=1', admin)).json();
    expect(list.result.records[0]).toMatchObject({ esContent: '验证码1234', esSendStatus: '0', esReceiver: '13800000006' });
    expect((await s.post('sys/message/sysMessageTemplate/sendMsg', { templateCode: 'sms_test', testData: '[1', receiver: teacherId }, admin)).json()).toMatchObject({
      success: false,
      message: expect.stringContaining('JSON'),
    });
  });

  it('refuses messages and templates to a non-admin with 510', async () => {
    for (const url of ['sys/message/sysMessage/list', 'sys/message/sysMessageTemplate/list'])
      expect((await s.get(url, teacher)).json()).toMatchObject({ code: 510 });
    expect((await s.post('sys/message/sysMessageTemplate/sendMsg', { templateCode: 'inj_test', receiver: teacherId }, teacher)).json()).toMatchObject({ code: 510 });
  });
});
