/**
 * Issue 33: the calls of the stock JeecgBoot 3.4.3 Vue2 client that the product did not answer as
 * JeecgBoot does. Each is made with the query and body the stock client sends (its `_t`, `column`,
 * `order`, `field` included) and the test reads what that client reads. Families: docs/jeecg-compat.md.
 */
import { describe, expect, it } from 'vitest';
import { fileTestServer } from '../helpers/server.js';
import { multipart, xlsx } from '../fixtures/crud-users.js';

const s = fileTestServer(['admin', 'teacher']);
const T = () => `_t=${Math.floor(Date.now() / 1000)}`;
const LIST = (field: string) => `column=createTime&order=desc&field=${encodeURIComponent(field)}&pageNo=1&pageSize=10`;

const get = async (url: string, token = s.tok.admin) => (await s.get(url, token)).json();
const post = async (url: string, body: unknown, token = s.tok.admin) => (await s.post(url, body, token)).json();
const put = async (url: string, body: unknown, token = s.tok.admin) => (await s.put(url, body, token)).json();
const del = async (url: string, token = s.tok.admin) => (await s.del(url, token)).json();
const upload = async (url: string, name: string, data: Buffer) => (await s.call({ method: 'POST', url, token: s.tok.admin, ...multipart([{ name, data }]) })).json();
const expectPage = (r: any) => {
  expect(r.success, r.message).toBe(true);
  expect(Array.isArray(r.result.records)).toBe(true);
  expect(typeof r.result.total).toBe('number');
};

describe('用户管理 screens', () => {
  it('getEnabledType: third-party apps are both off', async () => {
    const r = await get(`sys/thirdApp/getEnabledType?${T()}`);
    expect(r.success).toBe(true);
    expect(r.result).toEqual({ wechatEnterprise: false, dingtalk: false });
  });

  it('tenant/queryList: the user form reads [{id, name}]', async () => {
    const r = await get(`sys/tenant/queryList?${T()}`);
    expect(r.success).toBe(true);
    expect(r.result.length).toBeGreaterThan(0);
    for (const t of r.result) expect(t).toMatchObject({ id: expect.anything(), name: expect.any(String) });
    expect((await get(`sys/tenant/queryList?${T()}`, s.tok.teacher)).code).toBe(510);
  });

  it('queryByIds: the pickers read realname/username of the given ids, nothing secret', async () => {
    const users = (await get(`sys/user/list?${LIST('id,,,username,realname')}`)).result.records as Array<{ id: string; username: string }>;
    const ids = users.slice(0, 2).map((u) => u.id);
    const r = await get(`sys/user/queryByIds?userIds=${ids.join(',')}&${T()}`);
    expect(r.success).toBe(true);
    expect(r.result.map((u: any) => u.id).sort()).toEqual([...ids].sort());
    for (const u of r.result) {
      expect(u).toMatchObject({ username: expect.any(String), realname: expect.anything() });
      expect(u.password).toBeUndefined();
      expect(u.salt).toBeUndefined();
    }
  });

  it('sysUserAgent: queryByUserName (none yet), add, queryByUserName, edit', async () => {
    const none = await get(`sys/sysUserAgent/queryByUserName?userName=teacher&${T()}`);
    expect(none).toMatchObject({ success: false, message: '未找到对应数据' });
    const added = await post('sys/sysUserAgent/add', { userName: 'teacher', agentUserName: 'leader', startTime: '2026-01-01 00:00:00', endTime: '2026-12-31 23:59:59', status: '1' });
    expect(added.success, added.message).toBe(true);
    const got = await get(`sys/sysUserAgent/queryByUserName?userName=teacher&${T()}`);
    expect(got.result).toMatchObject({ userName: 'teacher', agentUserName: 'leader', status: '1', startTime: '2026-01-01 00:00:00' });
    const edited = await put('sys/sysUserAgent/edit', { ...got.result, agentUserName: 'supervisor', status: '0' });
    expect(edited.success, edited.message).toBe(true);
    expect((await get(`sys/sysUserAgent/queryByUserName?userName=teacher&${T()}`)).result).toMatchObject({ agentUserName: 'supervisor', status: '0' });
    expect((await post('sys/sysUserAgent/add', { userName: 'leader', agentUserName: 'nobody-here' })).message).toMatch(/不存在/);
    expect((await get(`sys/sysUserAgent/queryByUserName?userName=teacher&${T()}`, s.tok.teacher)).code).toBe(510);
  });
});

describe('通讯录', () => {
  it('queryByOrgCodeForAddressList: a page of {userId, realname, workNo, departName, post, phone}', async () => {
    const r = await get(`sys/user/queryByOrgCodeForAddressList?orgCode=A01&${LIST('id,,,realname,workNo,departName,post,telephone,phone,email')}&${T()}`);
    expectPage(r);
    expect(r.result.records.length).toBeGreaterThan(0);
    for (const u of r.result.records) {
      expect(u.userId).toBe(u.id);
      for (const k of ['realname', 'workNo', 'departName', 'post', 'phone', 'telephone', 'email']) expect(u).toHaveProperty(k);
    }
  });

  it('position/list?pageSize=99999: every position, the bound applied silently', async () => {
    const r = await get(`sys/position/list?pageSize=99999&${T()}`);
    expectPage(r);
    expect(r.result.records.length).toBe(r.result.total);
    expect(r.result.size).toBe(1000);
    // Other lists keep refusing an oversized page.
    expect((await get(`sys/dict/list?pageSize=99999&${T()}`)).message).toMatch(/不能超过1000/);
  });
});

describe('数据字典', () => {
  it('dictItemCheck: a free value is ok, a taken one is refused', async () => {
    const dict = (await get(`sys/dict/list?dictCode=sex&${LIST('id,,,dictName,dictCode')}`)).result.records[0];
    const items = (await get(`sys/dictItem/list?dictId=${dict.id}&pageNo=1&pageSize=10&${T()}`)).result.records;
    const taken = await get(`sys/dictItem/dictItemCheck?itemValue=1&dictId=${dict.id}&${T()}`);
    expect(taken).toMatchObject({ success: false, message: '该值不可用，系统中已存在！' });
    const own = items.find((i: any) => i.itemValue === '1');
    expect((await get(`sys/dictItem/dictItemCheck?itemValue=1&dictId=${dict.id}&id=${own.id}&${T()}`)).success).toBe(true);
    expect(await get(`sys/dictItem/dictItemCheck?itemValue=9&dictId=${dict.id}&${T()}`)).toMatchObject({ success: true, message: '该值可用！' });
  });

  it('recycle bin: deleteList, back/{id}, deletePhysic/{id}', async () => {
    for (const code of ['jc_bin_a', 'jc_bin_b']) expect((await post('sys/dict/add', { dictName: code, dictCode: code })).success).toBe(true);
    const found = (await get(`sys/dict/list?dictCode=jc_bin*&${LIST('id,,,dictName,dictCode')}`)).result.records as Array<{ id: string; dictCode: string }>;
    const ids = ['jc_bin_a', 'jc_bin_b'].map((c) => found.find((d) => d.dictCode === c)!.id);
    expect(ids).toHaveLength(2);
    for (const id of ids) expect((await del(`sys/dict/delete?id=${id}`)).success).toBe(true);
    const bin = await get(`sys/dict/deleteList?${T()}`);
    expect(bin.success).toBe(true);
    expect(bin.result.filter((d: any) => ids.includes(d.id)).map((d: any) => d.dictCode).sort()).toEqual(['jc_bin_a', 'jc_bin_b']);
    expect(await put(`sys/dict/back/${ids[0]}`, {})).toMatchObject({ success: true, message: '操作成功!' });
    expect(await del(`sys/dict/deletePhysic/${ids[1]}`)).toMatchObject({ success: true, message: '删除成功!' });
    expect((await get(`sys/dict/deleteList?${T()}`)).result.some((d: any) => ids.includes(d.id))).toBe(false);
    expect((await get(`sys/dict/list?dictCode=jc_bin_a&${LIST('id')}`)).result.total).toBe(1);
    // Only a deleted dictionary can be erased.
    expect((await del(`sys/dict/deletePhysic/${ids[0]}`)).success).toBe(false);
    expect((await get(`sys/dict/deleteList?${T()}`, s.tok.teacher)).code).toBe(510);
  });

  it('the stock screens’ dictionaries exist with JeecgBoot’s items', async () => {
    const all = (await get(`sys/dict/queryAllDictItems?${T()}`)).result;
    const values = (code: string) => (all[code] ?? []).map((i: any) => i.value);
    expect(values('activiti_sync')).toEqual(['1', '0']);
    expect(values('global_perms_type')).toEqual(['1', '2']);
    expect(values('valid_status')).toEqual(['1', '0']);
    expect(values('rule_conditions')).toEqual(expect.arrayContaining(['>', '<', '!=', '=', '>=', '<=', 'LEFT_LIKE', 'RIGHT_LIKE', 'LIKE', 'IN', 'USE_SQL_RULES']));
    expect(values('cgform_table_type')).toEqual(['1', '2', '3']);
    expect(values('ol_form_biz_type')).toEqual(['demo', 'bpm', 'temp', 'bdfl_include']);
  });
});

describe('分类字典', () => {
  let rootId = '';
  it('rootList / childList / getChildListBatch / checkCode / loadAllData', async () => {
    expect((await post('sys/category/add', { pid: '0', name: '契约根', code: 'JC' })).success).toBe(true);
    const roots = await get(`sys/category/rootList?${LIST('id,,,name,code,action')}&hasQuery=false&${T()}`);
    expectPage(roots);
    const root = roots.result.records.find((c: any) => c.code === 'JC');
    expect(root).toMatchObject({ id: expect.any(String), pid: '0', name: '契约根', code: 'JC' });
    expect(root).toHaveProperty('hasChild');
    rootId = root.id;
    expect(await get(`sys/category/checkCode?pid=${rootId}&code=JCA01&${T()}`)).toMatchObject({ success: true });
    expect((await get(`sys/category/checkCode?pid=${rootId}&code=XX01&${T()}`)).message).toMatch(/须以"JC"开头/);
    for (const [name, code] of [['契约一', 'JCA01'], ['契约二', 'JCA02']]) expect((await post('sys/category/add', { pid: rootId, name, code })).success).toBe(true);
    expect((await get(`sys/category/checkCode?pid=${rootId}&code=JCA01&${T()}`)).message).toMatch(/已存在/);
    const kids = await get(`sys/category/childList?pid=${rootId}&${T()}`);
    expect(kids.success).toBe(true);
    expect(kids.result.map((c: any) => c.code)).toEqual(['JCA01', 'JCA02']);
    const batch = await get(`sys/category/getChildListBatch?parentIds=${rootId}&${T()}`);
    expectPage(batch);
    expect(batch.result.records).toHaveLength(2);
    const searched = await get(`sys/category/rootList?${LIST('id')}&name=契约一&${T()}`);
    expect(searched.result.records.map((c: any) => c.code)).toEqual(['JCA01']);
    const all = await get(`sys/category/loadAllData?code=JC&${T()}`);
    expect(all.success).toBe(true);
    expect(all.result.map((d: any) => d.text).sort()).toEqual(['契约一', '契约二', '契约根']);
    expect(all.result[0]).toMatchObject({ value: expect.any(String), text: expect.any(String) });
  });

  it('deleteBatch (trailing comma), exportXls, importExcel', async () => {
    const kids = (await get(`sys/category/childList?pid=${rootId}&${T()}`)).result.map((c: any) => c.id);
    const ex = await s.get(`/jeecg-boot/sys/category/exportXls?${LIST('id')}&selections=${kids.join(',')}`, s.tok.admin);
    expect(ex.statusCode).toBe(200);
    expect(ex.headers['content-disposition']).toMatch(/attachment/);
    expect((await del(`sys/category/deleteBatch?ids=${kids.join(',')},`)).success).toBe(true);
    expect((await get(`sys/category/childList?pid=${rootId}&${T()}`)).result).toEqual([]);
    const im = await upload('/jeecg-boot/sys/category/importExcel', '分类.xlsx', await xlsx(['类型名称', '类型编码'], [['导入分类', 'JCIMP']]));
    expect(im.success, im.message).toBe(true);
    expect((await get(`sys/category/loadAllData?code=JCIMP&${T()}`)).result.map((d: any) => d.text)).toEqual(['导入分类']);
  });
});

describe('系统监控', () => {
  const NAMES = [
    'system.cpu.count', 'system.cpu.usage', 'process.start.time', 'process.uptime', 'process.cpu.usage',
    'jvm.memory.max', 'jvm.memory.committed', 'jvm.memory.used', 'jvm.buffer.memory.used', 'jvm.buffer.count',
    'jvm.threads.daemon', 'jvm.threads.live', 'jvm.threads.peak', 'jvm.classes.loaded', 'jvm.classes.unloaded',
    'jvm.gc.memory.allocated', 'jvm.gc.memory.promoted', 'jvm.gc.max.data.size', 'jvm.gc.live.data.size', 'jvm.gc.pause',
    'tomcat.sessions.created', 'tomcat.sessions.expired', 'tomcat.sessions.active.current', 'tomcat.sessions.active.max', 'tomcat.sessions.rejected',
  ];
  it('actuator/metrics/{name}: Spring Actuator JSON, no envelope', async () => {
    for (const name of NAMES) {
      const r = await get(`actuator/metrics/${name}?${T()}`);
      expect(r.success, name).toBeUndefined();
      expect(r.name).toBe(name);
      expect(Array.isArray(r.availableTags)).toBe(true);
      expect(r.measurements.length).toBeGreaterThan(0);
      for (const m of r.measurements) {
        expect(typeof m.statistic).toBe('string');
        expect(Number.isFinite(m.value), `${name} ${m.statistic}`).toBe(true);
      }
    }
    expect((await get(`actuator/metrics/system.cpu.count?${T()}`)).measurements[0]).toMatchObject({ statistic: 'VALUE', value: expect.any(Number) });
    expect((await get(`actuator/metrics/tomcat.sessions.active.current?${T()}`)).measurements[0].value).toBeGreaterThanOrEqual(2);
    expect((await get(`actuator/metrics/jvm.gc.pause?${T()}`)).measurements.map((m: any) => m.statistic)).toEqual(['COUNT', 'TOTAL_TIME', 'MAX']);
    expect((await s.get(`/jeecg-boot/actuator/metrics/no.such.metric`, s.tok.admin)).statusCode).toBe(404);
    expect((await get(`actuator/metrics?${T()}`)).names).toEqual(expect.arrayContaining(NAMES));
  });

  it('metrics stay behind the monitoring permissions', async () => {
    expect((await s.get('/jeecg-boot/actuator/metrics/jvm.memory.used')).statusCode).toBe(401);
    expect((await get(`actuator/metrics/jvm.memory.used?${T()}`, s.tok.teacher)).code).toBe(510);
  });

  it('redis keysSize / memoryInfo raw, info as a Result of {key, value, description}', async () => {
    const k = await get(`sys/actuator/redis/keysSize?${T()}`);
    expect(k.success).toBeUndefined();
    expect(k).toMatchObject({ dbSize: expect.any(Number), create_time: expect.any(Number) });
    expect(k.dbSize).toBeGreaterThan(0);
    const m = await get(`sys/actuator/redis/memoryInfo?${T()}`);
    expect(m).toMatchObject({ used_memory: expect.any(Number), create_time: expect.any(Number) });
    expect(m.used_memory).toBeGreaterThan(0);
    const i = await get(`sys/actuator/redis/info?${T()}`);
    expect(i.success).toBe(true);
    for (const row of i.result) expect(row).toMatchObject({ key: expect.any(String), value: expect.any(String), description: expect.any(String) });
    expect(i.result.map((r: any) => r.key)).toEqual(expect.arrayContaining(['redis_version', 'used_memory', 'connected_clients']));
    expect((await get(`sys/actuator/redis/info?${T()}`, s.tok.teacher)).code).toBe(510);
  });
});

describe('文件存储 (OSS)', () => {
  it('list, upload, delete', async () => {
    const up = await upload('/jeecg-boot/sys/oss/file/upload', 'oss说明.xlsx', await xlsx(['a'], [['1']]));
    expect(up).toMatchObject({ success: true, message: '上传成功！' });
    const l = await get(`sys/oss/file/list?${LIST('id,,,fileName,url')}&${T()}`);
    expectPage(l);
    const f = l.result.records.find((r: any) => r.fileName === 'oss说明.xlsx');
    expect(f).toMatchObject({ id: expect.any(String), fileName: 'oss说明.xlsx', url: expect.stringMatching(/^temp\//) });
    expect((await get(`sys/oss/file/list?fileName=oss说明&${LIST('id')}&${T()}`)).result.total).toBe(1);
    expect(await del(`sys/oss/file/delete?id=${f.id}`)).toMatchObject({ success: true, message: '删除成功!' });
    expect((await get(`sys/oss/file/list?fileName=oss说明&${LIST('id')}&${T()}`)).result.total).toBe(0);
  });
});

describe('Online报表 editor', () => {
  it('head/list rows carry cgrSql (the registered query described, never SQL to run), dbSource_dictText, createTime', async () => {
    const r = await get(`online/cgreport/head/list?${LIST('id,,,name,code,cgrSql,dbSource')}&${T()}`);
    expectPage(r);
    const head = r.result.records.find((h: any) => h.code === 'sys_user_by_depart');
    expect(head).toMatchObject({ id: 'sys_user_by_depart', name: expect.any(String), cgrSql: expect.stringContaining('已注册查询'), dbSource_dictText: expect.any(String) });
    expect(head.cgrSql).not.toMatch(/select/i);
    expect(head).toHaveProperty('createTime');
  });

  it('item/param listByHeadId and dataSource/options', async () => {
    const items = await get(`online/cgreport/item/listByHeadId?headId=sys_user_by_depart&${T()}`);
    expect(items.success).toBe(true);
    expect(items.result[0]).toMatchObject({ cgrheadId: 'sys_user_by_depart', fieldName: 'username', fieldTxt: expect.any(String), fieldType: 'String', isShow: 1, orderNum: 1 });
    const params = await get(`online/cgreport/param/listByHeadId?headId=sys_user_by_depart&${T()}`);
    expect(params.result).toEqual([expect.objectContaining({ cgrheadId: 'sys_user_by_depart', paramName: 'orgCode', paramTxt: expect.any(String) })]);
    expect((await get(`online/cgreport/item/listByHeadId?headId=nope&${T()}`)).result).toEqual([]);
    const ds = await get(`sys/dataSource/options?${T()}`);
    expect(ds.success).toBe(true);
    for (const o of ds.result) expect(o).toMatchObject({ value: expect.any(String), label: expect.any(String), text: expect.any(String) });
  });
});

describe('填值规则', () => {
  it('list rows carry ruleClass and ruleParams; a stock form’s ruleParams set the rule', async () => {
    const add = await post('sys/fillRule/add', { ruleName: '契约编号', ruleCode: 'jc_contract_no', ruleClass: 'org.jeecg.modules.system.rule.OrderNumberRule', ruleParams: '{"prefix":"JC","dateFormat":"YYYY","seqLength":3}' });
    expect(add.success, add.message).toBe(true);
    const r = await get(`sys/fillRule/list?ruleCode=jc_contract_no&${LIST('id,,,ruleName,ruleCode,ruleClass,ruleParams')}&${T()}`);
    expectPage(r);
    const row = r.result.records[0];
    expect(row).toMatchObject({ ruleCode: 'jc_contract_no', prefix: 'JC', dateFormat: 'YYYY', seqLength: 3, ruleClass: expect.any(String) });
    expect(JSON.parse(row.ruleParams)).toEqual({ prefix: 'JC', dateFormat: 'YYYY', seqLength: 3 });
    expect((await post('sys/fillRule/add', { ruleName: 'x', ruleCode: 'jc_bad', ruleParams: '{"dateFormat":"HH"}' })).success).toBe(false);
  });
});

describe('通知公告, 部门, 定时任务', () => {
  it('annountCement syncNotic pushes a published notice again', async () => {
    expect((await post('sys/annountCement/add', { titile: '契约通告', msgContent: '<p>内容</p>', msgCategory: '1', msgType: 'ALL', priority: 'L' })).success).toBe(true);
    const a = (await get(`sys/annountCement/list?titile=契约通告&${LIST('id')}`)).result.records[0];
    expect((await get(`sys/annountCement/syncNotic?anntId=${a.id}&${T()}`)).success).toBe(false); // a draft is not pushed
    expect((await get(`sys/annountCement/doReleaseData?id=${a.id}&${T()}`)).success).toBe(true);
    expect(await get(`sys/annountCement/syncNotic?anntId=${a.id}&${T()}`)).toMatchObject({ success: true });
    expect((await get(`sys/annountCement/syncNotic?anntId=${a.id}&${T()}`, s.tok.teacher)).code).toBe(510);
  });

  it('sysDepartRole/datarule answers as sysDepartPermission/datarule does', async () => {
    const strip = ({ timestamp: _t, ...rest }: any) => rest;
    const a = await get(`sys/sysDepartRole/datarule/p1/d1/r1?${T()}`);
    const b = await get(`sys/sysDepartPermission/datarule/p1/d1/r1?${T()}`);
    expect(strip(a)).toEqual(strip(b));
    const body = { permissionId: 'p1', roleId: 'r1', dataRuleIds: '' };
    expect(strip(await post('sys/sysDepartRole/datarule', body))).toEqual(strip(await post('sys/sysDepartPermission/datarule', body)));
    expect((await get(`sys/sysDepartRole/datarule/p1/d1/r1?${T()}`, s.tok.teacher)).code).toBe(510);
  });

  it('exportXls and importExcel of departments, jobs and announcements', async () => {
    for (const url of ['sys/sysDepart/exportXls', 'sys/quartzJob/exportXls', 'sys/annountCement/exportXls']) {
      const r = await s.get(`/jeecg-boot/${url}?${LIST('id')}&${T()}`, s.tok.admin);
      expect(r.statusCode, url).toBe(200);
      expect(r.headers['content-disposition'], url).toMatch(/attachment/);
    }
    const top = (await get(`sys/sysDepart/queryTreeList?${T()}`)).result[0];
    const dep = await upload('/jeecg-boot/sys/sysDepart/importExcel', '部门.xlsx', await xlsx(['部门名称', '机构编码'], [['契约学院', 'Z01'], ['契约系', 'Z01A01'], ['契约分系', `${top.orgCode}Z01`]]));
    expect(dep.success, dep.message).toBe(true);
    const tree = JSON.stringify((await get(`sys/sysDepart/queryTreeList?${T()}`)).result);
    for (const n of ['契约学院', '契约系', '契约分系']) expect(tree).toContain(n);
    const bad = await upload('/jeecg-boot/sys/sysDepart/importExcel', '部门.xlsx', await xlsx(['部门名称', '机构编码'], [['孤儿系', 'Y09A01'], ['', 'Y10']]));
    expect(bad).toMatchObject({ success: true, code: 201 });
    expect(bad.result.errorCount).toBe(2);
    expect(JSON.stringify((await get(`sys/sysDepart/queryTreeList?${T()}`)).result)).not.toContain('孤儿系');
    const ann = await upload('/jeecg-boot/sys/annountCement/importExcel', '通告.xlsx', await xlsx(['标题', '摘要'], [['导入的通告', '摘要']]));
    expect(ann.success, ann.message).toBe(true);
    expect((await get(`sys/annountCement/list?titile=导入的通告&${LIST('id')}`)).result.total).toBe(1);
    const jobs = (await get(`sys/quartzJob/handlers?${T()}`)).result;
    const handler = Array.isArray(jobs) ? (jobs[0]?.value ?? jobs[0]?.name ?? jobs[0]) : undefined;
    const jobIm = await upload('/jeecg-boot/sys/quartzJob/importExcel', '任务.xlsx', await xlsx(['任务类名', 'cron表达式', '描述'], [[String(handler), '0 0 3 * * ?', '导入的任务']]));
    expect(jobIm.success, jobIm.message).toBe(true);
  });
});

describe('menus', () => {
  it('stock view names, the hidden routes, and our client’s schema under both names', async () => {
    const menu = (await get(`sys/permission/getUserPermissionByToken?${T()}`)).result.menu;
    const flat: any[] = [];
    const walk = (ns: any[]) => ns.forEach((n) => (flat.push(n), walk(n.children ?? [])));
    walk(menu);
    const at = (path: string) => flat.find((n) => n.path === path);
    expect(at('/isystem/announcement').component).toBe('system/SysAnnouncementList');
    expect(at('/isps/userAnnouncement')).toMatchObject({ component: 'system/UserAnnouncementList', hidden: true });
    for (const [k, v] of [['base', 'BaseSetting'], ['security', 'Security'], ['custom', 'Custom'], ['binding', 'Binding'], ['notification', 'Notification']])
      expect(at(`/account/settings/${k}`), k).toMatchObject({ component: `account/settings/${v}`, hidden: true });
    const teacherMenu = JSON.stringify((await get(`sys/permission/getUserPermissionByToken?${T()}`, s.tok.teacher)).result.menu);
    expect(teacherMenu).toContain('/isps/userAnnouncement');
    for (const [stock, ours] of [['system/SysAnnouncementList', 'system/AnnouncementList'], ['system/UserAnnouncementList', 'system/MyAnnouncement']]) {
      const a = await get(`schema/page/${stock}`);
      expect(a.success, stock).toBe(true);
      expect(a.result).toEqual((await get(`schema/page/${ours}`)).result);
    }
  });
});
