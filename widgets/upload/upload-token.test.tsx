import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/react';
import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import { getDefaultStore } from 'jotai';
import { axiosInstance } from '@core/http/client';
import { tokenAtom } from '@core/session/store';
import { JUpload } from './JUpload';

/** The upload `token` flag: the X-Access-Token header goes with the upload only when the flag is on (default). */
const seen: InternalAxiosRequestConfig[] = [];
const adapter: AxiosAdapter = async (config) => {
  seen.push(config);
  return { data: { success: true, message: 'demo/a.txt', code: 200, result: null }, status: 200, statusText: 'OK', headers: {}, config };
};
let saved: typeof axiosInstance.defaults.adapter;
beforeAll(() => {
  saved = axiosInstance.defaults.adapter;
  axiosInstance.defaults.adapter = adapter;
  getDefaultStore().set(tokenAtom, 'tok-123');
});
afterAll(() => {
  axiosInstance.defaults.adapter = saved;
  getDefaultStore().set(tokenAtom, '');
});
afterEach(() => {
  seen.length = 0;
});

async function upload(token?: boolean) {
  const onChange = vi.fn();
  const { container } = render(<JUpload onChange={onChange} bizPath="demo" token={token} />);
  const input = container.querySelector('input[type=file]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [new File(['x'], 'a.txt', { type: 'text/plain' })] } });
  await waitFor(() => expect(onChange).toHaveBeenCalledWith('demo/a.txt'));
  expect(seen).toHaveLength(1);
  return seen[0]!;
}

describe('upload token flag', () => {
  it('sends X-Access-Token by default', async () => {
    const c = await upload();
    expect(c.url).toBe('/sys/common/upload');
    expect(c.headers.get('X-Access-Token')).toBe('tok-123');
    expect(c.headers.get('tenant-id')).toBe('0');
  });
  it('token={false}: no X-Access-Token header, the other headers stay', async () => {
    const c = await upload(false);
    expect(c.headers.has('X-Access-Token')).toBe(false);
    expect(c.headers.get('tenant-id')).toBe('0');
  });
});
