import { useMemo } from 'react';
import { Button, Space } from 'antd';
import type { ActionSchema, PageSchema } from '@shared/page-schema';
import { condition } from '@shared/expr';
import { filterActions } from './permissions';
import { useSessionScope } from './scope';
import { useActionRunner } from './useActions';

type Row = Record<string, unknown>;

/**
 * Buttons of a page that is not a list (a result page's `extra`, a form page section's `actions`):
 * filtered by the user's permissions and their `visible` / `disabled` conditions, run through the action
 * registry with the page's record and bound parameters. An action without a type and with a `url` is a
 * plain link.
 */
export function PageActions({ pageId, schema, actions, record, params, reload }: {
  pageId: string;
  schema: PageSchema;
  actions: ActionSchema[];
  record?: Row;
  params?: Record<string, unknown>;
  reload?: () => void;
}) {
  const { scope, perms } = useSessionScope();
  const shown = useMemo(
    () => filterActions(actions, perms, { prefix: schema.permission, cond: (v) => condition(v, { ...scope, $record: record ?? {} }) }),
    [actions, perms, schema.permission, scope, record],
  );
  const { run, dialogs } = useActionRunner(() => ({
    pageId,
    schema,
    selected: [],
    rowKey: schema.rowKey ?? 'id',
    params: params ?? {},
    listParams: () => ({}),
    reload: reload ?? (() => undefined),
    openForm: () => undefined,
    remove: async () => undefined,
  }));
  if (!shown.length) return null;
  return (
    <>
      <Space wrap>
        {shown.map((a) =>
          !a.type && a.url ? (
            <Button key={a.key} type={a.primary ? 'primary' : 'default'} danger={a.danger} href={a.url}>
              {a.label}
            </Button>
          ) : (
            <Button key={a.key} type={a.primary ? 'primary' : 'default'} danger={a.danger} disabled={a.denied} onClick={() => void run(a, record)}>
              {a.label}
            </Button>
          ),
        )}
      </Space>
      {dialogs}
    </>
  );
}
