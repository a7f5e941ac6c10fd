// Maintenance windows as one service: the store, and in memory which monitors and agents are in maintenance now.
//
// Each window keeps its occurrence in progress and the next instant its answer can change (schedule.ts); one timer
// wakes at the earliest of those, re-evaluates only the windows due, and tells the bus which targets entered or left
// maintenance. So the question a check asks ("is monitor 42 in maintenance?") is two in-memory lookups, whatever the
// number of windows, and nothing is evaluated per check.
import type { Db } from "../db/database";
import type { EventBus } from "../events";
import { badRequest, conflict, notFound } from "../http/errors";
import { silentLogger, type Logger } from "../log";
import { systemClock, type Clock } from "../monitors/scheduler";
import {
  MAINTENANCE_DESCRIPTION_MAX,
  MAINTENANCE_NOW_MAX_MINUTES,
  MAINTENANCE_TARGETS_MAX,
  MAINTENANCE_TITLE_MAX,
  MAINTENANCE_WINDOWS_MAX,
  PREVIEW_OCCURRENCES,
  type MaintenanceChangeEvent,
  type MaintenanceInput,
  type MaintenanceNowInput,
  type MaintenancePreview,
  type PublicMaintenance,
} from "./public";
import { nextChange, occurrenceAt, occurrencesAfter, scheduleError, type Occurrence, type Schedule } from "./schedule";
import { createMaintenanceStore, type StoredWindow, type WindowValues } from "./store";

/** The zone a schedule gets when none is given: this server's. */
export const INSTANCE_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
/** Longest the timer sleeps: every window is re-evaluated at least this often (clock changes, long waits). */
const MAX_SLEEP_MS = 60 * 60_000;

type TargetType = "monitor" | "agent";

interface LiveWindow {
  w: StoredWindow;
  monitors: Set<number>;
  agents: Set<number>;
  current: Occurrence | null;
  /** When `current` may change next (null: never). */
  changeAt: number | null;
}

export interface MaintenanceServiceOptions {
  db: Db;
  bus: EventBus;
  log?: Logger;
  clock?: Clock;
  /** Every monitor and agent (an instance-wide window starting or ending concerns them all). */
  monitorIds: () => Iterable<number>;
  agentIds: () => Iterable<number>;
  /** Whether a monitor or agent exists (a window may only name existing ones). */
  exists: (type: TargetType, id: number) => boolean;
  /** The monitors a window let go of while nobody watched (restart.ts): announced by catchUp(). */
  leftUnseen?: () => Promise<number[]>;
  /** Monitor groups (server/monitors/groups.ts): a window naming a group covers its members, nested ones included. */
  groups?: { ancestors(id: number): number[]; descendants(id: number): number[] };
}

/** A schedule with only its kind's fields, defaults filled in (the rest as the empty values the table holds). */
export function normalizeSchedule(input: MaintenanceInput["schedule"], now: number): Schedule {
  const kind = input.kind;
  const recurring = kind !== "once" && kind !== "manual";
  const unique = (xs: number[] | undefined) => [...new Set(xs ?? [])].sort((a, b) => a - b);
  return {
    kind,
    startsAt: recurring ? null : (input.startsAt ?? (kind === "manual" ? now : null)),
    endsAt: kind === "once" ? (input.endsAt ?? null) : null,
    time: kind === "daily" || kind === "weekly" || kind === "monthly" ? (input.time ?? null) : null,
    weekdays: kind === "weekly" ? unique(input.weekdays) : [],
    monthDays: kind === "monthly" ? unique(input.monthDays) : [],
    cron: kind === "cron" ? (input.cron?.trim() ?? null) : null,
    durationMinutes: recurring ? (input.durationMinutes ?? null) : null,
    timezone: input.timezone ?? INSTANCE_ZONE,
    activeFrom: recurring ? (input.activeFrom ?? null) : null,
    activeUntil: recurring ? (input.activeUntil ?? null) : null,
  };
}

/** Checks what a save writes (POST/PUT /api/maintenance; a configuration file's windows); `exists` says which targets do. */
export function windowValues(input: MaintenanceInput, at: number, exists: (type: TargetType, id: number) => boolean): WindowValues {
  const title = input.title.trim();
  if (!title || title.length > MAINTENANCE_TITLE_MAX) throw badRequest("MAINTENANCE_TITLE_INVALID", `Title must be 1-${MAINTENANCE_TITLE_MAX} characters`);
  const description = (input.description ?? "").trim();
  if (description.length > MAINTENANCE_DESCRIPTION_MAX) {
    throw badRequest("MAINTENANCE_DESCRIPTION_INVALID", `Description must be at most ${MAINTENANCE_DESCRIPTION_MAX} characters`);
  }
  const monitorIds = input.scope === "all" ? [] : [...new Set(input.monitorIds ?? [])];
  const agentIds = input.scope === "all" ? [] : [...new Set(input.agentIds ?? [])];
  if (input.scope === "targets") {
    if (!monitorIds.length && !agentIds.length) throw badRequest("MAINTENANCE_NO_TARGETS", "Choose at least one monitor or agent, or everything");
    if (monitorIds.length + agentIds.length > MAINTENANCE_TARGETS_MAX) {
      throw badRequest("MAINTENANCE_TOO_MANY_TARGETS", `A window may name at most ${MAINTENANCE_TARGETS_MAX} monitors and agents`);
    }
    const missingMonitor = monitorIds.find((id) => !exists("monitor", id));
    if (missingMonitor !== undefined) throw badRequest("MONITOR_NOT_FOUND", `Monitor ${missingMonitor} does not exist`);
    const missingAgent = agentIds.find((id) => !exists("agent", id));
    if (missingAgent !== undefined) throw badRequest("AGENT_NOT_FOUND", `Agent ${missingAgent} does not exist`);
  }
  const schedule = normalizeSchedule(input.schedule, at);
  const error = scheduleError(schedule);
  if (error) throw badRequest("MAINTENANCE_SCHEDULE_INVALID", error);
  return { title, description, scope: input.scope, monitorIds, agentIds, schedule };
}

export function createMaintenanceService({
  db,
  bus,
  log = silentLogger,
  clock = systemClock,
  monitorIds,
  agentIds,
  exists,
  leftUnseen = async () => [],
  groups,
}: MaintenanceServiceOptions) {
  const store = createMaintenanceStore(db, () => clock.now());
  const windows = new Map<number, LiveWindow>();
  // In maintenance now: instance-wide windows in progress, and per target the number of its windows in progress.
  let allActive = 0;
  const hits: Record<TargetType, Map<number, number>> = { monitor: new Map(), agent: new Map() };

  /** A monitor is in maintenance when a window names it or one of the groups above it. */
  const named = (type: TargetType, id: number, counts: (id: number) => boolean) =>
    counts(id) || (type === "monitor" && groups !== undefined && hits.monitor.size > 0 && groups.ancestors(id).some(counts));
  const inMaintenance = (type: TargetType, id: number) => allActive > 0 || named(type, id, (x) => hits[type].has(x));

  // ── Evaluation rounds: windows flip on or off; at the end the targets whose answer changed are announced ──

  /** A round's memory of the answers before it (first touch of a target), and whether an instance-wide window flipped. */
  interface Round {
    allBefore: boolean;
    before: Record<TargetType, Map<number, boolean>>;
    allFlipped: boolean;
  }

  function flip(round: Round, live: LiveWindow, on: boolean) {
    if (live.w.scope === "all") {
      allActive += on ? 1 : -1;
      round.allFlipped = true;
      return;
    }
    for (const [type, ids] of [["monitor", live.monitors], ["agent", live.agents]] as const) {
      const counts = hits[type];
      for (const id of ids) {
        if (!round.before[type].has(id)) round.before[type].set(id, counts.has(id));
        const n = (counts.get(id) ?? 0) + (on ? 1 : -1);
        if (n > 0) counts.set(id, n);
        else counts.delete(id);
      }
    }
  }

  function round(fn: (round: Round) => void) {
    const r: Round = { allBefore: allActive > 0, before: { monitor: new Map(), agent: new Map() }, allFlipped: false };
    fn(r);
    const allNow = allActive > 0;
    const change: MaintenanceChangeEvent = { at: clock.now(), monitors: { entered: [], left: [] }, agents: { entered: [], left: [] } };
    for (const type of ["monitor", "agent"] as const) {
      const out = type === "monitor" ? change.monitors : change.agents;
      const was = (id: number) => r.allBefore || named(type, id, (x) => r.before[type].get(x) ?? hits[type].has(x));
      let ids: Iterable<number> = r.allFlipped && allNow !== r.allBefore ? (type === "monitor" ? monitorIds() : agentIds()) : r.before[type].keys();
      // A group's members enter and leave with it.
      if (type === "monitor" && groups && !(r.allFlipped && allNow !== r.allBefore)) ids = new Set([...ids].flatMap((id) => [id, ...groups.descendants(id)]));
      for (const id of ids) {
        const before = was(id);
        const now = allNow || named(type, id, (x) => hits[type].has(x));
        if (before !== now) (now ? out.entered : out.left).push(id);
      }
    }
    if (change.monitors.entered.length || change.monitors.left.length || change.agents.entered.length || change.agents.left.length) {
      log.info("maintenance changed", {
        monitorsEntered: change.monitors.entered.length,
        monitorsLeft: change.monitors.left.length,
        agentsEntered: change.agents.entered.length,
        agentsLeft: change.agents.left.length,
      });
      bus.emit("maintenance.change", change);
    }
  }

  /** Re-evaluates a window at `at`; flips it when its answer changed. */
  function evaluate(r: Round, live: LiveWindow, at: number) {
    const was = live.current !== null;
    const { schedule } = live.w;
    live.current = occurrenceAt(schedule, at, live.w.cutAt);
    live.changeAt = nextChange(schedule, at, live.w.cutAt);
    if (was !== (live.current !== null)) flip(r, live, live.current !== null);
  }

  function put(r: Round, w: StoredWindow, at: number) {
    drop(r, w.id);
    const live: LiveWindow = { w, monitors: new Set(w.monitorIds), agents: new Set(w.agentIds), current: null, changeAt: null };
    windows.set(w.id, live);
    evaluate(r, live, at);
  }

  function drop(r: Round, id: number) {
    const live = windows.get(id);
    if (!live) return;
    if (live.current) flip(r, live, false);
    windows.delete(id);
  }

  // ── The timer ──

  let timer: unknown = null;
  let running = false;
  let lastFull = 0;
  let caughtUp = false;

  /** Announces the monitors that left a window while nobody watched, as at any window's end (their owner notifies). */
  async function catchUp() {
    const left = await leftUnseen();
    if (!left.length) return;
    log.info("monitors left maintenance while no node watched them", { monitors: left.length });
    bus.emit("maintenance.change", { at: clock.now(), monitors: { entered: [], left }, agents: { entered: [], left: [] } });
  }

  function tick() {
    timer = null;
    const at = clock.now();
    const full = at - lastFull >= MAX_SLEEP_MS;
    if (full) lastFull = at;
    round((r) => {
      for (const live of windows.values()) if (full || (live.changeAt !== null && live.changeAt <= at)) evaluate(r, live, at);
    });
    arm();
  }

  function arm() {
    if (!running) return;
    if (timer !== null) clock.clearTimeout(timer);
    const at = clock.now();
    let next = at + MAX_SLEEP_MS;
    for (const live of windows.values()) if (live.changeAt !== null && live.changeAt < next) next = live.changeAt;
    timer = clock.setTimeout(tick, Math.max(0, next - at));
  }

  // ── Public views ──

  function toPublic(w: StoredWindow, at = clock.now()): PublicMaintenance {
    const [first, second] = occurrencesAfter(w.schedule, at, 2, w.cutAt);
    const current = first && first.start <= at ? first : null;
    const next = (current ? second : first) ?? null;
    return { ...w, state: current ? "active" : next ? "upcoming" : "ended", current, next };
  }

  const covers = (w: StoredWindow, type: TargetType, id: number) =>
    w.scope === "all" || (type === "monitor" ? w.monitorIds : w.agentIds).includes(id);

  // ── Input ──

  /** A window was saved or deleted here: memory follows at once, the other nodes re-read. */
  function edited() {
    bus.emit("settings.change", { area: "maintenance" });
    arm();
  }

  async function reload() {
    const all = await store.all();
    const at = clock.now();
    round((r) => {
      const ids = new Set(all.map((w) => w.id));
      for (const id of [...windows.keys()]) if (!ids.has(id)) drop(r, id);
      for (const w of all) put(r, w, at);
    });
    arm();
  }

  // A deleted monitor or agent left its windows (the cascade): no event, it is gone.
  bus.on("monitor.change", (e) => {
    if (e.action !== "deleted") return;
    hits.monitor.delete(e.monitorId);
    for (const live of windows.values()) if (live.monitors.delete(e.monitorId)) live.w.monitorIds = live.w.monitorIds.filter((id) => id !== e.monitorId);
  });
  bus.on("agent.change", (e) => {
    if (e.kind !== "deleted") return;
    hits.agent.delete(e.agentId);
    for (const live of windows.values()) if (live.agents.delete(e.agentId)) live.w.agentIds = live.w.agentIds.filter((id) => id !== e.agentId);
  });
  // Saved on another node of the cluster.
  bus.on("settings.change", (e) => {
    if (e.remote && e.area === "maintenance") reload().catch((err) => log.error("could not re-read maintenance windows", { error: String(err?.message ?? err) }));
  });

  return {
    store,
    /** Whether a monitor is in maintenance now (the hot path: two lookups). */
    monitor: (id: number) => inMaintenance("monitor", id),
    agent: (id: number) => inMaintenance("agent", id),
    /** Targets in maintenance now (the /metrics gauge). */
    counts(totalMonitors: number, totalAgents: number) {
      return allActive > 0 ? { monitors: totalMonitors, agents: totalAgents } : { monitors: hits.monitor.size, agents: hits.agent.size };
    },

    /** Reads the windows and works out which targets are in maintenance (before checks start). */
    load: reload,

    get running() {
      return running;
    },
    /**
     * Arms the timer; the first time, also announces the monitors that left a window while the server was stopped
     * (on a cluster it has joined by now: their owner notifies).
     */
    async start() {
      if (running) return;
      running = true;
      lastFull = clock.now();
      arm();
      if (caughtUp) return;
      caughtUp = true;
      await catchUp();
    },
    /**
     * The same for monitors this node has just taken over (a cluster node that stopped or died, its windows ending
     * meanwhile): called before their first check here. Repeats are harmless: the rules act on what was sent.
     */
    catchUp,
    stop() {
      running = false;
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
    },
    /** Re-evaluates the windows due now (tests with a fake clock; the timer does it otherwise). */
    tick,

    list(filter: { type: TargetType; id: number } | null = null): PublicMaintenance[] {
      const at = clock.now();
      return [...windows.values()].map((l) => l.w).filter((w) => !filter || covers(w, filter.type, filter.id)).map((w) => toPublic(w, at));
    },
    get(id: number): PublicMaintenance | undefined {
      const live = windows.get(id);
      return live && toPublic(live.w);
    },
    /** The windows covering these targets that are in progress, or start within `horizonMs` (status pages). */
    around(monitorIds: readonly number[], agentIds: readonly number[], horizonMs: number): { window: PublicMaintenance; monitorIds: number[]; agentIds: number[] }[] {
      const at = clock.now();
      const out = [];
      for (const live of windows.values()) {
        const w = live.w;
        const m = w.scope === "all" ? [...monitorIds] : monitorIds.filter((id) => live.monitors.has(id));
        const a = w.scope === "all" ? [...agentIds] : agentIds.filter((id) => live.agents.has(id));
        if (!m.length && !a.length) continue;
        const p = toPublic(w, at);
        const soon = p.current ?? (p.next && p.next.start - at <= horizonMs ? p.next : null);
        if (soon) out.push({ window: p, monitorIds: m, agentIds: a });
      }
      return out.sort((x, y) => (x.window.current?.start ?? x.window.next!.start) - (y.window.current?.start ?? y.window.next!.start));
    },

    preview(schedule: MaintenanceInput["schedule"]): MaintenancePreview {
      const at = clock.now();
      const s = normalizeSchedule(schedule, at);
      const error = scheduleError(s);
      if (error) throw badRequest("MAINTENANCE_SCHEDULE_INVALID", error);
      return { occurrences: occurrencesAfter(s, at, PREVIEW_OCCURRENCES), timezone: s.timezone };
    },

    async create(input: MaintenanceInput): Promise<PublicMaintenance> {
      const at = clock.now();
      const v = windowValues(input, at, exists);
      if ((await store.count()) >= MAINTENANCE_WINDOWS_MAX) throw conflict("MAINTENANCE_LIMIT", `At most ${MAINTENANCE_WINDOWS_MAX} maintenance windows`);
      const w = await store.create(v);
      round((r) => put(r, w, clock.now()));
      edited();
      const created = toPublic(w);
      bus.emit("maintenance.created", { window: created });
      return created;
    },

    /** "Start maintenance now": a one-time window from now for `minutes`, or a manual one until ended. */
    startNow(input: MaintenanceNowInput): Promise<PublicMaintenance> {
      const at = clock.now();
      if (input.minutes !== undefined && !(Number.isInteger(input.minutes) && input.minutes >= 1 && input.minutes <= MAINTENANCE_NOW_MAX_MINUTES)) {
        throw badRequest("MAINTENANCE_MINUTES_INVALID", `Minutes must be a whole number from 1 to ${MAINTENANCE_NOW_MAX_MINUTES}`);
      }
      return this.create({
        title: input.title?.trim() || "Maintenance",
        description: input.description,
        scope: input.all ? "all" : "targets",
        monitorIds: input.monitorIds,
        agentIds: input.agentIds,
        schedule: input.minutes === undefined ? { kind: "manual", startsAt: at } : { kind: "once", startsAt: at, endsAt: at + input.minutes * 60_000 },
      });
    },

    async update(id: number, input: MaintenanceInput): Promise<PublicMaintenance | undefined> {
      const v = windowValues(input, clock.now(), exists);
      const w = await store.update(id, v);
      if (!w) return undefined;
      round((r) => put(r, w, clock.now()));
      edited();
      return toPublic(w);
    },

    /** Ends the occurrence in progress now (409 when none is). */
    async end(id: number): Promise<PublicMaintenance | undefined> {
      const live = windows.get(id);
      if (!live) return undefined;
      const at = clock.now();
      if (!occurrenceAt(live.w.schedule, at, live.w.cutAt)) throw conflict("MAINTENANCE_NOT_ACTIVE", "This maintenance window is not in progress");
      const w = await store.cut(id, at, live.w.schedule.kind === "manual");
      if (!w) return undefined;
      round((r) => put(r, w, clock.now()));
      edited();
      return toPublic(w);
    },

    async remove(id: number): Promise<boolean> {
      if (!(await store.remove(id))) return false;
      round((r) => drop(r, id));
      edited();
      return true;
    },

    inMaintenance,
  };
}

/** A window that cannot be found. */
export const windowNotFound = () => notFound("MAINTENANCE_NOT_FOUND", "Maintenance window not found");

export type MaintenanceService = ReturnType<typeof createMaintenanceService>;
