import { afterEach, describe, expect, it } from 'vitest';
import { Profiler } from 'react';
import { render, screen } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { MemoryRouter } from 'react-router-dom';
import type { InternalAxiosRequestConfig } from 'axios';
import { axiosInstance } from '@core/http/client';
import { putListGuess, clearPrefetch } from '@core/session/prefetch';
import { ListPage } from '@renderer/ListPage';
import { firstListRequest } from '@shared/list-request';
import type { PageSchema } from '@shared/page-schema';

let seen: InternalAxiosRequestConfig[] = [];
axiosInstance.defaults.adapter = async (config) => {
  seen.push(config);
  return { data: { success: true, code: 200, message: '', result: { records: [], total: 0 } }, status: 200, statusText: '', headers: {}, config };
};
afterEach(() => {
  seen = [];
  clearPrefetch();
});

describe('the list page’s first paint with a known first answer', () => {
  it('commits no more often than before the split, and asks nothing', async () => {
    const schema: PageSchema = {
      kind: 'list', title: 'R', resource: '/r', columns: [{ dataIndex: 'name', title: '名称', sorter: true }],
      query: { fields: [{ name: 'name', label: '名称' }] },
    };
    const answer = { success: true, code: 200, message: '', result: { records: [{ id: 'a', name: '第一行' }], total: 1 } };
    const req = firstListRequest(schema, '')!;
    putListGuess('t/R', '', req.url, req.params, async () => answer, answer);
    const commits: string[] = [];
    render(
      <MemoryRouter initialEntries={['/x']}>
        <AntApp>
          <Profiler id="list" onRender={(_id, phase) => commits.push(phase)}>
            <ListPage pageId="t/R" schema={schema} />
          </Profiler>
        </AntApp>
      </MemoryRouter>,
    );
    expect(screen.getByText('第一行')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 50));
    // Measured before the list page was split into its controller and views: the mount, the table's
    // measurement in a layout effect, one update after it. A split or a new hook must not add one.
    expect(commits.length).toBeLessThanOrEqual(3);
    expect(commits[0]).toBe('mount');
    expect(seen).toHaveLength(0);
  });
});
