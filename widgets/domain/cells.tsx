/** Lecture report cells: a completion rate (0–1) as a percentage. */
export function RateCell({ value }: { value?: unknown }) {
  const n = Number(value);
  return <>{value === null || value === undefined || value === '' || !Number.isFinite(n) ? '' : `${Math.round(n * 1000) / 10}%`}</>;
}
