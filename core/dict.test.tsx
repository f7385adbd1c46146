import { describe, expect, it } from 'vitest';
import { renderHook, waitFor } from '@testing-library/react';
import { getDefaultStore } from 'jotai';
import { axiosInstance } from '@core/http/client';
import { dictAtom } from '@core/session/store';
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

  /** Runs `fn` with every request answered `items`, an empty session cache; returns the URLs asked for. */
  async function answering(items: Array<{ value: string; text: string }>, fn: () => Promise<void>): Promise<string[]> {
    const asked: string[] = [];
    const adapter = axiosInstance.defaults.adapter;
    axiosInstance.defaults.adapter = async (config) => {
      asked.push(String(config.url));
      return { data: { success: true, code: 200, message: '', result: items }, status: 200, statusText: 'OK', headers: {}, config };
    };
    try {
      getDefaultStore().set(dictAtom, {});
      await fn();
      return asked;
    } finally {
      axiosInstance.defaults.adapter = adapter;
    }
  }

  it('loads a dictionary not at hand, and has it in the first render next time', async () => {
    const items = [{ value: 'a', text: '甲' }];
    const asked = await answering(items, async () => {
      const first = renderHook(() => useDicts(['kind']));
      expect(first.result.current.kind).toBeUndefined();
      await waitFor(() => expect(first.result.current.kind).toEqual(items));
      const again = renderHook(() => useDicts(['kind']));
      expect(again.result.current.kind).toEqual(items);
    });
    expect(asked).toEqual(['/sys/dict/getDictItems/kind']);
  });

  it('loads a table dictionary, whose code has commas, as one dictionary', async () => {
    const items = [{ value: 't1', text: '2026-2027学年第一学期' }];
    const asked = await answering(items, async () => {
      const { result } = renderHook(() => useDicts(['sup_term,name,id', 'sex_t']));
      await waitFor(() => expect(result.current['sup_term,name,id']).toEqual(items));
    });
    expect(asked.sort()).toEqual(['/sys/dict/getDictItems/sex_t', `/sys/dict/getDictItems/${encodeURIComponent('sup_term,name,id')}`]);
  });
});
