// When a maintenance window is in progress: pure functions of its schedule and an instant (no I/O, no clock).
//
// Recurring windows (daily, weekly, monthly, cron) start at a wall-clock time in their IANA zone on each matching day
// and last `durationMinutes` of elapsed time. All zone arithmetic is Temporal's (the runtime's zone data), so
// "02:00 Europe/Berlin every Sunday" is 02:00 local on both sides of a daylight-saving change:
// - a start time the change skips (02:30 on the spring-forward night) moves forward by the gap (03:30), Temporal's
//   "compatible" choice;
// - a start time that happens twice (the autumn night) starts once, at the first (earlier) one.
// Cron expressions are only parsed and stepped by croner, over wall-clock times (croner runs in UTC on a "UTC-as-
// local" clock), and each wall time is then placed in the zone the same way — one rule for every kind. Day-of-month
// and day-of-week restricted together match either (Vixie cron's OR, croner's default).
// A window across midnight is nothing special: an occurrence is [start, start + duration). Occurrences may overlap
// (a duration longer than the period): the window is in progress while any of them is, and occurrenceAt answers the
// one that started last. Every search is bounded (SEARCH_DAYS ahead), so an impossible schedule (February 30) ends.
import { Cron } from "croner";

export type ScheduleKind = "once" | "manual" | "daily" | "weekly" | "monthly" | "cron";
export const SCHEDULE_KINDS: readonly ScheduleKind[] = ["once", "manual", "daily", "weekly", "monthly", "cron"];

/** How a maintenance window recurs. Times are Unix ms (UTC). */
export interface Schedule {
  kind: ScheduleKind;
  /** once and manual: when it starts. */
  startsAt: number | null;
  /** once: when it ends; manual: null until ended (then when it ended). */
  endsAt: number | null;
  /** daily, weekly, monthly: the local start time "HH:MM" (00:00-23:59) in `timezone`. */
  time: string | null;
  /** weekly: ISO weekdays 1 (Monday) … 7 (Sunday), at least one, no repeats. */
  weekdays: number[];
  /** monthly: days 1-31, or -1 for the last day of the month; at least one. A day a month lacks is skipped that month. */
  monthDays: number[];
  /** cron: five fields (minute hour day-of-month month day-of-week) read in `timezone`. */
  cron: string | null;
  /** Recurring kinds: each occurrence lasts this long (1 … 10080 minutes = 7 days). */
  durationMinutes: number | null;
  /** IANA zone (e.g. "Europe/Berlin", "UTC"): where `time`/`cron` are read; once/manual show in it. */
  timezone: string;
  /** Recurring kinds: only occurrences starting at or after / before these instants (null = no bound). */
  activeFrom: number | null;
  activeUntil: number | null;
}

export interface Occurrence {
  start: number;
  /** null: a manual window not ended yet */
  end: number | null;
}

const MINUTE = 60_000;
const DAY = 86_400_000;
export const MAX_DURATION_MINUTES = 7 * 24 * 60;
/** How far ahead a search for the next start looks. */
const SEARCH_DAYS = 800;
/** Cron steps per search (an every-minute cron with a week's duration has ~10 000 starts in a week). */
const MAX_CRON_STEPS = 20_000;

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

// ── Zone arithmetic (Temporal) ──

/** The instant of a wall-clock time in a zone ("compatible": a skipped time moves forward, a repeated one is the earlier). */
function instantOf(date: Temporal.PlainDate, hour: number, minute: number, zone: string): number {
  return date.toPlainDateTime({ hour, minute }).toZonedDateTime(zone, { disambiguation: "compatible" }).epochMilliseconds;
}

/** The local date at an instant. */
const dateAt = (t: number, zone: string) => Temporal.Instant.fromEpochMilliseconds(t).toZonedDateTimeISO(zone).toPlainDate();

/** The wall clock at an instant as a "UTC-as-local" number (what croner steps over). */
function wallAt(t: number, zone: string): number {
  const z = Temporal.Instant.fromEpochMilliseconds(t).toZonedDateTimeISO(zone);
  return Date.UTC(z.year, z.month - 1, z.day, z.hour, z.minute);
}

/** A "UTC-as-local" wall time placed in the zone. */
function wallToInstant(wall: number, zone: string): number {
  const d = new Date(wall);
  const date = Temporal.PlainDate.from({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
  return instantOf(date, d.getUTCHours(), d.getUTCMinutes(), zone);
}

function zoneError(zone: string): string | null {
  try {
    Temporal.Instant.fromEpochMilliseconds(0).toZonedDateTimeISO(zone);
    return null;
  } catch {
    return `Unknown time zone "${zone}"`;
  }
}

function parseCron(expression: string): Cron {
  // Five fields only (seconds and years would be a surprise); OR of day-of-month and day-of-week, as Vixie cron.
  return new Cron(expression, { timezone: "UTC", paused: true, mode: "5-part", domAndDow: false });
}

// ── Recurring starts ──

/** Whether a local date is one of the schedule's days (daily, weekly, monthly). */
function dayMatches(s: Schedule, d: Temporal.PlainDate): boolean {
  if (s.kind === "weekly") return s.weekdays.includes(d.dayOfWeek);
  if (s.kind === "monthly") return s.monthDays.includes(d.day) || (d.day === d.daysInMonth && s.monthDays.includes(-1));
  return true;
}

/**
 * The starts at or after `from`, in order, each once, within the active range and SEARCH_DAYS: a generator, so a
 * caller takes only what it needs.
 */
function* startsFrom(s: Schedule, from: number): Generator<number> {
  const lo = Math.max(from, s.activeFrom ?? -Infinity);
  const horizon = lo + SEARCH_DAYS * DAY;
  const hi = Math.min(horizon, s.activeUntil ?? Infinity);
  if (lo >= hi) return;
  const zone = s.timezone;
  if (s.kind === "cron") {
    const cron = parseCron(s.cron ?? "");
    // Two days of wall clock before `lo`: offsets never exceed a day, so no start at or after `lo` is skipped.
    let wall: Date | null = new Date(wallAt(lo, zone) - 2 * DAY);
    let last = -Infinity;
    for (let steps = 0; wall && steps < MAX_CRON_STEPS; steps++) {
      wall = cron.nextRun(wall);
      if (!wall) return;
      const start = wallToInstant(wall.getTime(), zone);
      if (start >= hi) return;
      // Two wall times may meet in one instant (both sides of a skipped hour): once.
      if (start >= lo && start > last) {
        last = start;
        yield start;
      }
    }
    return;
  }
  const [hour, minute] = (s.time ?? "00:00").split(":").map(Number);
  // From the day before `lo` (its start may be after `lo` in another offset) until the horizon.
  let day = dateAt(lo, zone).add({ days: -1 });
  for (let i = 0; i <= SEARCH_DAYS + 2; i++, day = day.add({ days: 1 })) {
    if (!dayMatches(s, day)) continue;
    const start = instantOf(day, hour, minute, zone);
    if (start >= hi) return;
    if (start >= lo) yield start;
  }
}

/** An occurrence with the early end applied: one containing `cutAt` ends there (null when that leaves nothing). */
function cut(o: Occurrence, cutAt: number | null | undefined): Occurrence | null {
  if (cutAt == null || cutAt < o.start || (o.end !== null && cutAt >= o.end)) return o;
  return cutAt > o.start ? { start: o.start, end: cutAt } : null;
}

/** Occurrences that have not ended by t (end > t), in start order, with the early end applied. */
function* liveFrom(s: Schedule, t: number, cutAt: number | null | undefined): Generator<Occurrence> {
  if (s.kind === "once" || s.kind === "manual") {
    if (s.startsAt === null) return;
    const o = cut({ start: s.startsAt, end: s.endsAt }, cutAt);
    if (o && (o.end === null || o.end > t)) yield o;
    return;
  }
  const duration = (s.durationMinutes ?? 0) * MINUTE;
  if (duration <= 0) return;
  for (const start of startsFrom(s, t - duration + 1)) {
    const o = cut({ start, end: start + duration }, cutAt);
    if (o && o.end! > t) yield o;
  }
}

// ── The questions ──

/** null when valid, else one English sentence naming what is wrong. Fields the kind does not use are ignored. */
export function scheduleError(s: Schedule): string | null {
  if (!SCHEDULE_KINDS.includes(s.kind)) return `Unknown schedule kind "${s.kind}"`;
  const zone = zoneError(s.timezone);
  if (zone) return zone;
  if (s.kind === "once" || s.kind === "manual") {
    if (s.startsAt === null || !Number.isFinite(s.startsAt)) return "A start time is required";
    if (s.kind === "once") {
      if (s.endsAt === null || !Number.isFinite(s.endsAt)) return "An end time is required";
      if (s.endsAt <= s.startsAt) return "The end must be after the start";
    }
    return null;
  }
  const d = s.durationMinutes;
  if (d === null || !Number.isInteger(d) || d < 1 || d > MAX_DURATION_MINUTES) return `Duration must be 1-${MAX_DURATION_MINUTES} minutes`;
  if (s.activeFrom !== null && s.activeUntil !== null && s.activeUntil <= s.activeFrom) return "activeUntil must be after activeFrom";
  if (s.kind === "cron") {
    try {
      parseCron(s.cron ?? "");
    } catch (e) {
      return `Invalid cron expression: ${String((e as Error).message ?? e).replace(/^CronPattern: /, "")}`;
    }
  } else if (!HH_MM.test(s.time ?? "")) return "Time must be HH:MM (00:00-23:59)";
  if (s.kind === "weekly") {
    if (!s.weekdays.length) return "Choose at least one weekday";
    if (s.weekdays.some((w) => !Number.isInteger(w) || w < 1 || w > 7) || new Set(s.weekdays).size !== s.weekdays.length) return "Weekdays must be 1 (Monday) to 7 (Sunday), each once";
  }
  if (s.kind === "monthly") {
    if (!s.monthDays.length) return "Choose at least one day of the month";
    if (s.monthDays.some((m) => !Number.isInteger(m) || m === 0 || m < -1 || m > 31) || new Set(s.monthDays).size !== s.monthDays.length) return "Days of the month must be 1-31 or -1 (the last day), each once";
  }
  if (s.kind === "cron" && s.activeFrom === null && s.activeUntil === null && startsFrom(s, 0).next().done && startsFrom(s, Date.UTC(2024, 0, 1)).next().done) {
    return "This cron expression never matches";
  }
  return null;
}

/** The occurrence in progress at t (start <= t < end), the one that started last; null when none is. */
export function occurrenceAt(s: Schedule, t: number, cutAt?: number | null): Occurrence | null {
  let found: Occurrence | null = null;
  for (const o of liveFrom(s, t, cutAt)) {
    if (o.start > t) break;
    found = o;
  }
  return found;
}

/** Up to `count` occurrences that have not ended by t (the one in progress first), in start order. */
export function occurrencesAfter(s: Schedule, t: number, count: number, cutAt?: number | null): Occurrence[] {
  const out: Occurrence[] = [];
  if (count <= 0) return out;
  for (const o of liveFrom(s, t, cutAt)) {
    out.push(o);
    if (out.length >= count) break;
  }
  return out;
}

/** The first instant after t at which occurrenceAt may answer differently (an end or a start), or null if never. */
export function nextChange(s: Schedule, t: number, cutAt?: number | null): number | null {
  let next = Infinity;
  for (const o of liveFrom(s, t, cutAt)) {
    if (o.start > t) {
      next = Math.min(next, o.start);
      break;
    }
    if (o.end !== null) next = Math.min(next, o.end);
  }
  return Number.isFinite(next) ? next : null;
}
