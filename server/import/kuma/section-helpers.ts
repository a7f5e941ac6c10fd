// Small readers the sections share: Kuma stores booleans as 0/1, JSON as text, and dates as wall-clock text in a zone.
import { note } from "./notes";
import type { ImportLinks, KumaSource, Note } from "./section";

export const bool = (v: unknown): boolean => v === true || v === 1 || v === "1" || v === "true";

export const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");

export const int = (v: unknown): number | null => {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() ? Number(v) : NaN;
  return Number.isFinite(n) ? Math.trunc(n) : null;
};

/** A JSON text column read as its value (an unparsable or empty text: `fallback`). */
export function json<T>(v: unknown, fallback: T): T {
  if (typeof v !== "string") return (v ?? fallback) as T;
  if (!v.trim()) return fallback;
  try {
    return JSON.parse(v) as T;
  } catch {
    return fallback;
  }
}

/** Cuts a text to `max` characters, saying so in `notes`. */
export function fit(text: string, max: number, what: "name" | "title" | "description" | "groupName" | "incidentText", notes: Note[]): string {
  if (text.length <= max) return text;
  notes.push(note(`cut.${what}`, { max }));
  return text.slice(0, max);
}

/**
 * Kuma's wall-clock date-times ("2026-12-12T22:00", "2026-12-12 22:00:00") read in an IANA zone, as Unix ms; null for
 * none or a text that is not one. Older Kuma may have kept an instant with its offset: taken as it is.
 */
export function wallTime(v: unknown, zone: string): number | null {
  // A date-time with its own offset ("…Z", "…+01:00") names an instant already.
  if (/(?:Z|[+-]\d{2}:?\d{2})$/i.test(str(v).trim()) && /T|\s/.test(str(v))) {
    const at = Date.parse(str(v).trim());
    return Number.isFinite(at) ? at : null;
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?/.exec(str(v).trim());
  if (!m) return null;
  try {
    // Seconds are left out: Kuma's windows are set to the minute.
    const [, year, month, day, hour, minute] = m.map(Number);
    return Temporal.PlainDateTime.from({ year: year!, month: month!, day: day!, hour: hour!, minute: minute! })
      .toZonedDateTime(zone, { disambiguation: "compatible" }).epochMilliseconds;
  } catch {
    return null;
  }
}

export function isTimeZone(zone: string): boolean {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Kuma's instance zone (setting "serverTimezone"), when it names a real zone. */
export function kumaServerZone(source: KumaSource): string | null {
  const row = source.rows("setting").find((r) => r.key === "serverTimezone");
  const zone = row ? json<unknown>(row.value, row.value) : null;
  return typeof zone === "string" && isTimeZone(zone) ? zone : null;
}

/** The Vigil monitor ids of Kuma monitor ids that came across (those the monitors section linked), in order, once. */
export function monitorTargets(links: ImportLinks, kumaIds: unknown[]): number[] {
  const ids: number[] = [];
  for (const k of kumaIds) {
    const id = links.target("monitor", str(k));
    if (id !== undefined && !ids.includes(id)) ids.push(id);
  }
  return ids;
}
