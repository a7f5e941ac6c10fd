// The notification screen's model: its tabs (in the URL), the settings forms' drafts and checks, the target lists'
// search. Pure functions; the screens are the *.tsx files beside it.
import type { AgentNotificationSettings, MonitorNotificationSettings, NotificationEventKind, PublicChannel } from "../../api/notifications";

// --- tabs ----------------------------------------------------------------------------------------------------------

export const TABS = ["channels", "escalation", "settings", "templates", "global", "monitors", "agents"] as const;
export type Tab = (typeof TABS)[number];

export interface NotificationsQuery {
  tab: Tab;
  /** The monitor or agent chosen on its tab (`&monitor=<id>`, `&agent=<id>`). */
  monitor: number | null;
  agent: number | null;
  /** The escalation policy being edited (`&policy=<id>`), or a new one (`&policy=new`). */
  policy: number | "new" | null;
}

const positiveId = (raw: string | null): number | null => {
  if (raw === null || !/^\d{1,15}$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 ? n : null;
};

/** `?tab=monitors&monitor=3` → its parts; an unknown or missing tab is the channels tab. */
export function parseQuery(search: string): NotificationsQuery {
  const params = new URLSearchParams(search);
  const raw = params.get("tab");
  const tab = (TABS as readonly string[]).includes(raw ?? "") ? (raw as Tab) : "channels";
  const policy = params.get("policy") === "new" ? "new" : positiveId(params.get("policy"));
  return { tab, monitor: positiveId(params.get("monitor")), agent: positiveId(params.get("agent")), policy };
}

const SELECTED_PARAM: Partial<Record<Tab, string>> = { monitors: "monitor", agents: "agent", escalation: "policy" };

/** The URL of a tab, with the chosen monitor, agent or policy of the tabs that have one. */
export function tabHref(tab: Tab, selected?: number | "new" | null): string {
  const params = new URLSearchParams({ tab });
  const param = SELECTED_PARAM[tab];
  if (selected && param) params.set(param, String(selected));
  return `/notifications?${params.toString()}`;
}

// --- channel health ------------------------------------------------------------------------------------------------

/** Whether the channel's latest send (a test or an alert) failed: no success since its last failure. */
export const lastSendFailed = ({ health: h }: Pick<PublicChannel, "health">) =>
  h.lastFailureAt !== null && (h.lastSuccessAt === null || h.lastFailureAt > h.lastSuccessAt);

/** What the list says of a channel: off; failing (3 in a row); its last send failed; working; or nothing tried yet. */
export function channelHealth(c: Pick<PublicChannel, "enabled" | "health">): "disabled" | "failing" | "failed" | "working" | "idle" {
  if (!c.enabled) return "disabled";
  if (c.health.failing) return "failing";
  if (lastSendFailed(c)) return "failed";
  return c.health.lastSuccessAt !== null ? "working" : "idle";
}

// --- settings drafts -----------------------------------------------------------------------------------------------

/** Limits the server enforces (server/notifications/routes.ts). */
export const REMINDER_MAX = 10_080;
export const THRESHOLD_MIN = 1;
export const THRESHOLD_MAX = 100;

/** The monitor part as the form holds it: numbers as typed. */
export interface MonitorDraft extends Omit<MonitorNotificationSettings, "reminderMinutes"> {
  reminderMinutes: string;
}

export interface AgentDraft extends Omit<AgentNotificationSettings, "thresholds" | "containers"> {
  thresholds: { cpu: string; memory: string; disk: string };
  /** Watched names as typed (comma-separated), restarts and minutes as typed. */
  containers: { watch: string; restarts: string; restartMinutes: string };
}

export const THRESHOLD_KEYS = ["cpu", "memory", "disk"] as const;
export const MONITOR_EVENTS = ["down", "recovery", "budget"] as const;
export const AGENT_EVENTS = ["offline", "online", "cpu", "memory", "disk", "container"] as const;

export type PartErrors = Partial<Record<"reminderMinutes" | "cpu" | "memory" | "disk" | "watch" | "restarts" | "restartMinutes", string>>;

export const monitorDraft = (s: MonitorNotificationSettings): MonitorDraft => ({
  enabled: s.enabled,
  channelIds: [...s.channelIds],
  events: { ...s.events },
  reminderMinutes: String(s.reminderMinutes ?? 0),
});

export const agentDraft = (s: AgentNotificationSettings): AgentDraft => ({
  enabled: s.enabled,
  channelIds: [...s.channelIds],
  events: { ...s.events },
  thresholds: { cpu: String(s.thresholds.cpu), memory: String(s.thresholds.memory), disk: String(s.thresholds.disk) },
  containers: { watch: s.containers.watch.join(", "), restarts: String(s.containers.restarts), restartMinutes: String(s.containers.restartMinutes) },
});

const watchedNames = (text: string) => [...new Set(text.split(",").map((n) => n.trim()).filter(Boolean))];

const wholeNumber = (raw: string): number | null => (/^\s*\d+\s*$/.test(raw) ? Number(raw) : null);
const percent = (raw: string): number | null => {
  const text = raw.trim();
  if (!/^\d+(\.\d+)?$/.test(text)) return null;
  const n = Number(text);
  return n >= THRESHOLD_MIN && n <= THRESHOLD_MAX ? n : null;
};

export function validateMonitorDraft(d: MonitorDraft): PartErrors {
  const minutes = wholeNumber(d.reminderMinutes);
  return minutes === null || minutes > REMINDER_MAX ? { reminderMinutes: "notifications.parts.reminderInvalid" } : {};
}

export function validateAgentDraft(d: AgentDraft): PartErrors {
  const errors: PartErrors = {};
  for (const key of THRESHOLD_KEYS) if (percent(d.thresholds[key]) === null) errors[key] = "notifications.parts.thresholdInvalid";
  const names = watchedNames(d.containers.watch);
  if (names.length > 100 || names.some((n) => n.length > 256)) errors.watch = "notifications.parts.watchInvalid";
  const restarts = wholeNumber(d.containers.restarts);
  if (restarts === null || restarts > 1000) errors.restarts = "notifications.parts.restartsInvalid";
  const minutes = wholeNumber(d.containers.restartMinutes);
  if (minutes === null || minutes < 1 || minutes > 1440) errors.restartMinutes = "notifications.parts.restartMinutesInvalid";
  return errors;
}

/** The API's monitor part; call after validateMonitorDraft found nothing. */
export const monitorSettings = (d: MonitorDraft): MonitorNotificationSettings => ({
  enabled: d.enabled,
  channelIds: [...d.channelIds],
  events: { ...d.events },
  reminderMinutes: wholeNumber(d.reminderMinutes) ?? 0,
});

export const agentSettings = (d: AgentDraft): AgentNotificationSettings => ({
  enabled: d.enabled,
  channelIds: [...d.channelIds],
  events: { ...d.events },
  thresholds: {
    cpu: percent(d.thresholds.cpu) ?? 90,
    memory: percent(d.thresholds.memory) ?? 90,
    disk: percent(d.thresholds.disk) ?? 90,
  },
  containers: {
    watch: watchedNames(d.containers.watch),
    restarts: wholeNumber(d.containers.restarts) ?? 3,
    restartMinutes: wholeNumber(d.containers.restartMinutes) ?? 10,
  },
});

/** Channel ids minus the ones that no longer exist (deleted meanwhile: the server would refuse CHANNEL_UNKNOWN). */
export const knownChannelIds = (ids: number[], existing: ReadonlySet<number>) => ids.filter((id) => existing.has(id));

// --- time zones ----------------------------------------------------------------------------------------------------

/** Whether the browser knows an IANA zone name (as the server checks it, with Intl). */
export function isTimeZone(zone: string): boolean {
  if (!zone.trim()) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone.trim() });
    return true;
  } catch {
    return false;
  }
}

/** Every zone the browser knows, for the picker's suggestions (empty where Intl cannot list them). */
export function timeZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  try {
    return intl.supportedValuesOf?.("timeZone") ?? [];
  } catch {
    return [];
  }
}

// --- target lists --------------------------------------------------------------------------------------------------

/** At most this many monitors or agents are listed at once; the search finds the others. */
export const TARGET_LIST_LIMIT = 100;

/**
 * The targets matching a search (every word in the name or the extra text, ignoring case), by name, and how many
 * matched in all: only the first `limit` are kept.
 */
export function searchTargets<T extends { id: number; name: string }>(
  items: readonly T[],
  query: string,
  extra: (item: T) => string,
  limit = TARGET_LIST_LIMIT,
): { shown: T[]; matched: number } {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = words.length
    ? items.filter((item) => {
        const text = `${item.name}\n${extra(item)}`.toLowerCase();
        return words.every((w) => text.includes(w));
      })
    : [...items];
  matches.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
  return { shown: matches.slice(0, limit), matched: matches.length };
}

// --- the delivery log ----------------------------------------------------------------------------------------------

/** The kinds of a message's events, each once, in order of appearance. */
export function eventKinds(events: { kind: NotificationEventKind }[]): NotificationEventKind[] {
  return [...new Set(events.map((e) => e.kind))];
}
