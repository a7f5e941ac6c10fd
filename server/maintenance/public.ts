// Wire types of maintenance windows (the UI imports them through ui/api/maintenance.ts). Times are Unix ms (UTC).
import type { Occurrence, Schedule, ScheduleKind } from "./schedule";

export type { Occurrence, Schedule, ScheduleKind };

export const MAINTENANCE_TITLE_MAX = 100;
export const MAINTENANCE_DESCRIPTION_MAX = 2000;
/** Monitors and agents one window may name. */
export const MAINTENANCE_TARGETS_MAX = 1000;
/** Windows an instance may hold (each is evaluated at its boundaries; the evaluation is cheap, the list is for people). */
export const MAINTENANCE_WINDOWS_MAX = 5000;
/** "Start maintenance now": 1 minute to 7 days. */
export const MAINTENANCE_NOW_MAX_MINUTES = 7 * 24 * 60;
/** The schedule kinds in the order forms offer them (schedule.ts has the rules; this file stays free of runtime imports). */
export const MAINTENANCE_KINDS = ["once", "manual", "daily", "weekly", "monthly", "cron"] as const satisfies readonly ScheduleKind[];
/** Each recurring occurrence lasts 1 minute to 7 days. */
export const MAINTENANCE_DURATION_MAX = 7 * 24 * 60;
/** Occurrences the preview shows. */
export const PREVIEW_OCCURRENCES = 5;

export type MaintenanceScope = "all" | "targets";
/** active: an occurrence is in progress; upcoming: one is still to come; ended: none is left. */
export type MaintenanceState = "active" | "upcoming" | "ended";

/**
 * POST /api/maintenance and PUT /api/maintenance/:id. `scope: "all"` covers every monitor and agent; "targets" the
 * ones listed (at least one). The schedule's fields that do not belong to its kind are ignored; `timezone` defaults to
 * the server's zone, a manual window's `startsAt` to now.
 */
export interface MaintenanceInput {
  title: string;
  description?: string;
  scope: MaintenanceScope;
  monitorIds?: number[];
  agentIds?: number[];
  schedule: Partial<Schedule> & { kind: ScheduleKind };
}

/** POST /api/maintenance/start: a window from now, for `minutes` (1 minute to 7 days) or, without, until ended. */
export interface MaintenanceNowInput {
  title?: string;
  description?: string;
  /** true: every monitor and agent. Otherwise at least one id. */
  all?: boolean;
  monitorIds?: number[];
  agentIds?: number[];
  minutes?: number;
}

/** A window as stored. */
export interface MaintenanceWindow {
  id: number;
  title: string;
  description: string;
  scope: MaintenanceScope;
  /** Empty for scope "all". */
  monitorIds: number[];
  agentIds: number[];
  schedule: Schedule;
  /** Ended early at this instant (POST /api/maintenance/:id/end), else null. */
  cutAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** A window as the API shows it: with where it stands now. */
export interface PublicMaintenance extends MaintenanceWindow {
  state: MaintenanceState;
  /** The occurrence in progress. */
  current: Occurrence | null;
  /** The next occurrence after the current one (or the first to come). */
  next: Occurrence | null;
}

/** POST /api/maintenance/preview: the next occurrences of a schedule, from now. */
export interface MaintenancePreview {
  occurrences: Occurrence[];
  timezone: string;
}

/**
 * Which monitors and agents entered or left maintenance (the bus and /api/live). Every node of a cluster computes it
 * from the same windows and clock; the target's owner notifies.
 */
export interface MaintenanceChangeEvent {
  at: number;
  monitors: { entered: number[]; left: number[] };
  agents: { entered: number[]; left: number[] };
}

/** A window as the public status page shows it: no targets, nothing but what the operator wrote and when. */
export interface StatusMaintenance {
  id: number;
  title: string;
  description: string;
  state: "active" | "upcoming";
  start: number;
  end: number | null;
  /** Names shown on this page that it covers (every item on the page for an instance-wide window). */
  affects: string[];
}
