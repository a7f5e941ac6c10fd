// Quiet hours (issue 42): times of the week when a channel (or a person, for their own contact channels) takes only
// what matters. Which events matter is decided here, once (importanceOf); when quiet hours hold an event and until when
// is decided here too (heldUntil); the outbox does the holding (outbox.ts, compose()). Pure functions: wall time in
// the rule's zone through Temporal, so a period keeps its wall-clock edges across daylight-saving changes.
import { badRequest } from "../http/errors";
import type { NotificationEvent, QuietHours } from "./public";

export type Importance = "high" | "low";

/**
 * High: a monitor down, an agent offline, their recoveries (recovery, back online) and the reminders that it is still
 * down. Everything else is low — certificate expiry warnings (a monitor "down" only because its certificate expires
 * soon), usage thresholds, containers, error budgets — and waits out quiet hours.
 */
export function importanceOf(event: Pick<NotificationEvent, "kind" | "facts">): Importance {
  switch (event.kind) {
    case "down":
    case "reminder":
      return event.facts.errorCode === "TLS_EXPIRES_SOON" ? "low" : "high";
    case "recovery":
    case "offline":
    case "online":
      return "high";
    default:
      return "low";
  }
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;
const minutesOf = (hhmm: string) => {
  const [, h, m] = HHMM.exec(hhmm)!;
  return Number(h) * 60 + Number(m);
};

/** The instant a wall time of a day has in the zone (a time skipped by a daylight-saving change moves forward). */
function wallTime(date: Temporal.PlainDate, minutes: number, zone: string): number {
  return Temporal.PlainDateTime.from({ year: date.year, month: date.month, day: date.day, hour: Math.floor(minutes / 60), minute: minutes % 60 })
    .toZonedDateTime(zone, { disambiguation: "compatible" }).epochMilliseconds;
}

/**
 * When the quiet period holding `at` ends (Unix ms), or null when `at` is not in one. A period starts at `from` on a
 * day of `days` (every day when absent) and ends at the next `to`: the same day, or the next when `to` is not after
 * `from` (22:00-07:00 wraps midnight; from = to is the whole day).
 */
export function quietUntil(q: QuietHours, at: number): number | null {
  const local = Temporal.Instant.fromEpochMilliseconds(at).toZonedDateTimeISO(q.timeZone);
  const today = Temporal.PlainDate.from({ year: local.year, month: local.month, day: local.day });
  const from = minutesOf(q.from);
  const to = minutesOf(q.to);
  // A period is at most a day long: only the one started yesterday or the one started today can hold `at`.
  for (const start of [today.add({ days: -1 }), today]) {
    if (q.days && !q.days.includes(start.dayOfWeek)) continue;
    const begin = wallTime(start, from, q.timeZone);
    const end = wallTime(to > from ? start : start.add({ days: 1 }), to, q.timeZone);
    if (begin <= at && at < end) return end;
  }
  return null;
}

/** Periods that follow each other (Saturday's whole day, then Sunday's) are one wait; this many at most are joined. */
const MAX_JOINED = 32;

/**
 * Until when an event of this importance waits under these rules (quiet when any of them says so), or null: it goes
 * now. A high event waits only for rules that hold down alerts too (`holdDown`).
 */
export function heldUntil(rules: readonly (QuietHours | null | undefined)[], importance: Importance, at: number): number | null {
  const holding = rules.filter((r): r is QuietHours => !!r && (importance === "low" || r.holdDown));
  let until = at;
  for (let i = 0; i < MAX_JOINED; i++) {
    const ends = holding.map((r) => quietUntil(r, until)).filter((end): end is number => end !== null);
    if (!ends.length) break;
    until = Math.max(...ends);
  }
  return until > at ? until : null;
}

function isTimeZone(zone: string): boolean {
  try {
    Temporal.Now.instant().toZonedDateTimeISO(zone);
    return true;
  } catch {
    return false;
  }
}

const invalid = (message: string) => badRequest("QUIET_HOURS_INVALID", message);

/** Quiet hours as given in a request, checked (400 QUIET_HOURS_INVALID with what is wrong); null or absent: none. */
export function validQuietHours(raw: unknown, field = "quietHours"): QuietHours | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw !== "object" || Array.isArray(raw)) throw invalid(`${field} must be an object { from, to, timeZone, days?, holdDown } or null`);
  const q = raw as Record<string, unknown>;
  const known = new Set(["from", "to", "timeZone", "days", "holdDown"]);
  const extra = Object.keys(q).find((k) => !known.has(k));
  if (extra !== undefined) throw invalid(`${field}.${extra.slice(0, 40)} is not a setting of quiet hours (from, to, timeZone, days, holdDown)`);
  for (const edge of ["from", "to"] as const) {
    if (typeof q[edge] !== "string" || !HHMM.test(q[edge] as string)) throw invalid(`${field}.${edge} must be a time of day as HH:MM (00:00-23:59)`);
  }
  if (typeof q.timeZone !== "string" || q.timeZone.length > 64 || !isTimeZone(q.timeZone)) throw invalid(`${field}.timeZone must be an IANA time zone such as Europe/Berlin or UTC`);
  let days: number[] | undefined;
  if (q.days !== undefined && q.days !== null) {
    const list = q.days;
    if (!Array.isArray(list) || !list.length || !list.every((d) => Number.isInteger(d) && (d as number) >= 1 && (d as number) <= 7)) {
      throw invalid(`${field}.days must be weekdays 1 (Monday) to 7 (Sunday), at least one; leave it out for every day`);
    }
    days = [...new Set(list as number[])].sort((a, b) => a - b);
  }
  if (q.holdDown !== undefined && typeof q.holdDown !== "boolean") throw invalid(`${field}.holdDown must be true or false`);
  if (q.from === q.to && (!days || days.length === 7)) {
    throw invalid(`${field}: from and to are the same time every day, so it would always be quiet and low-importance alerts would never go out; choose days or different times`);
  }
  return { from: q.from as string, to: q.to as string, timeZone: q.timeZone, ...(days && days.length < 7 ? { days } : {}), holdDown: q.holdDown === true };
}
