// What the API shows of monitors. The UI imports these types (`import type`), so keep this file free of runtime
// dependencies on the server. Times are Unix milliseconds (UTC); response times are milliseconds.

export type MonitorMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";
/** The methods a monitor may use, in the order the form offers them. */
export const MONITOR_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const satisfies readonly MonitorMethod[];
/** pending: no verdict yet (new, or failing but still within its retries); up; down. */
export type MonitorStatus = "pending" | "up" | "down";

export * from "./monitor-types";
import type { MonitorType } from "./monitor-types";
// The first five types' fields, flat on the API, as their settings schemas declare them (types only: no runtime import).
import type { FirstTypeFields } from "./types/first-settings";
/** ping: which address family to use; auto takes the host's first address. */
export type PingFamily = "auto" | "ipv4" | "ipv6";
/**
 * A group's state. worst: down when any counted member is down, else pending when any is pending, else up. all: down
 * only when every counted member is down, up when any is up, else pending. Counted: active members outside
 * maintenance; a group with none is pending.
 */
export type GroupRule = "worst" | "all";
export const GROUP_RULES = ["worst", "all"] as const satisfies readonly GroupRule[];
export const PING_FAMILIES = ["auto", "ipv4", "ipv6"] as const satisfies readonly PingFamily[];

/** One ping check's round trips (ms, to the microsecond; null without replies) and packet loss (percent). */
export interface PingStats {
  sent: number;
  received: number;
  loss: number;
  min: number | null;
  avg: number | null;
  max: number | null;
}
export type DnsRecordType = "A" | "AAAA" | "CNAME" | "MX" | "TXT" | "NS";
export const DNS_RECORD_TYPES = ["A", "AAAA", "CNAME", "MX", "TXT", "NS"] as const satisfies readonly DnsRecordType[];

/** What the API accepts (server/monitors/schemas.ts checks them; the form checks them before sending). */
export const LIMITS = {
  nameLength: 100,
  urlLength: 2048,
  /** Seconds between checks (intervalSeconds, and retryIntervalSeconds when set): 1 s to a day. */
  minIntervalSeconds: 1,
  maxIntervalSeconds: 86_400,
  /** The same in minutes (the legacy `interval` field; fractions allowed as long as they are whole seconds). */
  maxInterval: 1440,
  /** Seconds, fractions allowed (kept to the millisecond). */
  minTimeout: 0.1,
  maxTimeout: 60,
  maxRetries: 10,
  /** Availability objective, percent: 50 to 99.999 (a budget of about 26 s a month at the top). */
  minObjective: 50,
  maxObjective: 99.999,
  /** The objective's rolling window, days (the rollups are kept a year; 90 days covers a quarter). */
  minObjectiveDays: 1,
  maxObjectiveDays: 90,
  maxHeaders: 50,
  headerNameLength: 256,
  headerValueLength: 4096,
  bodyBytes: 64 * 1024,
  maxTags: 10,
  tagLength: 32,
  keywordLength: 500,
  jsonPathLength: 500,
  maxResponseTime: 60_000,
  maxTlsExpiryDays: 365,
  hostLength: 253,
  dnsExpectedLength: 255,
  resolverLength: 64,
  maxPushGrace: 3600,
  maxPingCount: 10,
  /** Monitors one monitor may depend on. */
  maxDependencies: 20,
} as const;

/** What a new monitor gets for a field it was not given. */
export const DEFAULTS = {
  method: "GET" as MonitorMethod,
  /** Seconds (5 minutes). */
  intervalSeconds: 300,
  /** Seconds; a new monitor given no timeout gets min(this, 0.8 × its shortest interval), as Uptime Kuma does. */
  timeout: 30,
  expectedStatus: "2xx",
  retries: 1,
  active: true,
  followRedirects: true,
  type: "http" as MonitorType,
  dnsRecordType: "A" as DnsRecordType,
  pushGrace: 60,
  pingCount: 3,
  pingFamily: "auto" as PingFamily,
  pingLossThreshold: 100,
};

/**
 * Tags as monitors keep them: trimmed, inner white space collapsed, blanks dropped, repeats that differ only in case
 * merged (the first spelling wins).
 */
export function uniqueTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim().replace(/\s+/g, " ");
    const key = tag.toLowerCase();
    if (!tag || seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
  }
  return out;
}

/** Headers fetch sets itself: a monitor may not. */
export const RESERVED_HEADERS: readonly string[] = ["content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "te", "trailer"];

/** Retries a new monitor gets: a push monitor's failures are a job saying so or an interval of silence, so one is enough to be down. */
export const defaultRetries = (type: MonitorType): number => (type === "push" || type === "manual" ? 0 : DEFAULTS.retries);

export interface MonitorHeader {
  name: string;
  value: string;
}

/**
 * The fields a user sets (POST body; every field optional in PUT). The first five types' fields are flat here, each
 * declared by its type's settings schema (server/monitors/types/<type>/settings.ts); a monitor keeps only its own
 * type's (another type's read as their defaults).
 */
export interface MonitorInput extends Partial<FirstTypeFields> {
  name: string;
  /** Default "http". */
  type?: MonitorType;
  /** Free-form labels (at most 10, 1-32 characters each, compared without case); the UI colours them by name. */
  tags?: string[];
  /** Seconds between checks, a whole number from 1 to 86400. Default 300. */
  intervalSeconds?: number;
  /** Seconds between checks while a failure is retried (failing, within `retries`, not yet down); null: intervalSeconds. */
  retryIntervalSeconds?: number | null;
  /**
   * The interval in minutes, as older clients send it (fractions allowed when they are whole seconds: 0.5 = 30 s).
   * intervalSeconds is the one to use; a body with both must have them agree.
   */
  interval?: number;
  /**
   * Seconds before a check gives up, 0.1-60 (fractions allowed, kept to the millisecond); it must be shorter than
   * the interval and the retry interval. Default for a new monitor: min(30, 0.8 × the shorter of the two).
   */
  timeout?: number;
  /** false pauses the monitor. Default true. */
  active?: boolean;
  /** Failed checks in a row tolerated before the monitor is down (0-10). Default 1. */
  retries?: number;
  /** Up when the check fails, down when it passes (push: calls are flipped, silence stays down). Default false. */
  upsideDown?: boolean;
  /** Availability objective in percent (50-99.999) over the last `objectiveDays`; null for none. Default null. */
  objective?: number | null;
  /** The objective's rolling window in days (1-90). Default 30. */
  objectiveDays?: number;
  /** Monitors this one depends on (at most 20; no cycles): while one is down, this one's failures alert nobody. */
  dependsOn?: number[];
  /** The group (a monitor of type "group") this monitor belongs to; null for none. */
  parentId?: number | null;
  /** group: how its state follows its members. Default "worst". */
  groupRule?: GroupRule;
  /**
   * The later types' own settings (postgres, redis, manual…): one object whose fields the type declares
   * (GET /api/monitors/types gives each type's JSON Schema). On update it is merged over the stored one; secrets
   * left out or sent back masked keep their value.
   */
  settings?: Record<string, unknown>;
}

/**
 * What pickers and names need of a monitor (GET /api/monitors/names): a tenth of a whole monitor's bytes, for screens
 * that choose monitors rather than show them (maintenance, status page, incidents, reports, groups, dependencies).
 */
export type MonitorName = Pick<PublicMonitor, "id" | "name" | "type" | "target" | "parentId" | "tags" | "active">;

export interface PublicMonitor extends FirstTypeFields {
  id: number;
  name: string;
  type: MonitorType;
  tags: string[];
  /** What lists show and search: the URL (http), host:port (tcp), "name record" (dns), "" (push). */
  target: string;
  intervalSeconds: number;
  retryIntervalSeconds: number | null;
  /** intervalSeconds in minutes (fractional below a minute: 0.5 for 30 s), for older clients. */
  interval: number;
  /** Seconds (fractions allowed). */
  timeout: number;
  active: boolean;
  retries: number;
  /** push: the secret of `/api/push/{pushToken}` (null for other types). */
  pushToken: string | null;
  /** push: when the latest call came (null if none yet). */
  lastPushAt: number | null;
  /** Up when the check fails, down when it passes (push: a call saying up counts as down; silence stays down). */
  upsideDown: boolean;
  /** Availability objective (percent) over the last `objectiveDays`, or null; its budget: GET /api/monitors/{id}/budget. */
  objective: number | null;
  objectiveDays: number;
  /** The monitors this one depends on (ids). */
  dependsOn: number[];
  /** The group this monitor belongs to (null: top level). */
  parentId: number | null;
  groupRule: GroupRule;
  /** The later types' settings (see MonitorInput.settings), secrets masked; {} for the first five types. */
  settings: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  // Derived
  status: MonitorStatus;
  /** In a maintenance window now: shown as "maintenance", nothing is notified, uptime leaves the time out. */
  maintenance: boolean;
  /** When the status last changed (null while it never did). */
  statusChangedAt: number | null;
  /** Failed checks in a row (counts up to retries + 1). */
  consecutiveFailures: number;
  lastCheckedAt: number | null;
  /** Response time of the latest check, ms (null if it got no answer). */
  responseTime: number | null;
  /** HTTP status of the latest check. */
  httpStatus: number | null;
  /** Error of the latest check, null when it was up. */
  lastError: string | null;
  /**
   * The monitor it depends on that is down now, while its own latest check failed: its failures are recorded as
   * "unreachable: <name> is down" and its alerts are held until that one recovers. null otherwise.
   */
  unreachable: { id: number; name: string } | null;
  /** Availability over the last 24 hours, percent (0-100, rounded down to 2 decimals); null without checks. */
  uptime24h: number | null;
  /** Expiry of the TLS certificate (https monitors), when known. */
  tlsExpiresAt: number | null;
  /** ping: the latest check's round trips and loss (null before the first check since the server started). */
  ping: PingStats | null;
  /**
   * The last 24 hours as 24 hourly [checks, up] pairs, oldest first, the last one the current hour (from the
   * in-memory counters: the list's heartbeat strip).
   */
  heartbeat: [number, number][];
}

/** One check. */
export interface CheckResult {
  monitorId: number;
  /** When the check started. */
  time: number;
  status: "up" | "down";
  responseTime: number | null;
  httpStatus: number | null;
  /** "timeout after 10 s", "connection refused", "status 503, expected 2xx", "could not resolve host", "TLS error: …" */
  error: string | null;
  /** Made during maintenance (left out of uptime). */
  maintenance: boolean;
  /** ping checks: round trips and packet loss. */
  ping?: PingStats;
}

/** Aggregates over one window (spec §3 "history aggregates"). */
export interface HistoryWindow {
  from: number;
  to: number;
  /** Checks in the window. */
  total: number;
  up: number;
  down: number;
  /** Checks made in maintenance: left out of total, up, down and availability. */
  maintenance: number;
  avgResponseTime: number | null;
  minResponseTime: number | null;
  maxResponseTime: number | null;
  /** Stored records the window was computed from (raw results, plus hourly rollups for the 30-day window). */
  recordCount: number;
  /** up / total in percent, rounded down to 2 decimals; null without checks. */
  availability: number | null;
  /** The most recent check in the window. */
  latest: CheckResult | null;
  /** The most recent failure in the window that raw results still hold (they are kept 7 days). */
  error: { time: number; message: string } | null;
}

/** One slot of a status bar. */
export interface StatusBucket {
  start: number;
  end: number;
  total: number;
  up: number;
  down: number;
  /** Checks made in maintenance (not in total). */
  maintenance: number;
  availability: number | null;
  avgResponseTime: number | null;
  /** up: every check up; down: every check down; partial: both; maintenance: only checks in maintenance; empty: no checks. */
  status: "up" | "down" | "partial" | "maintenance" | "empty";
}

/**
 * `GET /api/monitors/:id/history`.
 * day: the 24 hours before now (exact, from raw results), in 24 one-hour slots ending now.
 * month: 30 days of whole hours ending with the current hour, in 30 slots of 24 hours (from hourly rollups + raw).
 */
export interface MonitorHistory {
  monitorId: number;
  now: number;
  day: HistoryWindow & { buckets: StatusBucket[] };
  month: HistoryWindow & { buckets: StatusBucket[] };
}

export type SeriesRange = "1h" | "6h" | "24h" | "7d" | "30d";
/** Every series range, shortest first (the order the chart offers them). */
export const SERIES_RANGES: readonly SeriesRange[] = ["1h", "6h", "24h", "7d", "30d"];

/**
 * `GET /api/monitors/:id/series?range=` — columnar, ready for uPlot (times in ms: set `ms: 1` on the uPlot options).
 * 1h, 6h, 24h: one point per check (resolution "raw"; up is 1 or 0; min/max equal the response time).
 * 7d / 30d: one point per hour, every hour of the range present (resolution "hour"; responseTimes is the hour's
 * average, up the fraction of checks up (0-1); nulls where the hour had no checks or no response times).
 */
export interface MonitorSeries {
  monitorId: number;
  range: SeriesRange;
  resolution: "raw" | "hour";
  from: number;
  to: number;
  times: number[];
  responseTimes: (number | null)[];
  minResponseTimes: (number | null)[];
  maxResponseTimes: (number | null)[];
  up: (number | null)[];
  /** Checks per point (raw: 1; hourly: those outside maintenance). */
  checks: number[];
  /** Checks made in maintenance per point (their `up` is left out of the hourly fraction). */
  maintenance: number[];
}

/** The monitor part of `GET /api/dashboard` (server/dashboard). up/down/pending count active monitors only. */
export interface DashboardCounts {
  totalMonitors: number;
  activeMonitors: number;
  pausedMonitors: number;
  up: number;
  down: number;
  pending: number;
  /** Active monitors in maintenance now (counted here instead of up, down or pending). */
  maintenance: number;
}

/** One of a monitor's last checks (the 50-cell strip): a CheckResult without the monitor id. */
export type RecentCheck = Omit<CheckResult, "monitorId">;

/** An active monitor that is down right now (the dashboard's triage list). */
export interface DownMonitor {
  id: number;
  name: string;
  /** The latest check's error (server/monitors/check-errors.ts sentences; the UI translates them). */
  error: string | null;
  /** When it went down. */
  since: number | null;
}

// ── Events (internal bus, and pushed to browsers on /api/live) ─────────────────────────────────────────────────

/** A monitor's status changed. The notifications feature subscribes to this. */
export interface MonitorStatusEvent {
  monitorId: number;
  name: string;
  type: MonitorType;
  /** What the notifications state: the target (PublicMonitor.target) and the answer that decided. */
  url: string;
  /** The type's facts for messages: port, record, keyword, last push time (labels in English; keys stable). */
  facts?: MonitorFacts;
  from: MonitorStatus;
  to: MonitorStatus;
  at: number;
  /** Going down: when the first failed check of the streak ran (before retries), so outages count from there. */
  failingSince?: number;
  /** Another node of the cluster made this check (it notifies; this node only shows it). */
  remote?: boolean;
  /** The monitor was in maintenance when this check ran: nothing is notified (server/notifications/rules.ts). */
  maintenance?: boolean;
  /** The check failed while a monitor this one depends on was down: nothing is notified until that one recovers. */
  unreachable?: boolean;
  error?: string | null;
  responseTime?: number | null;
  httpStatus?: number | null;
}

/** What a status message names beside the target, by type. */
export interface MonitorFacts {
  port?: number;
  /** ping: "3 packets, IPv4" and the loss threshold. */
  packets?: number;
  record?: string;
  resolver?: string;
  keyword?: string;
  jsonPath?: string;
  lastPushAt?: number | null;
}

/** A check finished and was applied (every scheduled or manual check). */
export interface MonitorCheckEvent {
  monitorId: number;
  result: CheckResult;
  /** The monitor's state after this check. */
  status: MonitorStatus;
  consecutiveFailures: number;
  uptime24h: number | null;
  /** push monitors: when the latest call came (this check's, unless it was a missed one); null for other types. */
  lastPushAt: number | null;
  /** Another node of the cluster made this check. */
  remote?: boolean;
}

/** A monitor was created, edited (pause/resume included) or deleted. `monitor` is absent for deletions. */
export interface MonitorChangeEvent {
  action: "created" | "updated" | "deleted";
  monitorId: number;
  monitor?: PublicMonitor;
  /** Another node of the cluster made this change. */
  remote?: boolean;
}

/**
 * Messages on the `/api/live` WebSocket (JSON text frames, one message per frame).
 * Connect to `/api/live?token=<session token>`; an invalid session is refused (HTTP 401 before the upgrade), and a
 * session that stops being valid later (expiry, sign-out elsewhere, disabled) is closed with code 4001. A session
 * held back until its user sets up two-factor sign-in (the instance requires it) is refused with 403
 * TWO_FACTOR_SETUP_REQUIRED, or closed with code 4003 when the requirement comes while it is open. Each message is
 * the caller's role's view, as REST replies show it (a viewer's monitors without credentials).
 */
export type LiveMessage =
  | { type: "hello"; data: { at: number } }
  | { type: "monitor.status"; data: MonitorStatusEvent }
  | { type: "monitor.check"; data: MonitorCheckEvent }
  | { type: "monitor.change"; data: MonitorChangeEvent };
