import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import * as Y from 'yjs';
import { copyTemplate, dropCopy } from '../helpers/template-db.js';
import { connectDoc, until, type DocClient } from '../helpers/collab.js';
import { call, login, spawnServer, type Proc } from './procs.js';

/**
 * Online documents on two API processes sharing one PostgreSQL (issue 29): live edits made through one
 * process reach editors connected to the other (collab_update rows + LISTEN/NOTIFY carrying the key),
 * and a share removed through one process closes the connection held by the other.
 */
if (!process.env.DATABASE_URL) throw new Error('the cluster tests need DATABASE_URL (a PostgreSQL server); .ci/run provides one');

let a: Proc;
let b: Proc;
let copy: Awaited<ReturnType<typeof copyTemplate>>;
const clients: DocClient[] = [];

beforeAll(async () => {
  copy = await copyTemplate(inject('dbTemplate'));
  [a, b] = await Promise.all([spawnServer(18297, copy.databaseUrl!), spawnServer(18298, copy.databaseUrl!)]);
}, 180_000);
afterAll(async () => {
  for (const c of clients) c.close();
  await Promise.all([a?.stop(), b?.stop()]);
  await dropCopy(copy);
});

const wsOf = (p: Proc) => `ws://127.0.0.1:${p.port}/jeecg-boot`;
const text = (d: Y.Doc) => d.getXmlFragment('default').toString();
function para(d: Y.Doc, s: string) {
  const p = new Y.XmlElement('paragraph');
  p.insert(0, [new Y.XmlText(s)]);
  d.getXmlFragment('default').push([p]);
}

describe('collaboration across two API processes', () => {
  it('edits through one process reach an editor on the other, both ways, and are stored once', async () => {
    const owner = await login(a.url, 'secretary');
    const other = await login(b.url, 'leader');
    const id = (await call(a.url, 'POST', '/docs/document/add', { token: owner.token, body: { title: '集群协作' } })).json.result.id as string;
    expect((await call(a.url, 'POST', '/docs/share/add', { token: owner.token, body: { docId: id, targetType: 'user', targetId: other.userId, level: 'edit' } })).json.success).toBe(true);
    const onA = connectDoc(wsOf(a), owner.token, id);
    const onB = connectDoc(wsOf(b), other.token, id);
    clients.push(onA, onB);
    await Promise.all([onA.ready, onB.ready]);

    para(onA.doc, '来自进程A的修改');
    await until(() => text(onB.doc).includes('来自进程A的修改'), 3000, 'A → B');
    para(onB.doc, '来自进程B的修改');
    await until(() => text(onA.doc).includes('来自进程B的修改'), 3000, 'B → A');
    // Concurrent edits on both sides converge.
    for (let i = 0; i < 20; i++) {
      para(onA.doc, `A${i}`);
      para(onB.doc, `B${i}`);
    }
    await Promise.all([onA.saved(), onB.saved()]);
    await until(() => text(onA.doc) === text(onB.doc), 5000, 'convergence');
    const stored = (await call(b.url, 'GET', `/docs/document/content?id=${id}`, { token: other.token })).json.result.text as string;
    expect(stored.split('\n').filter((l) => l === '来自进程A的修改')).toHaveLength(1);
    expect(stored).toContain('B19');
    expect(stored).toContain('A19');
  });

  it('a share removed through one process closes the connection on the other', async () => {
    const owner = await login(a.url, 'secretary');
    const other = await login(b.url, 'leader');
    const id = (await call(a.url, 'POST', '/docs/document/add', { token: owner.token, body: { title: '集群权限' } })).json.result.id as string;
    await call(a.url, 'POST', '/docs/share/add', { token: owner.token, body: { docId: id, targetType: 'user', targetId: other.userId, level: 'edit' } });
    const onB = connectDoc(wsOf(b), other.token, id);
    clients.push(onB);
    await onB.ready;
    const shares = (await call(a.url, 'GET', `/docs/share/list?docId=${id}`, { token: owner.token })).json.result.records as Array<{ id: string }>;
    expect((await call(a.url, 'DELETE', `/docs/share/delete?id=${shares[0]!.id}`, { token: owner.token })).json.success).toBe(true);
    await until(() => onB.closed || !onB.provider.isAuthenticated || !!onB.failed, 5000, 'connection on B closed');
  });
});
