import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Idle timeout 3 s, absolute lifetime 6 s.
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ session: { idleMinutes: 0.05, absoluteDays: 6 / 86400 } });
});
afterAll(() => s?.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const probe = (t: string) => s.get('sys/user/getCurrentUserDeparts', t).then((r) => r.statusCode);

describe('session expiry', () => {
  it('an idle session expires after the idle timeout', async () => {
    const t = await s.login('teacher');
    expect(await probe(t)).toBe(200);
    await sleep(4200);
    expect(await probe(t)).toBe(401);
  });

  it('an active session still ends at its absolute lifetime', async () => {
    const t = await s.login('leader');
    const start = Date.now();
    while (Date.now() - start < 4000) {
      expect(await probe(t)).toBe(200);
      await sleep(900);
    }
    await sleep(Math.max(0, 7200 - (Date.now() - start)));
    expect(await probe(t)).toBe(401);
  });
});
