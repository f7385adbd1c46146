import { describe, expect, it } from 'vitest';
import { fileTestServer } from '../helpers/server.js';
import { flushLogs } from '../../server/sys/log.js';
import { Scheduler, schedulerOf } from '../../server/sys/jobs/index.js';

const s = fileTestServer(['admin', 'teacher']);

const jobId = async (name: string) =>
  (await s.running.ctx.db.selectFrom('sys_quartz_job').select('id').where('job_class_name', '=', name).executeTakeFirstOrThrow()).id as string;

describe('scheduled jobs', () => {
  it('accepts only registered handlers', async () => {
    const r = (await s.post('sys/quartzJob/add', { jobClassName: 'java.lang.Runtime', cronExpression: '0 0 3 * * ?', status: -1 }, s.tok.admin)).json();
    expect(r).toMatchObject({ success: false, message: expect.stringContaining('不存在，请从已注册的任务中选择') });
    const h = (await s.get('sys/quartzJob/handlers', s.tok.admin)).json();
    expect(h.result.map((x: { name: string }) => x.name)).toEqual(expect.arrayContaining(['demoHello', 'cleanExpiredSessions', 'overdueImprovementReminder']));
  });

  it('refuses out-of-range cron fields with a message naming the field', async () => {
    const cases: Array<[string, RegExp]> = [
      ['61 * * * * ?', /第1位（秒）的值61超出范围0-59/],
      ['0 60 * * * ?', /第2位（分）的值60超出范围0-59/],
      ['0 0 24 * * ?', /第3位（时）的值24超出范围0-23/],
      ['0 0 0 32 * ?', /第4位（日）的值32超出范围1-31/],
      ['0 0 0 ? 13 *', /第5位（月）的值13超出范围1-12/],
      ['0 0 0 ? * 8', /第6位（周）的值8超出范围1-7/],
      ['0 0 0 ? * 2#6', /第几周6超出范围1-5/],
      ['0 0 0 * * ? 2200', /第7位（年）的值2200超出范围2019-2119/],
      ['0/0 * * * * ?', /间隔0超出范围1-59/],
      ['* * * * * ?', /执行间隔不能小于5秒/],
      ['hello', /应为6或7位/],
    ];
    for (const [cron, msg] of cases) {
      const r = (await s.post('sys/quartzJob/add', { jobClassName: 'demoHello', cronExpression: cron, status: -1 }, s.tok.admin)).json();
      expect(r.success, cron).toBe(false);
      expect(r.message, cron).toMatch(msg);
    }
    const ok = (await s.get(`sys/quartzJob/checkCron?cron=${encodeURIComponent('0 0 12 ? * 2#3')}`, s.tok.admin)).json();
    expect(ok.success).toBe(true);
    expect(ok.result).toHaveLength(10);
  });

  it('fires a running job on schedule and records its run, once per firing', async () => {
    const id = await jobId('demoHello');
    const edit = (await s.put('sys/quartzJob/edit', { id, jobClassName: 'demoHello', cronExpression: '0/5 * * * * ?', parameter: 'api-test', status: 0 }, s.tok.admin)).json();
    expect(edit).toMatchObject({ success: true });
    const deadline = Date.now() + 9000;
    let runs: Array<Record<string, unknown>> = [];
    while (Date.now() < deadline) {
      runs = (await s.get(`sys/quartzJob/runs?jobId=${id}`, s.tok.admin)).json().result.records;
      if (runs.some((r) => r.status === 'success')) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const run = runs.find((r) => r.status === 'success');
    expect(run).toMatchObject({ triggerType: 'cron', message: '示例任务执行：api-test' });
    expect(Number(String(run!.fireTime).slice(-2)) % 5).toBe(0);
    const job = (await s.get(`sys/quartzJob/queryById?id=${id}`, s.tok.admin)).json().result;
    expect(job).toMatchObject({ status: 0, lastRunStatus: 'success' });
    expect(job.nextRunTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    // A second claimant of the same firing (another process) gets nothing.
    expect(await schedulerOf(s.running.ctx).fire(id, new Date(String(run!.fireTime).replace(' ', 'T')), 'cron')).toBeUndefined();
    expect((await s.get(`sys/quartzJob/pause?id=${id}`, s.tok.admin)).json()).toMatchObject({ success: true });
    expect((await s.get(`sys/quartzJob/queryById?id=${id}`, s.tok.admin)).json().result).toMatchObject({ status: -1, nextRunTime: null });
  });

  it('runs a firing once when two schedulers (two processes) claim it at the same moment', async () => {
    const id = await jobId('cleanJobRuns');
    const fire = new Date(Date.now() - 1000);
    fire.setMilliseconds(0);
    const results = await Promise.all([new Scheduler(s.running.ctx).fire(id, fire, 'cron'), new Scheduler(s.running.ctx).fire(id, fire, 'cron')]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const runs = (await s.get(`sys/quartzJob/runs?jobId=${id}`, s.tok.admin)).json().result.records;
    expect(runs.filter((r: { triggerType: string }) => r.triggerType === 'cron')).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'success', message: expect.stringMatching(/^清理执行记录\d+条$/) });
  });

  it('runs a job now and resumes a paused one', async () => {
    const id = await jobId('cleanExpiredSessions');
    expect((await s.get(`sys/quartzJob/execute?id=${id}`, s.tok.admin)).json()).toMatchObject({ success: true, message: '执行成功!' });
    const runs = (await s.get(`sys/quartzJob/runs?jobId=${id}`, s.tok.admin)).json().result.records;
    expect(runs[0]).toMatchObject({ triggerType: 'manual', status: 'success', message: expect.stringMatching(/^清理会话\d+条$/) });
    const demo = await jobId('overdueImprovementReminder');
    expect((await s.get(`sys/quartzJob/resume?id=${demo}`, s.tok.admin)).json()).toMatchObject({ success: true });
    expect((await s.get(`sys/quartzJob/queryById?id=${demo}`, s.tok.admin)).json().result.status).toBe(0);
  });

  it('refuses job management to a non-admin with 510', async () => {
    const id = await jobId('demoHello');
    for (const url of ['sys/quartzJob/list', `sys/quartzJob/pause?id=${id}`, `sys/quartzJob/resume?id=${id}`, `sys/quartzJob/execute?id=${id}`, `sys/quartzJob/runs?jobId=${id}`])
      expect((await s.get(url, s.tok.teacher)).json(), url).toMatchObject({ success: false, code: 510 });
    expect((await s.post('sys/quartzJob/add', { jobClassName: 'demoHello', cronExpression: '0 0 3 * * ?' }, s.tok.teacher)).json()).toMatchObject({ code: 510 });
  });
});

describe('logs', () => {
  it('writes login logs (success and failure) and operation logs with secrets masked', async () => {
    await s.post('sys/login', { username: 'teacher', password: 'wrong-password-1' });
    await s.login('teacher');
    await s.post('sys/message/sysMessageTemplate/add', { templateCode: 'log_test', templateName: '日志', templateContent: 'x', password: 'Hunter2!', nested: { token: 'abc123' } }, s.tok.admin);
    await flushLogs(s.running.ctx);
    const logins = (await s.get('sys/log/list?logType=1&pageSize=50', s.tok.admin)).json();
    expect(logins.success).toBe(true);
    const texts = logins.result.records.map((r: { logContent: string }) => r.logContent);
    expect(texts).toContain('用户名: teacher,登录成功！');
    expect(texts.some((t: string) => t.startsWith('用户名: teacher,登录失败'))).toBe(true);
    expect(JSON.stringify(logins.result)).not.toContain('wrong-password-1');

    const ops = (await s.get(`sys/log/list?logType=2&keyWord=${encodeURIComponent('消息模板')}`, s.tok.admin)).json();
    const op = ops.result.records.find((r: { requestUrl: string }) => r.requestUrl.includes('sysMessageTemplate/add'));
    expect(op).toMatchObject({ logContent: '消息模板-添加', operateType: 2, requestType: 'POST', userid: expect.any(String) });
    expect(op.requestParam).toContain('log_test');
    expect(op.requestParam).not.toContain('Hunter2!');
    expect(op.requestParam).not.toContain('abc123');
    expect(Number(op.costTime)).toBeGreaterThanOrEqual(0);
  });

  it('counts visits for the home page', async () => {
    await flushLogs(s.running.ctx);
    const info = (await s.get('sys/loginfo', s.tok.teacher)).json();
    expect(info.result.todayVisitCount).toBeGreaterThanOrEqual(3);
    expect(info.result.totalVisitCount).toBeGreaterThanOrEqual(info.result.todayVisitCount);
    expect(info.result.todayIp).toBeGreaterThanOrEqual(1);
    const visit = (await s.get('sys/visitInfo', s.tok.teacher)).json().result;
    expect(visit).toHaveLength(7);
    expect(visit[6]).toMatchObject({ tian: expect.stringMatching(/^\d{4}-\d\d-\d\d$/), type: expect.stringMatching(/^\d\d-\d\d$/) });
    expect(visit[6].visit).toBeGreaterThanOrEqual(3);
  });

  it('refuses logs to a non-admin with 510', async () => {
    expect((await s.get('sys/log/list', s.tok.teacher)).json()).toMatchObject({ code: 510 });
    expect((await s.del('sys/log/delete?id=x', s.tok.teacher)).json()).toMatchObject({ code: 510 });
  });
});

describe('monitoring', () => {
  const urls = ['sys/actuator/system', 'sys/actuator/redis/queryDiskInfo', 'sys/actuator/node', 'sys/actuator/database', 'sys/actuator/http', 'actuator/httptrace'];

  it('is admin only', async () => {
    for (const u of urls) expect((await s.get(u, s.tok.teacher)).json(), u).toMatchObject({ success: false, code: 510 });
  });

  it('reports system, disk, runtime, database and HTTP figures', async () => {
    const sys = (await s.get('sys/actuator/system', s.tok.admin)).json().result;
    expect(sys.cpuCount).toBeGreaterThan(0);
    expect(sys.memoryTotalMb).toBeGreaterThan(0);
    // Used memory is its own rounded figure (MB, two decimals), not total − free with float noise.
    expect(sys.memoryUsedMb).toBeGreaterThan(0);
    expect(sys.memoryUsedMb).toBeLessThanOrEqual(sys.memoryTotalMb);
    expect(String(sys.memoryUsedMb)).toMatch(/^\d+(\.\d{1,2})?$/);
    expect(sys.loadAverage).toHaveLength(3);
    const disk = (await s.get('sys/actuator/redis/queryDiskInfo', s.tok.admin)).json().result;
    expect(disk[0]).toMatchObject({ name: expect.any(String), max: expect.any(Number), rest: expect.any(Number), restPPT: expect.any(Number) });
    const node = (await s.get('sys/actuator/node', s.tok.admin)).json().result;
    expect(node.heapUsedMb).toBeGreaterThan(0);
    expect(node.eventLoopDelayMs).toHaveProperty('p99');
    const db = (await s.get('sys/actuator/database', s.tok.admin)).json().result;
    expect(db.sizeBytes).toBeGreaterThan(0);
    expect(db.tables.map((t: { name: string }) => t.name)).toContain('sys_user');
    const http = (await s.get('sys/actuator/http', s.tok.admin)).json().result;
    expect(http.requests).toBeGreaterThan(0);
    expect(http.status['2xx']).toBeGreaterThan(0);
    expect(http.latencyMs.p99).toBeGreaterThanOrEqual(http.latencyMs.p50);
  });

  it('traces recent requests without tokens or headers', async () => {
    await s.get(`sys/annountCement/listByUser?token=${encodeURIComponent(s.tok.teacher)}&pageSize=5`);
    const r = await s.get('actuator/httptrace', s.tok.admin);
    const text = r.body;
    const traces = r.json().traces;
    expect(traces.some((t: { request: { uri: string } }) => t.request.uri.includes('/sys/annountCement/listByUser'))).toBe(true);
    expect(text).not.toContain(s.tok.teacher);
    expect(text).not.toContain(s.tok.admin);
    expect(traces[0].request).not.toHaveProperty('headers');
  });
});
