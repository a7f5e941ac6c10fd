import type { StatusIncident } from "../incidents/public";
import type { StatusMaintenance } from "../maintenance/public";

// Wire types of the status page (the UI imports them through ui/api/status.ts). The public view is purpose-built:
// names, statuses and aggregates of the selected items, nothing else — never URLs, hosts, addresses or credentials.

export const ANNOUNCEMENT_SEVERITIES = ["info", "warning", "outage"] as const;
/** public: anyone; password: anyone with the page's password, and signed-in users; private: signed-in users only. */
export const STATUS_VISIBILITIES = ["public", "password", "private"] as const;
export type StatusVisibility = (typeof STATUS_VISIBILITIES)[number];
export type AnnouncementSeverity = (typeof ANNOUNCEMENT_SEVERITIES)[number];

/** Limits of the configuration (the form enforces them too). */
export const STATUS_TITLE_MAX = 100;
export const STATUS_DESCRIPTION_MAX = 500;
export const ANNOUNCEMENT_MAX = 1000;
/** Monitors and agents a page may list. */
export const STATUS_ITEMS_MAX = 500;
export const STATUS_SLUG_MAX = 64;
export const STATUS_GROUP_NAME_MAX = 100;
export const STATUS_GROUPS_MAX = 50;
/** A logo: an https URL, or a data: URL of an image this long at most (≈ 150 KB of image). */
export const STATUS_LOGO_MAX = 200_000;
export const STATUS_PASSWORD_MIN = 6;
/** Slugs that name other things under /status and /api/status. */
/** The page at /status, which always exists. */
export const DEFAULT_STATUS_PAGE_ID = 1;

export const RESERVED_SLUGS: readonly string[] = ["config", "badge", "pages", "feed", "summary", "unlock", "new", "edit", "confirm", "unsubscribe", "subscriptions"];

/** A named group of a page's items, in order ("" is the unnamed group). */
export interface StatusPageGroup {
  name: string;
  items: { type: "monitor" | "agent"; id: number }[];
}

/** POST /api/status-pages, PUT /api/status-pages/:id (signed in). */
export interface StatusPageInput {
  slug: string;
  title: string;
  description: string;
  logo: string | null;
  customDomain: string | null;
  visibility: StatusVisibility;
  /** visibility "password": a new password (at least 6 characters); omitted keeps the current one. */
  password?: string;
  announcement: { severity: AnnouncementSeverity; text: string } | null;
  /** Monitors checked from several locations show each one's status and response time (omitted: unchanged, else off). */
  showLocations?: boolean;
  groups: StatusPageGroup[];
}

/** A page as the signed-in API shows it (never its password). */
export interface StatusPageSettings extends Omit<StatusPageInput, "password" | "announcement" | "showLocations"> {
  id: number;
  showLocations: boolean;
  isDefault: boolean;
  hasPassword: boolean;
  announcement: Announcement | null;
  /** Where it is public: /status for the default page, /status/{slug} for the others (and the custom domain's root). */
  url: string;
  /** A page that is not public: the secret of its feed link, or null (none; always null for viewers). */
  feedKey: string | null;
  /** The Atom and RSS addresses with the key, for feed readers (null without a key). */
  feedLinks: { atom: string; rss: string } | null;
  createdAt: number;
  updatedAt: number | null;
}

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
  /** Ids of the page's incidents affecting this monitor that were open some time that day (absent: none). */
  incidents?: number[];
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
  /** On a page that shows them, for a monitor checked from agents: each location's status and latest response time. */
  locations?: StatusLocation[];
  /** A group (its status follows them): its members, which the page opens the group's row to. */
  members?: StatusMember[];
}

/** A member of a group on a status page: its name, status and 24-hour availability (nested groups hold theirs). */
export interface StatusMember {
  id: number;
  name: string;
  status: PublicMonitorStatus;
  uptimeDay: number | null;
  members?: StatusMember[];
}

export interface StatusLocation {
  name: string;
  /** The Vigil server itself (the page names it in the reader's language). */
  server?: true;
  status: "up" | "down" | "no data";
  responseTime: number | null;
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

/** GET /api/status and /api/status/pages/{slug} (no sign-in, unless the page is private). */
export interface PublicStatusPage {
  slug: string;
  title: string;
  logo: string | null;
  /** Named groups of the items, in page order (only when the page has named groups): `monitors` and `agents` keep
   * the same items in the same order, ungrouped. */
  groups: StatusPageGroup[];
  description: string;
  announcement: Announcement | null;
  /** `operational` when nothing selected is down or offline. */
  overall: { status: "operational" | "degraded"; down: { id: number; name: string }[]; offline: { id: number; name: string }[] };
  monitors: StatusMonitor[];
  agents: StatusAgent[];
  /** Maintenance in progress, and coming within 7 days, of items on the page (soonest first). */
  maintenance: StatusMaintenance[];
  /** Open incidents (newest first), then those resolved in the last 90 days (newest first). */
  incidents: { open: StatusIncident[]; resolved: StatusIncident[] };
  /** When this view was built. */
  generatedAt: number;
}
