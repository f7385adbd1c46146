import { describe, expect, it, vi } from 'vitest';
import { render, screen, fireEvent, waitFor } from '@testing-library/react';
import { App } from 'antd';
import FormModal from './FormModal';
import type { PageSchema } from './types';

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
  it('validates required fields, evaluates visibility over $values and disables in detail mode', async () => {
    const errors = vi.spyOn(console, 'error');
    const { unmount } = render(
      <App>
        <FormModal schema={schema} mode="add" onClose={() => undefined} onSaved={() => undefined} />
      </App>,
    );
    expect(await screen.findByText('新增')).toBeInTheDocument();
    await screen.findByText('名称');
    expect(screen.queryByText('附加')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('该字段是必填字段')).toBeInTheDocument();
    await waitFor(() => expect(errors).not.toHaveBeenCalled());
    unmount();
  });
});
