import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';

/** One measured figure with its budget; `lowerIsBetter` unless stated. */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  budget?: number;
  higherIsBetter?: boolean;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function summarize(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99), n: s.length };
}

export const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);

export function overBudget(f: Figure): boolean {
  if (f.budget === undefined || Number.isNaN(f.value)) return Number.isNaN(f.value);
  return f.higherIsBetter ? f.value < f.budget : f.value > f.budget;
}

export function machine(): string {
  const c = cpus();
  return `${c.length} × ${c[0]?.model.trim() ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)}`;
}

/** Prints figures next to budgets, records them in bench/RESULTS.md, and returns whether all are within budget. */
export function report(suite: string, figures: Figure[]): boolean {
  const rows = figures.map((f) => {
    const bad = overBudget(f);
    const budget = f.budget === undefined ? '—' : `${f.higherIsBetter ? '≥' : '≤'} ${f.budget} ${f.unit}`;
    return { line: `| ${f.name} | ${round(f.value)} ${f.unit} | ${budget} | ${bad ? 'OVER' : 'ok'} |`, bad };
  });
  const table = ['| figure | value | budget | verdict |', '|---|---|---|---|', ...rows.map((r) => r.line)].join('\n');
  console.log(`\n## ${suite}\n${table}\n`);
  const file = join(import.meta.dirname, 'RESULTS.md');
  const section = `## ${suite}\n\n_${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · ${machine()}_\n\n${table}\n`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n\nLatest figures of `npm run bench`, per suite.\n';
  const re = new RegExp(`## ${suite.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n[\\s\\S]*?(?=\\n## |$)`);
  writeFileSync(file, re.test(current) ? current.replace(re, section) : `${current.trimEnd()}\n\n${section}`);
  return rows.every((r) => !r.bad);
}

const round = (v: number) => (Math.abs(v) >= 100 ? Math.round(v) : Math.round(v * 100) / 100);

export function log(msg: string) {
  appendFileSync('/dev/stderr', `${msg}\n`);
}

/**
 * CPU time so far (ms, user + system) of Chromium's processes by kind (browser, renderer, gpu-process,
 * network, …) and of the product's servers (`server`), read from /proc (Linux). Differences between two
 * readings tell what a navigation cost the whole machine, not only the page's main thread.
 */
export function processCpu(): Map<string, number> {
  const tick = 1000 / 100; // USER_HZ
  const byKind = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const kind = cmd.includes('chromium')
        ? cmd.includes('--utility-sub-type=network') ? 'network' : (cmd.match(/--type=([a-z-]+)/)?.[1] ?? 'browser')
        : cmd.includes('server/main.ts') ? 'server' : '';
      if (!kind) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      byKind.set(kind, (byKind.get(kind) ?? 0) + (Number(stat[11]) + Number(stat[12])) * tick);
    } catch {
      // the process ended while being read
    }
  }
  return byKind;
}

/**
 * CPU time of the renderer's main thread in a trace (thread time of its top-level events): unlike
 * wall-clock time it barely moves when other processes compete for the cores.
 */
export function mainThreadCpuMs(trace: Buffer): number {
  type Ev = { name: string; ph: string; ts: number; dur?: number; tdur?: number; tid: number; pid: number; args?: { name?: string; data?: { url?: string; frames?: Array<{ processId: number; url: string }> } } };
  const ev = (JSON.parse(trace.toString()) as { traceEvents: Ev[] }).traceEvents;
  // The main thread of every renderer that showed the page when the trace started or loaded its resources during it
  // (a navigation may move to a new renderer process), not the browser's own WebUI renderers (chrome:// pages),
  // which a trace records as well.
  const web = (url = '') => /^https?:/.test(url);
  const pagePids = new Set([
    ...ev.filter((e) => e.name === 'ResourceSendRequest' && web(e.args?.data?.url)).map((e) => e.pid),
    ...ev.flatMap((e) => (e.name === 'TracingStartedInBrowser' ? (e.args?.data?.frames ?? []) : [])).filter((f) => web(f.url)).map((f) => f.processId),
  ]);
  const mains = ev.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && pagePids.has(e.pid));
  if (!mains.length) throw new Error('no renderer main thread of the page in the trace');
  let cpu = 0;
  for (const main of mains) {
    let end = 0; // top-level events only: nested ones are inside their parent's thread time
    for (const e of ev.filter((x) => x.pid === main.pid && x.tid === main.tid && x.ph === 'X' && x.dur).sort((a, b) => a.ts - b.ts)) {
      if (e.ts < end) continue;
      cpu += e.tdur ?? 0;
      end = e.ts + e.dur!;
    }
  }
  return cpu / 1000;
}
