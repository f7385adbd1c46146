/**
 * Hostile input against every place a client names something SQL-ish: dictionary codes, tree loads,
 * duplicate checks, sort columns, super queries, keywords, paging. Payloads from
 * /work/shared/reference/security.md §2 (the inputs behind JeecgBoot's CVEs). Each answer must be a
 * refusal with a Chinese message (or an empty/ordinary result where that is the contract), arrive
 * well under any pg_sleep in the payload, and leak no SQL or stack.
 */
import { describe, expect, it } from 'vitest';
import { fileTestServer, type ApiAnswer } from '../helpers/server.js';

const s = fileTestServer(['admin', 'teacher']);

const SLEEP = [
  `x%' and (select 1 from pg_sleep(3)) is null and '%'='`,
  `x'||pg_sleep(3)||'`,
  `1;select pg_sleep(3)--`,
  `1) and 1=(select 1 from pg_sleep(3)`,
  `x'\nand\t(select/**/1/**/from/**/pg_sleep(3))/*\n*/is null--`,
  `1 and%09if(1=1,sleep(3),0)`,
];
const INJECT = [
  `a%' or '1'='1`,
  `id;drop table sys_user`,
  `updatexml(1,concat(0x7e,user()),1)`,
  `(case when (select 1)=1 then id else realname end)`,
  `extractvalue(1,concat(0x7e,(select password from sys_user limit 1)))`,
];

/** A DB error, stack or internal-error text must never reach the client. */
const LEAK = /syntax error|does not exist|ERROR:|\.ts:\d+|node_modules|at [\w.]+ \(|服务器内部错误/i;

type Env = ApiAnswer;

async function timed(url: string, token = s.tok.admin) {
  const t0 = Date.now();
  const r = await s.get(url, token);
  const ms = Date.now() - t0;
  expect(ms, `${url} took ${ms} ms`).toBeLessThan(1500);
  expect(r.statusCode, url).toBe(200);
  const body = r.json() as Env;
  expect(body.message ?? '', url).not.toMatch(LEAK);
  return body;
}

/** A refusal: success:false with a Chinese message. */
async function refused(url: string, token = s.tok.admin) {
  const b = await timed(url, token);
  expect(b.success, `${url} → ${JSON.stringify(b).slice(0, 200)}`).toBe(false);
  expect(b.message, url).toMatch(/[\u4e00-\u9fa5]/);
  return b;
}

const enc = encodeURIComponent;

describe('dictionary codes name only declared tables', () => {
  const codes = [
    'sys_user,password,username',
    'sys_user,username,id where 1=1 or',
    'sys_user ,realname,username',
    '`sys_user`,a,b',
    '(sys_user),a,b',
    'sys_user t,password,id',
    'information_schema.tables,table_name,table_schema',
    'pg_catalog.pg_authid,rolname,rolpassword',
    'sys_user,realname,username,1=1',
    "sys_user,realname,username,status='1' or 1=1",
    'sys_user,realname,id;',
    'sys_user,realname,id--',
    'sys_user%2cpassword%2cid',
    'sys_user,realname,password.js',
    'sys_depart,depart_name,id,1=1 or pg_sleep(3) is null',
    "sys_depart,depart_name,id and (select 1 from pg_sleep(3)) is null",
  ];
  it.each(codes)('getDictItems / loadDict / loadDictItem / getDictText refuse %s', async (code) => {
    const c = code.includes('%2c') ? code : enc(code);
    const DICT = /^字典Code格式不正确！|^字典“.*”未在实体中声明，不允许查询$/s;
    expect((await refused(`sys/dict/getDictItems/${c}`)).message).toMatch(DICT);
    expect((await refused(`sys/dict/loadDict/${c}?keyword=a`)).message).toMatch(DICT);
    expect((await refused(`sys/dict/loadDictItem/${c}?key=1`)).message).toMatch(DICT);
    expect((await refused(`sys/dict/getDictText/${c}/1`)).message).toMatch(DICT);
  });

  it('a declared table dictionary treats hostile keywords and keys as plain text', async () => {
    const good = await timed('sys/dict/loadDict/sys_depart,depart_name,id?keyword=');
    expect(good.success).toBe(true);
    expect((good.result as unknown[]).length).toBeGreaterThan(0);
    for (const p of [...SLEEP, ...INJECT]) {
      const b = await timed(`sys/dict/loadDict/sys_depart,depart_name,id?keyword=${enc(p)}`);
      expect(b.success ? b.result : [], p).toEqual([]);
      const k = await timed(`sys/dict/loadDictItem/sys_depart,depart_name,id?key=${enc(p)}`);
      expect(k.success ? k.result : [], p).toEqual([]);
    }
  });

  it('the sys_user dictionary never yields password hashes', async () => {
    const b = await timed('sys/dict/loadDict/sys_user,password,id?keyword=');
    expect(JSON.stringify(b)).not.toMatch(/\$argon2|\$2[aby]\$/);
  });
});

describe('tree loads', () => {
  it('refuses undeclared tables, columns and SQL conditions', async () => {
    await refused(`sys/dict/loadTreeData?tableName=${enc('sys_user t')}&text=${enc('password,id')}&code=id&pidField=id&pid=0`);
    await refused(`sys/dict/loadTreeData?tableName=sys_user&text=password&code=id&pidField=id&pid=0`);
    await refused(`sys/dict/loadTreeData?tableName=${enc('information_schema.tables')}&text=table_name&code=table_name&pidField=table_schema&pid=0`);
    await refused(`sys/dict/loadTreeData?tableName=sys_depart&text=${enc('depart_name,(select password from sys_user limit 1)')}&code=id&pidField=parent_id&pid=0`);
    await refused(`sys/dict/loadTreeData?tableName=sys_depart&text=depart_name&code=id&pidField=${enc('parent_id or 1=1')}&pid=0`);
    await refused(
      `sys/dict/loadTreeData?tableName=sys_depart&text=depart_name&code=id&pidField=parent_id&pid=0&condition=${enc(JSON.stringify({ _tableFilterSql: '1=1 union select password,username from sys_user' }))}`,
    );
    await refused(`sys/dict/loadTreeData?tableName=sys_depart&text=depart_name&code=id&pidField=parent_id&pid=0&condition=${enc('{"departName":{"$ne":1}}')}`);
  });

  it('binds the parent id and condition values (time-based payloads do not sleep)', async () => {
    for (const p of SLEEP) {
      const b = await timed(`sys/dict/loadTreeData?tableName=sys_depart&text=depart_name&code=id&pidField=parent_id&pid=${enc(p)}`);
      expect(b.success ? b.result : [], p).toEqual([]);
      const c = await timed(
        `sys/dict/loadTreeData?tableName=sys_depart&text=depart_name&code=id&pidField=parent_id&pid=&condition=${enc(JSON.stringify({ departName: p }))}`,
      );
      expect(c.success ? c.result : [], p).toEqual([]);
    }
  });

  it('category tree: pcode, pid and field are bound or refused', async () => {
    for (const p of SLEEP) {
      await timed(`sys/category/loadTreeRoot?pcode=${enc(p)}&async=true`);
      await timed(`sys/category/loadTreeChildren?pid=${enc(p)}`);
    }
    await refused(`sys/category/loadOne?field=${enc('id=1 or 1=1 --')}&val=1`);
  });
});

describe('duplicate check', () => {
  it('refuses tables and fields that are not declared unique/filterable', async () => {
    for (const q of [
      `tableName=sys_user&fieldName=password&fieldVal=x`,
      `tableName=${enc('sys_user where 1=1 --')}&fieldName=username&fieldVal=admin`,
      `tableName=information_schema.tables&fieldName=table_name&fieldVal=sys_user`,
      `tableName=sys_user&fieldName=${enc('1 and%09if(1=1,sleep(3),0)')}&fieldVal=1`,
      `tableName=sys_user&fieldName=${enc('username and (select 1 from pg_sleep(3)) is null')}&fieldVal=1`,
    ])
      expect((await refused(`sys/duplicate/check?${q}`)).message).toBe('不支持对该表或字段做重复校验');
  });

  it('binds the value and data id', async () => {
    const taken = await timed(`sys/duplicate/check?tableName=sys_user&fieldName=username&fieldVal=admin`);
    expect(taken.success).toBe(false);
    for (const p of SLEEP) {
      const b = await timed(`sys/duplicate/check?tableName=sys_user&fieldName=username&fieldVal=${enc(p)}`);
      expect(b.success, p).toBe(true); // nobody is called like the payload
      const d = await timed(`sys/duplicate/check?tableName=sys_user&fieldName=username&fieldVal=admin&dataId=${enc(p)}`);
      expect(d.success, p).toBe(false); // still taken by admin
    }
  });
});

describe('list queries: sort, filters, super query, keywords', () => {
  const lists = ['sys/user/list', 'demo/customer/list', 'supervisor/lectureRecord/list'];
  /** A filterable field of each list (super queries are allowed on those only). */
  const FIELD: Record<string, string> = { 'sys/user/list': 'username', 'demo/customer/list': 'name', 'supervisor/lectureRecord/list': 'recordNo' };

  it.each(lists)('%s refuses hostile sort columns and orders', async (list) => {
    for (const col of [...INJECT, 'password', 'salt', 'id,password', 'id;--', `pg_sleep(3)`, `(select pg_sleep(3))`]) {
      const b = await refused(`${list}?column=${enc(col)}&order=asc`);
      expect(b.message).toMatch(/排序/);
    }
    for (const order of ['desc;--', 'asc,password', `asc,(select pg_sleep(3))`]) await refused(`${list}?column=createTime&order=${enc(order)}`);
  });

  it.each(lists)('%s refuses super queries on unknown fields and rules, binds values', async (list) => {
    const f = FIELD[list]!;
    const sq = (items: unknown, matchType = 'and') => `${list}?superQueryParams=${enc(JSON.stringify(items))}&superQueryMatchType=${enc(matchType)}`;
    await refused(sq([{ field: 'password', rule: 'eq', val: 'x' }]));
    await refused(sq([{ field: 'id;drop', rule: 'eq', val: 'x' }]));
    await refused(sq([{ field: f, rule: 'sql', val: '1=1' }]));
    await refused(sq([{ field: f, rule: 'eq', val: 'x' }], 'or 1=1'));
    await refused(sq(Array.from({ length: 1000 }, () => ({ field: f, rule: 'eq', val: 'x' }))));
    await refused(`${list}?superQueryParams=${enc('[{"field":')}`);
    // JeecgBoot's front end sends the JSON URI-encoded, so an encoded value is decoded: an ordinary, bound query.
    const dbl = await timed(`${list}?superQueryParams=${enc(enc(JSON.stringify([{ field: f, rule: 'eq', val: "x' or '1'='1" }])))}`);
    expect(dbl.success ? dbl.result.total : 0).toBe(0);
    for (const p of SLEEP) {
      // Raw JSON is URI-decoded first (the front end encodes it), so a stray `%` is refused as malformed.
      const b = await timed(sq([{ field: f, rule: 'like', val: p }]));
      if (b.success) expect(b.result.total, p).toBe(0);
      else expect(b.message, p).toBe('高级查询参数格式不正确，需要 JSON 数组');
      const e = await timed(`${list}?superQueryParams=${enc(enc(JSON.stringify([{ field: f, rule: 'like', val: p }])))}`);
      expect(e.success, e.message).toBe(true);
      expect(e.result.total, p).toBe(0);
    }
  });

  it('plain filters are allowlisted and bound: password=ab* is ignored, payloads match nothing', async () => {
    const all = await timed('sys/user/list?pageSize=1');
    const pw = await timed(`sys/user/list?pageSize=1&password=${enc('ab*')}`);
    expect((pw.result as { total: number }).total).toBe((all.result as { total: number }).total);
    expect(JSON.stringify(pw)).not.toMatch(/\$argon2|"password"/);
    for (const p of SLEEP) {
      const b = await timed(`sys/user/list?username=${enc(`*${p}*`)}`);
      expect(b.success ? (b.result as { total: number }).total : 0, p).toBe(0);
    }
  });

  it('keywords of the log and report lists are bound', async () => {
    for (const p of SLEEP) {
      const b = await timed(`sys/log/list?logType=1&keyWord=${enc(p)}`);
      expect(b.success ? (b.result as { total: number }).total : 0, p).toBe(0);
      const l = await timed(`supervisor/courseSchedule/lessons?keyword=${enc(p)}`);
      expect(l.message).not.toMatch(LEAK);
    }
  });
});

describe('online reports', () => {
  it('refuse unknown report codes, unknown self_ params and client SQL; bind report params', async () => {
    expect((await refused(`online/cgreport/api/getData/${enc("1' or '1'='1")}`)).message).toBe('报表不存在');
    expect((await refused(`online/cgreport/api/getData/${enc('sys_user_by_depart;select pg_sleep(3)')}`)).message).toBe('报表不存在');
    expect((await refused(`online/cgreport/api/getData/sys_user_by_depart?self_sql=${enc('select password from sys_user')}`)).message).toBe('报表不支持参数“self_sql”');
    expect((await refused(`online/cgreport/api/getData/sys_user_by_depart?self_dbUrl=${enc('jdbc:h2:mem:;INIT=RUNSCRIPT')}`)).message).toBe('报表不支持参数“self_dbUrl”');
    for (const p of SLEEP) {
      const b = await timed(`online/cgreport/api/getData/sys_user_by_depart?self_orgCode=${enc(p)}`);
      if (b.success) expect(b.result.total ?? b.result.records?.length ?? 0, p).toBe(0);
      else expect(b.message).toMatch(/[\u4e00-\u9fa5]/);
    }
  });
});

describe('paging and parameter types', () => {
  const bad = [
    'pageSize=-1', 'pageSize=0', 'pageSize=1000000', 'pageSize=1e9', 'pageSize=abc',
    'pageNo=-5', 'pageNo=0', 'pageNo=9223372036854775808', 'pageNo=1.5', 'pageNo=abc',
  ];
  it.each(bad)('%s is refused with a Chinese message', async (q) => {
    for (const list of ['sys/user/list', 'supervisor/lectureRecord/list', 'demo/customer/list']) {
      const b = await refused(`${list}?${q}`, s.tok.admin);
      expect(b.message).toMatch(/页码|每页|pageNo|pageSize/);
    }
  });

  it('parameter pollution and operator objects do not widen the query', async () => {
    const a = await timed('demo/customer/list?pageNo=1&pageNo=2');
    expect(a.success ? 'ok' : a.message).toMatch(/ok|[\u4e00-\u9fa5]/);
    const all = await timed('demo/customer/list?pageSize=1');
    const ne = await timed(`demo/customer/list?pageSize=1&id[$ne]=x&${enc('id[$ne]')}=x`);
    if (ne.success) expect((ne.result as { total: number }).total).toBe((all.result as { total: number }).total);
    const teacherRecords = await timed('supervisor/lectureRecord/list?pageSize=1', s.tok.teacher);
    const polluted = await timed('supervisor/lectureRecord/list?pageSize=1&createBy=admin&createBy=teacher&sysOrgCode[$ne]=x', s.tok.teacher);
    if (polluted.success) expect((polluted.result as { total: number }).total).toBeLessThanOrEqual((teacherRecords.result as { total: number }).total);
  });
});
