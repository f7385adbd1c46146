/**
 * Online documents bench (issue 29): 20 simultaneous editors on one document over loopback (Node Yjs
 * clients through the Hocuspocus provider, as the browser connects), update propagation p50/p95/max;
 * then a ~200-page document (8,000 paragraphs) opened by a fresh client (connect → synced).
 * Run: npm run bench docs   (embedded PGlite, demo data copy; BENCH_DOCS_PORT to change the port).
 */
import * as Y from 'yjs';
import { freshCopy, login, startServer, API } from './server.js';
import type { Figure } from './lib.js';
import { connectDoc } from '../tests/helpers/collab.js';

const PORT = Number(process.env.BENCH_DOCS_PORT ?? 18299);
const EDITORS = 20;
const ROUNDS = 300;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

export async function benchDocs(): Promise<Figure[]> {
  const figures: Figure[] = [];
  const target = freshCopy('docs');
  const server = await startServer(target, PORT);
  try {
    const token = await login(server.url, 'admin');
    const create = async (title: string) => {
      const r = await fetch(`${server.url}${API}/docs/document/add`, { method: 'POST', headers: { 'content-type': 'application/json', 'X-Access-Token': token }, body: JSON.stringify({ title }) });
      return ((await r.json()) as { result: { id: string } }).result.id;
    };
    const ws = `ws://127.0.0.1:${PORT}${API}`;

    // ---- 20 editors ----
    const id = await create('bench 20 editors');
    const clients = Array.from({ length: EDITORS }, () => connectDoc(ws, token, id));
    await Promise.all(clients.map((c) => c.ready));
    const sentAt = new Map<string, number>();
    const seen = clients.map(() => new Set<string>());
    const lat: number[] = [];
    clients.forEach((c, i) =>
      c.doc.on('update', () => {
        const f = c.doc.getXmlFragment('default');
        const last = f.slice(Math.max(0, f.length - 8)).map((x) => (x as Y.XmlElement).toString()).join('');
        for (const m of last.matchAll(/m(\d+)w(\d+)/g)) {
          const key = `${m[1]}`;
          if (Number(m[2]) === i || seen[i]!.has(key) || !sentAt.has(key)) continue;
          seen[i]!.add(key);
          lat.push(performance.now() - sentAt.get(key)!);
        }
      }),
    );
    for (let r = 0; r < ROUNDS; r++) {
      const w = r % EDITORS;
      const p = new Y.XmlElement('paragraph');
      p.insert(0, [new Y.XmlText(`m${r}w${w} 督导听课协同编辑基准测试`)]);
      sentAt.set(String(r), performance.now());
      clients[w]!.doc.getXmlFragment('default').push([p]);
      await new Promise((res) => setTimeout(res, 20)); // ~50 edits/s across the room
    }
    const deadline = Date.now() + 10_000;
    while (lat.length < ROUNDS * (EDITORS - 1) && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
    figures.push(
      { name: `20 editors, ${ROUNDS} edits (~50/s): deliveries`, value: lat.length, unit: `of ${ROUNDS * (EDITORS - 1)}`, budget: ROUNDS * (EDITORS - 1), higherIsBetter: true },
      { name: '20 editors: update propagation p50', value: pct(lat, 50), unit: 'ms' },
      { name: '20 editors: update propagation p95', value: pct(lat, 95), unit: 'ms', budget: 100 },
      { name: '20 editors: update propagation max', value: Math.max(...lat), unit: 'ms' },
    );
    for (const c of clients) c.close();

    // ---- a 200-page document ----
    const big = await create('bench 200 pages');
    const writer = connectDoc(ws, token, big);
    await writer.ready;
    writer.doc.transact(() => {
      const f = writer.doc.getXmlFragment('default');
      const items: Y.XmlElement[] = [];
      for (let i = 0; i < 8000; i++) {
        const p = new Y.XmlElement(i % 40 === 0 ? 'heading' : 'paragraph');
        if (i % 40 === 0) p.setAttribute('level', '2' as never);
        p.insert(0, [new Y.XmlText(`第${Math.floor(i / 40) + 1}页 第${i % 40}段：本学期督导组共听课若干节，课堂教学整体情况良好，教师备课充分。`)]);
        items.push(p);
      }
      f.push(items);
    });
    await writer.saved(60_000);
    const size = Y.encodeStateAsUpdate(writer.doc).length;
    writer.close();
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      await new Promise((res) => setTimeout(res, 500)); // the previous close stores and unloads the document
      const t0 = performance.now();
      const c = connectDoc(ws, token, big);
      await c.ready;
      times.push(performance.now() - t0);
      if (c.doc.getXmlFragment('default').length !== 8000) throw new Error('incomplete document');
      c.close();
    }
    figures.push(
      { name: `200-page document (8,000 blocks, ${(size / 1024).toFixed(0)} KB state): cold open (connect → synced), median of 5`, value: pct(times, 50), unit: 'ms', budget: 1000 },
      { name: '200-page document: cold open, max of 5', value: Math.max(...times), unit: 'ms' },
    );
    // Warm: someone already has it open (the document is in the server's memory).
    const holder = connectDoc(ws, token, big);
    await holder.ready;
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const c = connectDoc(ws, token, big);
      await c.ready;
      warm.push(performance.now() - t0);
      c.close();
    }
    holder.close();
    figures.push({ name: '200-page document: warm open (another editor present), median of 5', value: pct(warm, 50), unit: 'ms' });
  } finally {
    await server.stop();
  }
  return figures;
}
