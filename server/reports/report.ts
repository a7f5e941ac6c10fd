// A report: who it is about (a monitor, a group's members, a tag's monitors, a status page's monitors), each
// monitor's numbers over the period, and a summary of them.
import type { PublicMonitor } from "../monitors/public";
import { notFound } from "../http/errors";
import { mergeHistogram } from "./histogram";
import { computeMonitors, percentiles, type ReportDeps } from "./compute";
import type { Period } from "./period";
import type { MonitorReport, Report, ReportStats, ReportTargetKind } from "./public";
import { addCounts, emptyCounts } from "./sources";

export interface TargetDeps {
  monitors: { list(): PublicMonitor[]; get(id: number): PublicMonitor | undefined };
  groups: { descendants(id: number): number[] };
  statusPages: { bySlug(slug: string): Promise<{ title: string; monitorIds: number[] } | undefined> };
}

/** The monitors a report covers (groups stand for their members), and the target's name. */
export async function resolveTarget(deps: TargetDeps, kind: ReportTargetKind, ref: string): Promise<{ name: string; monitors: PublicMonitor[] }> {
  const members = (ids: number[]) => {
    const all = new Set(ids.flatMap((id) => [id, ...deps.groups.descendants(id)]));
    return deps.monitors.list().filter((m) => all.has(m.id) && m.type !== "group");
  };
  const byId = () => {
    const m = /^\d{1,15}$/.test(ref) ? deps.monitors.get(Number(ref)) : undefined;
    if (!m || (kind === "group" && m.type !== "group")) throw notFound("MONITOR_NOT_FOUND", kind === "group" ? "Group not found" : "Monitor not found");
    return m;
  };
  if (kind === "monitor" || kind === "group") {
    const m = byId();
    return { name: m.name, monitors: m.type === "group" ? members([m.id]) : [m] };
  }
  if (kind === "tag") {
    const tag = ref.trim();
    const monitors = deps.monitors.list().filter((m) => m.type !== "group" && m.tags.some((t) => t === tag || t.split(":")[0] === tag));
    if (monitors.length === 0) throw notFound("TAG_NOT_FOUND", "No monitor has this tag");
    return { name: tag, monitors };
  }
  const page = await deps.statusPages.bySlug(ref);
  if (!page) throw notFound("STATUS_PAGE_NOT_FOUND", "Status page not found");
  return { name: page.title, monitors: members(page.monitorIds) };
}

function summaryOf(monitors: MonitorReport[], computed: Awaited<ReturnType<typeof computeMonitors>>): ReportStats {
  const total = emptyCounts();
  for (const c of computed.counts.values()) {
    addCounts(total, c);
    mergeHistogram(total.hist, c.hist);
  }
  const outages = monitors.flatMap((m) => m.outageList);
  const ended = outages.filter((o) => o.end !== null);
  const available = monitors.map((m) => m.availability).filter((a): a is number => a !== null);
  let upMs = 0;
  for (const { observedMs, maintenanceMs } of computed.upTime.values()) upMs += observedMs - maintenanceMs;
  const downtimeMs = outages.reduce((s, o) => s + o.downtimeMs, 0);
  return {
    availability: available.length ? Math.floor((available.reduce((a, b) => a + b, 0) / available.length) * 1000 + 1e-9) / 1000 : null,
    checks: total.checks,
    up: total.up,
    down: total.down,
    maintenanceChecks: total.maintenance,
    downtimeMs,
    outages: outages.length,
    mttrMs: ended.length ? Math.round(ended.reduce((s, o) => s + o.downtimeMs, 0) / ended.length) : null,
    mtbfMs: outages.length ? Math.round(Math.max(0, upMs - downtimeMs) / outages.length) : null,
    longestOutageMs: outages.length ? Math.max(...outages.map((o) => o.downtimeMs)) : null,
    avgResponseTime: total.rtCount > 0 ? Math.round(total.rtSum / total.rtCount) : null,
    ...percentiles(total.hist, total.rtMin, total.rtMax),
  };
}

export async function buildReport(
  deps: ReportDeps & TargetDeps,
  kind: ReportTargetKind,
  ref: string,
  period: Period,
  now: number,
): Promise<Report> {
  const target = await resolveTarget(deps, kind, ref);
  const computed = await computeMonitors(deps, target.monitors, period.from, period.to, now);
  const { plan } = computed;
  return {
    target: { kind, ref, name: target.name },
    period,
    generatedAt: now,
    granularity: plan.daily.length + plan.hourly.length > 0 ? "hour" : "checks",
    roundedToHour: plan.roundedToHour,
    summary: summaryOf(computed.monitors, computed),
    monitors: computed.monitors,
  };
}

