// The on-call screens' model: a schedule as the form holds it, its checks by the API's limits
// (server/oncall/public.ts), the body it sends; an override as typed (wall times in the schedule's zone); the two
// weeks the shift list shows; times as the screens write them. Pure functions; the screens are the *.tsx beside it.
import type { ParseKeys } from "i18next";
import { HH_MM, SCHEDULE_LIMITS, type OnCallOverrideInput, type OnCallSchedule, type OnCallScheduleInput, type Rotation } from "../../api/oncall";
import { dateToInstant, instantToDate, instantToWall, isKnownZone, wallToInstant } from "../maintenance/zones";

const DAY = 86_400_000;

export interface ScheduleDraft {
  name: string;
  timeZone: string;
  rotation: Rotation;
  /** "HH:MM" as a time input holds it. */
  handoverTime: string;
  /** "1" (Monday) … "7" (Sunday); asked for weekly rotations only. */
  handoverWeekday: string;
  /** "YYYY-MM-DD" as a date input holds it. */
  startDate: string;
  /** User ids in rotation order. */
  participants: number[];
}

export type ScheduleField = "name" | "timeZone" | "handoverTime" | "handoverWeekday" | "startDate" | "participants";
export type ScheduleErrors = Partial<Record<ScheduleField, ParseKeys>>;

/** A new schedule: weekly, Mondays at 09:00 in the reader's zone, from today. */
export const emptyDraft = (zone: string, now: number): ScheduleDraft => ({
  name: "",
  timeZone: zone,
  rotation: "weekly",
  handoverTime: "09:00",
  handoverWeekday: "1",
  startDate: instantToDate(now, zone),
  participants: [],
});

export const draftOf = (s: OnCallSchedule): ScheduleDraft => ({
  name: s.name,
  timeZone: s.timeZone,
  rotation: s.rotation,
  handoverTime: s.handoverTime,
  handoverWeekday: String(s.handoverWeekday ?? 1),
  startDate: s.startDate,
  participants: s.participants.map((p) => p.id),
});

/** Whether "YYYY-MM-DD" is a calendar date (2026-02-30 is not). */
export function isDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return Number(m[1]) >= 1970 && d.toISOString().slice(0, 10) === text;
}

/** Every problem the server would refuse, by field; empty when it can be sent. */
export function validateDraft(d: ScheduleDraft): ScheduleErrors {
  const errors: ScheduleErrors = {};
  const name = d.name.trim();
  if (!name) errors.name = "oncall.form.errors.nameRequired";
  else if (name.length > SCHEDULE_LIMITS.name) errors.name = "oncall.form.errors.nameTooLong";
  if (!d.timeZone || !isKnownZone(d.timeZone)) errors.timeZone = "oncall.form.errors.zone";
  if (!HH_MM.test(d.handoverTime)) errors.handoverTime = "oncall.form.errors.time";
  if (d.rotation === "weekly" && !/^[1-7]$/.test(d.handoverWeekday)) errors.handoverWeekday = "oncall.form.errors.weekday";
  if (!isDate(d.startDate)) errors.startDate = "oncall.form.errors.date";
  if (d.participants.length < 1) errors.participants = "oncall.form.errors.noParticipants";
  else if (d.participants.length > SCHEDULE_LIMITS.participants) errors.participants = "oncall.form.errors.tooManyParticipants";
  return errors;
}

export const inputOf = (d: ScheduleDraft): OnCallScheduleInput => ({
  name: d.name.trim(),
  timeZone: d.timeZone,
  rotation: d.rotation,
  handoverTime: d.handoverTime,
  handoverWeekday: d.rotation === "weekly" ? Number(d.handoverWeekday) : null,
  startDate: d.startDate,
  participants: [...d.participants],
});

// ── Overrides ──

export interface OverrideDraft {
  userId: string;
  /** Wall times in the schedule's zone, as datetime-local inputs hold them. */
  from: string;
  to: string;
}

export type OverrideErrors = Partial<Record<"userId" | "from" | "to", ParseKeys>>;

/** A new override: from the next full hour, for a day. */
export function emptyOverride(now: number, zone: string): OverrideDraft {
  const from = Math.ceil(now / 3_600_000) * 3_600_000;
  return { userId: "", from: instantToWall(from, zone), to: instantToWall(from + DAY, zone) };
}

/** The override to send, or what is wrong with it; the wall times read in `zone`. */
export function checkOverride(d: OverrideDraft, zone: string): { input: OnCallOverrideInput; errors: null } | { input: null; errors: OverrideErrors } {
  const errors: OverrideErrors = {};
  const startsAt = wallToInstant(d.from, zone);
  const endsAt = wallToInstant(d.to, zone);
  if (!/^\d+$/.test(d.userId)) errors.userId = "oncall.overrides.errors.person";
  if (startsAt === null) errors.from = "oncall.overrides.errors.time";
  if (endsAt === null) errors.to = "oncall.overrides.errors.time";
  else if (startsAt !== null && endsAt <= startsAt) errors.to = "oncall.overrides.errors.order";
  else if (startsAt !== null && endsAt - startsAt > SCHEDULE_LIMITS.overrideDays * DAY) errors.to = "oncall.overrides.errors.tooLong";
  if (Object.keys(errors).length || startsAt === null || endsAt === null) return { input: null, errors };
  return { input: { userId: Number(d.userId), startsAt, endsAt }, errors: null };
}

// ── The two weeks shown ──

/** "2026-03-29" plus n days. */
export const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

/** From the start of today in the zone, 14 local days (a day across a clock change is 23 or 25 hours). */
export function twoWeeks(now: number, zone: string): { from: number; to: number } {
  const today = instantToDate(now, zone);
  return { from: dateToInstant(today, zone)!, to: dateToInstant(addDays(today, 14), zone)! };
}

// ── Times on screen ──

/**
 * A moment in the schedule's zone, on the 24-hour clock: "Mon 09:00" within the coming six days, with the date
 * further off ("Mon, Apr 13, 09:00"). The e2e tests write them with the same options.
 */
export function whenOptions(at: number, now: number, zone: string): Intl.DateTimeFormatOptions {
  const near = at >= now - DAY && at - now < 6 * DAY;
  return near
    ? { weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone }
    : { weekday: "short", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone };
}

/** Full: "Mon, Mar 30, 2026, 09:00", for the override and shift lists. */
export const fullOptions = (zone: string): Intl.DateTimeFormatOptions => ({ weekday: "short", year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone });

/** A person's colour in the timeline and the shift list: fixed by their id, so it is the same on every screen. */
const COLOURS = ["bg-indigo-500", "bg-emerald-500", "bg-amber-500", "bg-sky-500", "bg-rose-500", "bg-violet-500", "bg-teal-500", "bg-orange-500"];
export const colourOf = (userId: number) => COLOURS[userId % COLOURS.length]!;
