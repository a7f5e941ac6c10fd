// Checks from agents ("locations"). A monitor may be checked from the server, from agents, or both: the agents learn
// their assignments on POST /api/agents/probes, run them with the server's own check modules, and send their results
// back the same way. At each of the monitor's slots the server combines its own check and every location's latest
// result into one verdict (the monitor service records it like any check). The configuration is in memory on every
// node (re-read when another node changes it); results go to the database, so the node that owns a monitor sees what
// an agent sent to any node.
import { runsOnAgents } from "../monitors/public";
import { createHash } from "node:crypto";
import { and, desc, eq, gte, inArray, lt } from "drizzle-orm";
import type { AgentService } from "../agents/service";
import { first, type Db } from "../db/database";
import type { EventBus } from "../events";
import { badRequest, conflict, notFound } from "../http/errors";
import { silentLogger, type Logger } from "../log";
import { locationsDownError, SERVER_LOCATION_NAME } from "../monitors/check-errors";
import type { MonitorFields } from "../monitors/schemas";
import type { MonitorService } from "../monitors/service";
import type { CheckOutcome } from "../monitors/types";
import { flipOutcome } from "../monitors/types/upside-down";
import type { TargetPolicy } from "../net/targets";
import type { StatusLocation } from "../status/public";
import type { ProbeAssignments, ProbeRefusal, ProbeRefusalReason, ProbeResult } from "./protocol";
import { LOCATION_RANGE_MS, locationBucketMs, type LocationRange, type LocationResult, type LocationRule, type LocationSettings, type MonitorLocation, type MonitorLocations } from "./public";

/** The server's own results are kept as agent 0 (agents' ids start at 1). */
export const SERVER_LOCATION = 0;
/** A location's result counts for this long after the monitor's interval (an agent reports every 10 s or so). */
export const LOCATION_SLACK_MS = 60_000;
/** An agent's result may be at most this far ahead of the server's clock. */
const MAX_AHEAD_MS = 5 * 60_000;

export interface LocationConfig {
  fromServer: boolean;
  agentIds: number[];
  rule: LocationRule;
  count: number | null;
}

/** An agent's name among locations: its location name, else its own. */
export const locationName = (agent: { name: string; location: string | null } | undefined) => (agent ? agent.location || agent.name : undefined);

export const DEFAULT_LOCATIONS: LocationConfig = { fromServer: true, agentIds: [], rule: "majority", count: null };

/** Whether `down` of `reported` locations make the monitor down under the rule. */
export function isDownByRule(rule: LocationRule, count: number | null, down: number, reported: number): boolean {
  if (reported === 0 || down === 0) return false;
  if (rule === "any") return true;
  if (rule === "all") return down === reported;
  if (rule === "count") return down >= (count ?? 1);
  return down * 2 > reported;
}

// The fields an agent does not need to run a check (the push token is a secret of push monitors, never assigned).
// Upside down is applied by the server as a result arrives (ingest), so agents of every version report the same way.
const NOT_SENT = new Set<keyof MonitorFields>(["name", "tags", "active", "pushToken", "retries", "upsideDown", "objective", "objectiveDays"]);

export interface ProbeServiceOptions {
  db: Db;
  bus: EventBus;
  monitors: MonitorService;
  agents: AgentService;
  targets: TargetPolicy;
  now?: () => number;
  log?: Logger;
  /** Location results kept, ms (the raw retention of checks). */
  retentionMs?: number;
  /** Whether this node prunes old results (one node of a cluster does). */
  chores?: () => boolean;
}

export function createProbeService(o: ProbeServiceOptions) {
  const { db, bus, monitors, agents } = o;
  const now = o.now ?? Date.now;
  const log = o.log ?? silentLogger;
  const t = db.t;
  const configs = new Map<number, LocationConfig>();
  /** Each agent's assignments as last built (dropped whenever a monitor or a location list changes). */
  const assigned = new Map<number, ProbeAssignments>();
  let pruneTimer: ReturnType<typeof setTimeout> | null = null;
  let pruning: Promise<void> | null = null;

  const forget = () => assigned.clear();
  bus.on("monitor.change", forget);
  bus.on("agent.change", forget);
  bus.on("settings.change", (e) => {
    if (e.remote && e.area === "locations") void load().catch((err) => log.error("could not re-read monitor locations", { error: String(err?.message ?? err) }));
  });

  async function load() {
    const rows = await db.orm.select().from(t.monitorLocations);
    configs.clear();
    for (const r of rows) configs.set(r.monitorId, { fromServer: r.fromServer, agentIds: r.agentIds, rule: r.rule, count: r.count });
    forget();
  }

  /** The agents of a monitor's locations that still exist. */
  const agentsOf = (config: LocationConfig) => config.agentIds.filter((id) => agents.get(id) !== undefined);
  const hasAgents = (id: number) => {
    const c = configs.get(id);
    return c !== undefined && c.agentIds.length > 0;
  };

  /**
   * Each location's latest result of a monitor since `since` (agent 0 = the server): one index seek per location on
   * (monitor, agent, time), however many results the others have.
   */
  async function latestOf(monitorId: number, agentIds: number[], since: number): Promise<Map<number, LocationResult>> {
    const p = t.probeResults;
    const found = await Promise.all(
      agentIds.map((agentId) =>
        first(
          db.orm
            .select({ time: p.time, up: p.up, responseTime: p.responseTime, httpStatus: p.httpStatus, error: p.error })
            .from(p)
            .where(and(eq(p.monitorId, monitorId), eq(p.agentId, agentId), gte(p.time, since)))
            .orderBy(desc(p.time))
            .limit(1),
        ),
      ),
    );
    const latest = new Map<number, LocationResult>();
    agentIds.forEach((agentId, i) => found[i] && latest.set(agentId, found[i]));
    return latest;
  }

  const nameOf = (agentId: number) => (agentId === SERVER_LOCATION ? SERVER_LOCATION_NAME : (locationName(agents.get(agentId)) ?? `agent ${agentId}`));

  /** The verdict of one slot: the server's own check (stored as its location's result) and the agents' latest. */
  async function combine(monitorId: number, fields: MonitorFields, own: CheckOutcome | null, at: number): Promise<CheckOutcome | null> {
    const config = configs.get(monitorId);
    if (!config) return own;
    if (own) {
      await db.orm
        .insert(t.probeResults)
        .values({ monitorId, agentId: SERVER_LOCATION, time: own.time, up: own.up, responseTime: own.responseTime, httpStatus: own.httpStatus, error: own.error, ping: own.ping ?? null })
        .onConflictDoNothing();
    }
    const agentIds = agentsOf(config);
    const latest = agentIds.length ? await latestOf(monitorId, agentIds, at - fields.intervalSeconds * 1000 - LOCATION_SLACK_MS) : new Map<number, LocationResult>();
    // In the order the locations were chosen, the server first.
    const reported: [number, LocationResult][] = [...(own ? [[SERVER_LOCATION, own] as [number, LocationResult]] : [])];
    for (const id of agentIds) if (latest.has(id)) reported.push([id, latest.get(id)!]);
    if (reported.length === 0) return null;
    const down = reported.filter(([, r]) => !r.up);
    const isDown = isDownByRule(config.rule, config.count, down.length, reported.length);
    const answered = reported.map(([, r]) => r.responseTime).filter((ms): ms is number => ms !== null).sort((a, b) => a - b);
    return {
      time: own?.time ?? at,
      up: !isDown,
      // The server's own figures when it is a location, else the median of the locations that answered.
      responseTime: own ? own.responseTime : answered.length ? answered[Math.floor(answered.length / 2)] : null,
      httpStatus: own ? own.httpStatus : (reported.find(([, r]) => r.httpStatus !== null)?.[1].httpStatus ?? null),
      error: isDown ? locationsDownError(down.length, reported.length, down.map(([id, r]) => `${nameOf(id)}${r.error ? ` (${r.error})` : ""}`).join(", ")) : null,
      ...(own?.ping ? { ping: own.ping } : {}),
    };
  }

  monitors.useLocations({ has: hasAgents, fromServer: (id) => configs.get(id)?.fromServer ?? true, combine });

  function configOf(monitorId: number): LocationConfig {
    const c = configs.get(monitorId);
    return c ? { ...c, agentIds: agentsOf(c) } : DEFAULT_LOCATIONS;
  }

  async function view(monitorId: number): Promise<MonitorLocations> {
    const monitor = monitors.get(monitorId);
    if (!monitor) throw notFound("MONITOR_NOT_FOUND", "Monitor not found");
    const config = configOf(monitorId);
    const ids = [...(config.fromServer ? [SERVER_LOCATION] : []), ...config.agentIds];
    const fresh = now() - monitor.intervalSeconds * 1000 - LOCATION_SLACK_MS;
    // A monitor checked from the server alone keeps its results in its own checks: nothing to read here.
    const latest = config.agentIds.length ? await latestOf(monitorId, ids, 0) : new Map<number, LocationResult>();
    const locations: MonitorLocation[] = ids.map((id) => {
      const agent = id === SERVER_LOCATION ? undefined : agents.get(id);
      const online = id === SERVER_LOCATION || agent?.status === "online";
      let last = latest.get(id) ?? null;
      if (id === SERVER_LOCATION && config.agentIds.length === 0 && monitor.lastCheckedAt !== null) {
        last = { time: monitor.lastCheckedAt, up: monitor.status === "up", responseTime: monitor.responseTime, httpStatus: monitor.httpStatus, error: monitor.lastError };
      }
      const status = !online || !last || last.time < fresh ? "no data" : last.up ? "up" : "down";
      return { agentId: id === SERVER_LOCATION ? null : id, name: nameOf(id), online, status, latest: last };
    });
    return { checkFromServer: config.fromServer, agentIds: config.agentIds, rule: config.rule, count: config.count, locations };
  }

  async function save(monitorId: number, input: LocationSettings) {
    const monitor = monitors.get(monitorId);
    if (!monitor) throw notFound("MONITOR_NOT_FOUND", "Monitor not found");
    const agentIds = [...new Set(input.agentIds)];
    if (monitor.type === "push" && (agentIds.length > 0 || !input.checkFromServer)) {
      throw conflict("PUSH_NO_LOCATIONS", "A push monitor is not checked from anywhere: it waits for calls to its push URL");
    }
    if (agentIds.length > 0 && monitor.type !== "push" && !runsOnAgents(monitor.type)) {
      throw conflict("TYPE_NOT_ON_AGENTS", `A ${monitor.type} monitor is checked from the Vigil server only: agents do not run this type`);
    }
    const unknown = agentIds.find((id) => agents.get(id) === undefined);
    if (unknown !== undefined) throw badRequest("UNKNOWN_AGENT", `No agent has id ${unknown}`);
    if (!input.checkFromServer && agentIds.length === 0) throw badRequest("NO_LOCATION", "Choose at least one location: the Vigil server or an agent");
    const total = agentIds.length + (input.checkFromServer ? 1 : 0);
    const count = input.rule === "count" ? (input.count ?? null) : null;
    if (input.rule === "count" && (count === null || !Number.isInteger(count) || count < 1 || count > total)) {
      throw badRequest("LOCATION_COUNT", `"At least N locations" needs N from 1 to ${total} (the number of locations chosen)`);
    }
    const config: LocationConfig = { fromServer: input.checkFromServer, agentIds, rule: input.rule, count };
    if (config.fromServer && agentIds.length === 0 && config.rule === "majority") {
      // The default: no row, and the monitor is checked as before.
      await db.orm.delete(t.monitorLocations).where(eq(t.monitorLocations.monitorId, monitorId));
      configs.delete(monitorId);
    } else {
      const row = { fromServer: config.fromServer, agentIds, rule: config.rule, count, updatedAt: now() };
      await db.orm.insert(t.monitorLocations).values({ monitorId, ...row }).onConflictDoUpdate({ target: t.monitorLocations.monitorId, set: row });
      configs.set(monitorId, config);
    }
    forget();
    bus.emit("settings.change", { area: "locations" });
    return view(monitorId);
  }

  /** What an agent checks: the active, non-push monitors whose locations name it. */
  function assignmentsOf(agentId: number): ProbeAssignments {
    const cached = assigned.get(agentId);
    if (cached) return cached;
    const list: ProbeAssignments["monitors"] = [];
    for (const [monitorId, config] of configs) {
      if (!config.agentIds.includes(agentId)) continue;
      const entry = monitors.store.get(monitorId);
      if (!entry || !entry.fields.active || !runsOnAgents(entry.fields.type)) continue;
      const fields = Object.fromEntries(Object.entries(entry.fields).filter(([k]) => !NOT_SENT.has(k as keyof MonitorFields)));
      list.push({ id: monitorId, interval: entry.fields.intervalSeconds / 60, intervalSeconds: entry.fields.intervalSeconds, fields });
    }
    list.sort((a, b) => a.id - b.id);
    const policy = { allowPrivate: o.targets.allowPrivate };
    const version = list.length ? createHash("sha256").update(JSON.stringify({ policy, list })).digest("base64url").slice(0, 22) : "";
    const result = { version, policy, monitors: list };
    assigned.set(agentId, result);
    return result;
  }

  /**
   * Stores an agent's results of the monitors assigned to it and says why each other one was refused (unassigned
   * meanwhile, never its own, paused, or a time out of bounds). A resend stores nothing twice; it counts as accepted,
   * the result being stored.
   */
  async function ingest(agentId: number, results: ProbeResult[]): Promise<{ accepted: number; refused: ProbeRefusal[] }> {
    const mine = new Set(assignmentsOf(agentId).monitors.map((m) => m.id));
    const retentionMs = o.retentionMs ?? 7 * 86_400_000;
    const latest = now() + MAX_AHEAD_MS;
    const oldest = now() - retentionMs;
    const refusalOf = (r: ProbeResult): [ProbeRefusalReason, string] | null => {
      if (!mine.has(r.monitorId)) {
        const paused = configs.get(r.monitorId)?.agentIds.includes(agentId) && monitors.store.get(r.monitorId)?.fields.active === false;
        return paused ? ["MONITOR_PAUSED", "This monitor is paused: its results are not kept"] : ["NOT_ASSIGNED", "This monitor is not assigned to this agent"];
      }
      if (r.time > latest) return ["TIME_AHEAD", "This result is more than 5 minutes ahead of the server's clock: check the agent's clock"];
      if (r.time < oldest) return ["TOO_OLD", `This result is older than the ${Math.round(retentionMs / 86_400_000)} days of results kept`];
      return null;
    };
    const refused: ProbeRefusal[] = [];
    const rows = [];
    for (const r of results) {
      const refusal = refusalOf(r);
      if (refusal) refused.push({ monitorId: r.monitorId, time: r.time, reason: refusal[0], message: refusal[1] });
      else {
        const seen = monitors.store.get(r.monitorId)?.fields.upsideDown ? flipOutcome(r) : r;
        rows.push({ monitorId: r.monitorId, agentId, time: r.time, up: seen.up, responseTime: r.responseTime, httpStatus: r.httpStatus, error: seen.error, ping: r.ping ?? null });
      }
    }
    // Chunks keep each statement under the engines' parameter limits.
    for (let i = 0; i < rows.length; i += 100) await db.orm.insert(t.probeResults).values(rows.slice(i, i + 100)).onConflictDoNothing();
    return { accepted: rows.length, refused };
  }

  /** Each location's results over a range, for a chart: at most ~500 points a location (averaged per bucket). */
  async function series(monitorId: number, range: LocationRange) {
    if (!monitors.get(monitorId)) throw notFound("MONITOR_NOT_FOUND", "Monitor not found");
    const config = configOf(monitorId);
    const ids = [...(config.fromServer ? [SERVER_LOCATION] : []), ...config.agentIds];
    const since = now() - LOCATION_RANGE_MS[range];
    const bucketMs = locationBucketMs(range);
    const rows = ids.length
      ? await db.orm
          .select({ agentId: t.probeResults.agentId, time: t.probeResults.time, up: t.probeResults.up, responseTime: t.probeResults.responseTime })
          .from(t.probeResults)
          .where(and(eq(t.probeResults.monitorId, monitorId), inArray(t.probeResults.agentId, ids), gte(t.probeResults.time, since)))
          .orderBy(t.probeResults.time)
      : [];
    type Point = { time: number; up: boolean; responseTime: number | null };
    const byAgent = new Map<number, Point[]>(ids.map((id) => [id, []]));
    const sums = new Map<string, { point: Point; total: number; n: number }>();
    for (const r of rows) {
      const bucket = Math.floor(r.time / bucketMs) * bucketMs;
      const key = `${r.agentId}:${bucket}`;
      let acc = sums.get(key);
      if (!acc) {
        acc = { point: { time: bucket, up: true, responseTime: null }, total: 0, n: 0 };
        sums.set(key, acc);
        byAgent.get(r.agentId)?.push(acc.point);
      }
      // A bucket with any down check reads as down; its response time is the mean of the answers in it.
      acc.point.up &&= r.up;
      if (r.responseTime !== null) {
        acc.total += r.responseTime;
        acc.n++;
        acc.point.responseTime = Math.round(acc.total / acc.n);
      }
    }
    return ids.map((id) => ({ agentId: id === SERVER_LOCATION ? null : id, name: nameOf(id), points: byAgent.get(id) ?? [] }));
  }

  async function prune() {
    if (o.chores && !o.chores()) return;
    await db.orm.delete(t.probeResults).where(lt(t.probeResults.time, now() - (o.retentionMs ?? 7 * 86_400_000)));
  }

  /** A status page's row of locations: each one's status and latest response time (null: the server alone). */
  async function publicLocations(monitorId: number): Promise<StatusLocation[] | null> {
    if (!hasAgents(monitorId) || !monitors.get(monitorId)) return null;
    return (await view(monitorId)).locations.map((l) => ({
      name: l.name,
      ...(l.agentId === null ? { server: true as const } : {}),
      status: l.status,
      responseTime: l.status === "no data" ? null : (l.latest?.responseTime ?? null),
    }));
  }

  return {
    load,
    view,
    publicLocations,
    save,
    assignmentsOf,
    /** The version of an agent's assignments ("" when it has none), told in each report's reply. */
    versionOf: (agentId: number) => assignmentsOf(agentId).version,
    ingest,
    series,
    prune,
    get running() {
      return pruneTimer !== null;
    },
    /**
     * Prunes a few seconds after start, then hourly: with only the hourly pass, a server restarted more often than
     * that never pruned (as history's rollups, the first pass waits so start-up stays light).
     */
    start(firstDelayMs = 5_000) {
      if (pruneTimer) return;
      const pass = (delay: number) => {
        pruneTimer = setTimeout(() => {
          pruning = prune()
            .catch((e) => log.error("pruning location results failed", { error: String(e?.message ?? e) }))
            .finally(() => {
              pruning = null;
              if (pruneTimer) pass(3_600_000);
            });
        }, delay);
      };
      pass(firstDelayMs);
    },
    /** Stops the timer and waits for a pass under way (before the database closes). */
    async stop() {
      if (pruneTimer) clearTimeout(pruneTimer);
      pruneTimer = null;
      await pruning;
    },
  };
}

export type ProbeService = ReturnType<typeof createProbeService>;
