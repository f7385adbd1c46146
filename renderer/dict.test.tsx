import { describe, expect, it } from 'vitest';
import { renderHook, waitFor } from '@testing-library/react';
import { getDefaultStore } from 'jotai';
import { axiosInstance } from '@/http/client';
import { dictAtom } from '@/session/store';
import { useDicts } from './dict';

describe('useDicts', () => {
  it('has dictionaries of the session cache in the first render, and renders once', async () => {
    getDefaultStore().set(dictAtom, { sex: [{ value: '1', text: '男' }, { value: '2', text: '女' }] });
    let renders = 0;
    const { result } = renderHook(() => {
      renders++;
      return useDicts(['sex']);
    });
    expect(result.current.sex).toEqual([{ value: '1', text: '男' }, { value: '2', text: '女' }]);
    await new Promise((r) => setTimeout(r, 20));
    expect(renders).toBe(1);
  });

  it('loads a dictionary not at hand, and has it in the first render next time', async () => {
    const asked: string[] = [];
    const adapter = axiosInstance.defaults.adapter;
    axiosInstance.defaults.adapter = async (config) => {
      asked.push(String(config.url));
      return { data: { success: true, code: 200, message: '', result: [{ value: 'a', text: '甲' }] }, status: 200, statusText: 'OK', headers: {}, config };
    };
    try {
      getDefaultStore().set(dictAtom, {});
      const first = renderHook(() => useDicts(['kind']));
      expect(first.result.current.kind).toBeUndefined();
      await waitFor(() => expect(first.result.current.kind).toEqual([{ value: 'a', text: '甲' }]));
      const again = renderHook(() => useDicts(['kind']));
      expect(again.result.current.kind).toEqual([{ value: 'a', text: '甲' }]);
      expect(asked).toEqual(['/sys/dict/getDictItems/kind']);
    } finally {
      axiosInstance.defaults.adapter = adapter;
    }
  });
});
