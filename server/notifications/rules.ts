// When to notify: listens to the event bus and turns transitions into queued notifications.
// - Edge-triggered: one message per transition. A monitor's "down" already waited for its retries.
// - A recovery (or "back online") only follows a down (offline) that was sent: the alert is remembered in
//   notification_alerts, so this holds across restarts, and nothing "recovers" that never alerted.
// - Usage thresholds: an alert once usage is at or above the threshold in 2 reports in a row, then nothing until it
//   has fallen back below (hysteresis). Each disk is its own condition, named by its mount point.
// - Error budgets: burning too fast and spent alert once each, cleared silently (onBudget).
// - Reminders while a monitor stays down, when its settings ask for them, until someone acknowledges the alert
//   (server/problems/; the acknowledgement lives on the alert's row, alerts.ts, so a recovery clears it).
// - Maintenance (server/maintenance): while a target is in a window nothing is sent for it, and its alerts are left as
//   they are. When it leaves the window, what was last sent is compared with how it is now: still down (offline)
//   with no alert sent → a fresh down; up (online) again after an alert → the recovery; the same as before → nothing.
// - Dependencies (server/monitors/dependencies.ts): a monitor failing while one it depends on is down sends nothing
//   (its status changes carry `unreachable`). When that one recovers, each monitor depending on it is compared the
//   same way as at a window's end: still down → its down alert now, once; recovered meanwhile → nothing. So are held
//   monitors that an edit frees (their parent paused, the dependency removed).
// Events are handled one at a time, in the order they came (each awaits the database): a queue, drained in the
// background; idle() resolves once it is empty (tests await it instead of sleeping).
import type { EventBus, EventMap } from "../events";
import { containerConditions, RestartHistory } from "./container-rules";
import { silentLogger, type Logger } from "../log";
import type { AgentState } from "../agents/service";
import { parseCheckError } from "../monitors/check-errors";
import type { MonitorStatusEvent } from "../monitors/public";
import type { AgentStatusEvent } from "../agents/service";
import type { MaintenanceChangeEvent } from "../maintenance/public";
import type { NotificationEvent } from "./public";
import type { BudgetEvent } from "../objectives/service";
import type { BudgetState } from "../objectives/budget";
import type { AlertKey, AlertStore } from "./alerts";
import type { Outbox } from "./outbox";
import type { NotificationStore, TargetType } from "./store";

/** Reports in a row at or above a threshold before it alerts. */
export const THRESHOLD_REPORTS = 2;

export interface RulesOptions {
  bus: EventBus;
  store: NotificationStore;
  /** The open alerts (notification_alerts) and their acknowledgements. */
  alerts: AlertStore;
  outbox: Outbox;
  /** A monitor as it is now (reminders stop for paused or deleted ones; a window's end compares with it). */
  monitorNow?: (id: number) => MonitorNow | undefined;
  /** The monitors that depend on a monitor (its recovery compares them with what was sent). */
  dependentsOf?: (id: number) => number[];
  /** An agent as it is now (a window's end compares with it). */
  agentNow?: (id: number) => { name: string; status: "connecting" | "online" | "offline"; lastSeenAt: number | null } | undefined;
  /** Whether a target is in maintenance now (usage alerts wait; reminders pause). */
  inMaintenance?: (type: "monitor" | "agent", id: number) => boolean;
  log?: Logger;
  now?: () => number;
  /**
   * Which node acts, when several share the database (server/cluster/service.ts): agent threshold alerts are judged
   * by the agent's owner, reminders by the leader. Status changes carry `remote` instead. Alone, this node does all.
   */
  decides?: Decides;
  /** How long a minute of the reminder settings is, and how often due reminders are looked for: 60 000 (real-clock tests shorten it). */
  minuteMs?: number;
  /** Whether an escalation policy pages for the target (server/escalation/): its alerts are raised even with no channel of its own. */
  escalates?: (type: TargetType, id: number) => Promise<boolean>;
}

/** Which node acts (several may share the database): monitors by their checker, agents by their owner, reminders by the leader. */
export interface Decides {
  monitor(id: number): boolean;
  agent(id: number): boolean;
  reminders(): boolean;
}

export interface MonitorNow {
  name: string;
  /** Active and down. */
  down: boolean;
  /** Active and up. */
  up: boolean;
  /** Failing while a monitor it depends on is down: its alerts are held. */
  unreachable?: boolean;
  facts: NotificationEvent["facts"];
}

/** What a monitor's message names: its target and its type's facts (port, record, keyword, last push). */
function monitorFacts(e: MonitorStatusEvent): NotificationEvent["facts"] {
  return { url: e.url, checkType: e.type, ...e.facts };
}

/**
 * A monitor alert's facts with what templates name past the message's own lines: `target`, the target line as lists
 * show it (the same as `url`, which predates the types without a URL: host:port/database, a topic, an OID…; never a
 * secret), and `errorCode`, the stable code of the failed check's sentence (AUTH_FAILED, QUERY_NO_ROWS…).
 */
function alertFacts(facts: NotificationEvent["facts"]): NotificationEvent["facts"] {
  return {
    ...facts,
    ...(facts.url !== undefined ? { target: facts.url } : {}),
    ...(facts.error ? { errorCode: parseCheckError(facts.error).code } : {}),
  };
}

const pickNamed = ({ target, errorCode }: NotificationEvent["facts"]) => ({ ...(target !== undefined ? { target } : {}), ...(errorCode ? { errorCode } : {}) });

/** What a threshold rule needs of an agent report, taken when it arrives (the agent's state moves on meanwhile). */
type Report = Pick<AgentState, "id" | "name" | "hostname" | "latest">;

export function createRules({
  bus,
  store,
  alerts,
  outbox,
  monitorNow = () => undefined,
  dependentsOf = () => [],
  agentNow = () => undefined,
  inMaintenance = () => false,
  log = silentLogger,
  now = Date.now,
  decides = EVERYTHING,
  minuteMs = 60_000,
  escalates = async () => false,
}: RulesOptions) {
  // The raised alerts, also in memory: agent reports check them on every sample, and should not need a query.
  const raised = new Set<string>();
  const keyOf = (targetType: TargetType, targetId: number, condition: string): AlertKey => ({ targetType, targetId, condition });
  /**
   * The alert raised for a condition. `exact`: ask the database even when memory knows none (status changes, which
   * are rare: another node may have raised it); reports trust memory.
   */
  async function alertRow(type: TargetType, id: number, condition: string, exact = false) {
    const key = `${type}:${id}:${condition}`;
    if (!exact && !raised.has(key)) return undefined;
    const row = await alerts.find(keyOf(type, id, condition));
    if (row) raised.add(key);
    else raised.delete(key);
    return row;
  }
  const clearAlert = async (type: TargetType, id: number, condition: string) => {
    raised.delete(`${type}:${id}:${condition}`);
    await alerts.clear(keyOf(type, id, condition));
  };

  /** A deleted monitor or agent: its override and alerts go. */
  async function forget(type: TargetType, id: number) {
    await store.deleteOverride(type, id);
    await alerts.forgetTarget(type, id);
    for (const key of raised) if (key.startsWith(`${type}:${id}:`)) raised.delete(key);
  }

  /**
   * Queues an event for the target's channels; true when at least one channel took it. `ack`: the open problem it is
   * about (its occurrence: `since`), so each channel's copy carries a link that acknowledges it.
   */
  async function send(channelIds: number[], event: NotificationEvent, key: string, ack?: AlertKey & { since: number }): Promise<boolean> {
    return (await outbox.enqueue(await store.enabledAmong(channelIds), event, key, ack)) > 0;
  }

  /**
   * Raises an alert (down, offline, over a threshold) unless it is already raised; remembered only when sent.
   * `since`: when the trouble began (a monitor's first failed check, an agent's last report), which recoveries and
   * reminders count from; the event's time by default.
   */
  async function raise(type: TargetType, id: number, condition: string, event: NotificationEvent, wanted: boolean, channelIds: number[], since = event.time, exact = false) {
    if (await alertRow(type, id, condition, exact)) return;
    if (!wanted) return;
    const key = keyOf(type, id, condition);
    // Raised when a channel took it, or when an escalation policy pages for the target (it may have no channel of its own).
    if ((await send(channelIds, event, `${event.kind}:${type}:${id}:${condition}:${event.time}`, { ...key, since })) || (await escalates(type, id))) {
      const at = now();
      const inserted = await alerts.raise(key, since, at, event.target.name);
      raised.add(`${type}:${id}:${condition}`);
      if (inserted) bus.emit("alert.raised", { targetType: type, targetId: id, condition, since, at, event, channelIds });
    }
  }

  /** Clears an alert; sends the recovery only if the alert had been sent (and the settings want recoveries). */
  async function settle(type: TargetType, id: number, condition: string, event: NotificationEvent | null, wanted: boolean, channelIds: number[], exact = false) {
    const alert = await alertRow(type, id, condition, exact);
    if (!alert) return;
    await clearAlert(type, id, condition);
    const told = event !== null && wanted;
    if (told) {
      event.facts.downtimeSeconds = Math.max(0, Math.round((event.time - alert.since) / 1000));
      await send(channelIds, event, `${event.kind}:${type}:${id}:${condition}:${event.time}`);
    }
    bus.emit("alert.settled", { targetType: type, targetId: id, condition, event: told ? event : null, channelIds: told ? channelIds : [] });
  }

  async function onMonitorStatus(e: MonitorStatusEvent) {
    if (e.maintenance || e.unreachable) return;
    const target = { type: "monitor" as const, id: e.monitorId, name: e.name };
    if (e.to === "down" && e.from !== "down") {
      const s = await store.effective("monitor", e.monitorId);
      const event: NotificationEvent = {
        kind: "down",
        target,
        time: e.at,
        facts: alertFacts({ ...monitorFacts(e), httpStatus: e.httpStatus ?? null, error: e.error ?? null, responseTime: e.responseTime ?? null }),
      };
      await raise("monitor", e.monitorId, "down", event, s.enabled && s.events.down, s.channelIds, e.failingSince, true);
    } else if (e.to === "up" && e.from === "down") {
      const s = await store.effective("monitor", e.monitorId);
      const event: NotificationEvent = { kind: "recovery", target, time: e.at, facts: alertFacts({ ...monitorFacts(e), httpStatus: e.httpStatus ?? null, responseTime: e.responseTime ?? null }) };
      await settle("monitor", e.monitorId, "down", event, s.enabled && s.events.recovery, s.channelIds, true);
    }
  }

  /**
   * Error budgets (server/objectives/): burning too fast and spent are two alerts, each sent once and cleared silently
   * when the budget stops burning or has room again (failures leave the rolling window).
   */
  async function onBudget(e: BudgetEvent) {
    const s = await store.effective("monitor", e.monitorId);
    const wanted = s.enabled && s.events.budget;
    const b = e.budget;
    const target = { type: "monitor" as const, id: e.monitorId, name: e.name };
    const burning = e.to === "burning-fast" || e.to === "burning-slow";
    const fast = e.to === "burning-fast";
    const event = (state: BudgetState): NotificationEvent => ({
      kind: "budget",
      target,
      time: e.at,
      facts: {
        objective: b.objective,
        objectiveDays: b.objectiveDays,
        budgetRemaining: b.remaining,
        ...(state === "exhausted" ? {} : { burnRate: b.burnRates[fast ? "1h" : "6h"], burnHours: fast ? 1 : 6, burnThreshold: fast ? b.thresholds.fast : b.thresholds.slow }),
        budgetState: state as "burning-slow" | "burning-fast" | "exhausted",
      },
    });
    if (burning) await raise("monitor", e.monitorId, "budget-burn", event(e.to), wanted, s.channelIds, e.at, true);
    else await settle("monitor", e.monitorId, "budget-burn", null, false, [], true);
    if (e.to === "exhausted") await raise("monitor", e.monitorId, "budget-spent", event(e.to), wanted, s.channelIds, e.at, true);
    else await settle("monitor", e.monitorId, "budget-spent", null, false, [], true);
  }

  async function onAgentStatus(e: AgentStatusEvent) {
    if (e.maintenance) return;
    const target = { type: "agent" as const, id: e.agentId, name: e.name };
    if (e.to === "offline") {
      const s = await store.effective("agent", e.agentId);
      const facts = { lastSeenAt: e.lastSeenAt, address: e.lastAddress };
      await raise("agent", e.agentId, "offline", { kind: "offline", target, time: e.at, facts }, s.enabled && s.events.offline, s.channelIds, e.lastSeenAt ?? e.at, true);
    } else if (e.to === "online" && e.from === "offline") {
      const s = await store.effective("agent", e.agentId);
      await settle("agent", e.agentId, "offline", { kind: "online", target, time: e.at, facts: {} }, s.enabled && s.events.online, s.channelIds, true);
    }
  }

  // Reports in a row at or above each threshold, per agent and condition (in memory: a restart starts counting anew).
  const streaks = new Map<string, number>();

  async function onAgentReport(state: Report) {
    const sample = state.latest;
    if (!sample || inMaintenance("agent", state.id)) return;
    const s = await store.effective("agent", state.id);
    const target = { type: "agent" as const, id: state.id, name: state.name };
    const readings: { condition: string; kind: "cpu" | "memory" | "disk"; usage: number; mountPoint?: string }[] = [
      { condition: "cpu", kind: "cpu", usage: sample.cpu.usage },
      { condition: "memory", kind: "memory", usage: sample.memory.usageRate },
      ...sample.disks.map((d) => ({ condition: `disk:${d.mountPoint}`, kind: "disk" as const, usage: d.usageRate, mountPoint: d.mountPoint })),
    ];
    for (const r of readings) {
      const key = `${state.id}:${r.condition}`;
      const threshold = s.thresholds[r.kind];
      if (!Number.isFinite(r.usage)) continue;
      if (r.usage >= threshold) {
        const streak = (streaks.get(key) ?? 0) + 1;
        streaks.set(key, streak);
        if (streak >= THRESHOLD_REPORTS) {
          const event: NotificationEvent = {
            kind: r.kind,
            target,
            time: sample.time,
            facts: { hostname: state.hostname, usage: r.usage, threshold, ...(r.mountPoint ? { mountPoint: r.mountPoint } : {}) },
          };
          await raise("agent", state.id, r.condition, event, s.enabled && s.events[r.kind], s.channelIds);
        }
      } else {
        streaks.delete(key);
        // Back below: re-armed, no message (the spec's events are the crossings upwards).
        await settle("agent", state.id, r.condition, null, false, []);
      }
    }
  }

  const restartHistory = new RestartHistory();

  /**
   * The watched containers of a report. Decided by the node the report came to (container lists are not passed
   * between nodes): the alert rows in the database keep two nodes from sending the same alert.
   */
  async function onAgentContainers(e: EventMap["agent.containers"]) {
    if (inMaintenance("agent", e.agentId)) return;
    const s = await store.effective("agent", e.agentId);
    const target = { type: "agent" as const, id: e.agentId, name: e.name };
    for (const c of containerConditions(e.agentId, e.containers, s.containers, restartHistory)) {
      if (c.active) {
        const event: NotificationEvent = { kind: "container", target, time: e.containers.time, facts: { hostname: e.hostname, ...c.facts } };
        await raise("agent", e.agentId, c.condition, event, s.enabled && s.events.container, s.channelIds);
      } else if (raised.has(`agent:${e.agentId}:${c.condition}`)) {
        await settle("agent", e.agentId, c.condition, null, false, []);
      }
    }
  }

  /** Reminders for monitors still down, unless someone acknowledged the alert ("I am on it"). */
  async function remindNow() {
    const t = now();
    for (const a of await alerts.downMonitorsUnacknowledged()) {
      const s = await store.effective("monitor", a.targetId);
      if (!s.enabled || s.reminderMinutes <= 0 || t - a.lastNotifiedAt < s.reminderMinutes * minuteMs) continue;
      const monitor = monitorNow(a.targetId);
      if (!monitor?.down || inMaintenance("monitor", a.targetId)) continue;
      const event: NotificationEvent = {
        kind: "reminder",
        target: { type: "monitor", id: a.targetId, name: monitor.name },
        time: t,
        // What templates name for any monitor alert; the built-in reminder stays the short "still down for …".
        facts: { ...pickNamed(alertFacts(monitor.facts)), downtimeSeconds: Math.round((t - a.since) / 1000) },
      };
      await send(s.channelIds, event, `reminder:monitor:${a.targetId}:${a.lastNotifiedAt}`, { ...keyOf("monitor", a.targetId, "down"), since: a.since });
      await alerts.notified(keyOf("monitor", a.targetId, "down"), t);
    }
  }

  /**
   * A monitor whose alerts were held (a maintenance window, a monitor it depends on being down) that no longer is:
   * what was last sent is compared with how it is now.
   */
  async function reconcileMonitor(id: number, at: number) {
    if (!decides.monitor(id) || inMaintenance("monitor", id)) return;
    const m = monitorNow(id);
    if (!m || m.unreachable || (!m.down && !m.up)) return;
    const s = await store.effective("monitor", id);
    const target = { type: "monitor" as const, id, name: m.name };
    if (m.down) await raise("monitor", id, "down", { kind: "down", target, time: at, facts: alertFacts(m.facts) }, s.enabled && s.events.down, s.channelIds, at, true);
    else await settle("monitor", id, "down", { kind: "recovery", target, time: at, facts: alertFacts(m.facts) }, s.enabled && s.events.recovery, s.channelIds, true);
  }

  /** A monitor recovered (on this node or another): the monitors depending on it that this node checks are compared. */
  async function afterRecovery(e: MonitorStatusEvent) {
    for (const id of dependentsOf(e.monitorId)) await reconcileMonitor(id, e.at);
  }

  /**
   * A monitor edited (paused, its dependencies changed): it and those depending on it whose latest failure was held
   * ("unreachable") but that nothing holds any more are compared, as after a recovery.
   */
  async function afterEdit(id: number) {
    for (const c of [id, ...dependentsOf(id)]) {
      const m = monitorNow(c);
      const error = m?.facts.error;
      if (m?.down && !m.unreachable && typeof error === "string" && parseCheckError(error).code === "UNREACHABLE") await reconcileMonitor(c, now());
    }
  }

  /** Targets that left maintenance: what was sent before is compared with how they are now. */
  async function afterMaintenance(e: MaintenanceChangeEvent) {
    for (const id of e.monitors.left) await reconcileMonitor(id, e.at);
    for (const id of e.agents.left) {
      if (!decides.agent(id) || inMaintenance("agent", id)) continue;
      const a = agentNow(id);
      if (!a || a.status === "connecting") continue;
      const s = await store.effective("agent", id);
      const target = { type: "agent" as const, id, name: a.name };
      if (a.status === "offline") {
        const event: NotificationEvent = { kind: "offline", target, time: e.at, facts: { lastSeenAt: a.lastSeenAt } };
        await raise("agent", id, "offline", event, s.enabled && s.events.offline, s.channelIds, a.lastSeenAt ?? e.at, true);
      } else await settle("agent", id, "offline", { kind: "online", target, time: e.at, facts: {} }, s.enabled && s.events.online, s.channelIds, true);
    }
  }

  // The queue: each piece of work starts when the one before has finished; a failure is logged and the next runs.
  let queue: Promise<void> = Promise.resolve();
  function run(what: string, fn: () => Promise<void>): Promise<void> {
    queue = queue.then(fn).catch((e) => log.error("notification rule failed", { what, error: String((e as Error)?.stack ?? e) }));
    return queue;
  }
  const handle = <T>(what: string, fn: (x: T) => Promise<void>) => (x: T) => void run(what, () => fn(x));

  // First of all: what is raised already (events that arrive meanwhile wait for it).
  void run("load", async () => {
    for (const a of await alerts.all()) raised.add(`${a.targetType}:${a.targetId}:${a.condition}`);
  });

  let reminderTimer: ReturnType<typeof setInterval> | null = null;
  const off: (() => void)[] = [];

  return {
    start() {
      off.push(
        // Another node's checks and agents' presence are notified by that node.
        bus.on("monitor.status", (e) => {
          if (!e.remote) handle("monitor.status", onMonitorStatus)(e);
          // Every node looks at the dependents it checks, whichever node checked the one that recovered.
          if (e.from === "down" && e.to === "up") handle("monitor.recovery", afterRecovery)(e);
        }),
        bus.on("monitor.change", handle("monitor.change", async (e) => {
          // Every node compares the held monitors it checks; a deletion's alerts are forgotten by the node that made it.
          if (e.action === "updated") await afterEdit(e.monitorId);
          if (e.remote) return;
          if (e.action === "deleted") await forget("monitor", e.monitorId);
        })),
        bus.on("agent.status", (e) => !e.remote && handle("agent.status", onAgentStatus)(e)),
        bus.on("monitor.budget", handle("monitor.budget", onBudget)),
        bus.on("maintenance.change", (e) => (e.monitors.left.length || e.agents.left.length) && handle("maintenance.change", afterMaintenance)(e)),
        // The report as it is now: handled later, when the agent's state may have moved on.
        bus.on("agent.report", (state) => decides.agent(state.id) && handle("agent.report", onAgentReport)({ id: state.id, name: state.name, hostname: state.hostname, latest: state.latest })),
        bus.on("agent.containers", handle("agent.containers", onAgentContainers)),
        bus.on("agent.change", handle("agent.change", async (e) => {
          if (e.kind === "deleted") {
            await forget("agent", e.agentId);
            restartHistory.forget(`${e.agentId}:`);
            for (const key of streaks.keys()) if (key.startsWith(`${e.agentId}:`)) streaks.delete(key);
          }
        })),
      );
    },
    /** The reminder timer: started with the service's sending (server/lifecycle.ts), not as events start to count. */
    startReminders() {
      reminderTimer ??= setInterval(() => decides.reminders() && void run("reminders", remindNow), minuteMs);
    },
    stop() {
      for (const f of off.splice(0)) f();
      if (reminderTimer) clearInterval(reminderTimer);
      reminderTimer = null;
    },
    /** The reminder pass now (queued behind the events before it); resolves when it is done. */
    remind: () => run("reminders", remindNow),
    /** Resolves once every event received so far has been handled (its notifications queued in the outbox). */
    async idle(): Promise<void> {
      for (let seen = queue; ; seen = queue) {
        await seen;
        if (seen === queue) return;
      }
    },
  };
}

export type Rules = ReturnType<typeof createRules>;

const EVERYTHING: Decides = { monitor: () => true, agent: () => true, reminders: () => true };
