import type { Sample } from "./protocol";
import type { AgentSeries, SeriesRange } from "./public";
import type { Resolution, RollupRow } from "./store";
import type { SeriesValues } from "./tables";

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** What each chart range reads: raw samples for 1 h, minute rollups for 24 h, hour rollups beyond. */
export const SERIES_RANGES: Record<SeriesRange, { span: number; resolution: Resolution; step: number }> = {
  "1h": { span: HOUR, resolution: "raw", step: 0 },
  "24h": { span: 24 * HOUR, resolution: "minute", step: MINUTE },
  "7d": { span: 7 * 24 * HOUR, resolution: "hour", step: HOUR },
  "30d": { span: 30 * 24 * HOUR, resolution: "hour", step: HOUR },
};

/** Flattens a sample into its series: percentages, load, and bytes per second per interface. */
export function sampleToSeries(s: Sample): SeriesValues {
  const values: SeriesValues = {
    cpu: s.cpu.usage,
    memory: s.memory.usageRate,
    load1: s.load.one,
    load5: s.load.five,
    load15: s.load.fifteen,
  };
  for (const d of s.disks) values[`disk:${d.mountPoint}`] = d.usageRate;
  for (const n of s.network) {
    values[`rx:${n.name}`] = n.rxRate;
    values[`tx:${n.name}`] = n.txRate;
  }
  return values;
}

/**
 * Average and maximum of each series over a bucket's rows (raw samples have avg = max = the value). A series absent
 * from some rows (a disk mounted halfway through) averages over the rows that have it.
 */
export function rollUp(rows: { avg: SeriesValues; max: SeriesValues }[]): { avg: SeriesValues; max: SeriesValues } {
  const sum: Record<string, number> = {};
  const count: Record<string, number> = {};
  const max: SeriesValues = {};
  for (const row of rows) {
    for (const [key, v] of Object.entries(row.avg)) {
      sum[key] = (sum[key] ?? 0) + v;
      count[key] = (count[key] ?? 0) + 1;
    }
    for (const [key, v] of Object.entries(row.max)) max[key] = Math.max(max[key] ?? -Infinity, v);
  }
  const avg: SeriesValues = {};
  for (const key of Object.keys(sum)) avg[key] = Math.round((sum[key] / count[key]) * 1000) / 1000;
  return { avg, max };
}

/**
 * Columnar series with a null point wherever the data has a hole, so charts show the gap instead of a line across it.
 * A hole is more than 3 times the expected spacing: the agent's interval, or the bucket length when that is longer
 * (an agent reporting every 5 minutes fills only every fifth minute bucket, and that is not a hole).
 */
export function buildSeries(range: SeriesRange, rows: RollupRow[], intervalMs: number, window: { from: number; to: number }): AgentSeries {
  const { step } = SERIES_RANGES[range];
  const gap = 3 * Math.max(step, intervalMs);
  const keys = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r.avg)) keys.add(k);
  const out: AgentSeries = { range, step, from: window.from, to: window.to, times: [], avg: {}, max: {} };
  for (const k of keys) {
    out.avg[k] = [];
    out.max[k] = [];
  }
  let prev: number | undefined;
  for (const r of rows) {
    if (prev !== undefined && r.time - prev > gap) {
      out.times.push(prev + 1);
      for (const k of keys) {
        out.avg[k].push(null);
        out.max[k].push(null);
      }
    }
    out.times.push(r.time);
    for (const k of keys) {
      out.avg[k].push(r.avg[k] ?? null);
      out.max[k].push(r.max[k] ?? null);
    }
    prev = r.time;
  }
  return out;
}
