// The wire types of /api/oncall (the UI imports them, never writes them again). Times are Unix ms.

/** How often the rotation hands over: every day, or every week on one weekday. */
export type Rotation = "daily" | "weekly";
export const ROTATIONS: readonly Rotation[] = ["daily", "weekly"];

/** A hand-over time, "HH:MM" on the 24-hour clock. */
export const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * The API's limits (store.ts checks them; the UI's form mirrors them): name length, participants, the longest range of
 * shifts asked at once, the longest override, and how many overrides a schedule may hold not yet ended.
 */
export const SCHEDULE_LIMITS = { name: 100, participants: 50, shiftsRangeDays: 62, overrideDays: 366, openOverrides: 200 } as const;

/** A user as on-call screens show them: nothing but the name. */
export interface OnCallPerson {
  id: number;
  username: string;
}

export interface OnCallOverride {
  id: number;
  userId: number;
  username: string;
  startsAt: number;
  endsAt: number;
  /** Who added it (null once that account is gone). */
  createdBy: OnCallPerson | null;
  createdAt: number;
}

export interface OnCallSchedule {
  id: number;
  name: string;
  /** IANA zone the hand-over time and the start date are read in (and the UI shows times in). */
  timeZone: string;
  rotation: Rotation;
  /** "HH:MM", local. */
  handoverTime: string;
  /** weekly: ISO weekday 1 (Monday) … 7 (Sunday); null for daily. */
  handoverWeekday: number | null;
  /** "YYYY-MM-DD", local: the first participant's first shift starts that day at the hand-over time. */
  startDate: string;
  /** In rotation order; accounts deleted since are left out. */
  participants: OnCallPerson[];
  /** The overrides not yet ended, by start. */
  overrides: OnCallOverride[];
  /** Who is on call now and until when (null: nobody else comes within the next 400 days); null: nobody is. */
  now: { userId: number; username: string; until: number | null } | null;
  /** Who takes over next, and from when; null: nobody else within the next 400 days. */
  next: { userId: number; username: string; from: number } | null;
  createdAt: number;
  updatedAt: number;
}

/** POST / PUT /api/oncall/schedules. `handoverWeekday` is needed for weekly rotations only. */
export interface OnCallScheduleInput {
  name: string;
  timeZone: string;
  rotation: Rotation;
  handoverTime: string;
  handoverWeekday?: number | null;
  startDate: string;
  /** User ids in rotation order, each once. */
  participants: number[];
}

/** POST /api/oncall/schedules/:id/overrides. */
export interface OnCallOverrideInput {
  userId: number;
  startsAt: number;
  endsAt: number;
}

/** GET /api/oncall/schedules/:id/shifts: one stretch of duty, with its true bounds (it may start before the range asked). */
export interface OnCallShift {
  userId: number;
  username: string;
  start: number;
  end: number;
  /** The override it comes from; null: the rotation. */
  overrideId: number | null;
}
