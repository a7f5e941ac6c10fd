import type { StatusMaintenance } from "../maintenance/public";

// Wire types of the status page (the UI imports them through ui/api/status.ts). The public view is purpose-built:
// names, statuses and aggregates of the selected items, nothing else — never URLs, hosts, addresses or credentials.

export const ANNOUNCEMENT_SEVERITIES = ["info", "warning", "outage"] as const;
export type AnnouncementSeverity = (typeof ANNOUNCEMENT_SEVERITIES)[number];

/** Limits of the configuration (the form enforces them too). */
export const STATUS_TITLE_MAX = 100;
export const STATUS_DESCRIPTION_MAX = 500;
export const ANNOUNCEMENT_MAX = 1000;
/** Monitors and agents a page may list. */
export const STATUS_ITEMS_MAX = 500;

export interface Announcement {
  severity: AnnouncementSeverity;
  /** Plain text (shown as text, never as HTML). */
  text: string;
  /** When it was posted or last changed. */
  updatedAt: number;
}

/** GET/PUT /api/status/config (signed in). */
export interface StatusPageConfig {
  title: string;
  description: string;
  /** In the order the page shows them. */
  monitorIds: number[];
  agentIds: number[];
  announcement: Announcement | null;
  /** Where the public page is: the configured public URL, else this server's address as the request saw it. */
  publicUrl: string;
  updatedAt: number | null;
}

/** PUT body: `announcement: null` clears it. */
export interface StatusPageConfigInput {
  title: string;
  description: string;
  monitorIds: number[];
  agentIds: number[];
  announcement: { severity: AnnouncementSeverity; text: string } | null;
}

/** One UTC day of a monitor's history. `availability` is null on a day without checks. */
export interface StatusDay {
  /** Start of the UTC day, Unix ms. */
  date: number;
  /** Checks outside maintenance (what availability counts). */
  checks: number;
  /** Checks made in maintenance that day. */
  maintenance: number;
  availability: number | null;
  avgResponseTime: number | null;
}

export type PublicMonitorStatus = "up" | "down" | "pending" | "paused" | "maintenance";

export interface StatusMonitor {
  id: number;
  name: string;
  status: PublicMonitorStatus;
  /** Availability in percent (2 decimals, rounded down), null without checks in the window. */
  uptime: { day: number | null; month: number | null; quarter: number | null };
  /** 90 UTC days, oldest first; the last one is today so far. */
  days: StatusDay[];
  /** Hourly average response times over the last 24 hours (null: no answer that hour). */
  responseTimes: { times: number[]; values: (number | null)[] };
}

export type PublicAgentStatus = "online" | "offline" | "connecting" | "maintenance";

export interface StatusAgent {
  id: number;
  name: string;
  status: PublicAgentStatus;
  /** The latest report's usage, percent; null before the first report. */
  cpu: number | null;
  memory: number | null;
  /** The fullest disk's usage. */
  disk: number | null;
  load: { one: number; five: number; fifteen: number } | null;
  /** Seconds since the host booted, as of its latest report. */
  uptime: number | null;
  lastSeenAt: number | null;
}

/** GET /api/status (no sign-in). */
export interface PublicStatusPage {
  title: string;
  description: string;
  announcement: Announcement | null;
  /** `operational` when nothing selected is down or offline. */
  overall: { status: "operational" | "degraded"; down: { id: number; name: string }[]; offline: { id: number; name: string }[] };
  monitors: StatusMonitor[];
  agents: StatusAgent[];
  /** Maintenance in progress, and coming within 7 days, of items on the page (soonest first). */
  maintenance: StatusMaintenance[];
  /** When this view was built. */
  generatedAt: number;
}
