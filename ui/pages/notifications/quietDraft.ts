// The quiet hours form's model (a channel's, in ChannelForm, and a person's, on /profile): the stored rule as form
// values and back, checked as the server checks it (server/notifications/quiet-hours.ts). Pure functions.
import type { QuietHours } from "../../api/notifications";
import { browserZone } from "../maintenance/zones";
import { isTimeZone } from "./model";

export const ALL_DAYS = [1, 2, 3, 4, 5, 6, 7] as const;

export interface QuietDraft {
  on: boolean;
  /** "HH:MM" as a time input gives it. */
  from: string;
  to: string;
  timeZone: string;
  /** ISO weekdays the period starts on; all seven: every day. */
  days: number[];
  holdDown: boolean;
}

export type QuietErrors = Partial<Record<"from" | "to" | "timeZone" | "days", string>>;

/** The form of stored quiet hours; none: off, with a night in the browser's zone ready to turn on. */
export function quietDraft(q: QuietHours | null | undefined, zone = browserZone()): QuietDraft {
  if (!q) return { on: false, from: "22:00", to: "07:00", timeZone: zone, days: [...ALL_DAYS], holdDown: false };
  return { on: true, from: q.from, to: q.to, timeZone: q.timeZone, days: q.days ? [...q.days] : [...ALL_DAYS], holdDown: q.holdDown };
}

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
/** A time input may add seconds ("22:00:00"): the rule is minutes. */
const minutes = (value: string) => value.trim().slice(0, 5);

const K = "quietHours.errors.";

/** The problems, as i18n keys by field (empty when it can be sent, or when off). */
export function quietErrors(d: QuietDraft): QuietErrors {
  if (!d.on) return {};
  const errors: QuietErrors = {};
  if (!HHMM.test(minutes(d.from))) errors.from = `${K}time`;
  if (!HHMM.test(minutes(d.to))) errors.to = `${K}time`;
  if (!isTimeZone(d.timeZone)) errors.timeZone = `${K}zone`;
  if (!d.days.length) errors.days = `${K}days`;
  else if (!errors.from && !errors.to && minutes(d.from) === minutes(d.to) && d.days.length === 7) errors.to = `${K}always`;
  return errors;
}

/** The request's value: null when off; every day named is no `days`. */
export function toQuietHours(d: QuietDraft): QuietHours | null {
  if (!d.on) return null;
  const days = [...new Set(d.days)].sort((a, b) => a - b);
  return { from: minutes(d.from), to: minutes(d.to), timeZone: d.timeZone.trim(), ...(days.length < 7 ? { days } : {}), holdDown: d.holdDown };
}

/** A day chosen or not. */
export const toggleDay = (days: number[], day: number) => (days.includes(day) ? days.filter((d) => d !== day) : [...days, day].sort((a, b) => a - b));
