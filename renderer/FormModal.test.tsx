import { describe, expect, it, vi } from 'vitest';
import { render, screen, fireEvent, waitFor } from '@testing-library/react';
import { App } from 'antd';
import FormModal from './FormModal';
import type { PageSchema } from '@shared/page-schema';

const schema: PageSchema = {
  kind: 'list',
  title: '测试',
  resource: '/demo/x',
  form: {
    fields: [
      { name: 'name', label: '名称', required: true },
      { name: 'kind', label: '类型', options: [{ label: '甲', value: '1' }, { label: '乙', value: '2' }] },
      { name: 'extra', label: '附加', visible: "{{ $values.kind === '2' }}" },
      { name: 'code', label: '编号', disabled: "{{ $mode !== 'add' }}" },
    ],
  },
};

describe('FormModal', () => {
  it('validates required fields and hides fields whose visibility expression is false', async () => {
    const errors = vi.spyOn(console, 'error');
    const { unmount } = render(
      <App>
        <FormModal schema={schema} mode="add" onClose={() => undefined} onSaved={() => undefined} />
      </App>,
    );
    expect(await screen.findByText('新增测试')).toBeInTheDocument();
    await screen.findByText('名称');
    expect(screen.queryByText('附加')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('该字段是必填字段')).toBeInTheDocument();
    await waitFor(() => expect(errors).not.toHaveBeenCalled());
    unmount();
  });

  it('edit mode evaluates disabled over $mode and shows linked fields from the record; detail mode disables everything', async () => {
    const record = { id: '1', name: '甲', kind: 2, code: 'C1', extra: 'x' };
    const edit = render(
      <App>
        <FormModal schema={schema} mode="edit" record={record} onClose={() => undefined} onSaved={() => undefined} />
      </App>,
    );
    expect(await screen.findByText('编辑测试')).toBeInTheDocument();
    // kind 2 (a number from the server) matches the dictionary option "2": the linked field shows.
    expect(await screen.findByText('附加')).toBeInTheDocument();
    expect(screen.getByLabelText('编号')).toBeDisabled();
    expect(screen.getByLabelText('名称')).not.toBeDisabled();
    edit.unmount();
    render(
      <App>
        <FormModal schema={schema} mode="detail" record={record} onClose={() => undefined} onSaved={() => undefined} />
      </App>,
    );
    expect(await screen.findByText('测试详情')).toBeInTheDocument();
    expect(await screen.findByLabelText('名称')).toBeDisabled();
    expect(screen.getByRole('button', { name: /确\s*定/ })).toBeDisabled();
  });
});
