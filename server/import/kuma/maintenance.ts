// Kuma maintenance → Vigil maintenance windows. Strategies: single → once, recurring-weekday → weekly,
// recurring-day-of-month → monthly, recurring-interval every day → daily, cron → cron, manual (while on) → manual;
// each in its time zone ("same as server": Kuma's serverTimezone), within Kuma's date range. A window covers the
// monitors Kuma's did; Vigil shows a window on the status pages that list those monitors (it has no list of pages).
import { eq } from "drizzle-orm";
import { first, type Orm } from "../../db/database";
import { MAINTENANCE_DESCRIPTION_MAX, MAINTENANCE_TITLE_MAX } from "../../maintenance/public";
import { MAX_DURATION_MINUTES, scheduleError, type Schedule } from "../../maintenance/schedule";
import { note } from "./notes";
import type { ApplyContext, ImportLinks, KumaSection, KumaSource, Note, PlanItem } from "./section";
import { bool, fit, int, isTimeZone, json, kumaServerZone, monitorTargets, str, wallTime } from "./section-helpers";

const KIND = "maintenance";
type Tables = ApplyContext["db"]["t"];

const empty = (zone: string): Schedule => ({
  kind: "once", startsAt: null, endsAt: null, time: null, weekdays: [], monthDays: [], cron: null, durationMinutes: null, timezone: zone, activeFrom: null, activeUntil: null,
});

const hhmm = (v: unknown) => {
  const m = /^(\d{1,2}):(\d{2})/.exec(str(v).trim());
  return m ? `${m[1]!.padStart(2, "0")}:${m[2]}` : null;
};

/** The length of one occurrence, in minutes: Kuma's duration (seconds), else end time minus start time. */
function durationOf(row: Record<string, unknown>): number | null {
  const seconds = int(row.duration);
  if (seconds !== null && seconds > 0) return Math.ceil(seconds / 60);
  const start = hhmm(row.start_time);
  const end = hhmm(row.end_time);
  if (!start || !end) return null;
  const minutes = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3));
  const d = minutes(end) - minutes(start);
  return d <= 0 ? d + 1440 : d;
}

interface Read {
  schedule: Schedule | null;
  /** Why it cannot come across (schedule null). */
  reason?: Note;
  notes: Note[];
}

/** The schedule of a Kuma maintenance row in Vigil's terms. `now`: a manual window starts when imported. */
export function readSchedule(row: Record<string, unknown>, serverZone: string | null, now: number): Read {
  const notes: Note[] = [];
  const named = str(row.timezone).trim();
  const zone = named && named !== "SAME_AS_SERVER" ? named : (serverZone ?? "UTC");
  if (!isTimeZone(zone)) return { schedule: null, reason: note("maintenance.zoneUnknown", { zone }), notes };
  if (!named || named === "SAME_AS_SERVER") notes.push(note("maintenance.serverZone", { zone }));
  const strategy = str(row.strategy);
  const active = row.active === undefined || bool(row.active);
  const s = empty(zone);
  const from = wallTime(row.start_date, zone);
  const until = wallTime(row.end_date, zone);

  if (strategy === "manual") {
    if (!active) return { schedule: null, reason: note("maintenance.manualOff"), notes };
    notes.push(note("maintenance.manualOn"));
    return { schedule: { ...s, kind: "manual", startsAt: now }, notes };
  }
  if (!active) return { schedule: null, reason: note("maintenance.paused"), notes };
  if (strategy === "single") {
    if (from === null || until === null) return { schedule: null, reason: note("maintenance.noDates"), notes };
    return { schedule: { ...s, kind: "once", startsAt: from, endsAt: until }, notes };
  }

  const durationMinutes = durationOf(row);
  const recurring = { ...s, durationMinutes, activeFrom: from, activeUntil: until };
  if (durationMinutes !== null && durationMinutes > MAX_DURATION_MINUTES) return { schedule: null, reason: note("maintenance.tooLong", { max: MAX_DURATION_MINUTES }), notes };
  if (strategy === "cron") return { schedule: { ...recurring, kind: "cron", cron: str(row.cron).trim() }, notes };
  const time = hhmm(row.start_time);
  if (strategy === "recurring-weekday") {
    // Kuma counts weekdays as cron does (0 = Sunday), Vigil as ISO (7 = Sunday).
    const weekdays = [...new Set(json<unknown[]>(row.weekdays, []).map((d) => int(d)).filter((d): d is number => d !== null).map((d) => (d === 0 ? 7 : d)))].sort((a, b) => a - b);
    return { schedule: { ...recurring, kind: "weekly", time, weekdays }, notes };
  }
  if (strategy === "recurring-day-of-month") {
    const days: number[] = [];
    for (const d of json<unknown[]>(row.days_of_month, [])) {
      if (d === "lastDay1") days.push(-1);
      else if (typeof d === "string" && d.startsWith("lastDay")) notes.push(note("maintenance.lastDay", { days: d.replace("lastDay", "") }));
      else if (int(d) !== null) days.push(int(d)!);
    }
    return { schedule: { ...recurring, kind: "monthly", time, monthDays: [...new Set(days)].sort((a, b) => a - b) }, notes };
  }
  if (strategy === "recurring-interval") {
    const every = int(row.interval_day) ?? 1;
    if (every !== 1) return { schedule: null, reason: note("maintenance.everyDays", { days: every }), notes };
    return { schedule: { ...recurring, kind: "daily", time }, notes };
  }
  return { schedule: null, reason: note("maintenance.strategy", { strategy }), notes };
}

function prepare(source: KumaSource, row: Record<string, unknown>, now: number) {
  const read = readSchedule(row, kumaServerZone(source), now);
  const error = read.schedule ? scheduleError(read.schedule) : null;
  const kumaMonitors = source.rows("monitor_maintenance").filter((r) => str(r.maintenance_id) === str(row.id)).map((r) => str(r.monitor_id));
  const notes = [...read.notes];
  const title = fit(str(row.title).trim() || `Kuma maintenance ${str(row.id)}`, MAINTENANCE_TITLE_MAX, "title", notes);
  const description = fit(str(row.description), MAINTENANCE_DESCRIPTION_MAX, "description", notes);
  let reason = read.reason ?? (error ? note("maintenance.invalid", { error }) : undefined);
  if (!reason && !kumaMonitors.length) reason = note("maintenance.noMonitors");
  return { schedule: read.schedule, reason, notes, title, description, kumaMonitors };
}

async function existing(q: Orm, t: Tables, links: ImportLinks, sourceId: string) {
  const id = links.target(KIND, sourceId);
  return id === undefined ? undefined : first(q.select().from(t.maintenanceWindows).where(eq(t.maintenanceWindows.id, id)));
}

/** The Kuma pages it was shown on, by slug, for the notes. */
function pagesOf(source: KumaSource, maintenanceId: string): string[] {
  const slugs = new Map(source.rows("status_page").map((p) => [str(p.id), str(p.slug)]));
  return source.rows("maintenance_status_page").filter((r) => str(r.maintenance_id) === maintenanceId).map((r) => slugs.get(str(r.status_page_id)) ?? str(r.status_page_id));
}

export const maintenanceSection: KumaSection = {
  kind: KIND,

  async plan(source, { db, links }) {
    const items: PlanItem[] = [];
    for (const row of source.rows("maintenance")) {
      const sourceId = str(row.id);
      const p = prepare(source, row, Date.now());
      const item: PlanItem = { kind: KIND, sourceId, name: p.title, action: "skip", notes: [] };
      if (p.reason) item.notes.push(p.reason);
      else {
        item.action = (await existing(db.orm, db.t, links, sourceId)) ? "update" : "create";
        item.notes.push(...p.notes, note("maintenance.covers", { count: p.kumaMonitors.length }));
        const pages = pagesOf(source, sourceId);
        if (pages.length) item.notes.push(note("maintenance.pages", { pages: pages.map((s) => `"${s}"`).join(", ") }));
      }
      items.push(item);
    }
    return items;
  },

  async apply(source, items, { tx, db, links, now }) {
    const t = db.t;
    const wanted = new Map(items.filter((i) => i.kind === KIND && i.action !== "skip").map((i) => [i.sourceId, i]));
    for (const row of source.rows("maintenance")) {
      const item = wanted.get(str(row.id));
      if (!item) continue;
      const p = prepare(source, row, now);
      if (!p.schedule || p.reason) throw new Error(`Kuma maintenance ${item.sourceId} no longer passes the checks it passed in the plan`);
      const found = await existing(tx, t, links, item.sourceId);
      let schedule = p.schedule;
      // A manual window imported before keeps the start it was given (or its end, if ended in Vigil).
      if (schedule.kind === "manual" && found?.kind === "manual") schedule = { ...schedule, startsAt: found.startsAt, endsAt: found.endsAt };
      const existingIds: number[] = [];
      for (const id of monitorTargets(links, p.kumaMonitors)) if (await first(tx.select({ id: t.monitors.id }).from(t.monitors).where(eq(t.monitors.id, id)))) existingIds.push(id);
      const missing = p.kumaMonitors.length - existingIds.length;
      if (missing) item.notes.push(note("maintenance.monitorsMissing", { count: missing }));
      if (!existingIds.length) {
        item.action = "skip";
        item.notes.push(note("maintenance.noneCame"));
        continue;
      }
      const values = { title: p.title, description: p.description, scope: "targets" as const, ...schedule, updatedAt: now };
      let id: number;
      if (found) {
        id = found.id;
        await tx.update(t.maintenanceWindows).set({ ...values, cutAt: null }).where(eq(t.maintenanceWindows.id, id));
      } else {
        const [made] = await tx.insert(t.maintenanceWindows).values({ ...values, createdAt: now }).returning({ id: t.maintenanceWindows.id });
        id = made!.id;
      }
      links.link(KIND, item.sourceId, id);
      // Its monitors are Kuma's; agents the user added in Vigil stay.
      await tx.delete(t.maintenanceMonitors).where(eq(t.maintenanceMonitors.windowId, id));
      await tx.insert(t.maintenanceMonitors).values(existingIds.map((monitorId) => ({ windowId: id, monitorId })));
    }
  },
};
