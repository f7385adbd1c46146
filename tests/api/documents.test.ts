import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import WebSocket from 'ws';
import { inflateRawSync } from 'node:zlib';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { connectDoc, until, type DocClient } from '../helpers/collab.js';
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';

/** Online documents (issue 29): library, shares on every route and on the socket, trash, 定稿, versions, export/import. */
let s: TestServer;
let ws: string;
const tok: Record<string, string> = {};
const uid: Record<string, string> = {};
const clients: DocClient[] = [];

beforeAll(async () => {
  s = await startTestServer({ listen: true });
  for (const u of ['admin', 'secretary', 'teacher', 'teacher2', 'leader', 'supervisor']) {
    tok[u] = await s.login(u);
    uid[u] = (await s.running.ctx.db.selectFrom('sys_user').select('id').where('username', '=', u).executeTakeFirstOrThrow()).id as string;
  }
  const addr = s.running.app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('not listening');
  ws = `ws://127.0.0.1:${addr.port}/jeecg-boot`;
});
afterAll(async () => {
  for (const c of clients) c.close();
  await s?.close();
});

const body = (r: { json(): any }) => r.json();
async function newDoc(owner: string, title: string, extra: Record<string, unknown> = {}) {
  const r = body(await s.post('/jeecg-boot/docs/document/add', { title, ...extra }, tok[owner]));
  expect(r.success, r.message).toBe(true);
  return r.result.id as string;
}
function open(user: string, docId: string) {
  const c = connectDoc(ws, tok[user]!, docId);
  clients.push(c);
  return c;
}
/** Appends a paragraph as the editor would (a Y.XmlElement 'paragraph' holding a Y.XmlText). */
function addParagraph(doc: Y.Doc, text: string) {
  const p = new Y.XmlElement('paragraph');
  p.insert(0, [new Y.XmlText(text)]);
  doc.getXmlFragment('default').push([p]);
}
/**
 * Waits until `to` has seen an awareness mark sent by `from` after its earlier messages: the server handles
 * one socket's messages in order, so whatever `from` sent before has been applied or refused by then.
 */
let marks = 0;
async function barrier(from: DocClient, to: DocClient) {
  const mark = ++marks;
  from.provider.setAwarenessField('mark', mark);
  await until(() => [...to.provider.awareness!.getStates().values()].some((st) => st.mark === mark), 3000, 'awareness mark');
}
const textOf = (doc: Y.Doc) => doc.getXmlFragment('default').toString();
const share = (owner: string, docId: string, targetType: string, targetId: string, level: string) =>
  s.post('/jeecg-boot/docs/share/add', { docId, targetType, targetId, level }, tok[owner]).then(body);

describe('library and permissions', () => {
  it('the owner creates, lists, renames; another user is refused on every document route until shared', async () => {
    const id = await newDoc('secretary', '学院听课总结');
    const mine = body(await s.get('/jeecg-boot/docs/document/list', tok.secretary));
    expect(mine.result.records.map((r: any) => r.id)).toContain(id);
    expect(body(await s.put('/jeecg-boot/docs/document/edit', { id, title: '学院听课总结（初稿）' }, tok.secretary)).success).toBe(true);

    // Every route of one document, as a user without a share: refused (510, 无权访问该文档).
    const routes: Array<[string, string, unknown?]> = [
      ['GET', `/jeecg-boot/docs/document/queryById?id=${id}`],
      ['GET', `/jeecg-boot/docs/document/content?id=${id}`],
      ['GET', `/jeecg-boot/docs/document/export?id=${id}`],
      ['GET', `/jeecg-boot/docs/document/export?id=${id}&format=pdf`],
      ['PUT', '/jeecg-boot/docs/document/edit', { id, title: 'x' }],
      ['DELETE', `/jeecg-boot/docs/document/delete?id=${id}`],
      ['POST', '/jeecg-boot/docs/document/restore', { id }],
      ['DELETE', `/jeecg-boot/docs/document/purge?id=${id}`],
      ['POST', '/jeecg-boot/docs/document/finalize', { id }],
      ['POST', '/jeecg-boot/docs/document/reopen', { id }],
      ['GET', `/jeecg-boot/docs/share/list?docId=${id}`],
      ['POST', '/jeecg-boot/docs/share/add', { docId: id, targetType: 'user', targetId: uid.teacher, level: 'edit' }],
      ['GET', `/jeecg-boot/docs/version/list?docId=${id}`],
      ['POST', '/jeecg-boot/docs/version/add', { docId: id, name: 'v' }],
      ['GET', `/jeecg-boot/docs/comment/list?docId=${id}`],
      ['POST', '/jeecg-boot/docs/comment/add', { docId: id, quote: 'a', content: 'b' }],
      ['POST', '/jeecg-boot/docs/document/add', { templateId: id }],
    ];
    for (const [method, url, payload] of routes) {
      const r = await s.call({ method: method as 'GET', url, token: tok.teacher, payload: payload as object });
      expect(r.statusCode, `${method} ${url}`).toBe(200);
      expect(r.json().success, `${method} ${url}`).toBe(false);
    }
    // Without a session at all: 401.
    expect((await s.get(`/jeecg-boot/docs/document/queryById?id=${id}`)).statusCode).toBe(401);

    // A read share: reading works, writing does not; the list "shared" shows it.
    expect((await share('secretary', id, 'user', uid.teacher!, 'read')).success).toBe(true);
    const q = body(await s.get(`/jeecg-boot/docs/document/queryById?id=${id}`, tok.teacher));
    expect(q.result).toMatchObject({ level: 'read', writable: false, canComment: false });
    expect(body(await s.post('/jeecg-boot/docs/comment/add', { docId: id, quote: 'a', content: 'b' }, tok.teacher)).success).toBe(false);
    expect(body(await s.post('/jeecg-boot/docs/version/add', { docId: id, name: 'v' }, tok.teacher)).success).toBe(false);
    expect(body(await s.get('/jeecg-boot/docs/document/list?scope=shared', tok.teacher)).result.records.map((r: any) => r.id)).toContain(id);
    // Only the owner shares.
    expect((await share('teacher', id, 'user', uid.teacher2!, 'edit')).success).toBe(false);

    // A department share reaches everyone of the department (the leader is in the secretary's college).
    expect(body(await s.get(`/jeecg-boot/docs/document/queryById?id=${id}`, tok.leader)).success).toBe(false);
    const depart = (await s.running.ctx.db.selectFrom('sys_user_depart').select('dep_id').where('user_id', '=', uid.leader!).execute()).map((r) => r.dep_id as string);
    expect((await share('secretary', id, 'depart', depart[0]!, 'comment')).success).toBe(true);
    expect(body(await s.get(`/jeecg-boot/docs/document/queryById?id=${id}`, tok.leader)).result.level).toBe('comment');
    expect(body(await s.post('/jeecg-boot/docs/comment/add', { docId: id, quote: '总结', content: '请补充数据' }, tok.leader)).success).toBe(true);

    // A role share.
    expect(body(await s.get(`/jeecg-boot/docs/document/queryById?id=${id}`, tok.supervisor)).success).toBe(false);
    expect((await share('secretary', id, 'role', 'supervisor', 'edit')).success).toBe(true);
    expect(body(await s.get(`/jeecg-boot/docs/document/queryById?id=${id}`, tok.supervisor)).result).toMatchObject({ level: 'edit', writable: true });
  });

  it('comments: reply and resolve; a reader cannot, a commenter can', async () => {
    const id = await newDoc('secretary', '评论测试');
    await share('secretary', id, 'user', uid.teacher!, 'comment');
    const c = body(await s.post('/jeecg-boot/docs/comment/add', { docId: id, quote: '第一段', anchor: '{}', content: '这里需要数据' }, tok.secretary));
    expect(c.success).toBe(true);
    expect(body(await s.post('/jeecg-boot/docs/comment/add', { docId: id, parentId: c.result.id, content: '已补充' }, tok.teacher)).success).toBe(true);
    expect(body(await s.post('/jeecg-boot/docs/comment/resolve', { id: c.result.id }, tok.teacher)).success).toBe(true);
    const list = body(await s.get(`/jeecg-boot/docs/comment/list?docId=${id}`, tok.teacher)).result;
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ quote: '第一段', resolved: true, resolvedBy: '王磊' });
    expect(list[1]).toMatchObject({ parentId: c.result.id, content: '已补充', createByName: '王磊' });
    expect(body(await s.post('/jeecg-boot/docs/comment/add', { docId: id, content: '没有选中文字' }, tok.teacher)).message).toBe('请先选择要评论的文字');
  });

  it('trash and restore: a trashed document leaves the lists and its shares, and comes back', async () => {
    const id = await newDoc('secretary', '回收站测试');
    await share('secretary', id, 'user', uid.teacher!, 'edit');
    expect(body(await s.del(`/jeecg-boot/docs/document/delete?id=${id}`, tok.teacher)).success).toBe(false);
    expect(body(await s.del(`/jeecg-boot/docs/document/delete?id=${id}`, tok.secretary)).success).toBe(true);
    const ids = async (scope: string, who = 'secretary') => body(await s.get(`/jeecg-boot/docs/document/list?scope=${scope}`, tok[who])).result.records.map((r: any) => r.id);
    expect(await ids('mine')).not.toContain(id);
    expect(await ids('trash')).toContain(id);
    expect(await ids('shared', 'teacher')).not.toContain(id);
    expect(body(await s.get(`/jeecg-boot/docs/document/queryById?id=${id}`, tok.teacher)).success).toBe(false);
    expect(body(await s.post('/jeecg-boot/docs/document/restore', { id }, tok.teacher)).success).toBe(false);
    expect(body(await s.post('/jeecg-boot/docs/document/restore', { id }, tok.secretary)).success).toBe(true);
    expect(await ids('mine')).toContain(id);
    expect(await ids('trash')).not.toContain(id);
    expect(body(await s.get(`/jeecg-boot/docs/document/queryById?id=${id}`, tok.teacher)).result.level).toBe('edit');
    // Purge only from the trash.
    expect(body(await s.del(`/jeecg-boot/docs/document/purge?id=${id}`, tok.secretary)).success).toBe(false);
    await s.del(`/jeecg-boot/docs/document/delete?id=${id}`, tok.secretary);
    expect(body(await s.del(`/jeecg-boot/docs/document/purge?id=${id}`, tok.secretary)).success).toBe(true);
    expect(await ids('trash')).not.toContain(id);
  });

  it('new from a template copies its content; templates are listed for everyone', async () => {
    const tpl = body(await s.get('/jeecg-boot/docs/document/list?scope=templates', tok.teacher)).result.records;
    expect(tpl.map((t: any) => t.title).sort()).toEqual(['审核评估自评报告', '整改报告', '听课总结'].sort());
    const from = tpl.find((t: any) => t.title === '整改报告');
    const id = await newDoc('teacher', '', { templateId: from.id });
    const c = body(await s.get(`/jeecg-boot/docs/document/content?id=${id}`, tok.teacher)).result;
    expect(c.text).toContain('三、整改措施');
    expect(body(await s.get(`/jeecg-boot/docs/document/queryById?id=${id}`, tok.teacher)).result).toMatchObject({ title: '整改报告', level: 'owner' });
    // A teacher cannot change a template.
    expect(body(await s.del(`/jeecg-boot/docs/document/delete?id=${from.id}`, tok.teacher)).success).toBe(false);
  });
});

describe('the collaboration socket', () => {
  it('is refused without a session, and per document without access', async () => {
    const id = await newDoc('secretary', '套接字权限');
    // The handshake without a session token (subprotocol) is refused with 401, before any Yjs message.
    const status = await new Promise<number>((resolve, reject) => {
      const raw = new WebSocket(`${ws}/docs/collab`);
      raw.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      raw.once('open', () => reject(new Error('opened without a token')));
      raw.once('error', () => undefined);
    });
    expect(status).toBe(401);
    // A session token in the URL is not a credential either.
    const inUrl = await new Promise<number>((resolve, reject) => {
      const raw = new WebSocket(`${ws}/docs/collab?token=${tok.secretary}`);
      raw.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      raw.once('open', () => reject(new Error('opened with a URL token')));
      raw.once('error', () => undefined);
    });
    expect(inUrl).toBe(401);
    const stranger = open('teacher', id);
    await expect(stranger.ready).rejects.toThrow(/refused/);
  });

  it('edits reach the other editor and the database; a read share cannot write; search finds the content; a removed share closes the connection', async () => {
    const id = await newDoc('secretary', '协作测试');
    await share('secretary', id, 'user', uid.teacher!, 'read');
    await share('secretary', id, 'user', uid.leader!, 'edit');
    const owner = open('secretary', id);
    const reader = open('teacher', id);
    const editor = open('leader', id);
    await Promise.all([owner.ready, reader.ready, editor.ready]);

    addParagraph(owner.doc, '督导组第一次听课意见');
    await owner.saved();
    await until(() => textOf(editor.doc).includes('督导组第一次听课意见'), 2000, 'edit to reach the editor');
    await until(() => textOf(reader.doc).includes('督导组第一次听课意见'), 2000, 'edit to reach the reader');

    // The reader's update is refused by the server: nobody else sees it, and it is not stored.
    addParagraph(reader.doc, '读者的非法修改');
    await barrier(reader, owner);
    addParagraph(editor.doc, '编辑者的合法修改');
    await editor.saved();
    await until(() => textOf(owner.doc).includes('编辑者的合法修改'), 2000, 'editor change');
    expect(textOf(owner.doc)).not.toContain('读者的非法修改');
    const stored = body(await s.get(`/jeecg-boot/docs/document/content?id=${id}`, tok.secretary)).result.text;
    expect(stored).toContain('编辑者的合法修改');
    expect(stored).not.toContain('读者的非法修改');

    // Search by content (the plain-text copy is refreshed when the document is stored).
    await until(async () => body(await s.get(`/jeecg-boot/docs/document/list?keyword=${encodeURIComponent('第一次听课')}`, tok.secretary)).result.records.some((r: any) => r.id === id), 8000, 'search copy');

    // Downgrading the editor makes its connection read-only at once; removing the share closes it.
    await share('secretary', id, 'user', uid.leader!, 'read');
    addParagraph(editor.doc, '降级后的修改');
    await barrier(editor, owner);
    expect(textOf(owner.doc)).not.toContain('降级后的修改');
    const shares = body(await s.get(`/jeecg-boot/docs/share/list?docId=${id}`, tok.secretary)).result.records;
    const teacherShare = shares.find((x: any) => x.targetId === uid.teacher);
    expect(body(await s.del(`/jeecg-boot/docs/share/delete?id=${teacherShare.id}`, tok.secretary)).success).toBe(true);
    await until(() => reader.closed || reader.provider.isAuthenticated === false || !!reader.failed, 3000, 'reader connection closed');
  });

  it('定稿 makes the document read-only on open connections; only the owner or an administrator reopens', async () => {
    const id = await newDoc('secretary', '定稿测试');
    await share('secretary', id, 'user', uid.leader!, 'edit');
    const owner = open('secretary', id);
    const editor = open('leader', id);
    await Promise.all([owner.ready, editor.ready]);
    expect(body(await s.post('/jeecg-boot/docs/document/finalize', { id }, tok.leader)).success).toBe(true);
    const q = body(await s.get(`/jeecg-boot/docs/document/queryById?id=${id}`, tok.secretary)).result;
    expect(q).toMatchObject({ status: 'FINAL', finalizedBy: '李明华', writable: false });
    expect(q.finalizedAt).toMatch(/^\d{4}-\d\d-\d\d /);
    addParagraph(owner.doc, '定稿后的修改');
    await barrier(owner, editor);
    expect(textOf(editor.doc)).not.toContain('定稿后的修改');
    expect(body(await s.get(`/jeecg-boot/docs/document/content?id=${id}`, tok.secretary)).result.text).not.toContain('定稿后的修改');
    expect(body(await s.post('/jeecg-boot/docs/document/reopen', { id }, tok.leader)).message).toBe('只有文档所有者或管理员可以执行此操作');
    expect(body(await s.post('/jeecg-boot/docs/document/reopen', { id }, tok.admin)).success).toBe(true);
    expect(body(await s.get(`/jeecg-boot/docs/document/queryById?id=${id}`, tok.leader)).result.writable).toBe(true);
  });
});

describe('versions', () => {
  it('a named version, its diff against the current text, and restore as a new version', async () => {
    const id = await newDoc('secretary', '版本测试');
    const c = open('secretary', id);
    await c.ready;
    addParagraph(c.doc, '第一版内容');
    await c.saved();
    expect(body(await s.post('/jeecg-boot/docs/version/add', { docId: id, name: '初稿' }, tok.secretary)).success).toBe(true);
    addParagraph(c.doc, '第二版新增');
    await c.saved();
    const versions = body(await s.get(`/jeecg-boot/docs/version/list?docId=${id}`, tok.secretary)).result;
    const v = versions.find((x: any) => x.name === '初稿');
    const view = body(await s.get(`/jeecg-boot/docs/version/view?id=${v.id}`, tok.secretary)).result;
    expect(view.text).toBe('第一版内容');
    expect(view.diff).toEqual([{ op: '=', text: '第一版内容' }, { op: '+', text: '第二版新增' }]);
    expect(body(await s.post('/jeecg-boot/docs/version/restore', { id: v.id }, tok.secretary)).success).toBe(true);
    await until(() => !textOf(c.doc).includes('第二版新增'), 2000, 'restore reaches the open editor');
    expect(textOf(c.doc)).toContain('第一版内容');
    expect(body(await s.get(`/jeecg-boot/docs/document/content?id=${id}`, tok.secretary)).result.text).toBe('第一版内容');
    const after = body(await s.get(`/jeecg-boot/docs/version/list?docId=${id}`, tok.secretary)).result;
    expect(after.some((x: any) => x.kind === 'restore' && x.name === '还原自：初稿')).toBe(true);
  });
});

/** Reads word/document.xml out of a .docx (a zip) without a zip library: finds the entry, inflates it. */
function documentXml(zip: Buffer): string {
  const name = Buffer.from('word/document.xml');
  for (let i = 0; i < zip.length - 30; i++) {
    if (zip.readUInt32LE(i) !== 0x04034b50) continue;
    const method = zip.readUInt16LE(i + 8);
    const size = zip.readUInt32LE(i + 18);
    const nlen = zip.readUInt16LE(i + 26);
    const xlen = zip.readUInt16LE(i + 28);
    if (!zip.subarray(i + 30, i + 30 + nlen).equals(name)) continue;
    const start = i + 30 + nlen + xlen;
    // docx (the library) writes sizes in the local header; fall back to inflating to the end.
    const data = zip.subarray(start, size ? start + size : undefined);
    return (method === 8 ? inflateRawSync(data) : data).toString('utf8');
  }
  throw new Error('word/document.xml not found');
}

describe('export and import', () => {
  it('exports .docx with the heading and the table, and a PDF', async () => {
    const tpl = body(await s.get('/jeecg-boot/docs/document/list?scope=templates', tok.secretary)).result.records.find((t: any) => t.title === '整改报告');
    const id = await newDoc('secretary', '导出测试', { templateId: tpl.id });
    const r = await s.get(`/jeecg-boot/docs/document/export?id=${id}`, tok.secretary);
    expect(r.headers['content-type']).toContain('wordprocessingml');
    const xml = documentXml(r.rawPayload);
    expect(xml).toContain('Heading1');
    expect(xml).toContain('整改报告');
    expect(xml).toContain('<w:tbl>');
    expect(xml).toContain('完成情况');
    expect(xml).toContain('w:eastAsia="SimSun"');
    const pdf = await s.get(`/jeecg-boot/docs/document/export?id=${id}&format=pdf`, tok.secretary);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.rawPayload.length).toBeGreaterThan(2000);
  });

  it('imports a .docx: headings, paragraphs and tables survive; scripts do not', async () => {
    const docx = await Packer.toBuffer(
      new Document({
        sections: [{ children: [
          new Paragraph({ heading: HeadingLevel.HEADING_1, text: '导入的标题' }),
          new Paragraph('正文<script>alert(1)</script>段落'),
          new Table({ rows: [new TableRow({ children: [new TableCell({ children: [new Paragraph('单元格甲')] }), new TableCell({ children: [new Paragraph('单元格乙')] })] })] }),
        ] }],
      }),
    );
    const boundary = '----docx';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="自评报告.docx"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      docx,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const r = body(await s.call({ method: 'POST', url: '/jeecg-boot/docs/document/import', token: tok.secretary, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }));
    expect(r.success, r.message).toBe(true);
    const c = body(await s.get(`/jeecg-boot/docs/document/content?id=${r.result.id}`, tok.secretary)).result;
    expect(c.json.content[0]).toMatchObject({ type: 'heading', attrs: { level: 1 } });
    expect(c.text).toContain('导入的标题');
    expect(c.text).toContain('单元格甲\t单元格乙');
    expect(JSON.stringify(c.json)).toContain('table');
    // mammoth escapes the literal text; no element survives.
    expect(JSON.stringify(c.json)).not.toMatch(/"type":"script"/);
    expect(body(await s.get(`/jeecg-boot/docs/document/queryById?id=${r.result.id}`, tok.secretary)).result.title).toBe('自评报告');
    const bad = body(await s.call({ method: 'POST', url: '/jeecg-boot/docs/document/import', token: tok.secretary, payload: Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.docx"\r\n\r\n`), Buffer.from('not a zip'), Buffer.from(`\r\n--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }));
    expect(bad.success).toBe(false);
    expect(bad.message).toContain('无法读取');
  });
});
