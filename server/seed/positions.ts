import type { ServerContext } from '../context.js';
import { now, sha256 } from '../util.js';

/** The university's usual posts (职务), for the position picker. */
const POSITIONS: Array<[code: string, name: string, rank: string]> = [
  ['president', '校长', '1'], ['vice_president', '副校长', '1'], ['dean', '院长', '2'], ['vice_dean', '副院长', '2'],
  ['office_director', '处长', '2'], ['section_head', '教研室主任', '3'], ['supervisor', '教学督导', '3'], ['secretary', '教学秘书', '4'], ['teacher', '专任教师', '4'],
];

export async function seedPositions(ctx: ServerContext): Promise<void> {
  await ctx.db
    .insertInto('sys_position')
    .values(POSITIONS.map(([code, name, rank]) => ({ id: sha256(`position|${code}`).slice(0, 32), code, name, post_rank: rank, tenant_id: 0, create_by: 'system', create_time: now() })))
    .onConflict((oc) => oc.column('code').doNothing())
    .execute();
}
