import type { ServerContext } from '../context.js';
import { hashPassword } from '../auth/password.js';
import { now, sha256 } from '../util.js';
import {
  COLLEGES, DEMO_ACCOUNTS, DEMO_PASSWORD, DEPARTS, GIVEN_FEMALE, GIVEN_MALE, QUALITY_CENTER, SURNAMES, TENANTS, TITLES,
  departId, roleId, userId, type DemoAccount, type DepartSeed,
} from './data/org.js';

/** Deterministic pseudo-random numbers (mulberry32): the same demo university on every machine. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface StaffSeed extends DemoAccount {
  identity: 1 | 2;
}

function userRow(u: StaffSeed, hash: string, ts: string) {
  return {
    id: userId(u.username),
    username: u.username,
    realname: u.realname,
    password: hash,
    sex: u.sex,
    phone: u.phone,
    email: `${u.username}@university.edu.cn`,
    org_code: u.departs[0] ?? null,
    status: 1,
    del_flag: 0,
    work_no: u.workNo,
    post: u.post ?? null,
    user_identity: u.identity,
    listener_category: u.listenerCategory ?? null,
    title: u.title ?? null,
    rel_tenant_ids: u.relTenantIds ?? '',
    login_tenant_id: u.relTenantIds ? Number(u.relTenantIds.split(',')[0]) : 0,
    create_by: 'system',
    create_time: ts,
  };
}

/** The administrator account, also without demo data (otherwise nobody could sign in). */
export async function seedAdmin(ctx: ServerContext): Promise<void> {
  const exists = await ctx.db.selectFrom('sys_user').select('id').where('username', '=', 'admin').executeTakeFirst();
  if (exists) return;
  const admin = { ...DEMO_ACCOUNTS.find((a) => a.username === 'admin')!, departs: [], identity: 2 as const };
  await ctx.db.insertInto('sys_user').values(userRow(admin, await hashPassword(DEMO_PASSWORD), now())).execute();
  await ctx.db
    .insertInto('sys_user_role')
    .values({ id: sha256(`ur|admin|admin`).slice(0, 32), user_id: userId('admin'), role_id: roleId('admin') })
    .onConflict((oc) => oc.columns(['user_id', 'role_id']).doNothing())
    .execute();
}

/** Departments, tenants and ~200 staff of the demo university, in bulk inserts. */
export async function seedDemoOrg(ctx: ServerContext): Promise<void> {
  const ts = now();
  const departs: Array<Record<string, unknown>> = [];
  const walk = (d: DepartSeed, parent: string | null, level: number, order: number) => {
    departs.push({
      id: departId(d.orgCode), parent_id: parent, depart_name: d.name, depart_name_abbr: d.abbr ?? null, depart_order: order,
      org_category: level === 1 ? '1' : '2', depart_type: d.type, org_type: String(level), org_code: d.orgCode,
      status: '1', del_flag: '0', tenant_id: 0, create_by: 'system', create_time: ts,
    });
    d.children?.forEach((c, i) => walk(c, departId(d.orgCode), level + 1, i + 1));
  };
  walk(DEPARTS, null, 1, 1);
  await ctx.db.insertInto('sys_depart').values(departs).onConflict((oc) => oc.column('id').doNothing()).execute();
  await ctx.db
    .insertInto('sys_tenant')
    .values(TENANTS.map((t) => ({ id: t.id, name: t.name, status: 1, begin_date: '2024-01-01 00:00:00', end_date: '2030-12-31 23:59:59', create_by: 'system', create_time: ts })))
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();

  const staff: StaffSeed[] = DEMO_ACCOUNTS.filter((a) => a.username !== 'admin').map((a) => ({ ...a, identity: a.roles.includes('leader') ? 2 : 1 }));
  const rand = rng(20260901);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const used = new Set(DEMO_ACCOUNTS.map((a) => a.realname));
  const person = () => {
    for (;;) {
      const sex: 1 | 2 = rand() < 0.55 ? 1 : 2;
      const name = pick([...SURNAMES]) + pick(sex === 1 ? GIVEN_MALE : GIVEN_FEMALE);
      if (!used.has(name)) {
        used.add(name);
        return { name, sex };
      }
    }
  };
  let seq = 0;
  const add = (departs: string[], roles: string[], extra: Partial<StaffSeed>) => {
    seq++;
    const p = person();
    const workNo = `T${2000 + (seq % 24)}${String(seq).padStart(4, '0')}`;
    staff.push({
      username: workNo.toLowerCase(), realname: p.name, sex: p.sex, departs, roles, workNo,
      phone: `139${String(10_000_000 + seq * 7919).slice(-8)}`, identity: 1, ...extra,
    });
  };
  // School leaders and supervisors (校级督导) sit in the president's office and the quality centre.
  for (let i = 0; i < 2; i++) add(['A01A14'], ['supervisor'], { title: 'professor', listenerCategory: 'school_leader', post: i ? '副校长' : '校长', identity: 2 });
  for (let i = 0; i < 7; i++) add([QUALITY_CENTER], ['supervisor'], { title: pick(['professor', 'assoc_professor']), listenerCategory: 'supervisor', post: '校级督导' });
  for (const org of ['A01A01', 'A01A02', 'A01A03', 'A01A12', 'A01A13']) for (let i = 0; i < 2; i++) add([org], [], { post: '职员' });
  for (const college of COLLEGES) {
    const mine = college === 'A01A04';
    // 计算机学院 already has the demo leader and secretary.
    if (!mine) {
      add([college], ['leader'], { title: 'professor', listenerCategory: 'college_leader', post: '院长', identity: 2 });
      add([college], ['secretary'], { title: 'lecturer', post: '教学秘书' });
    }
    const n = mine ? 24 : 20;
    for (let i = 0; i < n; i++) {
      const sub = mine ? [i % 2 ? 'A01A04A02' : 'A01A04A01'] : [college];
      const category = i === 0 ? 'section_head' : i % 7 === 6 ? 'new_teacher' : 'teacher';
      const title = category === 'new_teacher' ? 'assistant' : pick(TITLES);
      add(sub, ['teacher'], { title, listenerCategory: category, post: category === 'section_head' ? '教研室主任' : '教师' });
    }
  }

  const hash = await hashPassword(DEMO_PASSWORD);
  const users = staff.map((u) => userRow(u, hash, ts));
  for (let i = 0; i < users.length; i += 200) await ctx.db.insertInto('sys_user').values(users.slice(i, i + 200)).onConflict((oc) => oc.column('username').doNothing()).execute();
  const all = [...staff, { ...DEMO_ACCOUNTS.find((a) => a.username === 'admin')!, identity: 2 as const }];
  const ud = all.flatMap((u) => u.departs.map((d) => ({ id: sha256(`ud|${u.username}|${d}`).slice(0, 32), user_id: userId(u.username), dep_id: departId(d) })));
  const ur = all.flatMap((u) => u.roles.map((r) => ({ id: sha256(`ur|${u.username}|${r}`).slice(0, 32), user_id: userId(u.username), role_id: roleId(r) })));
  await ctx.db.insertInto('sys_user_depart').values(ud).onConflict((oc) => oc.columns(['user_id', 'dep_id']).doNothing()).execute();
  await ctx.db.insertInto('sys_user_role').values(ur).onConflict((oc) => oc.columns(['user_id', 'role_id']).doNothing()).execute();
  await ctx.db.updateTable('sys_user').set({ org_code: QUALITY_CENTER }).where('username', '=', 'admin').where('org_code', 'is', null).execute();
}
