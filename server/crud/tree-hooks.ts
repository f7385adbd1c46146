import { BizError } from '../http/envelope.js';
import { allFields, columnOf, type EntitySchema } from './entity-types.js';
import type { EntityHooks } from './hooks.js';

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
/** A root's parent: empty or '0', as the tree dictionaries read them (dict-routes `treeLevel`). */
const isRoot = (pid: string) => !pid || pid === '0';

/** The parent and has-child columns an entity's `tree` declares. */
function treeColumns(e: EntitySchema) {
  const field = (name: string) => allFields(e).find((f) => f.name === name)!;
  return { parentField: e.tree!.parentField, parent: columnOf(field(e.tree!.parentField)), hasChild: columnOf(field(e.tree!.hasChildField!)) };
}

/**
 * Hooks of a tree entity whose `tree.hasChildField` holds '1' / '0': a saved row marks its parent as
 * having children; a node with children left outside the deleted rows cannot be deleted
 * (`childrenLeft` says so), and a parent whose last child goes is marked childless again.
 */
export function treeHooks(childrenLeft: string): EntityHooks {
  return {
    async afterSave(h, row) {
      const t = treeColumns(h.entity);
      const pid = str(row[t.parentField]);
      if (!isRoot(pid)) await h.db.updateTable(h.entity.table).set({ [t.hasChild]: '1' }).where('id', '=', pid).execute();
    },
    async beforeDelete(h, rows) {
      const t = treeColumns(h.entity);
      const table = h.entity.table;
      const ids = rows.map((r) => str(r.id));
      const child = await h.db.selectFrom(table).select('id').where(t.parent, 'in', ids).where('id', 'not in', ids).executeTakeFirst();
      if (child) throw new BizError(childrenLeft);
      const parents = [...new Set(rows.map((r) => str(r[t.parentField])).filter((p) => !isRoot(p) && !ids.includes(p)))];
      for (const p of parents) {
        const left = await h.db.selectFrom(table).select('id').where(t.parent, '=', p).where('id', 'not in', ids).executeTakeFirst();
        if (!left) await h.db.updateTable(table).set({ [t.hasChild]: '0' }).where('id', '=', p).execute();
      }
    },
  };
}
