import type { ServerContext } from '../context.js';
import { newId, now, sha256 } from '../util.js';

const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '赵', '黄', '周', '吴'];
const GIVEN = ['伟', '芳', '娜', '敏', '静', '强', '磊', '洋', '艳', '军', '杰', '涛'];

/** Dictionary of the demo customer's status (the demo entity of the schema-driven screens). */
export async function seedDemoDicts(ctx: ServerContext): Promise<void> {
  const dictId = sha256('dict|customer_status').slice(0, 32);
  const ts = now();
  await ctx.db
    .insertInto('sys_dict')
    .values({ id: dictId, dict_name: '客户状态', dict_code: 'customer_status', del_flag: 0, type: 0, tenant_id: 0, create_by: 'system', create_time: ts })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const items: Array<[string, string, string]> = [['1', '正常', 'green'], ['2', '冻结', 'orange'], ['0', '注销', 'red']];
  await ctx.db
    .insertInto('sys_dict_item')
    .values(items.map(([v, t, c], i) => ({ id: sha256(`dictItem|customer_status|${v}`).slice(0, 32), dict_id: dictId, item_value: v, item_text: t, item_color: c, sort_order: i + 1, status: 1, create_by: 'system', create_time: ts })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** ~50 demo customers spread over the demo departments, in the admin's tenant. */
export async function seedDemoCustomers(ctx: ServerContext): Promise<void> {
  const admin = await ctx.db.selectFrom('sys_user').select('login_tenant_id').where('username', '=', 'admin').executeTakeFirst();
  const tenantId = Number(admin?.login_tenant_id ?? 0);
  const departs = await ctx.db.selectFrom('sys_depart').select('org_code').where('org_code', 'is not', null).orderBy('org_code').limit(6).execute();
  const orgs = departs.length ? departs.map((d) => String(d.org_code)) : ['A01'];
  const rows = Array.from({ length: 50 }, (_, i) => {
    const n = i + 1;
    const day = String((n % 28) + 1).padStart(2, '0');
    return {
      id: newId(),
      name: `${SURNAMES[i % SURNAMES.length]}${GIVEN[(i * 7) % GIVEN.length]}${n % 3 === 0 ? GIVEN[(i * 5) % GIVEN.length] : ''}`,
      code: `KH${String(n).padStart(4, '0')}`,
      sex: (n % 2) + 1,
      birthday: `${1970 + (n % 30)}-${String((n % 12) + 1).padStart(2, '0')}-${day}`,
      phone: `13${String(800000000 + n * 7919).slice(0, 9)}`,
      email: `customer${n}@example.com`,
      age: 20 + (n % 45),
      balance: ((n * 1373) % 100000) / 10,
      status: n % 10 === 0 ? '2' : n % 17 === 0 ? '0' : '1',
      vip: n % 5 === 0,
      last_visit: `2026-${String((n % 11) + 1).padStart(2, '0')}-${day} ${String(8 + (n % 10)).padStart(2, '0')}:30:00`,
      description: n % 4 === 0 ? `重点跟进客户（第${n}号）` : null,
      org_code: orgs[i % orgs.length],
      tenant_id: tenantId,
      create_by: 'admin',
      create_time: `2026-${String((n % 11) + 1).padStart(2, '0')}-${day} 09:00:00`,
    };
  });
  await ctx.db.insertInto('demo_customer').values(rows).execute();
}
