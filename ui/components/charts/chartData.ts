// Pure helpers behind TimeSeriesChart (kept apart so they can be unit-tested without a DOM).

/** One line of a chart. `values[i]` belongs to `times[i]`; null is a gap. */
export interface ChartSeries {
  label: string;
  values: (number | null)[];
  /** A CSS colour. */
  color: string;
  /** Canvas dash pattern, e.g. [4, 4]. */
  dash?: number[];
  /** A thin, translucent line (e.g. the maximum behind an average). */
  faint?: boolean;
  /** Shade the area under the line. */
  fill?: boolean;
}

/** Line colours, in order; chosen to stay apart on a white background. */
export const CHART_COLORS = ["#6366f1", "#10b981", "#f59e0b", "#0ea5e9", "#f43f5e", "#8b5cf6", "#14b8a6", "#f97316"];

export const chartColor = (index: number) => CHART_COLORS[((index % CHART_COLORS.length) + CHART_COLORS.length) % CHART_COLORS.length];

/** Whether there is anything to draw: at least one time and one non-null value. */
export function hasData(times: readonly number[], series: readonly ChartSeries[]): boolean {
  return times.length > 0 && series.some((s) => s.values.some((v) => v !== null && v !== undefined && Number.isFinite(v)));
}

/** uPlot's columnar data: x in seconds, then one column per series, each as long as `times` (padded with nulls). */
export function toAlignedData(times: readonly number[], series: readonly ChartSeries[]): [number[], ...(number | null)[][]] {
  const xs = times.map((t) => t / 1000);
  const columns = series.map((s) => xs.map((_, i) => {
    const v = s.values[i];
    return v === undefined || v === null || !Number.isFinite(v) ? null : v;
  }));
  return [xs, ...columns];
}

/**
 * Indexes in [i0, i1] of values with no value beside them (null or out of range on both sides). With gaps drawn as
 * gaps, such a value has no line to either neighbour and would be invisible, so the chart draws it as a point.
 */
export function isolatedIndexes(values: readonly (number | null | undefined)[], i0 = 0, i1 = values.length - 1): number[] {
  const present = (i: number) => i >= i0 && i <= i1 && values[i] !== null && values[i] !== undefined;
  const out: number[] = [];
  for (let i = i0; i <= i1; i++) if (present(i) && !present(i - 1) && !present(i + 1)) out.push(i);
  return out;
}

/**
 * The y range: `fixedMin`/`fixedMax` when given (0 and 100 for percents); otherwise from 0 (or the data minimum when
 * negative) to 10 % above the data maximum, never an empty range.
 */
export function yRange(dataMin: number | null, dataMax: number | null, fixedMin?: number, fixedMax?: number): [number, number] {
  const lo = fixedMin ?? Math.min(0, dataMin ?? 0);
  const hi = fixedMax ?? (dataMax === null || !Number.isFinite(dataMax) ? lo + 1 : dataMax * 1.1);
  if (!(hi > lo)) return [lo, lo + 1];
  return [lo, hi];
}

/** Tick steps that are powers of two from 1 to 2^60 (bytes: 256 KiB, 512 KiB, 1 MiB …), for byte-valued axes. */
export const BINARY_INCRS: number[] = Array.from({ length: 61 }, (_, i) => 2 ** i);

/**
 * Tick labels for a time axis spanning `spanMs` with ticks `stepMs` apart: seconds when ticks are less than a minute
 * apart, times of day for spans up to two days, dates beyond (with the hour when ticks are less than a day apart).
 */
export function tickFormat(spanMs: number, locale: string, stepMs = Number.POSITIVE_INFINITY): Intl.DateTimeFormat {
  if (stepMs < 60_000) return new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
  if (spanMs <= 2 * 86_400_000) return new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", hour12: false });
  if (stepMs < 86_400_000) return new Intl.DateTimeFormat(locale, { month: "numeric", day: "numeric", hour: "2-digit", hour12: false });
  return new Intl.DateTimeFormat(locale, { month: "numeric", day: "numeric" });
}

/** The legend's time: date and time to the second. */
export function legendFormat(locale: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(locale, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
}

/** Room for the y-axis labels: a rough width of the longest one (uPlot calls this with the labels it will draw). */
export function axisSize(labels: readonly (string | null | undefined)[] | null | undefined): number {
  const longest = Math.max(0, ...(labels ?? []).map((l) => (l ? String(l).length : 0)));
  return Math.max(36, Math.ceil(longest * 6.6) + 18);
}
