import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import * as Y from 'yjs';
import { copyTemplate, dropCopy } from '../helpers/template-db.js';
import { connectDoc, until, type DocClient } from '../helpers/collab.js';
import { call, login, spawnServer, type Proc } from '../cluster/procs.js';
import { serverPid } from '../../bench/server.js';

/**
 * Killing the server mid-edit loses nothing a client was told was saved (issue 29): a real Yjs client
 * (Hocuspocus provider) edits a document on a server process; once its updates are acknowledged the
 * process is killed with SIGKILL (no shutdown hook runs); a new process on the same database serves
 * every acknowledged paragraph.
 */
const PORT = 18296;
let copy: Awaited<ReturnType<typeof copyTemplate>>;
let srv: Proc | undefined;
const clients: DocClient[] = [];

beforeAll(async () => {
  copy = await copyTemplate(inject('dbTemplate'));
}, 60_000);
afterAll(async () => {
  for (const c of clients) c.close();
  await srv?.stop();
  await dropCopy(copy);
});

const start = () => spawnServer(PORT, copy.databaseUrl ?? '', { DATA_DIR: copy.dataDir! });
const paragraphs = (d: Y.Doc) => d.getXmlFragment('default').toArray().map((p) => (p as Y.XmlElement).toArray().map((t) => (t as Y.XmlText).toString()).join(''));

it('acknowledged updates survive SIGKILL; unacknowledged state merges back when the client reconnects', async () => {
  srv = await start();
  const { token } = await login(srv.url, 'secretary');
  const add = await call(srv.url, 'POST', '/docs/document/add', { token, body: { title: '断电测试' } });
  const id = add.json.result.id as string;
  const ws = `ws://127.0.0.1:${PORT}/jeecg-boot`;
  const c = connectDoc(ws, token, id);
  clients.push(c);
  await c.ready;
  for (let i = 1; i <= 30; i++) {
    const p = new Y.XmlElement('paragraph');
    p.insert(0, [new Y.XmlText(`第${i}段`)]);
    c.doc.getXmlFragment('default').push([p]);
    if (i % 5 === 0) await new Promise((r) => setTimeout(r, 5));
  }
  await c.saved();
  // An offline edit made while the server is gone: the open tab keeps it and sends it on reconnect.
  // SIGKILL the server process itself (tsx runs it as a child and cannot relay SIGKILL); tsx then exits.
  const exited = new Promise((r) => srv!.child.once('exit', r));
  process.kill(serverPid(srv.child), 'SIGKILL');
  await exited;
  const offline = new Y.XmlElement('paragraph');
  offline.insert(0, [new Y.XmlText('断线期间的修改')]);
  c.doc.getXmlFragment('default').push([offline]);

  srv = await start();
  // A fresh client sees every acknowledged paragraph.
  const { token: t2 } = await login(srv.url, 'secretary');
  const fresh = connectDoc(ws, t2, id);
  clients.push(fresh);
  await fresh.ready;
  const got = paragraphs(fresh.doc);
  for (let i = 1; i <= 30; i++) expect(got).toContain(`第${i}段`);
  // The old tab reconnects on its own (its token is still a valid session) and its offline edit merges.
  await until(() => paragraphs(fresh.doc).includes('断线期间的修改'), 20_000, 'offline edit to merge');
  expect(paragraphs(fresh.doc).filter((p) => p === '第1段')).toHaveLength(1);
}, 180_000);
