// What a message template sees: the event's fields, named and documented once here (the UI lists TEMPLATE_VARIABLES
// beside the editor), and the sample events the preview renders.
import { containerProblem, formatDuration, formatTime, translateError } from "./messages";
import type { NotificationMessage } from "./providers/provider";
import type { NotificationEvent, NotificationEventKind, NotificationLanguage } from "./public";
import type { SampleCheckType } from "./template-vars";
export { SAMPLE_CHECK_TYPES, TEMPLATE_KINDS, TEMPLATE_VARIABLES, type SampleCheckType } from "./template-vars";

/** One event as a template sees it (also each item of `events`). */
export interface TemplateEvent {
  kind: NotificationEventKind;
  /** down | up | offline | online | high | test */
  status: string;
  target: { type: string; id: number; name: string; url: string };
  /** The error in the instance's language, or "91.5% ≥ 90%" for a usage alert; empty otherwise. */
  reason: string;
  /** "2026-11-23 11:02:03 (UTC+08:00)" in the instance's zone. */
  time: string;
  /** ISO 8601, UTC. */
  timestamp: string;
  /** The signed link acknowledging the alert's problem (also facts.ackUrl); empty when it has none. */
  ackUrl: string;
  facts: Record<string, string | number | null>;
}

const STATUS: Record<NotificationEventKind, string> = {
  down: "down",
  reminder: "down",
  recovery: "up",
  offline: "offline",
  online: "online",
  cpu: "high",
  memory: "high",
  disk: "high",
  container: "trouble",
  budget: "burning",
  test: "test",
};

const pct = (v: number) => `${Math.round(v * 10) / 10}%`;

/** The page of the event's target in Vigil, when the instance knows its public address (--public-url). */
function pageUrl(e: NotificationEvent, baseUrl: string | undefined): string {
  if (!baseUrl || e.target.type === "channel") return "";
  return `${baseUrl.replace(/\/+$/, "")}/${e.target.type === "monitor" ? "monitors" : "agents"}/${e.target.id}`;
}

export function templateEvent(e: NotificationEvent, lang: NotificationLanguage, timeZone: string, baseUrl?: string): TemplateEvent {
  const f = e.facts;
  const error = f.error ? translateError(f.error, lang) : null;
  const facts: Record<string, string | number | null> = {};
  for (const [key, value] of Object.entries(f)) if (value !== undefined && typeof value !== "object") facts[key] = value as string | number;
  if (f.error !== undefined) facts.error = error;
  if (f.httpStatus !== undefined) facts.httpStatus = f.httpStatus;
  if (f.responseTime !== undefined) facts.responseTime = f.responseTime;
  if (f.address !== undefined) facts.address = f.address;
  if (f.lastSeenAt !== undefined) facts.lastSeen = f.lastSeenAt === null ? null : formatTime(f.lastSeenAt, timeZone);
  if (f.lastPushAt !== undefined) facts.lastPush = f.lastPushAt === null ? null : formatTime(f.lastPushAt, timeZone);
  delete facts.lastSeenAt;
  delete facts.lastPushAt;
  if (f.downtimeSeconds !== undefined) facts.downtime = formatDuration(f.downtimeSeconds, lang);
  return {
    kind: e.kind,
    status: STATUS[e.kind],
    target: { type: e.target.type, id: e.target.id, name: e.target.name, url: pageUrl(e, baseUrl) },
    reason: error ?? (f.usage !== undefined ? `${pct(f.usage)} ≥ ${pct(f.threshold ?? 0)}` : f.containerProblem ? containerProblem(e, lang) : ""),
    time: formatTime(e.time, timeZone),
    timestamp: new Date(e.time).toISOString(),
    ackUrl: f.ackUrl ?? "",
    facts,
  };
}

/**
 * The variables of one message: its first event's fields at the top, every event in `events` (a storm groups
 * several into one message), and the built-in `title` and `body`, so a template can wrap rather than rewrite them.
 */
export function templateScope(message: NotificationMessage, timeZone: string, baseUrl?: string): Record<string, unknown> {
  const events = message.events.map((e) => templateEvent(e, message.lang, timeZone, baseUrl));
  return { ...events[0], events, count: events.length, title: message.title, body: message.lines.join("\n"), severity: message.severity, lang: message.lang };
}

const SAMPLE_TIME = Date.UTC(2026, 10, 23, 3, 2, 3);

/** The sample monitors, by type: the target line and failure a real alert of that type would carry. */
const SAMPLE_MONITORS = {
  http: { name: "Shop API", target: "https://shop.example.com/health", httpStatus: 503, error: "status 503, expected 200-299", errorCode: "STATUS", ok: 200 },
  postgres: { name: "Orders DB", target: "db.example.com:5432/orders", httpStatus: null, error: "authentication failed", errorCode: "AUTH_FAILED", ok: null },
} as const satisfies Record<SampleCheckType, unknown>;

/** The kinds that raise an open problem: their alerts (and reminders) carry a link acknowledging it. */
const ACKABLE = new Set<NotificationEventKind>(["down", "reminder", "offline", "cpu", "memory", "disk", "container", "budget"]);

/**
 * A sample event of each kind for the preview: the names and facts a real one would carry. A monitor's kinds have a
 * sample of each of SAMPLE_CHECK_TYPES (HTTP unless asked). With the instance's public address, the kinds that raise a
 * problem carry a sample acknowledgement link, as real ones then do.
 */
export function sampleEvent(kind: NotificationEventKind, checkType: SampleCheckType = "http", baseUrl?: string): NotificationEvent {
  const event = sampleOf(kind, checkType);
  if (!baseUrl || !ACKABLE.has(kind)) return event;
  return { ...event, facts: { ...event.facts, ackUrl: `${baseUrl.replace(/\/+$/, "")}/ack/eyJhbGciOiJIUzI1NiJ9.sample.link` } };
}

function sampleOf(kind: NotificationEventKind, checkType: SampleCheckType): NotificationEvent {
  const m = SAMPLE_MONITORS[checkType];
  const monitor = { type: "monitor" as const, id: 12, name: m.name };
  const monitorFacts = { url: m.target, target: m.target, checkType };
  const agent = { type: "agent" as const, id: 3, name: "web-01" };
  const agentFacts = { hostname: "web-01.example.com" };
  switch (kind) {
    case "down":
    case "reminder":
      return { kind, target: monitor, time: SAMPLE_TIME, facts: { ...monitorFacts, httpStatus: m.httpStatus, error: m.error, errorCode: m.errorCode, responseTime: 182 } };
    case "recovery":
      return { kind, target: monitor, time: SAMPLE_TIME, facts: { ...monitorFacts, httpStatus: m.ok, responseTime: 96, downtimeSeconds: 754 } };
    case "offline":
      return { kind, target: agent, time: SAMPLE_TIME, facts: { ...agentFacts, lastSeenAt: SAMPLE_TIME - 95_000, address: "203.0.113.7" } };
    case "online":
      return { kind, target: agent, time: SAMPLE_TIME, facts: { ...agentFacts, downtimeSeconds: 310 } };
    case "cpu":
    case "memory":
      return { kind, target: agent, time: SAMPLE_TIME, facts: { ...agentFacts, usage: 93.4, threshold: 90 } };
    case "disk":
      return { kind, target: agent, time: SAMPLE_TIME, facts: { ...agentFacts, usage: 91.2, threshold: 90, mountPoint: "/var" } };
    case "container":
      return { kind, target: agent, time: SAMPLE_TIME, facts: { ...agentFacts, container: "web", image: "nginx:1.27", containerProblem: "restarts", containerState: "running", restarts: 4, windowMinutes: 10 } };
    case "budget":
      return {
        kind,
        target: { type: "monitor", id: 7, name: "Shop" },
        time: SAMPLE_TIME,
        facts: { objective: 99.9, objectiveDays: 30, budgetRemaining: 62.5, burnRate: 16.2, burnHours: 1, burnThreshold: 14.4, budgetState: "burning-fast" },
      };
    case "test":
      return { kind, target: { type: "channel", id: 1, name: "Ops" }, time: SAMPLE_TIME, facts: {} };
  }
}
