import type { ServerContext } from '../context.js';
import type { DB } from '../db/index.js';
import { notifyUsers } from '../sys/notify.js';
import { newId, now } from '../util.js';

export interface DomainNotice {
  title: string;
  content: string;
  /** Business type and id, so the message can open the record or task. */
  busType: 'lecture_record' | 'imp_task' | 'imp_subtask' | 'lab_reservation';
  busId: string;
  sender: string;
  /** Where the notice's button leads (a screen with `?open=<id>`); by default the business type's own screen. */
  openPage?: string;
}

/** The screen that opens a record of each business type (`?open=<id>`: the list opens that row's detail). */
const TARGET: Record<DomainNotice['busType'], string> = {
  lecture_record: '/supervisor/lectureRecord', imp_task: '/improvement/task', imp_subtask: '/improvement/subtask', lab_reservation: '/lab/reservation',
};
export const targetOf = (busType: DomainNotice['busType'], id: string, path = TARGET[busType]) => `${path}?open=${encodeURIComponent(id)}`;

/**
 * Notifies users of a domain event: a system message in the announcement tables (read through the
 * header's message list), then a websocket push once the transaction has committed.
 * Returns the push to run after commit (a push before commit could announce something rolled back).
 */
export async function notifyDomain(ctx: ServerContext, db: DB, userIds: string[], n: DomainNotice): Promise<() => Promise<void>> {
  const to = [...new Set(userIds.filter(Boolean))];
  if (!to.length || !ctx.entities.byTable.has('sys_announcement') || !ctx.entities.byTable.has('sys_announcement_send')) return async () => undefined;
  const id = newId();
  const t = now();
  await db
    .insertInto('sys_announcement')
    .values({
      id, titile: n.title.slice(0, 100), msg_content: n.content, msg_abstract: n.content.slice(0, 200), sender: n.sender, priority: 'M',
      msg_category: '2', msg_type: 'USER', send_status: '1', send_time: t, start_time: t, del_flag: '0', user_ids: to.join(',') + ',',
      bus_type: n.busType, bus_id: n.busId, open_type: 'url', open_page: n.openPage ?? targetOf(n.busType, n.busId), tenant_id: 0, create_by: n.sender, create_time: t,
    })
    .execute();
  await db.insertInto('sys_announcement_send').values(to.map((u) => ({ id: newId(), annt_id: id, user_id: u, read_flag: '0' }))).execute();
  return async () => {
    await notifyUsers(ctx, to, { cmd: 'user', msgId: id, msgTxt: n.title }).catch(() => undefined);
  };
}
