/**
 * Hostile websocket use (no token, another user's id, after logout) and template payloads that
 * must be delivered literally.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let admin: string;
let base: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  s = await startTestServer({ listen: true });
  admin = await s.login('admin');
  for (const u of ['admin', 'teacher', 'secretary']) {
    ids[u] = (await s.running.ctx.db.selectFrom('sys_user').select('id').where('username', '=', u).executeTakeFirstOrThrow()).id as string;
  }
  const addr = s.running.app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('not listening');
  base = `ws://127.0.0.1:${addr.port}/jeecg-boot`;
});
afterAll(() => s?.close());

/** Opens a socket; resolves 'open' or the HTTP status of a refused upgrade. */
function open(path: string, protocols: string[] = [], headers: Record<string, string> = {}) {
  const ws = new WebSocket(`${base}${path}`, protocols, { headers });
  const closed = new Promise<number>((res) => ws.once('close', (code) => res(code)));
  const outcome = new Promise<number | 'open'>((res) => {
    ws.once('open', () => res('open'));
    ws.once('unexpected-response', (_req, resp) => {
      res(resp.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', () => res(-1));
  });
  return { ws, closed, outcome };
}

describe('websockets', () => {
  it('without a token or with a forged one: refused with 401', async () => {
    expect(await open(`/websocket/${ids.teacher}`).outcome).toBe(401);
    expect(await open(`/websocket/${ids.teacher}`, ['eyJhbGciOiJub25lIn0.eyJ1c2VybmFtZSI6ImFkbWluIn0.']).outcome).toBe(401);
    expect(await open(`/websocket/${ids.teacher}?token=`).outcome).toBe(401);
  });

  it('with the teacher’s token for another user’s id: refused', async () => {
    const teacher = await s.login('teacher');
    for (const other of [ids.admin, ids.secretary, '..%2f' + ids.admin, `${ids.teacher},${ids.admin}`]) {
      const r = await open(`/websocket/${other}`, [teacher]).outcome;
      expect(r, other).not.toBe('open');
    }
    // The same token does open the teacher's own socket (the refusals above were about the id).
    const own = open(`/websocket/${ids.teacher}`, [teacher]);
    expect(await own.outcome).toBe('open');
    own.ws.close();
    await own.closed;
  });

  it('after logout: an open socket closes and a new one is refused', async () => {
    const teacher = await s.login('teacher');
    const c = open(`/websocket/${ids.teacher}`, [teacher]);
    expect(await c.outcome).toBe('open');
    const out = await s.post('sys/logout', {}, teacher);
    expect(out.json()).toMatchObject({ success: true });
    const t0 = Date.now();
    await c.closed;
    expect(Date.now() - t0).toBeLessThan(6000);
    expect(await open(`/websocket/${ids.teacher}`, [teacher]).outcome).toBe(401);
  }, 15_000);
});

describe('templates are echoed literally', () => {
  const PAYLOADS = '${7*7} {{7*7}} <%= 7*7 %> #{7*7} {{constructor.constructor(\'return process\')()}} =eval(1+1) <#assign ex="freemarker.template.utility.Execute"?new()>${ex("id")}';

  it('a message template full of expressions is sent as written; data values are not re-evaluated', async () => {
    const code = `hostile_${Date.now()}`;
    const add = await s.post(
      'sys/message/sysMessageTemplate/add',
      { templateCode: code, templateName: '模板${7*7}', templateType: '4', templateContent: `${PAYLOADS} 姓名:\${name}`, templateTestJson: '{"name":"张三"}' },
      admin,
    );
    expect(add.json()).toMatchObject({ success: true });
    const send = await s.post(
      'sys/message/sysMessageTemplate/sendMsg',
      { templateCode: code, receiver: ids.teacher, msgType: '4', testData: JSON.stringify({ name: '${7*7}{{7*7}}', '7*7': 'X' }) },
      admin,
    );
    expect(send.json()).toMatchObject({ success: true });
    const row = await s.running.ctx.db
      .selectFrom('sys_sms')
      .select(['es_title', 'es_content'])
      .where('create_by', '=', 'admin')
      .where('es_title', '=', '模板${7*7}')
      .executeTakeFirstOrThrow();
    expect(row.es_content).toBe(`${PAYLOADS} 姓名:\${7*7}{{7*7}}`);
    expect(row.es_content).not.toMatch(/\b49\b|uid=/);
  });
});
