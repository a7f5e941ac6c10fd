// Intervals in the monitor form and on the pages: a number and a unit (seconds or minutes, as a Kuma user types them),
// turned into the API's seconds, checked as the server checks them (server/monitors/field-rules.ts), and shown back
// as "every 20 s" / "every 5 min".
import type { ParseKeys, TFunction } from "i18next";
import { DEFAULTS, LIMITS } from "../../api/monitors";

export type IntervalUnit = "s" | "min";
export const INTERVAL_UNITS: readonly IntervalUnit[] = ["s", "min"];

const UNIT_SECONDS: Record<IntervalUnit, number> = { s: 1, min: 60 };

/** Seconds as the form shows them: whole minutes in minutes, anything else in seconds. */
export function splitSeconds(seconds: number): { value: string; unit: IntervalUnit } {
  return seconds % 60 === 0 ? { value: String(seconds / 60), unit: "min" } : { value: String(seconds), unit: "s" };
}

/** The seconds of a typed interval: a whole number in its unit, 1 s to a day; null otherwise. */
export function secondsOf(raw: string, unit: IntervalUnit): number | null {
  if (!/^\s*\d+\s*$/.test(raw)) return null;
  const seconds = Number(raw) * UNIT_SECONDS[unit];
  return seconds >= LIMITS.minIntervalSeconds && seconds <= LIMITS.maxIntervalSeconds ? seconds : null;
}

/** A typed timeout: seconds with fractions ("0.8", "2,5" too), within the limits; null otherwise. */
export function timeoutOf(raw: string): number | null {
  const text = raw.trim().replace(",", ".");
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(text)) return null;
  const seconds = Number(text);
  return seconds >= LIMITS.minTimeout && seconds <= LIMITS.maxTimeout ? seconds : null;
}

/** A new monitor's timeout when none is typed, as the server gives it: 0.8 × the shortest interval, at most 30 s. */
export const defaultTimeout = (shortestSeconds: number) => Math.min(DEFAULTS.timeout, Math.floor(shortestSeconds * 8) / 10);

/** What the schedule fields of the form hold (MonitorFormValues has them). */
export interface ScheduleValues {
  interval: string;
  intervalUnit: IntervalUnit;
  /** Empty: retries at the interval. */
  retryInterval: string;
  retryIntervalUnit: IntervalUnit;
  timeout: string;
  /** A new monitor's timeout as last set to follow the intervals; it follows while it still reads so. null: never. */
  autoTimeout: string | null;
}

/** The shorter of the interval and the retry interval, in seconds (null while either is not valid). */
export function shortestSeconds(v: ScheduleValues): number | null {
  const interval = secondsOf(v.interval, v.intervalUnit);
  if (interval === null) return null;
  if (v.retryInterval.trim() === "") return interval;
  const retry = secondsOf(v.retryInterval, v.retryIntervalUnit);
  return retry === null ? null : Math.min(interval, retry);
}

/**
 * A change of the interval or retry interval. A new monitor's timeout not typed by hand follows them as the server
 * would default it (a 20 s interval gets 16 s), so picking a short interval is not answered with "timeout too long".
 */
export function withSchedule(v: ScheduleValues, patch: Partial<ScheduleValues>): Partial<ScheduleValues> {
  const after = shortestSeconds({ ...v, ...patch });
  if (v.autoTimeout === null || v.timeout !== v.autoTimeout || after === null) return patch;
  const timeout = String(defaultTimeout(after));
  return { ...patch, timeout, autoTimeout: timeout };
}

/** The schedule's problems, by field (the keys the form reports), and the valid timeout (for the limits below it). */
export function validateSchedule(v: ScheduleValues, hasTimeout: boolean): { errors: Record<string, ParseKeys>; timeout: number | null } {
  const errors: Record<string, ParseKeys> = {};
  if (secondsOf(v.interval, v.intervalUnit) === null) errors.interval = "monitors.validation.intervalInvalid";
  if (v.retryInterval.trim() !== "" && secondsOf(v.retryInterval, v.retryIntervalUnit) === null) errors.retryInterval = "monitors.validation.retryIntervalInvalid";
  if (!hasTimeout) return { errors, timeout: null };
  const timeout = timeoutOf(v.timeout);
  const shortest = shortestSeconds(v);
  if (timeout === null) errors.timeout = "monitors.validation.timeoutInvalid";
  else if (shortest !== null && timeout >= shortest) {
    const interval = secondsOf(v.interval, v.intervalUnit)!;
    errors.timeout = timeout >= interval ? "monitors.validation.timeoutTooLong" : "monitors.validation.timeoutTooLongRetry";
  } else return { errors, timeout };
  return { errors, timeout: null };
}

/** The API's fields of the schedule (call once validateSchedule found nothing). */
export function scheduleInput(v: ScheduleValues, hasTimeout: boolean) {
  return {
    intervalSeconds: secondsOf(v.interval, v.intervalUnit)!,
    retryIntervalSeconds: v.retryInterval.trim() === "" ? null : secondsOf(v.retryInterval, v.retryIntervalUnit),
    ...(hasTimeout ? { timeout: timeoutOf(v.timeout)! } : {}),
  };
}

/** The form's schedule fields of a monitor; `follow`: a new one's, whose timeout follows the intervals. */
export function scheduleOf(m: { intervalSeconds: number; retryIntervalSeconds: number | null; timeout: number }, follow = false): ScheduleValues {
  const interval = splitSeconds(m.intervalSeconds);
  const retry = m.retryIntervalSeconds === null ? { value: "", unit: interval.unit } : splitSeconds(m.retryIntervalSeconds);
  const timeout = String(m.timeout);
  return { interval: interval.value, intervalUnit: interval.unit, retryInterval: retry.value, retryIntervalUnit: retry.unit, timeout, autoTimeout: follow ? timeout : null };
}

/** "20 s", "5 min": an interval as the pages show it. */
export function intervalText(t: TFunction, seconds: number): string {
  return seconds % 60 === 0 ? t("monitors.duration.minutes", { count: seconds / 60 }) : t("monitors.duration.seconds", { count: seconds });
}
