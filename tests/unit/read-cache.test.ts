import { describe, expect, it } from 'vitest';
import { ReadCache, readTables, writtenTables } from '../../server/db/read-cache.js';

describe('read cache', () => {
  it('finds the tables a statement writes and the tables a select reads', () => {
    expect(writtenTables('insert into "sys_session" ("id") values ($1)')).toEqual(['sys_session']);
    expect(writtenTables('update "sup_lecture_record" set "status" = $1 where "id" = $2')).toEqual(['sup_lecture_record']);
    expect(writtenTables('delete from sys_role_permission where role_id = $1')).toEqual(['sys_role_permission']);
    expect(writtenTables('with x as (delete from "a" returning id) insert into "b" select id from x')).toEqual(['a', 'b']);
    expect(writtenTables('truncate table imp_task')).toEqual(['imp_task']);
    expect(writtenTables('select * from "sys_user" where "id" = $1')).toEqual([]);
    expect(writtenTables('select pg_notify($1, $2)')).toEqual([]);
    expect(readTables('select 1 as "x" from "sup_lecture_record" as "t" inner join "sys_user" as "u" on 1=1 where exists (select 1 from sys_user_depart d)')).toEqual([
      'sup_lecture_record', 'sys_user', 'sys_user_depart',
    ]);
  });

  it('shares one computation between concurrent callers and reuses it until a table it read is written', async () => {
    const cache = new ReadCache();
    let loads = 0;
    const load = async () => ++loads;
    const [x, y] = await Promise.all([cache.get('k', ['t'], 60_000, load), cache.get('k', ['t'], 60_000, load)]);
    expect([x, y, loads]).toEqual([1, 1, 1]);
    expect(await cache.get('k', ['t'], 60_000, load)).toBe(1);
    cache.written(['other']);
    expect(await cache.get('k', ['t'], 60_000, load)).toBe(1);
    cache.written(['t']);
    expect(await cache.get('k', ['t'], 60_000, load)).toBe(2);
  });

  it('does not keep a result whose table was written while it was computed, nor a failure, nor past its time limit', async () => {
    const cache = new ReadCache();
    let loads = 0;
    let release = () => undefined as void;
    const slow = () => new Promise<number>((r) => (release = () => r(++loads)));
    const first = cache.get('k', ['t'], 60_000, slow);
    cache.written(['t']); // written during the computation
    release();
    expect(await first).toBe(1);
    expect(await cache.get('k', ['t'], 60_000, async () => ++loads)).toBe(2);

    await expect(cache.get('bad', ['t'], 60_000, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.get('bad', ['t'], 60_000, async () => 'ok')).toBe('ok');

    expect(await cache.get('ttl', ['t'], 0, async () => 'a')).toBe('a');
    expect(await cache.get('ttl', ['t'], 0, async () => 'b')).toBe('b');
  });

  it('announces local writes only, and evicts the oldest entry past its size', async () => {
    const cache = new ReadCache(2);
    const heard: string[][] = [];
    cache.onWrite((t) => heard.push(t));
    cache.written(['a']);
    cache.written(['b'], true);
    expect(heard).toEqual([['a']]);
    await cache.get('1', [], 60_000, async () => 1);
    await cache.get('2', [], 60_000, async () => 2);
    await cache.get('3', [], 60_000, async () => 3);
    expect(await cache.get('1', [], 60_000, async () => 10)).toBe(10);
    expect(await cache.get('3', [], 60_000, async () => 30)).toBe(3);
  });
});
