// Pure logic behind the maintenance screens (unit-tested without a DOM): the form's draft and what it sends, the checks
// the server makes too (server/maintenance/service.ts, schedule.ts), and the list's filters.
import {
  MAINTENANCE_DESCRIPTION_MAX,
  MAINTENANCE_DURATION_MAX,
  MAINTENANCE_TITLE_MAX,
  type MaintenanceInput,
  type MaintenanceScope,
  type MaintenanceState,
  type PublicMaintenance,
  type ScheduleKind,
} from "../../api/maintenance";
import { browserZone, dateToInstant, instantToDate, instantToWall, isKnownZone, wallToInstant } from "./zones";

/** The form's values: times as the inputs hold them (wall clock in `timezone`), numbers as text. */
export interface WindowDraft {
  title: string;
  description: string;
  scope: MaintenanceScope;
  monitorIds: number[];
  agentIds: number[];
  kind: ScheduleKind;
  /** once, manual: "YYYY-MM-DDTHH:MM" in `timezone`. */
  startsAt: string;
  /** once */
  endsAt: string;
  /** daily, weekly, monthly: "HH:MM". */
  time: string;
  weekdays: number[];
  monthDays: number[];
  cron: string;
  durationMinutes: string;
  timezone: string;
  /** "YYYY-MM-DD" in `timezone`, or "". */
  activeFrom: string;
  activeUntil: string;
}

export type DraftField = "title" | "description" | "targets" | "startsAt" | "endsAt" | "time" | "weekdays" | "monthDays" | "cron" | "durationMinutes" | "timezone" | "activeUntil";
/** Problems by field, as i18n keys under `maintenance.errors`. */
export type DraftErrors = Partial<Record<DraftField, string>>;

export const isRecurring = (kind: ScheduleKind) => kind !== "once" && kind !== "manual";

/** A new window: one hour from the next whole hour, in the browser's zone. */
export function emptyDraft(now = Date.now(), zone = browserZone()): WindowDraft {
  const start = Math.ceil(now / 3_600_000) * 3_600_000;
  return {
    title: "",
    description: "",
    scope: "targets",
    monitorIds: [],
    agentIds: [],
    kind: "once",
    startsAt: instantToWall(start, zone),
    endsAt: instantToWall(start + 3_600_000, zone),
    time: "02:00",
    weekdays: [7],
    monthDays: [1],
    cron: "0 2 * * 0",
    durationMinutes: "60",
    timezone: zone,
    activeFrom: "",
    activeUntil: "",
  };
}

/** A stored window as the form edits it. */
export function draftOf(w: PublicMaintenance, now = Date.now()): WindowDraft {
  const s = w.schedule;
  const zone = s.timezone;
  const base = emptyDraft(now, zone);
  return {
    ...base,
    title: w.title,
    description: w.description,
    scope: w.scope,
    monitorIds: w.monitorIds,
    agentIds: w.agentIds,
    kind: s.kind,
    startsAt: s.startsAt !== null ? instantToWall(s.startsAt, zone) : base.startsAt,
    endsAt: s.endsAt !== null ? instantToWall(s.endsAt, zone) : base.endsAt,
    time: s.time ?? base.time,
    weekdays: s.weekdays.length ? s.weekdays : base.weekdays,
    monthDays: s.monthDays.length ? s.monthDays : base.monthDays,
    cron: s.cron ?? base.cron,
    durationMinutes: s.durationMinutes !== null ? String(s.durationMinutes) : base.durationMinutes,
    activeFrom: s.activeFrom !== null ? instantToDate(s.activeFrom, zone) : "",
    activeUntil: s.activeUntil !== null ? instantToDate(s.activeUntil, zone) : "",
  };
}

/** The schedule part of the request (also what the preview asks about). Fields the kind does not use are left out. */
export function scheduleOf(d: WindowDraft): MaintenanceInput["schedule"] {
  const zone = d.timezone;
  switch (d.kind) {
    case "once":
      return { kind: "once", timezone: zone, startsAt: wallToInstant(d.startsAt, zone), endsAt: wallToInstant(d.endsAt, zone) };
    case "manual":
      return { kind: "manual", timezone: zone, startsAt: wallToInstant(d.startsAt, zone) };
    default: {
      const recurring = {
        timezone: zone,
        durationMinutes: Number(d.durationMinutes),
        activeFrom: d.activeFrom ? dateToInstant(d.activeFrom, zone) : null,
        // "Until" a date includes that day: occurrences starting before the next day's start.
        activeUntil: d.activeUntil ? nextDay(d.activeUntil, zone) : null,
      };
      if (d.kind === "cron") return { kind: "cron", cron: d.cron.trim(), ...recurring };
      if (d.kind === "weekly") return { kind: "weekly", time: d.time, weekdays: d.weekdays, ...recurring };
      if (d.kind === "monthly") return { kind: "monthly", time: d.time, monthDays: d.monthDays, ...recurring };
      return { kind: "daily", time: d.time, ...recurring };
    }
  }
}

function nextDay(date: string, zone: string): number | null {
  const start = dateToInstant(date, zone);
  if (start === null) return null;
  // Noon avoids DST edges when stepping a day.
  return dateToInstant(instantToDate(start + 36 * 3_600_000, zone), zone);
}

export function inputOf(d: WindowDraft): MaintenanceInput {
  return {
    title: d.title.trim(),
    description: d.description.trim(),
    scope: d.scope,
    monitorIds: d.scope === "targets" ? d.monitorIds : [],
    agentIds: d.scope === "targets" ? d.agentIds : [],
    schedule: scheduleOf(d),
  };
}

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The problems the form shows before sending (the server checks the same, and cron expressions itself). */
export function validateDraft(d: WindowDraft): DraftErrors {
  const e: DraftErrors = {};
  const title = d.title.trim();
  if (!title) e.title = "titleRequired";
  else if (title.length > MAINTENANCE_TITLE_MAX) e.title = "titleTooLong";
  if (d.description.trim().length > MAINTENANCE_DESCRIPTION_MAX) e.description = "descriptionTooLong";
  if (d.scope === "targets" && d.monitorIds.length + d.agentIds.length === 0) e.targets = "targetsRequired";
  if (!isKnownZone(d.timezone)) e.timezone = "zoneUnknown";
  else if (d.kind === "once" || d.kind === "manual") {
    const start = wallToInstant(d.startsAt, d.timezone);
    if (start === null) e.startsAt = "timeInvalid";
    if (d.kind === "once") {
      const end = wallToInstant(d.endsAt, d.timezone);
      if (end === null) e.endsAt = "timeInvalid";
      else if (start !== null && end <= start) e.endsAt = "endBeforeStart";
    }
  } else {
    const minutes = Number(d.durationMinutes);
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAINTENANCE_DURATION_MAX) e.durationMinutes = "durationRange";
    if (d.kind !== "cron" && !HH_MM.test(d.time)) e.time = "timeInvalid";
    if (d.kind === "weekly" && d.weekdays.length === 0) e.weekdays = "weekdaysRequired";
    if (d.kind === "monthly" && d.monthDays.length === 0) e.monthDays = "monthDaysRequired";
    if (d.kind === "cron" && d.cron.trim().split(/\s+/).length !== 5) e.cron = "cronFields";
    if (d.activeFrom && d.activeUntil && d.activeUntil < d.activeFrom) e.activeUntil = "untilBeforeFrom";
  }
  return e;
}

/** Toggles a value in a sorted list of numbers. */
export const toggle = (list: number[], value: number) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value].sort((a, b) => a - b));

// ── The list ──

export const STATE_FILTERS = ["active", "upcoming", "ended"] as const satisfies readonly MaintenanceState[];
export type StateFilter = MaintenanceState | "all";

/** Active first (ending soonest), then upcoming (starting soonest), then ended (latest first). */
export function sortWindows(windows: readonly PublicMaintenance[]): PublicMaintenance[] {
  const rank = { active: 0, upcoming: 1, ended: 2 } as const;
  const key = (w: PublicMaintenance) =>
    w.state === "active" ? (w.current?.end ?? Infinity) : w.state === "upcoming" ? w.next!.start : -(w.cutAt ?? w.schedule.endsAt ?? w.updatedAt);
  return [...windows].sort((a, b) => rank[a.state] - rank[b.state] || key(a) - key(b) || a.id - b.id);
}

export function countByState(windows: readonly PublicMaintenance[]): Record<StateFilter, number> {
  const counts = { all: windows.length, active: 0, upcoming: 0, ended: 0 };
  for (const w of windows) counts[w.state]++;
  return counts;
}

/** Durations offered by "start maintenance now", in minutes. */
export const QUICK_DURATIONS = [30, 60, 120] as const;
