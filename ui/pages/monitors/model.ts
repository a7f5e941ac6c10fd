// Pure logic behind the monitor screens (unit-tested without a DOM): status display, live updates of the list, the
// form's values, validation matching the server's rules (server/monitors/schemas.ts), and number formatting.
import type { ParseKeys } from "i18next";
import type {
  MonitorChangeEvent,
  MonitorCheckEvent,
  MonitorHeader,
  MonitorInput,
  MonitorMethod,
  MonitorStatus,
  MonitorStatusEvent,
  PublicMonitor,
} from "../../api/monitors";
import { isValidExpectedStatus } from "../../../server/monitors/expected-status";

// ── Status ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** What a badge shows: a paused monitor is "paused" whatever its last verdict. */
export type DisplayStatus = MonitorStatus | "paused";

export function displayStatus(monitor: Pick<PublicMonitor, "active" | "status">): DisplayStatus {
  return monitor.active ? monitor.status : "paused";
}

/** The list's default order: what needs attention first (down, then pending), then up, then paused; by name within. */
const TRIAGE_ORDER: Record<DisplayStatus, number> = { down: 0, pending: 1, up: 2, paused: 3 };

export function sortForTriage<T extends Pick<PublicMonitor, "active" | "status" | "name" | "id">>(monitors: readonly T[]): T[] {
  return [...monitors].sort(
    (a, b) => TRIAGE_ORDER[displayStatus(a)] - TRIAGE_ORDER[displayStatus(b)] || a.name.localeCompare(b.name) || a.id - b.id,
  );
}

export const STATUS_FILTERS = ["down", "pending", "up", "paused"] as const satisfies readonly DisplayStatus[];

/** `?status=down` → "down"; anything else (absent, unknown) → null: no filter. */
export function parseStatusFilter(search: string): DisplayStatus | null {
  const value = new URLSearchParams(search).get("status");
  return (STATUS_FILTERS as readonly string[]).includes(value ?? "") ? (value as DisplayStatus) : null;
}

// ── Live updates ────────────────────────────────────────────────────────────────────────────────────────────────

/** A monitor after one of its checks (pushed or from a manual check). */
export function applyCheck(monitor: PublicMonitor, event: MonitorCheckEvent): PublicMonitor {
  if (monitor.id !== event.monitorId) return monitor;
  // A late message about an older check does not overwrite a newer one.
  if (monitor.lastCheckedAt !== null && event.result.time < monitor.lastCheckedAt) return monitor;
  const changed = event.status !== monitor.status;
  return {
    ...monitor,
    status: event.status,
    statusChangedAt: changed ? event.result.time : monitor.statusChangedAt,
    consecutiveFailures: event.consecutiveFailures,
    lastCheckedAt: event.result.time,
    responseTime: event.result.responseTime,
    httpStatus: event.result.httpStatus,
    lastError: event.result.error,
    uptime24h: event.uptime24h,
  };
}

export function applyStatus(monitor: PublicMonitor, event: MonitorStatusEvent): PublicMonitor {
  if (monitor.id !== event.monitorId || monitor.status === event.to) return monitor;
  return { ...monitor, status: event.to, statusChangedAt: event.at };
}

/** Replaces one monitor of a list; the same array when it is not there or unchanged. */
function replace(list: PublicMonitor[], id: number, update: (m: PublicMonitor) => PublicMonitor): PublicMonitor[] {
  const index = list.findIndex((m) => m.id === id);
  if (index === -1) return list;
  const next = update(list[index]);
  if (next === list[index]) return list;
  const copy = list.slice();
  copy[index] = next;
  return copy;
}

export type MonitorPush =
  | { type: "monitor.check"; data: MonitorCheckEvent }
  | { type: "monitor.status"; data: MonitorStatusEvent }
  | { type: "monitor.change"; data: MonitorChangeEvent };

/** Applies one pushed message to the list (kept in id order); returns the same array when nothing changed. */
export function applyPush(list: PublicMonitor[], push: MonitorPush): PublicMonitor[] {
  switch (push.type) {
    case "monitor.check":
      return replace(list, push.data.monitorId, (m) => applyCheck(m, push.data));
    case "monitor.status":
      return replace(list, push.data.monitorId, (m) => applyStatus(m, push.data));
    case "monitor.change": {
      const { action, monitorId, monitor } = push.data;
      if (action === "deleted") {
        return list.some((m) => m.id === monitorId) ? list.filter((m) => m.id !== monitorId) : list;
      }
      if (!monitor) return list;
      if (list.some((m) => m.id === monitorId)) return replace(list, monitorId, () => monitor);
      return [...list, monitor].sort((a, b) => a.id - b.id);
    }
  }
}

// ── Form ────────────────────────────────────────────────────────────────────────────────────────────────────────

/** Limits of server/monitors/schemas.ts. */
export const LIMITS = {
  nameLength: 100,
  urlLength: 2048,
  minInterval: 1,
  maxInterval: 1440,
  minTimeout: 1,
  maxTimeout: 60,
  maxRetries: 10,
  maxHeaders: 50,
  headerNameLength: 256,
  headerValueLength: 4096,
  bodyBytes: 64 * 1024,
} as const;

/** Headers fetch sets itself; the server refuses them. */
export const RESERVED_HEADERS = ["content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "te", "trailer"];

export interface HeaderRow extends MonitorHeader {
  /** A stable React key for the row. */
  key: number;
}

/** What the form edits: numbers as typed (strings), so a half-typed value is not lost. */
export interface MonitorFormValues {
  name: string;
  url: string;
  method: MonitorMethod;
  interval: string;
  timeout: string;
  expectedStatus: string;
  retries: string;
  followRedirects: boolean;
  active: boolean;
  headers: HeaderRow[];
  body: string;
}

export const methodHasBody = (method: MonitorMethod) => method !== "GET" && method !== "HEAD";

let rowKey = 0;
export const headerRow = (name = "", value = ""): HeaderRow => ({ key: ++rowKey, name, value });

/** A new monitor: the server's defaults. */
export function emptyForm(): MonitorFormValues {
  return {
    name: "",
    url: "",
    method: "GET",
    interval: "5",
    timeout: "30",
    expectedStatus: "2xx",
    retries: "1",
    followRedirects: true,
    active: true,
    headers: [],
    body: "",
  };
}

export function formFromMonitor(m: PublicMonitor): MonitorFormValues {
  return {
    name: m.name,
    url: m.url,
    method: m.method,
    interval: String(m.interval),
    timeout: String(m.timeout),
    expectedStatus: m.expectedStatus,
    retries: String(m.retries),
    followRedirects: m.followRedirects,
    active: m.active,
    headers: m.headers.map((h) => headerRow(h.name, h.value)),
    body: m.body ?? "",
  };
}

/** Field names for errors: the form's keys, and `headers.<row key>.name|value`. */
export type FormErrors = Partial<Record<string, ParseKeys>>;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7E\x80-\xFF]*$/;

/** A whole number written in plain digits (no "1e3", no "1.0"), or null. */
function wholeNumber(raw: string): number | null {
  const text = raw.trim();
  return /^\d{1,9}$/.test(text) ? Number(text) : null;
}

/** Whether a URL is one the server accepts: http or https, with a host, no spaces. */
export function isMonitorUrl(raw: string): boolean {
  const url = raw.trim();
  if (/\s/.test(url)) return false;
  try {
    const parsed = new URL(url);
    return (parsed.protocol === "http:" || parsed.protocol === "https:") && parsed.hostname !== "";
  } catch {
    return false;
  }
}

/** Header rows with both name and value empty are ignored (an "add header" clicked by mistake). */
const usedHeaders = (rows: HeaderRow[]) => rows.filter((h) => h.name.trim() !== "" || h.value !== "");

/** Every problem of the form, by field; empty when it can be sent. Messages are i18n keys. */
export function validateMonitorForm(v: MonitorFormValues): FormErrors {
  const errors: FormErrors = {};
  const name = v.name.trim();
  if (!name) errors.name = "monitors.validation.nameRequired";
  else if (name.length > LIMITS.nameLength) errors.name = "monitors.validation.nameTooLong";

  const url = v.url.trim();
  if (!url) errors.url = "monitors.validation.urlRequired";
  else if (url.length > LIMITS.urlLength) errors.url = "monitors.validation.urlTooLong";
  else if (!isMonitorUrl(url)) errors.url = "monitors.validation.urlInvalid";

  const interval = wholeNumber(v.interval);
  const intervalOk = interval !== null && interval >= LIMITS.minInterval && interval <= LIMITS.maxInterval;
  if (!intervalOk) errors.interval = "monitors.validation.intervalInvalid";

  const timeout = wholeNumber(v.timeout);
  if (timeout === null || timeout < LIMITS.minTimeout || timeout > LIMITS.maxTimeout) errors.timeout = "monitors.validation.timeoutInvalid";
  else if (intervalOk && timeout >= interval * 60) errors.timeout = "monitors.validation.timeoutTooLong";

  if (!isValidExpectedStatus(v.expectedStatus)) errors.expectedStatus = "monitors.validation.expectedStatusInvalid";

  const retries = wholeNumber(v.retries);
  if (retries === null || retries > LIMITS.maxRetries) errors.retries = "monitors.validation.retriesInvalid";

  const headers = usedHeaders(v.headers);
  if (headers.length > LIMITS.maxHeaders) errors.headers = "monitors.validation.tooManyHeaders";
  for (const h of headers) {
    const headerName = h.name.trim();
    if (!headerName) errors[`headers.${h.key}.name`] = "monitors.validation.headerNameRequired";
    else if (headerName.length > LIMITS.headerNameLength || !HEADER_NAME.test(headerName)) errors[`headers.${h.key}.name`] = "monitors.validation.headerNameInvalid";
    else if (RESERVED_HEADERS.includes(headerName.toLowerCase())) errors[`headers.${h.key}.name`] = "monitors.validation.headerReserved";
    if (h.value.length > LIMITS.headerValueLength || !HEADER_VALUE.test(h.value)) errors[`headers.${h.key}.value`] = "monitors.validation.headerValueInvalid";
  }

  if (methodHasBody(v.method) && new TextEncoder().encode(v.body).length > LIMITS.bodyBytes) errors.body = "monitors.validation.bodyTooLarge";
  return errors;
}

/** The order problems are reported in (the first one gets the focus). */
export const FIELD_ORDER = ["name", "url", "method", "interval", "timeout", "expectedStatus", "retries", "headers", "body"];

/** The payload for POST / PUT. Call only when `validateMonitorForm` found nothing. */
export function toMonitorInput(v: MonitorFormValues): Required<MonitorInput> {
  return {
    name: v.name.trim(),
    url: v.url.trim(),
    method: v.method,
    interval: Number(v.interval.trim()),
    timeout: Number(v.timeout.trim()),
    expectedStatus: v.expectedStatus.trim(),
    retries: Number(v.retries.trim()),
    followRedirects: v.followRedirects,
    active: v.active,
    headers: usedHeaders(v.headers).map((h) => ({ name: h.name.trim(), value: h.value })),
    // GET and HEAD cannot carry a body: a body typed before switching method is dropped, not refused.
    body: methodHasBody(v.method) && v.body !== "" ? v.body : null,
  };
}

// ── Formatting ──────────────────────────────────────────────────────────────────────────────────────────────────

const usable = (n: number | null | undefined): n is number => typeof n === "number" && Number.isFinite(n);

/** 12.4 → "12 ms". */
export function formatMs(ms: number | null | undefined, dash = "-"): string {
  return usable(ms) ? `${Math.round(ms).toLocaleString("en-US")} ms` : dash;
}

/** An availability: at most two decimals, trailing zeros dropped ("100%", "99.5%", "99.95%"). */
export function formatAvailability(percent: number | null | undefined, dash = "-"): string {
  if (!usable(percent)) return dash;
  // Floor, as the server does, so 99.999 never reads as 100 %.
  const floored = Math.floor(percent * 100 + 1e-9) / 100;
  return `${Number(floored.toFixed(2))}%`;
}

/** A TLS certificate shorter-lived than this gets a warning. */
export const TLS_WARN_DAYS = 14;

export type TlsLevel = "ok" | "warn" | "expired";

/** Whole days left (rounded down, negative once expired) and how worrying that is. */
export function tlsExpiry(expiresAt: number, now: number): { days: number; level: TlsLevel } {
  const days = Math.floor((expiresAt - now) / 86_400_000);
  const level: TlsLevel = expiresAt <= now ? "expired" : days < TLS_WARN_DAYS ? "warn" : "ok";
  return { days, level };
}
