// What a report holds (GET /api/reports/…): the UI renders it, the CSV flattens it. Times are Unix ms; durations ms.
import type { Period } from "./period";

export type ReportTargetKind = "monitor" | "group" | "tag" | "status-page";

/** What a report's numbers were computed from: raw checks alone, or the hourly/daily rollups (and raw at the edges). */
export type ReportGranularity = "checks" | "hour";

export interface ReportStats {
  /** Percent of the checks counted (made outside maintenance) that passed; null without any. */
  availability: number | null;
  checks: number;
  up: number;
  down: number;
  /** Checks made in maintenance: shown, left out of availability. */
  maintenanceChecks: number;
  /** Outages' time outside maintenance, within the period. */
  downtimeMs: number;
  outages: number;
  /** Mean time to recovery: the mean downtime of the outages that ended in the period. */
  mttrMs: number | null;
  /** Mean time between failures: time up (outside maintenance and outages) per outage. */
  mtbfMs: number | null;
  longestOutageMs: number | null;
  avgResponseTime: number | null;
  /** From the rollups' histograms: within 5 % of the exact value. */
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

export interface ReportOutage {
  monitorId: number;
  start: number;
  /** null: still failing when the report was made. */
  end: number | null;
  /** Within the period, maintenance left out. */
  downtimeMs: number;
  /** Of the outage's time in the period, how much fell in maintenance. */
  maintenanceMs: number;
  failures: number;
  cause: string | null;
}

export interface ReportMaintenance {
  windowId: number;
  title: string;
  start: number;
  end: number;
}

export interface ReportIncident {
  id: number;
  title: string;
  impact: string;
  createdAt: number;
  resolvedAt: number | null;
}

export interface ReportLocation {
  /** 0: the server itself. */
  agentId: number;
  name: string;
  checks: number;
  availability: number | null;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

export interface MonitorReport extends ReportStats {
  id: number;
  name: string;
  type: string;
  outageList: ReportOutage[];
  maintenance: ReportMaintenance[];
  incidents: ReportIncident[];
  /** Per location, when checked from several; raw location results only (kept --raw-retention-days). */
  locations: ReportLocation[];
}

export interface Report {
  target: { kind: ReportTargetKind; ref: string; name: string };
  period: Period;
  generatedAt: number;
  granularity: ReportGranularity;
  /** The period's start or end fell inside an hour whose raw checks are gone: that whole hour was counted. */
  roundedToHour: boolean;
  /** The members' mean availability (each monitor weighs the same), their summed counts and merged percentiles. */
  summary: ReportStats;
  monitors: MonitorReport[];
}

/** Attempts at one month's mail when the mail server has temporary trouble (server/reports/schedules.ts). */
export const REPORT_MAIL_MAX_ATTEMPTS = 5;

/** A report mailed every month (GET /api/report-schedules): the previous calendar month's, in `zone`. */
export interface ReportSchedule {
  id: number;
  name: string;
  targetKind: ReportTargetKind;
  targetRef: string;
  /** The target's name now (a monitor's, a page's title), or null when it is gone. */
  targetName: string | null;
  zone: string;
  language: "zh-CN" | "en-US";
  /** An SMTP notification channel: its server and sender; the recipients are the schedule's own. */
  channelId: number;
  recipients: string[];
  enabled: boolean;
  /** The month last sent ("2026-10"), or the one before the schedule was made (nothing sent yet). */
  lastPeriod: string | null;
  lastSentAt: number | null;
  /** Why the last attempt failed; cleared by the next mail sent. */
  lastError: string | null;
  /** Temporary failures of the month being retried (0 when none), and when the next try is due (null when none). */
  retryAttempts: number;
  retryAfter: number | null;
  createdAt: number;
  updatedAt: number;
}

/** What POST /api/report-schedules takes (PUT: any subset). */
export interface ReportScheduleInput {
  name: string;
  targetKind: ReportTargetKind;
  targetRef: string;
  zone: string;
  language?: "zh-CN" | "en-US";
  channelId: number;
  recipients: string[];
  enabled?: boolean;
}
