import { describe, expect, it, vi } from 'vitest';
import type { useAppProps } from 'antd/es/app/context';
import { feedback, setFeedback, whenFeedback } from './feedback';

describe('feedback from outside React', () => {
  it('holds what is shown before <App> has rendered (a 401 answering the boot) and shows it after that render, once', async () => {
    const error = vi.fn();
    whenFeedback(() => feedback.modal.error({ title: '登录已过期' }));
    expect(error).not.toHaveBeenCalled();
    const api = { message: {}, notification: {}, modal: { error } } as unknown as useAppProps;
    setFeedback(api);
    expect(error).not.toHaveBeenCalled();
    await new Promise((r) => setTimeout(r, 0));
    expect(error).toHaveBeenCalledTimes(1);
    setFeedback(api);
    await new Promise((r) => setTimeout(r, 0));
    expect(error).toHaveBeenCalledTimes(1);
    whenFeedback(() => feedback.modal.error({ title: 'now' }));
    expect(error).toHaveBeenCalledTimes(2);
  });
});
