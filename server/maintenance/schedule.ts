// When a maintenance window is in progress: pure functions of its schedule and an instant (no I/O, no clock).
//
// Recurring windows (daily, weekly, monthly, cron) start at a wall-clock time in their IANA zone on each matching day
// and last `durationMinutes` of elapsed time: an occurrence is [start, start + duration), so one across midnight is
// nothing special. Every kind first lists its wall-clock starts (the day kinds by calendar, cron by croner running at
// UTC offset 0 over "UTC-as-local" wall times), then places each one in the zone with Temporal — one rule for all:
// - "02:00 Europe/Berlin every Sunday" is 02:00 local on both sides of a daylight-saving change;
// - a start the change skips (02:30 on the spring-forward night) moves forward by the gap (03:30): Temporal's
//   "compatible". Two wall times landing on one instant (02:30 moved, 03:30 itself) start once;
// - a start that happens twice (the autumn night) starts once, at the first (earlier) one.
// Cron: five fields; day-of-month and day-of-week both restricted match either (Vixie cron's OR, croner's
// `domAndDow: false`); a wildcard in either leaves the other alone.
// activeFrom/activeUntil bound the starts, [activeFrom, activeUntil). Occurrences may overlap (a duration longer than
// the period): the window is in progress while any is, and occurrenceAt answers the one that started last (equal
// durations: the one that ends last). An early end (`cutAt`) ends every occurrence containing it at that instant (one
// starting exactly then is left out); later ones are untouched.
// Searches are bounded (SEARCH_DAYS ahead, MAX_STEPS wall times), so an impossible schedule (February 30) ends. When a
// search gives up without proving there is nothing more, nextChange answers where it stopped (re-ask then), not null.
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
  /** monthly: days 1-31, or -1 for the last day of the month; at least one. A day a month lacks (31 in April) is skipped that month. */
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
/** How far ahead a search looks: past the longest gap between two February 29ths (8 years), for a leap-day cron. */
const SEARCH_DAYS = 3000;
/** Wall times per search. A 5-field cron starts at most once a minute: a week's duration plus margin is < 12 000. */
const MAX_STEPS = 20_000;

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

// ── Wall clock and zone (Temporal) ──
// A wall time is a number: the Unix ms whose UTC fields are the local date and time ("UTC-as-local"), which is what
// croner steps over and what plain calendar arithmetic (a day is 86 400 000) is exact on. Zones only enter here.

const zoned = (t: number, zone: string) => Temporal.Instant.fromEpochMilliseconds(t).toZonedDateTimeISO(zone);
const wallOf = (z: { year: number; month: number; day: number; hour: number; minute: number }) => Date.UTC(z.year, z.month - 1, z.day, z.hour, z.minute);

/** The wall clock at an instant, to the minute. */
const wallAt = (t: number, zone: string) => wallOf(zoned(t, zone));

/** A wall time placed in the zone ("compatible"), and whether it was moved (it does not exist: a gap). */
function place(wall: number, zone: string): { at: number; moved: boolean } {
  const d = new Date(wall);
  const fields = { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes() };
  const z = Temporal.PlainDateTime.from(fields).toZonedDateTime(zone, { disambiguation: "compatible" });
  return { at: z.epochMilliseconds, moved: wallOf(z) !== wall };
}

function zoneError(zone: string): string | null {
  try {
    zoned(0, zone);
    return null;
  } catch {
    return `Unknown time zone "${zone}"`;
  }
}

// Parsing costs ~65 µs and windows are re-asked on every boundary: parsed expressions are kept (a pure cache).
const crons = new Map<string, Cron>();
function parseCron(expression: string): Cron {
  let cron = crons.get(expression);
  if (!cron) {
    // utcOffset 0 rather than timezone "UTC": the same wall clock, without croner's Intl path (~5× slower a step).
    cron = new Cron(expression, { utcOffset: 0, paused: true, mode: "5-part", domAndDow: false });
    if (crons.size >= 1000) crons.clear();
    crons.set(expression, cron);
  }
  return cron;
}

// ── Recurring starts ──

/** Whether a wall date is one of the day kinds' days. */
function dayMatches(s: Schedule, d: Date): boolean {
  if (s.kind === "weekly") return s.weekdays.includes(d.getUTCDay() || 7);
  if (s.kind !== "monthly") return true;
  const day = d.getUTCDate();
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  return s.monthDays.includes(day) || (day === last && s.monthDays.includes(-1));
}

/** The kind's wall-time stepper: the first matching wall time after `after`; Infinity if none up to `limit`; null if none ever. */
function stepper(s: Schedule): (after: number, limit: number) => number | null {
  if (s.kind === "cron") {
    const cron = parseCron(s.cron ?? "");
    return (after) => cron.nextRun(new Date(after))?.getTime() ?? null;
  }
  const [hour, minute] = (s.time ?? "00:00").split(":").map(Number);
  const timeOfDay = (hour * 60 + minute) * MINUTE;
  return (after, limit) => {
    let wall = Math.floor(after / DAY) * DAY + timeOfDay;
    if (wall <= after) wall += DAY;
    for (; wall <= limit; wall += DAY) if (dayMatches(s, new Date(wall))) return wall;
    return Infinity;
  };
}

/**
 * Visits the starts at or after `from` within the active range, in order, each once, until `visit` returns false.
 * Returns the instant up to which every start was visited (the one `visit` stopped at, or where the search gave up),
 * or null when there are no more starts at all.
 */
function eachStart(s: Schedule, from: number, visit: (start: number) => boolean): number | null {
  const zone = s.timezone;
  const until = s.activeUntil ?? Infinity;
  const lo = Math.max(from, s.activeFrom ?? -Infinity);
  const hi = Math.min(until, lo + SEARCH_DAYS * DAY);
  if (lo >= until) return null;
  const gaveUp = hi < until ? hi : null;
  const step = stepper(s);
  // Moved (skipped) wall times land up to a gap later than they read, so start that far back: the clock a day
  // earlier plus a day is behind the clock now by the gap, if a change moved it forward in between.
  let wall = Math.min(wallAt(lo, zone), wallAt(lo - DAY, zone) + DAY) - 1;
  const limit = wallAt(hi, zone) + DAY;
  // Placed wall times are in order except moved ones, which may land after later real ones: those wait here until a
  // real wall time is placed past them (every later wall time lands after a real one).
  const pending: number[] = [];
  let last = -Infinity;
  const emit = (at: number) => {
    if (at < lo || at >= hi || at <= last) return true;
    last = at;
    return visit(at);
  };
  for (let steps = 0; steps < MAX_STEPS; steps++) {
    const next = step(wall, limit);
    if (next === null || next > limit) {
      for (const at of pending) if (!emit(at)) return at;
      return next === null ? null : gaveUp;
    }
    wall = next;
    const { at, moved } = place(wall, zone);
    if (moved) {
      pending.push(at);
      pending.sort((a, b) => a - b);
      continue;
    }
    while (pending.length && pending[0] < at) {
      const early = pending.shift()!;
      if (!emit(early)) return early;
    }
    if (!emit(at)) return at;
    if (at >= hi) return gaveUp;
  }
  return Math.max(last, lo); // out of steps: unreachable for a valid schedule (see MAX_STEPS)
}

/** An occurrence with the early end applied: one containing `cutAt` ends there (null when that leaves nothing). */
function cut(o: Occurrence, cutAt: number | null | undefined): Occurrence | null {
  if (cutAt == null || cutAt < o.start || (o.end !== null && cutAt >= o.end)) return o;
  return cutAt > o.start ? { start: o.start, end: cutAt } : null;
}

/** Visits the occurrences not ended by t (end > t) in start order, early end applied; returns like eachStart. */
function eachLive(s: Schedule, t: number, cutAt: number | null | undefined, visit: (o: Occurrence) => boolean): number | null {
  if (s.kind === "once" || s.kind === "manual") {
    if (s.startsAt === null) return null;
    const o = cut({ start: s.startsAt, end: s.endsAt }, cutAt);
    if (o && (o.end === null || o.end > t)) visit(o);
    return null;
  }
  const duration = (s.durationMinutes ?? 0) * MINUTE;
  if (!(duration > 0)) return null;
  // Occurrences that started before t may still be in progress: look back one duration.
  return eachStart(s, t - duration, (start) => {
    const o = cut({ start, end: start + duration }, cutAt);
    return o && o.end! > t ? visit(o) : true;
  });
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
    let cron: Cron;
    try {
      cron = parseCron(s.cron ?? "");
    } catch (e) {
      return `Invalid cron expression: ${String((e as Error).message ?? e).replace(/^CronPattern: /, "")}`;
    }
    // croner searches without a horizon; from 2000 a leap-day expression is found at once.
    if (!cron.nextRun(new Date(Date.UTC(2000, 0, 1)))) return "This cron expression never matches";
    return null;
  }
  if (!HH_MM.test(s.time ?? "")) return "Time must be HH:MM (00:00-23:59)";
  if (s.kind === "weekly") {
    if (!s.weekdays.length) return "Choose at least one weekday";
    if (s.weekdays.some((w) => !Number.isInteger(w) || w < 1 || w > 7) || new Set(s.weekdays).size !== s.weekdays.length) return "Weekdays must be 1 (Monday) to 7 (Sunday), each once";
  }
  if (s.kind === "monthly") {
    if (!s.monthDays.length) return "Choose at least one day of the month";
    if (s.monthDays.some((m) => !Number.isInteger(m) || m === 0 || m < -1 || m > 31) || new Set(s.monthDays).size !== s.monthDays.length) return "Days of the month must be 1-31 or -1 (the last day), each once";
  }
  return null;
}

/** The occurrence in progress at t (start <= t < end), the one that started last; null when none is. */
export function occurrenceAt(s: Schedule, t: number, cutAt?: number | null): Occurrence | null {
  let found: Occurrence | null = null;
  eachLive(s, t, cutAt, (o) => {
    if (o.start > t) return false;
    found = o;
    return true;
  });
  return found;
}

/** Up to `count` occurrences that have not ended by t (the one in progress first), in start order. */
export function occurrencesAfter(s: Schedule, t: number, count: number, cutAt?: number | null): Occurrence[] {
  const out: Occurrence[] = [];
  if (count >= 1) eachLive(s, t, cutAt, (o) => out.push(o) < count);
  return out;
}

/**
 * The first instant after t at which occurrenceAt may answer differently: the next start, or the end of an occurrence
 * in progress (with overlaps, the earliest such end, though the answer changes only at the last one's). null if never.
 */
export function nextChange(s: Schedule, t: number, cutAt?: number | null): number | null {
  let next = Infinity;
  const reached = eachLive(s, t, cutAt, (o) => {
    if (o.start > t) {
      next = Math.min(next, o.start);
      return false;
    }
    if (o.end !== null) next = Math.min(next, o.end);
    return true;
  });
  // A search that gave up is asked again where it stopped.
  if (reached !== null && reached > t) next = Math.min(next, reached);
  return Number.isFinite(next) ? next : null;
}
