// What a caller may see of a monitor, by role: the one view REST replies and live messages share (DESIGN: one view per
// role). Admins and editors see it whole; a viewer (the read-only role) everything but what could be a credential —
// header values, the request body, a password in the URL, and a push monitor's token (which lets anyone report for it).
import type { Role } from "../users/public";
import type { MonitorChangeEvent, MonitorStatusEvent, PublicMonitor } from "./public";

export const HIDDEN = "••••";

function hideUserinfo(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    return `${u.protocol}//${HIDDEN}@${u.host}${u.pathname}${u.search}${u.hash}`;
  } catch {
    return url;
  }
}

/**
 * A monitor, or the fields of one an event carries, as `role` may see it. Whatever the caller may see whole comes back
 * as the same object (callers reuse what they built from it).
 */
export function monitorView<M extends Partial<PublicMonitor>>(role: Role, m: M): M {
  if (role !== "viewer") return m;
  const seen: Partial<PublicMonitor> = { ...m };
  if (m.url !== undefined) seen.url = hideUserinfo(m.url);
  // The target is the URL for http monitors (host:port or a DNS name otherwise, which this leaves alone).
  if (m.target !== undefined) seen.target = hideUserinfo(m.target);
  if (m.headers !== undefined) seen.headers = m.headers.map((h) => ({ ...h, value: HIDDEN }));
  if (m.body) seen.body = HIDDEN;
  if (m.pushToken !== undefined) seen.pushToken = null;
  if (m.settings !== undefined) seen.settings = settingsView(m.settings);
  return seen as M;
}

/**
 * A later type's settings as a viewer sees them (secrets are masked for everyone already): the values of its lists
 * of name/value pairs hidden, as http headers are (websocket headers, gRPC metadata, a browser path's typed text).
 */
function settingsView(settings: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...settings };
  for (const [key, value] of Object.entries(settings)) {
    if (!Array.isArray(value)) continue;
    out[key] = value.map((item) => (item && typeof item === "object" && "value" in item && (item as { value: unknown }).value !== "" ? { ...item, value: HIDDEN } : item));
  }
  return out;
}

/** monitor.status names the monitor's target (as `url`): shown as the monitor's view shows its target. */
export function monitorStatusView(role: Role, e: MonitorStatusEvent): MonitorStatusEvent {
  const { target } = monitorView(role, { target: e.url });
  return target === e.url ? e : { ...e, url: target };
}

/** monitor.change carries the monitor whole (but for deletions). */
export function monitorChangeView(role: Role, e: MonitorChangeEvent): MonitorChangeEvent {
  if (!e.monitor) return e;
  const monitor = monitorView(role, e.monitor);
  return monitor === e.monitor ? e : { ...e, monitor };
}
