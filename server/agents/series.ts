import type { Sample } from "./protocol";
import type { SeriesValues } from "./tables";

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
