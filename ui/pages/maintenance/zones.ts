// Wall-clock times in a chosen IANA zone ↔ instants, for the maintenance form (the server works in instants and reads
// recurring times in the zone itself). Only Intl's zone data is used, so the browser and the server agree on the
// rules; a wall time that does not exist (the hour skipped in spring) moves forward by the gap and one that occurs
// twice (autumn) is the earlier one — the same choice the server makes for recurring windows ("compatible").

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall clock in `zone` at instant `ms`, as UTC fields (a "UTC-as-local" number). */
function wallMs(ms: number, zone: string): number {
  const p: Record<string, number> = {};
  for (const part of partsFormatter(zone).formatToParts(ms)) if (part.type !== "literal") p[part.type] = Number(part.value);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
}

/** The zone's offset from UTC at instant `ms`, in ms (Berlin in winter: +3 600 000). */
const offsetAt = (ms: number, zone: string) => wallMs(Math.floor(ms / 1000) * 1000, zone) - Math.floor(ms / 1000) * 1000;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** Whether the browser knows this zone. */
export function isKnownZone(zone: string): boolean {
  try {
    partsFormatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** "2026-03-29T02:30" read in `zone` → Unix ms; null when the text is not such a time. */
export function wallToInstant(wall: string, zone: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(wall);
  if (!m) return null;
  const local = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  if (Number.isNaN(local)) return null;
  const DAY = 86_400_000;
  const before = local - offsetAt(local - DAY, zone);
  const after = local - offsetAt(local + DAY, zone);
  const fits = (t: number) => wallMs(t, zone) === local;
  if (fits(before) && fits(after)) return Math.min(before, after); // twice: the earlier
  if (fits(before)) return before;
  if (fits(after)) return after;
  return Math.max(before, after); // skipped: forward by the gap
}

/** Unix ms → "2026-03-29T03:30" on the wall clock in `zone` (what a datetime-local input holds). */
export function instantToWall(ms: number, zone: string): string {
  const d = new Date(wallMs(ms, zone));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** "2026-03-29" (a date input) → the instant its day starts in `zone`. */
export const dateToInstant = (date: string, zone: string) => (/^\d{4}-\d{2}-\d{2}$/.test(date) ? wallToInstant(`${date}T00:00`, zone) : null);

/** Unix ms → "2026-03-29" in `zone`. */
export const instantToDate = (ms: number, zone: string) => instantToWall(ms, zone).slice(0, 10);

/** The browser's zone. */
export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** Every zone the browser knows, UTC first. */
export function zoneList(): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return ["UTC", ...zones.filter((z) => z !== "UTC")];
}
