import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { SliderCheck } from '@app/components/SliderCheck';

describe('slider check (SPEC §4)', () => {
  it('released early it snaps back; dragged to full width it is verified', () => {
    const ok = vi.fn();
    render(<SliderCheck onSuccess={ok} width={300} />);
    const handle = screen.getByRole('slider', { name: '滑块验证' });
    fireEvent.pointerDown(handle, { clientX: 0, pointerId: 1 });
    fireEvent.pointerMove(handle, { clientX: 200, pointerId: 1 });
    expect(handle).toHaveAttribute('aria-valuenow', '200');
    fireEvent.pointerUp(handle, { clientX: 200, pointerId: 1 });
    expect(handle).toHaveAttribute('aria-valuenow', '0');
    expect(ok).not.toHaveBeenCalled();
    expect(screen.getByText('请按住滑块拖动')).toBeInTheDocument();

    fireEvent.pointerDown(handle, { clientX: 0, pointerId: 1 });
    fireEvent.pointerMove(handle, { clientX: 500, pointerId: 1 });
    fireEvent.pointerUp(handle, { clientX: 500, pointerId: 1 });
    expect(ok).toHaveBeenCalledTimes(1);
    expect(screen.getByText('验证通过')).toBeInTheDocument();
    expect(handle).toHaveAttribute('aria-valuenow', '260');
  });
});
