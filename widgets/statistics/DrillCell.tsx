import { useNavigate } from 'react-router-dom';
import { useListQuery } from '@core/listQuery';

/**
 * A number that opens the records behind it (column widget `cell:drill`). `url` takes `{field}`
 * placeholders from the row; `keep` names the list's current query parameters appended to it
 * (e.g. `["termId", "departId"]`), so the drill-down counts what the row counts. 0 is plain text.
 */
export function DrillCell({ value, record, url, keep = ['termId'] }: { value?: unknown; record: Record<string, unknown>; url?: string; keep?: string[] }) {
  const navigate = useNavigate();
  const query = useListQuery();
  const text = value === null || value === undefined ? '' : String(value);
  if (!url || !text || Number(value) === 0) return <>{text}</>;
  const to = drillUrl(url, record, query, keep);
  return (
    <a className="stat-drill" href={to} onClick={(e) => (e.preventDefault(), navigate(to))}>
      {text}
    </a>
  );
}

/** `url` with `{field}` filled from `record` and the `keep` parameters of `query` appended (URI-encoded). */
export function drillUrl(url: string, record: Record<string, unknown>, query: Record<string, unknown>, keep: string[]): string {
  const base = url.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(String(record[k] ?? '')));
  const extra = keep.filter((k) => query[k] !== undefined && query[k] !== null && query[k] !== '').map((k) => `${k}=${encodeURIComponent(String(query[k]))}`);
  return extra.length ? `${base}${base.includes('?') ? '&' : '?'}${extra.join('&')}` : base;
}
