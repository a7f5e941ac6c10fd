// A report's numbers for a set of monitors over a period: counts from the rollups (sources.ts), outages from
// monitor_outages plus a walk of the raw checks not walked yet (outages.ts), maintenance occurrences of the windows
// that covered each monitor, incidents, and per-location results.
import { and, eq, gt, inArray, isNull, lt, or } from "drizzle-orm";
import type { Db } from "../db/database";
import type { PublicMaintenance } from "../maintenance/public";
import { occurrencesAfter } from "../maintenance/schedule";
import type { PublicMonitor } from "../monitors/public";
import { percentile, type Histogram } from "./histogram";
import { openOutages, rawChecksOf, walkOutages, type OutageRun } from "./outages";
import type { MonitorReport, ReportMaintenance, ReportOutage, ReportStats } from "./public";
import { countsOf, planSources, sourceMarks, type Counts, type Plan } from "./sources";
import { locationsOf } from "./locations";

export interface ReportDeps {
  db: Db;
  maintenance: { list(): PublicMaintenance[] };
  groups: { ancestors(id: number): number[] };
}

type Interval = [number, number];

/** Sorted, merged intervals. */
function union(intervals: Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const [s, e] of [...intervals].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

const overlap = (intervals: Interval[], s: number, e: number) =>
  intervals.reduce((sum, [a, b]) => sum + Math.max(0, Math.min(b, e) - Math.max(a, s)), 0);

/** At most this many occurrences of one window in a period (a 15-minute daily cron over a year stays under it). */
const MAX_OCCURRENCES = 40_000;

/**
 * Occurrences of the windows covering monitor `id` (all, the monitor, or a group above it) within [from, to): a
 * window's past occurrences are computed from its schedule as it is now (a deleted window is no longer listed).
 */
function maintenanceOf(windows: PublicMaintenance[], id: number, ancestors: number[], from: number, to: number): ReportMaintenance[] {
  const out: ReportMaintenance[] = [];
  for (const w of windows) {
    if (w.scope !== "all" && !w.monitorIds.some((m) => m === id || ancestors.includes(m))) continue;
    // A recurring window did not run before it existed; once and manual windows name their own times.
    const recurring = w.schedule.kind !== "once" && w.schedule.kind !== "manual";
    const start = recurring ? Math.max(from, w.createdAt) : from;
    if (start >= to) continue;
    for (const o of occurrencesAfter(w.schedule, start, MAX_OCCURRENCES, w.cutAt)) {
      if (o.start >= to) break;
      const end = Math.min(o.end ?? to, to);
      if (end > start) out.push({ windowId: w.id, title: w.title, start: Math.max(o.start, start), end });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Outages of `ids` that overlap [from, to): stored ones, continued over the raw checks not walked yet. */
async function outagesOf(db: Db, ids: number[], from: number, to: number, walkedUntil: number | null, now: number): Promise<Map<number, OutageRun[]>> {
  const t = db.t.monitorOutages;
  const out = new Map<number, OutageRun[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const stored = await db.orm.select().from(t)
    .where(and(inArray(t.monitorId, ids), lt(t.startedAt, to), or(isNull(t.endedAt), gt(t.endedAt, from))));
  const liveFrom = walkedUntil ?? 0;
  const walk = liveFrom < Math.min(to, now + 1);
  const open = walk ? await openOutages(db, ids) : new Map<number, OutageRun>();
  // Open runs are taken from the walk below, which continues them (or returns nothing new when no check came).
  for (const r of stored) if (!(walk && r.endedAt === null)) out.get(r.monitorId)!.push(r);
  if (walk) {
    const checks = await rawChecksOf(db, ids, liveFrom, Number.MAX_SAFE_INTEGER);
    for (const id of ids) {
      const before = open.get(id);
      const runs = walkOutages(id, checks.get(id) ?? [], before ?? null);
      if (before && !runs.some((r) => r.startedAt === before.startedAt)) runs.unshift(before);
      out.get(id)!.push(...runs.filter((r) => r.startedAt < to && (r.endedAt === null || r.endedAt > from)));
    }
  }
  for (const list of out.values()) list.sort((a, b) => a.startedAt - b.startedAt);
  return out;
}

const mean = (values: number[]) => (values.length ? Math.round(values.reduce((a, b) => a + b, 0) / values.length) : null);
/** Percent with three decimals, rounded down: 99.9999 % is never shown as 100. */
export const percent = (up: number, total: number) => (total > 0 ? Math.floor((up / total) * 100_000 + 1e-9) / 1000 : null);

export function statsOf(c: Counts, outages: ReportOutage[], observedMs: number, maintenanceMs: number): ReportStats {
  const downtimeMs = outages.reduce((s, o) => s + o.downtimeMs, 0);
  const ended = outages.filter((o) => o.end !== null);
  return {
    availability: percent(c.up, c.checks),
    checks: c.checks,
    up: c.up,
    down: c.down,
    maintenanceChecks: c.maintenance,
    downtimeMs,
    outages: outages.length,
    mttrMs: mean(ended.map((o) => o.downtimeMs)),
    mtbfMs: outages.length ? Math.round(Math.max(0, observedMs - maintenanceMs - downtimeMs) / outages.length) : null,
    longestOutageMs: outages.length ? Math.max(...outages.map((o) => o.downtimeMs)) : null,
    avgResponseTime: c.rtCount > 0 ? Math.round(c.rtSum / c.rtCount) : null,
    ...percentiles(c.hist, c.rtMin, c.rtMax),
  };
}

export const percentiles = (h: Histogram, min: number | null, max: number | null) => ({
  p50: percentile(h, 0.5, min, max),
  p95: percentile(h, 0.95, min, max),
  p99: percentile(h, 0.99, min, max),
});

export interface Computed {
  plan: Plan;
  monitors: MonitorReport[];
  counts: Map<number, Counts>;
  /** Observed time (ms, maintenance left out) per monitor, for the summary's MTBF. */
  upTime: Map<number, { observedMs: number; maintenanceMs: number }>;
}

/** The report of each monitor over [from, to) at `now`. */
export async function computeMonitors(deps: ReportDeps, monitors: PublicMonitor[], from: number, to: number, now: number): Promise<Computed> {
  const { db } = deps;
  const ids = monitors.map((m) => m.id);
  const { marks, rawSince } = await sourceMarks(db, ids);
  const plan = planSources(from, to, marks, rawSince);
  const counts = await countsOf(db, ids, plan);
  const [mark] = await db.orm.select().from(db.t.settings).where(eq(db.t.settings.key, "reports.outages"));
  const outages = await outagesOf(db, ids, from, to, mark ? Number(mark.value) : null, now);
  const incidents = await incidentsOf(db, ids, from, to);
  const locations = await locationsOf(db, ids, from, to);
  const windows = deps.maintenance.list();
  const end = Math.min(to, now);
  const upTime = new Map<number, { observedMs: number; maintenanceMs: number }>();
  const reports = monitors.map((m): MonitorReport => {
    const maintenance = maintenanceOf(windows, m.id, deps.groups.ancestors(m.id), from, end);
    const inMaintenance = union(maintenance.map((w) => [w.start, w.end]));
    const outageList = outages.get(m.id)!.map((o): ReportOutage => {
      const s = Math.max(o.startedAt, from);
      const e = Math.min(o.endedAt ?? end, end);
      const maintenanceMs = overlap(inMaintenance, s, e);
      return { monitorId: m.id, start: o.startedAt, end: o.endedAt, downtimeMs: Math.max(0, e - s - maintenanceMs), maintenanceMs, failures: o.failures, cause: o.cause };
    });
    const observedMs = Math.max(0, end - Math.max(from, m.createdAt));
    const maintenanceMs = overlap(inMaintenance, Math.max(from, m.createdAt), end);
    upTime.set(m.id, { observedMs, maintenanceMs });
    return {
      id: m.id,
      name: m.name,
      type: m.type,
      ...statsOf(counts.get(m.id)!, outageList, observedMs, maintenanceMs),
      outageList,
      maintenance,
      incidents: incidents.get(m.id) ?? [],
      locations: locations.get(m.id) ?? [],
    };
  });
  return { plan, monitors: reports, counts, upTime };
}

async function incidentsOf(db: Db, ids: number[], from: number, to: number) {
  const out = new Map<number, MonitorReport["incidents"]>();
  if (ids.length === 0) return out;
  const { incidents: i, incidentMonitors: im } = db.t;
  const rows = await db.orm
    .select({ monitorId: im.monitorId, id: i.id, title: i.title, impact: i.impact, createdAt: i.createdAt, resolvedAt: i.resolvedAt })
    .from(im).innerJoin(i, eq(i.id, im.incidentId))
    .where(and(inArray(im.monitorId, ids), lt(i.createdAt, to), or(isNull(i.resolvedAt), gt(i.resolvedAt, from))))
    .orderBy(i.createdAt);
  for (const { monitorId, ...incident } of rows) {
    let list = out.get(monitorId);
    if (!list) out.set(monitorId, (list = []));
    list.push(incident);
  }
  return out;
}
