// Pure helpers behind TimeSeriesChart (kept apart so they can be unit-tested without a DOM).

/** One line of a chart. `values[i]` belongs to `times[i]`; null is a gap. */
export interface ChartSeries {
  label: string;
  values: (number | null | undefined)[];
  /** A CSS colour. */
  color: string;
  /** Canvas dash pattern, e.g. [4, 4]. */
  dash?: number[];
  /** A thin, translucent line (e.g. the maximum behind an average). */
  faint?: boolean;
  /** Shade the area under the line. */
  fill?: boolean;
  /** Draw only a marker at each value, no line (events such as failed checks). */
  markers?: boolean;
  /** What the legend says at an index instead of the formatted value (e.g. "failed"); null keeps the value. */
  legendText?: (string | null)[];
  /**
   * The series has values at only some of the times (lines of several sources on one time axis): `undefined` there is
   * no value and the line joins across it, while `null` still breaks it (a real gap).
   */
  sparse?: boolean;
}

/** A horizontal line across the plot at `value` (a usage threshold), labelled at its right end. */
export interface ChartThreshold {
  value: number;
  label: string;
  color: string;
}

/** Line colours, in order; chosen to stay apart on a white background. */
export const CHART_COLORS = ["#6366f1", "#10b981", "#f59e0b", "#0ea5e9", "#f43f5e", "#8b5cf6", "#14b8a6", "#f97316"];

export const chartColor = (index: number) => CHART_COLORS[((index % CHART_COLORS.length) + CHART_COLORS.length) % CHART_COLORS.length];

/** Whether there is anything to draw: at least one time and one non-null value. */
export function hasData(times: readonly number[], series: readonly ChartSeries[]): boolean {
  return times.length > 0 && series.some((s) => s.values.some((v) => v !== null && v !== undefined && Number.isFinite(v)));
}

/**
 * uPlot's columnar data: x in seconds, then one column per series, each as long as `times` (padded with nulls). A
 * sparse series keeps `undefined` where it has no value: uPlot draws its line across those (and breaks it at nulls).
 */
export function toAlignedData(times: readonly number[], series: readonly ChartSeries[]): [number[], ...(number | null | undefined)[][]] {
  const xs = times.map((t) => t / 1000);
  const columns = series.map((s) => xs.map((_, i) => {
    const v = s.values[i];
    if (v === undefined && s.sparse) return undefined;
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
  // The neighbour a line would go to: undefined (a sparse series' "no value here") is looked past, as uPlot does.
  const neighbour = (i: number, step: 1 | -1) => {
    let j = i + step;
    while (j >= i0 && j <= i1 && values[j] === undefined) j += step;
    return present(j);
  };
  const out: number[] = [];
  for (let i = i0; i <= i1; i++) if (present(i) && !neighbour(i, -1) && !neighbour(i, 1)) out.push(i);
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

/**
 * The y range of a percent chart scaled to its data rather than 0–100, so that a disk at 41 % shows its trend instead
 * of a flat line: the data padded and rounded out to fives, at least 10 points tall. The threshold is brought into
 * view once the data comes within 15 points of it — far below it, the line would only squash the data into a strip.
 */
export function fitPercentRange(dataMin: number | null, dataMax: number | null, threshold?: number): [number, number] {
  if (dataMin === null || dataMax === null || !Number.isFinite(dataMin) || !Number.isFinite(dataMax)) return [0, 100];
  const pad = Math.max(2, (dataMax - dataMin) * 0.15);
  let lo = Math.max(0, Math.floor((dataMin - pad) / 5) * 5);
  let hi = Math.min(100, Math.ceil((dataMax + pad) / 5) * 5);
  if (threshold !== undefined && threshold - dataMax <= 15) hi = Math.max(hi, Math.min(100, threshold + 5));
  if (hi - lo < 10) {
    if (hi >= 100) lo = 90;
    else hi = Math.min(100, lo + 10);
  }
  return [lo, hi];
}

/** The failed-check markers of a monitor's response-time chart: one at the baseline (0) wherever a check failed. */
export function failureMarkers(up: readonly (number | null)[]): (number | null)[] {
  return up.map((u) => (u !== null && u < 1 ? 0 : null));
}

/** Tick steps for percent axes: whole percents only, so a fitted 35–45 % axis never reads "38 %" for 37.5. */
export const PERCENT_INCRS: number[] = [1, 2, 5, 10, 20, 25, 50];

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

/** Finer formats for when the usual one would repeat a label (midnight twice, the 1st of a month in two years). */
const FALLBACK_TICKS: Intl.DateTimeFormatOptions[] = [
  { month: "numeric", day: "numeric", hour: "2-digit", minute: "2-digit", hour12: false },
  { year: "numeric", month: "numeric", day: "numeric" },
  { year: "numeric", month: "numeric", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false },
];

/**
 * The labels of the ticks at `splitsMs`: in tickFormat's format, or the first finer one under which no two ticks read
 * the same (a repeated label would make the axis lie about where a point is).
 */
export function tickLabels(splitsMs: readonly number[], spanMs: number, locale: string, stepMs?: number): string[] {
  const first = tickFormat(spanMs, locale, stepMs);
  for (const f of [first, ...FALLBACK_TICKS.map((o) => new Intl.DateTimeFormat(locale, o))]) {
    const labels = splitsMs.map((s) => f.format(s));
    if (new Set(labels).size === labels.length) return labels;
  }
  return splitsMs.map((s) => first.format(s));
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
