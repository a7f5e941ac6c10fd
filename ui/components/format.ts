// Number formatting shared by the agent and monitor screens: bytes (IEC units), rates, percents, durations.
// Pure functions: language-dependent words (duration units) come in as arguments, from i18n.

const BYTE_UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];

const usable = (n: number | null | undefined): n is number => typeof n === "number" && Number.isFinite(n);

/** 1536 → "1.5 KiB"; whole bytes below 1 KiB ("512 B"); `dash` for a missing or non-finite value. */
export function formatBytes(bytes: number | null | undefined, digits = 1, dash = "-"): string {
  if (!usable(bytes)) return dash;
  const sign = bytes < 0 ? "-" : "";
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  // 1023.96 KiB would print as "1024.0 KiB": move up a unit instead.
  if (unit > 0 && unit < BYTE_UNITS.length - 1 && Number(value.toFixed(digits)) >= 1024) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${sign}${Math.round(value)} B` : `${sign}${value.toFixed(digits)} ${BYTE_UNITS[unit]}`;
}

/** For axis ticks: up to two decimals, trailing zeros dropped ("512 KiB", "1.25 MiB", "1.5 GiB"). */
export function formatBytesCompact(bytes: number | null | undefined, dash = "-"): string {
  if (!usable(bytes)) return dash;
  return formatBytes(bytes, 2).replace(/^(-?\d+)\.(\d*?)0+ /, (_m, int: string, frac: string) => (frac ? `${int}.${frac} ` : `${int} `));
}

/** Bytes per second: "1.5 MiB/s". */
export function formatRate(bytesPerSecond: number | null | undefined, digits = 1, dash = "-"): string {
  return usable(bytesPerSecond) ? `${formatBytes(bytesPerSecond, digits)}/s` : dash;
}

/** 42.345 → "42.3%". */
export function formatPercent(percent: number | null | undefined, digits = 1, dash = "-"): string {
  return usable(percent) ? `${percent.toFixed(digits)}%` : dash;
}

/** A load average: two decimals. */
export function formatLoad(load: number | null | undefined, dash = "-"): string {
  return usable(load) ? load.toFixed(2) : dash;
}

/** Whole numbers with thousands separators in the given locale: 1234567 → "1,234,567". */
export function formatCount(n: number | null | undefined, locale?: string, dash = "-"): string {
  return usable(n) ? Math.round(n).toLocaleString(locale) : dash;
}

export interface DurationUnits {
  d: string;
  h: string;
  m: string;
  s: string;
}

/** Compact English units; the UI passes translated ones (common.units). */
export const EN_UNITS: DurationUnits = { d: "d", h: "h", m: "m", s: "s" };

/**
 * A duration in seconds as its two largest units: 12 → "12s", 75 → "1m 15s", 90061 → "1d 1h". The second unit is
 * left out when zero ("2h", not "2h 0m"); 0 → "0s".
 */
export function formatDuration(seconds: number | null | undefined, units: DurationUnits = EN_UNITS, dash = "-"): string {
  if (!usable(seconds) || seconds < 0) return dash;
  let rest = Math.floor(seconds);
  const parts: [number, string][] = [];
  for (const [size, unit] of [
    [86_400, units.d],
    [3_600, units.h],
    [60, units.m],
    [1, units.s],
  ] as [number, string][]) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    parts.push([n, unit]);
  }
  const nonZero = parts.findIndex(([n]) => n > 0);
  const top = nonZero === -1 ? parts.length - 1 : nonZero;
  const shown = parts.slice(top, top + 2).filter(([n], i) => i === 0 || n > 0);
  return shown.map(([n, unit]) => `${n}${unit}`).join(" ");
}

/** Seconds between `then` and `now` (both Unix ms), never negative (clock skew). */
export function secondsSince(then: number, now: number): number {
  return Math.max(0, Math.floor((now - then) / 1000));
}

/**
 * The usage (percent) from which CPU, memory or a disk counts as critical: red bars, and the threshold line of the
 * agent charts. 90 is also the default alert threshold of the notification settings to come (issue 8), which will
 * then supply the line instead.
 */
export const USAGE_CRITICAL = 90;

/** How full something is: ok below 75 %, warn below 90 %, critical from 90 %. */
export type UsageLevel = "ok" | "warn" | "critical";
export function usageLevel(percent: number | null | undefined): UsageLevel {
  if (!usable(percent) || percent < 75) return "ok";
  return percent < USAGE_CRITICAL ? "warn" : "critical";
}
