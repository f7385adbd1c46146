import { describe, expect, it } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { API, DEMO_PASSWORD, fileTestServer } from '../helpers/server.js';
import { flushLogs } from '../../server/sys/log.js';

const s = fileTestServer(['supervisor']);

describe('API answers compressed (server/http/compress.ts)', () => {
  it('sends a large JSON answer brotli- or gzip-compressed to a client that accepts it, the same JSON once decoded; small answers and other clients as they are', async () => {
    const url = `${API}/schema/boot?path=${encodeURIComponent('/lecture/scan')}`;
    const plain = await s.get(url, s.tok.supervisor, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().success).toBe(true);
    // Each envelope carries the time it was answered.
    const same = (text: string) => text.replace(/"timestamp":\d+/g, '"timestamp":0');
    expect(plain.rawPayload.length).toBeGreaterThan(10_000);
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip, deflate', 'gzip', gunzipSync],
    ] as const) {
      const r = await s.get(url, s.tok.supervisor, { 'accept-encoding': accept });
      expect(r.headers['content-encoding'], accept).toBe(encoding);
      expect(r.headers.vary, accept).toMatch(/accept-encoding/i);
      expect(r.headers['content-type'], accept).toMatch(/^application\/json/);
      expect(r.rawPayload.length, accept).toBeLessThan(plain.rawPayload.length / 4);
      expect(same(decode(r.rawPayload).toString()), accept).toBe(same(plain.body));
    }
    // A small answer (under a packet) is not worth compressing.
    const health = await s.get(`${API}/actuator/health`, undefined, { 'accept-encoding': 'br' });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json()).toEqual({ status: 'UP' });
  });

  it('a compressed sign-in answer is still logged as a success (the log reads the answer before it is compressed)', async () => {
    const r = await s.call({ method: 'POST', url: `${API}/sys/login`, payload: { username: 'leader', password: DEMO_PASSWORD }, headers: { 'accept-encoding': 'br', 'x-forwarded-for': '10.77.0.9' } });
    expect(r.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(r.rawPayload).toString()).success).toBe(true);
    await flushLogs(s.running.ctx);
    const admin = await s.login('admin');
    const texts = (await s.get(`${API}/sys/log/list?logType=1&pageSize=50`, admin)).json().result.records.map((x: { logContent: string }) => x.logContent);
    expect(texts).toContain('用户名: leader,登录成功！');
    expect(texts.some((t: string) => t.startsWith('用户名: leader,登录失败'))).toBe(false);
  });
});
