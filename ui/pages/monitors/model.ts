// Pure logic behind the monitor screens (unit-tested without a DOM): status display, live updates of the list, type
// facts and number formatting. The form's logic is in formModel.ts.
import { type MonitorChangeEvent, type MonitorCheckEvent, type MonitorStatusEvent, type PublicMonitor } from "../../api/monitors";
import { STATUS_FILTERS, type DisplayStatus } from "../../../server/monitors/list-view";

// ── Status (display status and the triage order are shared with the server's paged list) ───────────────────────

export { displayStatus, sortForTriage, STATUS_FILTERS, TRIAGE_ORDER, type DisplayStatus } from "../../../server/monitors/list-view";

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
    lastPushAt: event.lastPushAt,
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

// ── Type facts ──────────────────────────────────────────────────────────────────────────────────────────────────

/** What a push monitor's page shows: the URL scripts call and curl lines to paste into a cron job. */
export function pushUrl(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, "")}/api/push/${token}`;
}

export function pushExamples(url: string): { up: string; down: string; post: string } {
  return {
    up: `curl -fsS -m 10 --retry 3 "${url}"`,
    down: `curl -fsS -m 10 "${url}?status=down&msg=backup%20failed"`,
    post: `curl -fsS -m 10 -X POST "${url}"`,
  };
}

// ── Formatting ──────────────────────────────────────────────────────────────────────────────────────────────────

const usable = (n: number | null | undefined): n is number => typeof n === "number" && Number.isFinite(n);

/** 12.4 → "12 ms". */
/** A ping's round trip in ms: two decimals below 10 ms (a LAN's 0.04 ms), whole above. */
export const pingMs = (v: number | null, dash: string) => (v === null ? dash : `${v < 10 ? v.toFixed(2) : Math.round(v)} ms`);

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
