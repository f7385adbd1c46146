import { afterEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { MemoryRouter } from 'react-router-dom';
import type { InternalAxiosRequestConfig } from 'axios';
import { axiosInstance } from '@core/http/client';
import { putListGuess, clearPrefetch } from '@core/session/prefetch';
import { ListPage } from '@renderer/ListPage';
import { firstListRequest } from '@shared/list-request';
import type { PageSchema } from '@shared/page-schema';
import { lazyWidget } from '@widgets/index';
import { registerWidget } from '@widgets/registry';

// Requests are answered here: one row per list call.
let seen: InternalAxiosRequestConfig[] = [];
axiosInstance.defaults.adapter = async (config) => {
  seen.push(config);
  return { data: { success: true, code: 200, message: '', result: { records: [{ id: 'r1', name: `行${seen.length}` }], total: 1 } }, status: 200, statusText: '', headers: {}, config };
};
afterEach(() => {
  seen = [];
  clearPrefetch();
});

const withoutT = (p: Record<string, unknown> | undefined) => Object.fromEntries(Object.entries(p ?? {}).filter(([k]) => k !== '_t'));
const draw = (schema: PageSchema, search: string) =>
  render(
    <MemoryRouter initialEntries={[`/x${search}`]}>
      <AntApp>
        <ListPage pageId="t/List" schema={schema} />
      </AntApp>
    </MemoryRouter>,
  );

const schemas: Array<[string, PageSchema, string]> = [
  ['a plain list, page size from the URL', { kind: 'list', title: 'A', resource: '/a', columns: [{ dataIndex: 'name', title: '名称' }], pageSizes: [10, 50] }, '?pageSize=50'],
  [
    'query defaults, urlParams and a default sort',
    {
      kind: 'list', title: 'B', api: { list: '/b/list' }, urlParams: ['termId'], defaultSort: { column: 'name', order: 'asc' }, pageSize: 20,
      columns: [{ dataIndex: 'name', title: '名称' }],
      query: { fields: [{ name: 'name', label: '名称', default: '王' }, { name: 'status', label: '状态', widget: 'Select', options: [{ label: '是', value: '1' }], default: '1' }] },
    },
    '?termId=T1&other=x&pageSize=7',
  ],
  ['a tree list shows its roots', { kind: 'tree-list', title: 'C', resource: '/c', columns: [{ dataIndex: 'name', title: '名称' }], tree: { parentField: 'parentId', root: 'R' } }, ''],
];

describe('the first list request started before the page renders (renderer/warm.ts)', () => {
  it.each(schemas)('equals the list page’s own first request: %s', async (_name, schema, search) => {
    draw(schema, search);
    await screen.findByText('行1');
    const expected = firstListRequest(schema, search)!;
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe(expected.url);
    expect(withoutT(seen[0]!.params)).toEqual(expected.params);
  });

  it('is used by the page instead of a new request when it is exactly that request', async () => {
    const [, schema, search] = schemas[1]!;
    const req = firstListRequest(schema, search)!;
    putListGuess('t/List', search, req.url, req.params, async () => ({ success: true, code: 200, message: '', result: { records: [{ id: 'e', name: '早到的行' }], total: 1 } }));
    draw(schema, search);
    await screen.findByText('早到的行');
    expect(seen).toHaveLength(0);
  });

  it('is not used for another request (a different URL search)', async () => {
    const [, schema, search] = schemas[1]!;
    const req = firstListRequest(schema, search)!;
    putListGuess('t/List', search, req.url, req.params, async () => ({ success: true, code: 200, message: '', result: { records: [{ id: 'e', name: '早到的行' }], total: 1 } }));
    draw(schema, '?termId=T2');
    await screen.findByText('行1');
    expect(screen.queryByText('早到的行')).toBeNull();
  });

  it('falls back to a normal request when the early one failed (resolved to undefined)', async () => {
    const [, schema, search] = schemas[0]!;
    const req = firstListRequest(schema, search)!;
    putListGuess('t/List', search, req.url, req.params, async () => undefined);
    draw(schema, search);
    await screen.findByText('行1');
    expect(seen).toHaveLength(1);
  });
});

describe('a first answer already at hand (it came with the route answer of a direct visit)', () => {
  const answer = { success: true, code: 200, message: '', result: { records: [{ id: 'k', name: '随路由到的行', hasChild: '1' }, { id: 'k2', name: '第二行' }], total: 42 } };
  const known = (schema: PageSchema, search: string) => {
    const req = firstListRequest(schema, search)!;
    putListGuess('t/List', search, req.url, req.params, async () => answer, answer);
  };

  it('is drawn in the page’s first render, with its total, and nothing is asked', () => {
    const [, schema, search] = schemas[1]!;
    known(schema, search);
    draw(schema, search);
    // Synchronously after the first render: no effect, no request, no second render needed.
    expect(screen.getByText('随路由到的行')).toBeTruthy();
    expect(screen.getByText('第二行')).toBeTruthy();
    expect(screen.getByText(/共42条/)).toBeTruthy();
    expect(seen).toHaveLength(0);
  });

  it('a tree list marks its known rows like fetched ones; another request (URL search) is not drawn from it', async () => {
    const [, tree] = schemas[2]!;
    known(tree, '');
    const { container, unmount } = draw(tree, '');
    expect(screen.getByText('随路由到的行')).toBeTruthy();
    // The row with children can be expanded, the other cannot.
    expect(container.querySelectorAll('.ant-table-row-expand-icon-collapsed')).toHaveLength(1);
    unmount();
    const [, schema, search] = schemas[1]!;
    known(schema, search);
    draw(schema, '?termId=T2');
    await screen.findByText('行1');
    expect(seen).toHaveLength(1);
  });
});

describe('a list page with a `header` widget', () => {
  it('shows its rows together with the header, once the header’s code has arrived: the rows never move down under the pointer', async () => {
    let arrive!: () => void;
    const code = new Promise<void>((r) => (arrive = r));
    registerWidget('TestHeader', lazyWidget(async () => (await code, { TestHeader: () => <div>页头</div> }), 'TestHeader'));
    const schema: PageSchema = { kind: 'list', title: 'H', resource: '/h', columns: [{ dataIndex: 'name', title: '名称' }], header: { widget: 'TestHeader' } };
    draw(schema, '');
    await waitFor(() => expect(seen).toHaveLength(1)); // the list has been asked for …
    await new Promise((r) => setTimeout(r, 50)); // … and answered
    expect(screen.queryByText('行1')).toBeNull();
    arrive();
    await screen.findByText('行1');
    expect(screen.getByText('页头')).toBeTruthy();
  });
});
