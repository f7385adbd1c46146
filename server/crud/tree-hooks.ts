import { BizError } from '../http/envelope.js';
import type { EntityHooks } from './hooks.js';

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/**
 * Hooks of a tree table whose rows carry a has-child flag ('1' / '0'): a saved row marks its parent
 * as having children; a node with children left outside the deleted rows cannot be deleted, and a
 * parent whose last child goes is marked childless again. Columns are database names.
 */
export function treeHooks(o: { table: string; parent: string; hasChild: string; root: string; childrenLeft: string }): EntityHooks {
  const isRoot = (pid: string) => !pid || pid === o.root;
  return {
    async afterSave(h, row) {
      const pid = str(row[camel(o.parent)]);
      if (!isRoot(pid)) await h.db.updateTable(o.table).set({ [o.hasChild]: '1' }).where('id', '=', pid).execute();
    },
    async beforeDelete(h, rows) {
      const ids = rows.map((r) => str(r.id));
      const child = await h.db.selectFrom(o.table).select('id').where(o.parent, 'in', ids).where('id', 'not in', ids).executeTakeFirst();
      if (child) throw new BizError(o.childrenLeft);
      const parents = [...new Set(rows.map((r) => str(r[camel(o.parent)])).filter((p) => !isRoot(p) && !ids.includes(p)))];
      for (const p of parents) {
        const left = await h.db.selectFrom(o.table).select('id').where(o.parent, '=', p).where('id', 'not in', ids).executeTakeFirst();
        if (!left) await h.db.updateTable(o.table).set({ [o.hasChild]: '0' }).where('id', '=', p).execute();
      }
    },
  };
}

const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
