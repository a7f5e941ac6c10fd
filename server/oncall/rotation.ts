// Who is on call: pure functions of a schedule, its overrides and an instant (no I/O, no clock).
//
// A rotation hands over at a wall-clock time in its IANA zone: every day ("daily"), or every week on one ISO weekday
// ("weekly"). The first shift starts on `startDate` at the hand-over time with participant 0 (for a weekly rotation it
// runs to the first hand-over weekday after that day, so it may be shorter than a week); shift k belongs to
// participant k mod n. Hand-overs are wall times placed in the zone with Temporal, as maintenance windows are
// (server/maintenance/schedule.ts):
// - a day shift that spans a daylight-saving change lasts 23 or 25 hours, a week's 167 or 169;
// - a hand-over the change skips (02:30 on the spring-forward night) moves forward by the gap (03:30): "compatible";
// - one that happens twice (the autumn night) is the first (earlier) one.
// Overrides put someone else on call for [startsAt, endsAt); where they overlap, the one created last (the highest id:
// ids only grow) wins. Before the first shift the rotation has nobody, an override still applies.

import { HH_MM, type Rotation } from "./public";

export interface RotationSchedule {
  /** IANA zone ("Europe/Berlin"): where the hand-over time and the start date are read. */
  timeZone: string;
  rotation: Rotation;
  /** "HH:MM", local. */
  handoverTime: string;
  /** weekly: ISO weekday of the hand-over, 1 (Monday) … 7 (Sunday); ignored for daily. */
  handoverWeekday: number | null;
  /** "YYYY-MM-DD", local: the first shift starts that day at the hand-over time. */
  startDate: string;
  /** User ids in rotation order. */
  participants: readonly number[];
}

/** Someone else on call for [startsAt, endsAt) (Unix ms). A higher id was created later. */
export interface RotationOverride {
  id: number;
  userId: number;
  startsAt: number;
  endsAt: number;
}

/** A stretch of one person's duty: a rotation shift (or what overrides leave of it), or an override's. */
export interface Shift {
  userId: number;
  start: number;
  end: number;
  /** The override this stretch comes from; null: the rotation. */
  overrideId: number | null;
}

const DAY = 86_400_000;
/** How far ahead `upcoming` looks for the next person: past the longest override (a year) with margin. */
export const LOOKAHEAD_DAYS = 400;
const CHUNK_DAYS = 32;

const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2026-03-29" → days since 1970-01-01; null when it is no calendar date (2026-02-30). */
export function epochDay(date: string): number | null {
  const m = YMD.exec(date);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (y < 1970 || back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms / DAY;
}

/** ISO weekday (1 Monday … 7 Sunday) of an epoch day: 1970-01-01 was a Thursday. */
const isoWeekday = (day: number) => ((((day + 3) % 7) + 7) % 7) + 1;

/** The epoch day of the wall-clock date in `zone` at instant `t`. */
function localDay(t: number, zone: string): number {
  const z = Temporal.Instant.fromEpochMilliseconds(t).toZonedDateTimeISO(zone);
  return Date.UTC(z.year, z.month - 1, z.day) / DAY;
}

/** The instant of a wall time on an epoch day in `zone` (skipped: forward by the gap; twice: the earlier). */
function place(day: number, hour: number, minute: number, zone: string): number {
  const d = new Date(day * DAY);
  const wall = Temporal.PlainDateTime.from({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour, minute });
  return wall.toZonedDateTime(zone, { disambiguation: "compatible" }).epochMilliseconds;
}

/** The rotation's hand-overs by shift number: `at(k)` is when shift k starts (k ≥ 0), `index(t)` the shift at t (-1: before the first). */
function handovers(s: RotationSchedule) {
  const startDay = epochDay(s.startDate);
  const hm = HH_MM.exec(s.handoverTime);
  if (startDay === null || !hm) throw new Error(`invalid schedule: ${s.startDate} ${s.handoverTime}`);
  const [hour, minute] = [Number(hm[1]), Number(hm[2])];
  const weekly = s.rotation === "weekly";
  if (weekly && !(Number.isInteger(s.handoverWeekday) && s.handoverWeekday! >= 1 && s.handoverWeekday! <= 7)) throw new Error("invalid schedule: weekly without a weekday");
  // Weekly: the first hand-over after the start day falls on the weekday (a week later when the start day is one).
  const firstHandover = weekly ? startDay + ((s.handoverWeekday! - isoWeekday(startDay) + 7) % 7 || 7) : startDay + 1;
  const dayOf = (k: number) => (k === 0 ? startDay : weekly ? firstHandover + 7 * (k - 1) : startDay + k);
  const at = (k: number) => place(dayOf(k), hour, minute, s.timeZone);
  const index = (t: number): number => {
    const day = localDay(t, s.timeZone);
    // A guess from the calendar, then set right against the placed hand-overs (a shift starts on the day before at
    // most once a zone moves its clocks near midnight).
    let k = weekly ? (day < firstHandover ? 0 : Math.floor((day - firstHandover) / 7) + 1) : day - startDay;
    k = Math.max(k, -1);
    while (k >= 0 && at(k) > t) k--;
    while (at(k + 1) <= t) k++;
    return k;
  };
  return { at, index };
}

/** The override in force at `t` (the latest created of those covering it), if any. */
function overrideAt(overrides: readonly RotationOverride[], t: number): RotationOverride | undefined {
  let best: RotationOverride | undefined;
  for (const o of overrides) if (o.startsAt <= t && t < o.endsAt && (!best || o.id > best.id)) best = o;
  return best;
}

/** Who is on call at `t`, and by which override (null: the rotation); null before the first shift with no override. */
export function onCallAt(s: RotationSchedule, overrides: readonly RotationOverride[], t: number): { userId: number; overrideId: number | null } | null {
  const o = overrideAt(overrides, t);
  if (o) return { userId: o.userId, overrideId: o.id };
  if (s.participants.length === 0) return null;
  const k = handovers(s).index(t);
  return k < 0 ? null : { userId: s.participants[k % s.participants.length]!, overrideId: null };
}

/** Who is on call over [from, to): contiguous stretches clipped to the range, one per rotation shift or override piece. */
function pieces(s: RotationSchedule, overrides: readonly RotationOverride[], from: number, to: number): Shift[] {
  if (!(to > from)) return [];
  const n = s.participants.length;
  const h = handovers(s);
  // The rotation's shifts meeting the range, as [start, end) with their number.
  const shifts: { k: number; start: number; end: number }[] = [];
  if (n > 0) {
    for (let k = Math.max(0, h.index(from)), start = h.at(k); start < to; k++) {
      const end = h.at(k + 1);
      if (end > from) shifts.push({ k, start, end });
      start = end;
    }
  }
  const meeting = overrides.filter((o) => o.startsAt < to && o.endsAt > from && o.endsAt > o.startsAt);
  const points = new Set<number>([from, to]);
  for (const e of [...shifts.flatMap((x) => [x.start, x.end]), ...meeting.flatMap((o) => [o.startsAt, o.endsAt])]) if (e > from && e < to) points.add(e);
  const sorted = [...points].sort((a, b) => a - b);
  const out: (Shift & { source: string })[] = [];
  let si = 0;
  for (let i = 0; i + 1 < sorted.length; i++) {
    const [p, q] = [sorted[i]!, sorted[i + 1]!];
    const o = overrideAt(meeting, p);
    while (si < shifts.length && shifts[si]!.end <= p) si++;
    const shift = si < shifts.length && shifts[si]!.start <= p ? shifts[si]! : undefined;
    const piece = o ? { userId: o.userId, overrideId: o.id, source: `o${o.id}` } : shift ? { userId: s.participants[shift.k % n]!, overrideId: null, source: `k${shift.k}` } : null;
    if (!piece) continue;
    const last = out.at(-1);
    if (last && last.source === piece.source && last.end === p) last.end = q;
    else out.push({ ...piece, start: p, end: q });
  }
  return out.map(({ source: _, ...shift }) => shift);
}

/**
 * The stretches of duty meeting [from, to), each with its true bounds (not cut at the range's edges): rotation shifts
 * with the overrides cut in, the overrides' own stretches. Nobody's time (before the first shift) is left out.
 */
export function shiftsBetween(s: RotationSchedule, overrides: readonly RotationOverride[], from: number, to: number): Shift[] {
  if (!(to > from)) return [];
  // Widened so the stretches at the edges are whole: the rotation shifts holding `from` and `to`, every override meeting the range.
  let [a, b] = [from, to];
  if (s.participants.length > 0) {
    const h = handovers(s);
    const first = h.index(from);
    const last = h.index(to - 1);
    if (first >= 0) a = Math.min(a, h.at(first));
    if (last >= 0) b = Math.max(b, h.at(last + 1));
  }
  for (const o of overrides) {
    if (o.startsAt < to && o.endsAt > from) {
      a = Math.min(a, o.startsAt);
      b = Math.max(b, o.endsAt);
    }
  }
  return pieces(s, overrides, a, b).filter((p) => p.start < to && p.end > from);
}

/**
 * Who is on call at `at` and until when, and who takes over next and from when: the first later stretch of someone
 * else (after a stretch of nobody, if any). `until` is null when nobody else comes within LOOKAHEAD_DAYS (a rotation of
 * one); so is `next`.
 */
export function upcoming(
  s: RotationSchedule,
  overrides: readonly RotationOverride[],
  at: number,
): { now: { userId: number; until: number | null } | null; next: { userId: number; from: number } | null } {
  const current = onCallAt(s, overrides, at)?.userId ?? null;
  let until: number | null = null;
  let next: { userId: number; from: number } | null = null;
  search: for (let w = at; w < at + LOOKAHEAD_DAYS * DAY; w += CHUNK_DAYS * DAY) {
    let cursor = w;
    for (const p of pieces(s, overrides, w, w + CHUNK_DAYS * DAY)) {
      // A gap between stretches is nobody's time.
      if (p.start > cursor && current !== null) until ??= cursor;
      cursor = p.end;
      if (p.userId === current) continue;
      until ??= p.start;
      next = { userId: p.userId, from: p.start };
      break search;
    }
    if (cursor < w + CHUNK_DAYS * DAY && current !== null) until ??= cursor;
  }
  return { now: current === null ? null : { userId: current, until }, next };
}
