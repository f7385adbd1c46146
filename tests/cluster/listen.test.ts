import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { listenChannel, type ChannelListener } from '../../server/db/listen.js';

/**
 * The one LISTEN connection helper behind the notice hub and the document relay: when PostgreSQL drops
 * the connection, it reconnects by itself, says so (the callers re-read what they missed), and hears
 * NOTIFY again.
 */
const url = process.env.DATABASE_URL;
if (!url) throw new Error('the cluster tests need DATABASE_URL (a PostgreSQL server); .ci/run provides one');

const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

const admin = new pg.Client({ connectionString: url });
let listener: ChannelListener | undefined;
afterAll(async () => {
  await listener?.close();
  await admin.end().catch(() => undefined);
});

describe('listenChannel', () => {
  it('hears NOTIFY, comes back after its connection is terminated, and is quiet once closed', async () => {
    await admin.connect();
    const channel = `t_listen_${process.pid}`;
    const heard: string[] = [];
    let connects = 0;
    listener = await listenChannel({ databaseUrl: url, channel, retryMs: 100, onMessage: (p) => heard.push(p), onConnect: () => connects++ });
    expect(listener.listening).toBe(true);
    expect(connects).toBe(1);

    await admin.query('select pg_notify($1, $2)', [channel, 'one']);
    await until('the first notification', () => heard.includes('one'));

    // The server ends the LISTEN backend (as a restart or a network cut would).
    const ended = await admin.query(`select pg_terminate_backend(pid) as ok from pg_stat_activity where query = $1`, [`LISTEN ${channel}`]);
    expect(ended.rows.length).toBe(1);
    await until('the reconnection', () => connects === 2 && listener!.listening);
    await admin.query('select pg_notify($1, $2)', [channel, 'two']);
    await until('a notification after reconnecting', () => heard.includes('two'));

    await listener.close();
    expect(listener.listening).toBe(false);
    const before = heard.length;
    await admin.query('select pg_notify($1, $2)', [channel, 'three']);
    // Nobody listens: the channel has no backend any more.
    await until('the listener gone from the server', async () => (await admin.query('select count(*)::int as n from pg_stat_activity where query = $1', [`LISTEN ${channel}`])).rows[0].n === 0);
    expect(heard.length).toBe(before);
    expect(connects).toBe(2);
  });

  it('refuses a channel name that is not a plain identifier', async () => {
    await expect(listenChannel({ databaseUrl: url, channel: 'x; drop table sys_user', retryMs: 100, onMessage: () => undefined })).rejects.toThrow(/bad channel name/);
  });
});
