import type { FastifyInstance } from 'fastify';
import { safeRegex } from '../crud/safe-regex.js';
import { sql } from 'kysely';
import type { ServerContext } from '../context.js';
import { BizError, fail, ok } from '../http/envelope.js';
import { allFields, columnOf, primaryField } from '../crud/entity-types.js';
import { defineEntityHooks } from '../crud/hooks.js';
import { followingNumber, type FillRuleState } from '../crud/fill-rule.js';

type Q = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

export interface CheckRulePart {
  digits: string | number;
  pattern: string;
  message: string;
}

export interface CheckResult {
  passed: boolean;
  digits?: string | number;
  pattern?: string;
  message?: string;
  beginIndex?: number;
  endIndex?: number;
  checkValue?: string;
}

/** Parses and checks a rule's JSON (array of {digits, pattern, message}); a bad rule is reported, not run. */
export function parseRuleJson(json: string): CheckRulePart[] {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    throw new BizError('校验规则JSON格式不正确');
  }
  if (!Array.isArray(v)) throw new BizError('校验规则JSON必须是数组');
  return v.map((p, i) => {
    const part = p as Partial<CheckRulePart>;
    const digits = part.digits;
    if (!(digits === '*' || (Number.isInteger(Number(digits)) && Number(digits) > 0))) throw new BizError(`第${i + 1}条校验规则的位数 digits 必须是正整数或 *`);
    if (typeof part.pattern !== 'string' || !part.pattern) throw new BizError(`第${i + 1}条校验规则缺少 pattern`);
    try {
      safeRegex(part.pattern);
    } catch (e) {
      throw new BizError(`第${i + 1}条校验规则的 pattern：${(e as Error).message}`);
    }
    return { digits: digits!, pattern: part.pattern, message: String(part.message ?? '校验不通过') };
  });
}

/** Each part consumes `digits` characters in turn (`*` = the rest) and must match its pattern. */
export function runCheckRule(parts: CheckRulePart[], value: string): CheckResult {
  let begin = 0;
  for (const p of parts) {
    const whole = p.digits === '*';
    const end = whole ? value.length : Math.min(value.length, begin + Number(p.digits));
    const piece = value.slice(begin, end);
    let passed: boolean;
    try {
      passed = safeRegex(p.pattern).test(piece); // RE2: linear time, whatever the pattern
    } catch (e) {
      throw new BizError(`校验规则的 pattern：${(e as Error).message}`);
    }
    if (!passed) return { passed: false, digits: p.digits, pattern: p.pattern, message: p.message, beginIndex: begin, endIndex: end, checkValue: piece };
    if (whole) break;
    begin = end;
  }
  return { passed: true };
}

export async function registerCheckRoutes(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  defineEntityHooks('sys_check_rule', {
    beforeSave(_h, row) {
      if (typeof row.ruleJson === 'string') parseRuleJson(row.ruleJson);
    },
  }, 'check-routes');

  api.get('/sys/duplicate/check', { config: { auth: 'user' } }, async (req, reply) => {
    const q = req.query as Q;
    const value = str(q.fieldVal);
    if (!value) return ok('数据为空,不作处理！', '数据为空,不作处理！', 500);
    const e = ctx.entities.byTable.get(str(q.tableName));
    const f = e && allFields(e).find((x) => !x.secret && (x.unique || x.filterable) && (columnOf(x) === str(q.fieldName) || x.name === str(q.fieldName)));
    if (!e || !f) throw new BizError('不支持对该表或字段做重复校验');
    // Only for tables the caller may write (their add or edit permission): nobody probes other tables.
    if (!e.permission || !['add', 'edit'].some((op) => req.user!.perms.has(`${e.permission}:${op}`))) throw new BizError('您没有该表的新增或编辑权限，不能做重复校验');
    let qb = ctx.db.selectFrom(e.table).select(sql`1`.as('x')).where(sql.ref(columnOf(f)), '=', value);
    const del = e.fields.find((x) => x.name === 'delFlag');
    if (del) qb = qb.where(sql.ref(columnOf(del)), '=', del.type === 'string' ? '0' : 0);
    // A unique column is unique across tenants; a merely filterable one is checked within the tenant.
    if (!f.unique && e.scope?.tenant) {
      const t = allFields(e).find((x) => x.name === e.scope!.tenant)!;
      qb = qb.where(sql.ref(columnOf(t)), '=', t.type === 'string' ? String(req.user!.tenantId) : req.user!.tenantId);
    }
    const dataId = str(q.dataId);
    if (dataId) qb = qb.where(sql.ref(columnOf(primaryField(e))), '<>', dataId);
    const taken = await qb.executeTakeFirst();
    if (taken) return reply.send(fail('该值不可用，系统中已存在！'));
    return ok('该值可用！', '该值可用！');
  });

  /** 填值规则 测试: the next number of a rule, without consuming it. */
  api.get('/sys/fillRule/preview', { config: { auth: 'system:fillRule:list' } }, async (req) => {
    const id = str((req.query as Q).id);
    const r = id ? await ctx.db.selectFrom('sys_fill_rule').selectAll().where('id', '=', id).executeTakeFirst() : undefined;
    if (!r) throw new BizError('未找到对应数据');
    const { value } = followingNumber(r as unknown as FillRuleState);
    return ok(value, `下一个编号：${value}（预览，不占用编号）`);
  });

  api.get('/sys/checkRule/checkByCode', { config: { auth: 'user' } }, async (req, reply) => {
    const q = req.query as Q;
    const code = str(q.ruleCode);
    if (!code) throw new BizError('请提供规则编码 ruleCode');
    let value = str(q.value);
    try {
      value = decodeURIComponent(value);
    } catch {
      /* keep as sent */
    }
    const r = await ctx.db.selectFrom('sys_check_rule').select('rule_json').where('rule_code', '=', code).executeTakeFirst();
    if (!r) throw new BizError('该编码不存在');
    const result = runCheckRule(parseRuleJson(String(r.rule_json)), value);
    if (result.passed) return ok(null);
    return reply.send(fail(result.message ?? '校验不通过', 500, result));
  });
}
