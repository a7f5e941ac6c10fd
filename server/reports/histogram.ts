// Response-time histograms kept with the rollups, so percentiles of any range (a year included) come from the same
// rows as the charts. Bins grow by 10 %: bin = floor(ln(ms + 1) / ln(1.1)), so a steady service fills a handful of
// bins (a few dozen bytes a row) and a percentile read back is within 5 % of the true one (the bin's midpoint, kept
// inside the range's min and max). A rollup stores {bin: count} as JSON text on both engines.
import { sql, type SQL } from "drizzle-orm";
import type { Engine } from "../db/database";

const LN_RATIO = Math.log(1.1);

export type Histogram = Map<number, number>;

export const binOf = (ms: number) => Math.floor(Math.log(Math.max(0, ms) + 1) / LN_RATIO);

/** The smallest whole millisecond value in `bin`. */
function binFloor(bin: number): number {
  let ms = Math.max(0, Math.ceil(Math.exp(bin * LN_RATIO) - 1));
  while (binOf(ms) < bin) ms++;
  while (ms > 0 && binOf(ms - 1) >= bin) ms--;
  return ms;
}

/** The bin's representative value: the middle of the whole milliseconds it holds. */
export function binValue(bin: number): number {
  const lo = binFloor(bin);
  const hi = Math.max(lo, binFloor(bin + 1) - 1);
  return Math.round((lo + hi) / 2);
}

/** Adds a stored histogram (JSON text or an object, as the engines return it) into `into`. */
export function addHistogram(into: Histogram, stored: string | Record<string, number> | null | undefined): Histogram {
  if (stored == null) return into;
  const counts = typeof stored === "string" ? (JSON.parse(stored) as Record<string, number>) : stored;
  for (const [bin, n] of Object.entries(counts)) into.set(Number(bin), (into.get(Number(bin)) ?? 0) + Number(n));
  return into;
}

export function histogramOf(values: readonly number[]): Histogram {
  const h: Histogram = new Map();
  for (const v of values) h.set(binOf(v), (h.get(binOf(v)) ?? 0) + 1);
  return h;
}

export const histogramCount = (h: Histogram) => [...h.values()].reduce((a, b) => a + b, 0);

/**
 * The q-quantile (0 < q ≤ 1, nearest rank) of the histogram, clamped to [min, max] of the values when known (the
 * fastest and slowest checks are exact in the rollups); null when empty.
 */
export function percentile(h: Histogram, q: number, min: number | null = null, max: number | null = null): number | null {
  const total = histogramCount(h);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const bin of [...h.keys()].sort((a, b) => a - b)) {
    seen += h.get(bin)!;
    if (seen >= rank) {
      let v = binValue(bin);
      if (min !== null) v = Math.max(v, min);
      if (max !== null) v = Math.min(v, max);
      return v;
    }
  }
  return null;
}

/** The bin of `column` (milliseconds) in SQL, the same on both engines (ln and floor exist in both). */
export const binSql = (column: SQL) => sql`CAST(floor(ln(CAST(${column} AS DOUBLE PRECISION) + 1) / ${sql.raw(String(LN_RATIO))}) AS INTEGER)`;

/** Aggregates (bin, count) rows into the stored JSON text. */
export const histogramAggSql = (engine: Engine, bin: SQL, count: SQL) =>
  engine === "sqlite" ? sql`json_group_object(${bin}, ${count})` : sql`json_object_agg(${bin}, ${count})::text`;

/** A table function over a stored histogram column: rows (key, value) as text, for merging in SQL. */
export const histogramEachSql = (engine: Engine, column: SQL) =>
  engine === "sqlite" ? sql`json_each(${column})` : sql`json_each_text(${column}::json)`;
