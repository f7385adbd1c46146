import { useEffect, useMemo, useRef, useState } from 'react';
import { Select, Spin } from 'antd';
import { http } from '@core/http/client';
import { useDictOptions, type DictOption } from './useDictOptions';

export const SEARCH_DEBOUNCE_MS = 300;
export const ASYNC_DEBOUNCE_MS = 800;
export const ASYNC_PAGE_SIZE = 10;

export interface JSearchSelectTagProps {
  value?: string;
  onChange?: (v: string | undefined) => void;
  /** A system dictionary code (local filtering), or `table,text,code` with `async` (remote search). */
  dict?: string;
  dictOptions?: DictOption[];
  /** Remote search through /sys/dict/loadDict (800 ms debounce, page size 10). */
  async?: boolean;
  placeholder?: string;
  disabled?: boolean;
  /** Override of the debounce (remote dictionary search in tables uses 300 ms). */
  debounceMs?: number;
  /** Remote search other than the dictionary's (e.g. JSearchUser); also asked for the current value's text. */
  fetchOptions?: (keyword: string) => Promise<DictOption[]>;
}

const dictSearch = (dict: string) => async (keyword: string) => {
  const r = await http.signedGet<DictOption[]>(`/sys/dict/loadDict/${encodeURIComponent(dict)}`, { keyword, pageSize: ASYNC_PAGE_SIZE });
  return r.success && Array.isArray(r.result) ? r.result.map((d) => ({ value: String(d.value), text: d.text })) : [];
};

/** Search select over a dictionary; the remote variant keeps only the latest answer. */
export function JSearchSelectTag({ value, onChange, dict, dictOptions, async: asyncProp, placeholder, disabled, debounceMs, fetchOptions }: JSearchSelectTagProps) {
  const async = asyncProp || !!fetchOptions;
  const fetcher = fetchOptions ?? (async && dict ? dictSearch(dict) : undefined);
  const local = useDictOptions(async ? undefined : dict, async ? [] : dictOptions);
  const [remote, setRemote] = useState<DictOption[]>([]);
  const [loading, setLoading] = useState(false);
  const [keyword, setKeyword] = useState('');
  const seq = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const wait = debounceMs ?? (async ? ASYNC_DEBOUNCE_MS : SEARCH_DEBOUNCE_MS);

  const search = (kw: string) => {
    setKeyword(kw);
    if (!fetcher) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const mine = ++seq.current;
      setLoading(true);
      void fetcher(kw)
        .then((found) => {
          if (mine !== seq.current) return; // only the latest answer is used
          setRemote(found);
        })
        .catch(() => mine === seq.current && setRemote([]))
        .finally(() => mine === seq.current && setLoading(false));
    }, wait);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  // Show the current value's text before any search.
  useEffect(() => {
    if (fetcher && value && !remote.some((d) => d.value === value)) search(String(value));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [async, dict, value]);

  const items = async ? remote : local.items;
  const notFound = useMemo(() => {
    if (loading) return <Spin size="small" tip="加载中…"><span style={{ display: 'inline-block', padding: 8 }}>加载中…</span></Spin>;
    if (async && !keyword) return '请输入搜索内容';
    return '没有查询到任何数据';
  }, [loading, async, keyword]);

  return (
    <Select
      showSearch
      allowClear
      value={value || undefined}
      disabled={disabled}
      placeholder={placeholder ?? (async ? '请输入搜索内容' : '请选择')}
      style={{ width: '100%' }}
      filterOption={async ? false : (input, opt) => String(opt?.label ?? '').toLowerCase().includes(input.toLowerCase())}
      onSearch={search}
      notFoundContent={notFound}
      options={items.map((d) => ({ value: d.value, label: d.text }))}
      onChange={(v) => onChange?.(v ?? undefined)}
    />
  );
}

export default JSearchSelectTag;
