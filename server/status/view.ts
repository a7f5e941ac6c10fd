// The public view of the status page, built from what is already kept: the monitors' in-memory state (status, 24-hour
// ring), the daily and hourly rollups plus the raw results not rolled up yet (three grouped queries for every selected
// monitor at once), and the agents' latest reports. Only names, statuses and aggregates go in.
import { sql } from "drizzle-orm";
import type { AgentState } from "../agents/service";
import type { Db } from "../db/database";
import { checkRows } from "../monitors/check-rows";
import { readWatermarks } from "../monitors/history";
import { COUNTED, COUNTED_UP, DAY, HOUR, IN_MAINTENANCE } from "../monitors/rollup-sql";
import { percent } from "../monitors/store";
import type { MonitorEntry } from "../monitors/store";
import type { MaintenanceService } from "../maintenance/service";
import type { StatusMaintenance } from "../maintenance/public";
import type { PublicMonitorStatus, PublicStatusPage, StatusAgent, StatusDay, StatusLocation, StatusMember, StatusMonitor } from "./public";
import type { PublicIncident, StatusIncident } from "../incidents/public";
import { DEFAULT_PAGE_ID, type StoredPage } from "./store";

/**
 * The incidents a page shows: those affecting one of its monitors or agents, those posted on it, and — on the default
 * page — those that name neither targets nor pages (instance-wide).
 */
export function incidentsOf(page: StoredPage, incidents: PublicIncident[]): PublicIncident[] {
  const monitors = new Set(page.monitorIds);
  const agents = new Set(page.agentIds);
  return incidents.filter(
    (x) =>
      x.pageIds.includes(page.id) ||
      x.monitorIds.some((id) => monitors.has(id)) ||
      x.agentIds.some((id) => agents.has(id)) ||
      (page.id === DEFAULT_PAGE_ID && !x.monitorIds.length && !x.agentIds.length && !x.pageIds.length),
  );
}

/** Daily bars on the page. */
export const STATUS_DAYS = 90;

export interface ViewSources {
  db: Db;
  monitor: (id: number) => MonitorEntry | undefined;
  /** A group's direct members (server/monitors/groups.ts); none for other monitors. */
  members?: (id: number) => number[];
  uptime24h: (entry: MonitorEntry, now: number) => number | null;
  agent: (id: number) => AgentState | undefined;
  /** Whether a monitor or agent is in maintenance now. */
  inMaintenance: (type: "monitor" | "agent", id: number) => boolean;
  /** Windows in progress or coming soon that cover items of the page. */
  maintenance: MaintenanceService["around"];
  /** Each location of a monitor checked from agents (null: checked from the server alone). */
  locations?: (monitorId: number) => Promise<StatusLocation[] | null>;
  /** Writes the check results still queued, so today's bar includes the latest checks. */
  flush: () => Promise<unknown>;
}

interface Piece {
  monitorId: number;
  start: number;
  checks: number;
  up: number;
  maintenance: number;
  rtSum: number;
  rtCount: number;
}

interface Acc {
  checks: number;
  up: number;
  maintenance: number;
  rtSum: number;
  rtCount: number;
}

const emptyAcc = (): Acc => ({ checks: 0, up: 0, maintenance: 0, rtSum: 0, rtCount: 0 });
const add = (acc: Acc, p: Piece) => {
  acc.checks += p.checks;
  acc.up += p.up;
  acc.maintenance += p.maintenance;
  acc.rtSum += p.rtSum;
  acc.rtCount += p.rtCount;
};
const avg = (a: Acc) => (a.rtCount > 0 ? Math.round(a.rtSum / a.rtCount) : null);
const floorTo = (t: number, unit: number) => Math.floor(t / unit) * unit;

/** The monitors of one page. */
const selected = (pageId: number) => sql`monitor_id IN (SELECT monitor_id FROM status_page_monitors WHERE page_id = ${pageId})`;
// Quoted aliases: PostgreSQL would fold them to lower case.
const COLUMNS = sql`monitor_id AS "monitorId", bucket_start AS "start", checks, up, maintenance, rt_sum AS "rtSum", rt_count AS "rtCount"`;
/** The hour as a constant in the SQL text, so GROUP BY matches the selected expression on PostgreSQL. */
const HOUR_SQL = sql.raw(String(HOUR));

/** How far ahead the page announces maintenance. */
export const MAINTENANCE_HORIZON_MS = 7 * DAY;

export function createViewBuilder(sources: ViewSources) {
  const { db, monitor, uptime24h, agent, inMaintenance, maintenance, flush } = sources;
  const statusOf = (entry: MonitorEntry): PublicMonitorStatus =>
    !entry.fields.active ? "paused" : inMaintenance("monitor", entry.id) ? "maintenance" : entry.state.status;

  /** A group's members as its row opens to them (names, statuses and 24-hour availability only). */
  function membersOf(id: number, now: number, depth = 0): StatusMember[] {
    const out: StatusMember[] = [];
    for (const m of sources.members?.(id) ?? []) {
      const entry = monitor(m);
      if (!entry) continue;
      const member: StatusMember = { id: m, name: entry.fields.name, status: statusOf(entry), uptimeDay: uptime24h(entry, now) };
      if (entry.fields.type === "group" && depth < 32) member.members = membersOf(m, now, depth + 1);
      out.push(member);
    }
    return out;
  }
  /**
   * Per selected monitor: its pieces of history from `from` to now — whole days before the daily watermark, hours
   * up to the hourly one, then hours grouped from the raw results.
   */
  async function pieces(pageId: number, from: number, hoursFrom: number) {
    const SELECTED = selected(pageId);
    const wm = await readWatermarks(db);
    const dailyWm = Math.max(from, wm.daily ?? from);
    const hourlyWm = Math.max(dailyWm, wm.hourly ?? dailyWm);
    const [days, hours, raw] = await Promise.all([
      db.rows<Piece>(sql`SELECT ${COLUMNS} FROM monitor_daily WHERE ${SELECTED} AND bucket_start >= ${from} AND bucket_start < ${dailyWm}`),
      db.rows<Piece>(sql`SELECT ${COLUMNS} FROM monitor_hourly WHERE ${SELECTED} AND bucket_start >= ${Math.min(dailyWm, hoursFrom)} AND bucket_start < ${hourlyWm}`),
      db.rows<Piece>(
        sql`SELECT monitor_id AS "monitorId", (time / ${HOUR_SQL}) * ${HOUR_SQL} AS "start", ${COUNTED} AS checks,
              ${COUNTED_UP} AS up, ${IN_MAINTENANCE} AS maintenance, coalesce(sum(response_time), 0) AS "rtSum", count(response_time) AS "rtCount"
            FROM ${checkRows(db.engine, hourlyWm)} WHERE ${SELECTED} AND time >= ${hourlyWm} GROUP BY monitor_id, time / ${HOUR_SQL}`,
      ),
    ]);
    return { days, hours, raw, dailyWm };
  }

  async function monitors(pageId: number, ids: number[], now: number, incidents: PublicIncident[]): Promise<StatusMonitor[]> {
    const today = floorTo(now, DAY);
    const from = today - (STATUS_DAYS - 1) * DAY;
    const sparkFrom = floorTo(now, HOUR) - 23 * HOUR;
    await flush();
    const { days, hours, raw, dailyWm } = await pieces(pageId, from, sparkFrom);

    const dayAccs = new Map<number, Acc[]>();
    const hourAccs = new Map<number, Acc[]>();
    for (const id of ids) {
      dayAccs.set(id, Array.from({ length: STATUS_DAYS }, emptyAcc));
      hourAccs.set(id, Array.from({ length: 24 }, emptyAcc));
    }
    const toDay = (p: Piece) => {
      const i = Math.floor((p.start - from) / DAY);
      const acc = dayAccs.get(p.monitorId)?.[i];
      if (acc) add(acc, p);
    };
    const toHour = (p: Piece) => {
      const i = (p.start - sparkFrom) / HOUR;
      const acc = i >= 0 ? hourAccs.get(p.monitorId)?.[i] : undefined;
      if (acc) add(acc, p);
    };
    for (const p of days) toDay(p);
    for (const p of [...hours, ...raw]) {
      // Hours before the daily watermark are in the daily rows already; they only feed the sparkline.
      if (p.start >= dailyWm) toDay(p);
      toHour(p);
    }

    const out: StatusMonitor[] = [];
    for (const id of ids) {
      const entry = monitor(id);
      if (!entry) continue;
      const dayList = dayAccs.get(id)!;
      /** Availability over the last n days (today so far included). */
      const lastDays = (n: number) => {
        let up = 0;
        let checks = 0;
        for (const d of dayList.slice(STATUS_DAYS - n)) {
          up += d.up;
          checks += d.checks;
        }
        return percent(up, checks);
      };
      const mine = incidents.filter((x) => x.monitorIds.includes(id));
      const statusDays: StatusDay[] = dayList.map((d, i) => {
        const date = from + i * DAY;
        // The incidents open some time that day (an open one runs until now).
        const open = mine.filter((x) => x.createdAt < date + DAY && (x.resolvedAt ?? now) >= date).map((x) => x.id);
        return { date, checks: d.checks, maintenance: d.maintenance, availability: percent(d.up, d.checks), avgResponseTime: avg(d), ...(open.length ? { incidents: open } : {}) };
      });
      const hourList = hourAccs.get(id)!;
      out.push({
        id,
        name: entry.fields.name,
        status: statusOf(entry),
        uptime: { day: uptime24h(entry, now), month: lastDays(30), quarter: lastDays(STATUS_DAYS) },
        days: statusDays,
        responseTimes: { times: hourList.map((_, i) => sparkFrom + i * HOUR), values: hourList.map(avg) },
        ...(entry.fields.type === "group" ? { members: membersOf(id, now) } : {}),
      });
    }
    return out;
  }

  function agents(ids: number[]): StatusAgent[] {
    const out: StatusAgent[] = [];
    for (const id of ids) {
      const a = agent(id);
      if (!a) continue;
      const s = a.latest;
      out.push({
        id,
        name: a.name,
        status: inMaintenance("agent", id) ? "maintenance" : a.status,
        cpu: s ? s.cpu.usage : null,
        memory: s ? s.memory.usageRate : null,
        disk: s && s.disks.length ? Math.max(...s.disks.map((d) => d.usageRate)) : null,
        load: s ? { one: s.load.one, five: s.load.five, fifteen: s.load.fifteen } : null,
        uptime: a.lastSeenAt ? a.uptime : null,
        lastSeenAt: a.lastSeenAt,
      });
    }
    return out;
  }

  return {
    async build(config: StoredPage, now: number, allIncidents: PublicIncident[]): Promise<PublicStatusPage> {
      const incidents = incidentsOf(config, allIncidents);
      const ms = config.monitorIds.length ? await monitors(config.id, config.monitorIds, now, incidents) : [];
      const as = config.agentIds.length ? agents(config.agentIds) : [];
      if (config.showLocations && sources.locations) {
        for (const m of ms) {
          const locations = await sources.locations(m.id);
          if (locations) m.locations = locations;
        }
      }
      const down = ms.filter((m) => m.status === "down").map(({ id, name }) => ({ id, name }));
      const offline = as.filter((a) => a.status === "offline").map(({ id, name }) => ({ id, name }));
      const names = new Map<string, string>([...ms.map((m) => [`m${m.id}`, m.name] as const), ...as.map((a) => [`a${a.id}`, a.name] as const)]);
      const windows: StatusMaintenance[] = maintenance(config.monitorIds, config.agentIds, MAINTENANCE_HORIZON_MS).map(({ window: w, monitorIds, agentIds }) => {
        const occurrence = (w.current ?? w.next)!;
        return {
          id: w.id,
          title: w.title,
          description: w.description,
          state: w.current ? "active" : "upcoming",
          start: occurrence.start,
          end: occurrence.end,
          affects: [...monitorIds.map((id) => names.get(`m${id}`)), ...agentIds.map((id) => names.get(`a${id}`))].filter((n): n is string => n !== undefined),
        };
      });
      const affects = (x: PublicIncident) => [...x.monitorIds.map((id) => names.get(`m${id}`)), ...x.agentIds.map((id) => names.get(`a${id}`))].filter((n): n is string => n !== undefined);
      const shown = (x: PublicIncident): StatusIncident => ({
        id: x.id,
        title: x.title,
        impact: x.impact,
        state: x.state,
        createdAt: x.createdAt,
        resolvedAt: x.resolvedAt,
        affects: affects(x),
        updates: x.updates.map((u) => ({ state: u.state, message: u.message, at: u.at })),
      });
      return {
        slug: config.slug,
        title: config.title,
        logo: config.logo,
        groups: config.groups.some((g) => g.name) ? config.groups : [],
        description: config.description,
        announcement: config.announcement,
        overall: { status: down.length || offline.length ? "degraded" : "operational", down, offline },
        monitors: ms,
        agents: as,
        maintenance: windows,
        incidents: { open: incidents.filter((x) => x.state !== "resolved").map(shown), resolved: incidents.filter((x) => x.state === "resolved").map(shown) },
        generatedAt: now,
      };
    },
  };
}
