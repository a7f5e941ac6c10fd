// When to notify: listens to the event bus and turns transitions into queued notifications.
// - Edge-triggered: one message per transition. A monitor's "down" already waited for its retries.
// - A recovery (or "back online") only follows a down (offline) that was sent: the alert is remembered in
//   notification_alerts, so this holds across restarts, and nothing "recovers" that never alerted.
// - Usage thresholds: an alert once usage is at or above the threshold in 2 reports in a row, then nothing until it
//   has fallen back below (hysteresis). Each disk is its own condition, named by its mount point.
// - Reminders while a monitor stays down, when its settings ask for them.
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/open";
import type { EventBus } from "../events";
import { silentLogger, type Logger } from "../log";
import type { AgentState } from "../agents/service";
import type { MonitorStatusEvent } from "../monitors/public";
import type { AgentStatusEvent } from "../agents/service";
import type { NotificationEvent } from "./public";
import type { Outbox } from "./outbox";
import type { NotificationStore, TargetType } from "./store";
import { notificationAlerts, notificationChannels } from "./tables";

/** Reports in a row at or above a threshold before it alerts. */
export const THRESHOLD_REPORTS = 2;
const REMINDER_CHECK_MS = 60_000;

export interface RulesOptions {
  db: Db;
  bus: EventBus;
  store: NotificationStore;
  outbox: Outbox;
  /** A monitor's name now, and whether it is still down and checked (reminders stop for paused or deleted ones). */
  monitorNow?: (id: number) => { name: string; down: boolean } | undefined;
  log?: Logger;
  now?: () => number;
}

/** What a monitor's message names: its target and its type's facts (port, record, keyword, last push). */
function monitorFacts(e: MonitorStatusEvent): NotificationEvent["facts"] {
  return { url: e.url, checkType: e.type, ...e.facts };
}

export function createRules({ db, bus, store, outbox, monitorNow = () => undefined, log = silentLogger, now = Date.now }: RulesOptions) {
  // The raised alerts, also in memory: agent reports check them on every sample, and should not need a query.
  const raised = new Set(db.select().from(notificationAlerts).all().map((a) => `${a.targetType}:${a.targetId}:${a.condition}`));
  const alertRow = (type: TargetType, id: number, condition: string) =>
    raised.has(`${type}:${id}:${condition}`)
      ? db.select().from(notificationAlerts)
          .where(and(eq(notificationAlerts.targetType, type), eq(notificationAlerts.targetId, id), eq(notificationAlerts.condition, condition)))
          .get()
      : undefined;
  const clearAlert = (type: TargetType, id: number, condition: string) => {
    raised.delete(`${type}:${id}:${condition}`);
    db.delete(notificationAlerts)
      .where(and(eq(notificationAlerts.targetType, type), eq(notificationAlerts.targetId, id), eq(notificationAlerts.condition, condition)))
      .run();
  };

  /** A deleted monitor or agent: its override and alerts go. */
  function forget(type: TargetType, id: number) {
    store.forgetTarget(type, id);
    for (const key of raised) if (key.startsWith(`${type}:${id}:`)) raised.delete(key);
  }

  /** The enabled channels among `ids`. */
  function liveChannels(ids: number[]): number[] {
    if (!ids.length) return [];
    const enabled = new Set(db.select({ id: notificationChannels.id }).from(notificationChannels).where(eq(notificationChannels.enabled, true)).all().map((r) => r.id));
    return ids.filter((id) => enabled.has(id));
  }

  /** Queues an event for the target's channels; true when at least one channel took it. */
  function send(channelIds: number[], event: NotificationEvent, key: string): boolean {
    return outbox.enqueue(liveChannels(channelIds), event, key) > 0;
  }

  /**
   * Raises an alert (down, offline, over a threshold) unless it is already raised; remembered only when sent.
   * `since`: when the trouble began (a monitor's first failed check, an agent's last report), which recoveries and
   * reminders count from; the event's time by default.
   */
  function raise(type: TargetType, id: number, condition: string, event: NotificationEvent, wanted: boolean, channelIds: number[], since = event.time) {
    if (alertRow(type, id, condition)) return;
    if (!wanted) return;
    if (send(channelIds, event, `${event.kind}:${type}:${id}:${condition}:${event.time}`)) {
      db.insert(notificationAlerts).values({ targetType: type, targetId: id, condition, since, lastNotifiedAt: now() }).onConflictDoNothing().run();
      raised.add(`${type}:${id}:${condition}`);
    }
  }

  /** Clears an alert; sends the recovery only if the alert had been sent (and the settings want recoveries). */
  function settle(type: TargetType, id: number, condition: string, event: NotificationEvent | null, wanted: boolean, channelIds: number[]) {
    const alert = alertRow(type, id, condition);
    if (!alert) return;
    clearAlert(type, id, condition);
    if (event && wanted) {
      event.facts.downtimeSeconds = Math.max(0, Math.round((event.time - alert.since) / 1000));
      send(channelIds, event, `${event.kind}:${type}:${id}:${condition}:${event.time}`);
    }
  }

  function onMonitorStatus(e: MonitorStatusEvent) {
    const s = store.effective("monitor", e.monitorId);
    const target = { type: "monitor" as const, id: e.monitorId, name: e.name };
    if (e.to === "down" && e.from !== "down") {
      const event: NotificationEvent = {
        kind: "down",
        target,
        time: e.at,
        facts: { ...monitorFacts(e), httpStatus: e.httpStatus ?? null, error: e.error ?? null, responseTime: e.responseTime ?? null },
      };
      raise("monitor", e.monitorId, "down", event, s.enabled && s.events.down, s.channelIds, e.failingSince);
    } else if (e.to === "up" && e.from === "down") {
      const event: NotificationEvent = { kind: "recovery", target, time: e.at, facts: { ...monitorFacts(e), httpStatus: e.httpStatus ?? null, responseTime: e.responseTime ?? null } };
      settle("monitor", e.monitorId, "down", event, s.enabled && s.events.recovery, s.channelIds);
    }
  }

  function onAgentStatus(e: AgentStatusEvent) {
    const s = store.effective("agent", e.agentId);
    const target = { type: "agent" as const, id: e.agentId, name: e.name };
    if (e.to === "offline") {
      const facts = { lastSeenAt: e.lastSeenAt, address: e.lastAddress };
      raise("agent", e.agentId, "offline", { kind: "offline", target, time: e.at, facts }, s.enabled && s.events.offline, s.channelIds, e.lastSeenAt ?? e.at);
    } else if (e.to === "online" && e.from === "offline") {
      settle("agent", e.agentId, "offline", { kind: "online", target, time: e.at, facts: {} }, s.enabled && s.events.online, s.channelIds);
    }
  }

  // Reports in a row at or above each threshold, per agent and condition (in memory: a restart starts counting anew).
  const streaks = new Map<string, number>();

  function onAgentReport(state: AgentState) {
    const sample = state.latest;
    if (!sample) return;
    const s = store.effective("agent", state.id);
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
          raise("agent", state.id, r.condition, event, s.enabled && s.events[r.kind], s.channelIds);
        }
      } else {
        streaks.delete(key);
        // Back below: re-armed, no message (the spec's events are the crossings upwards).
        settle("agent", state.id, r.condition, null, false, []);
      }
    }
  }

  function remind() {
    const t = now();
    for (const a of db.select().from(notificationAlerts).where(and(eq(notificationAlerts.targetType, "monitor"), eq(notificationAlerts.condition, "down"))).all()) {
      const s = store.effective("monitor", a.targetId);
      if (!s.enabled || s.reminderMinutes <= 0 || t - a.lastNotifiedAt < s.reminderMinutes * 60_000) continue;
      const monitor = monitorNow(a.targetId);
      if (!monitor?.down) continue;
      const event: NotificationEvent = {
        kind: "reminder",
        target: { type: "monitor", id: a.targetId, name: monitor.name },
        time: t,
        facts: { downtimeSeconds: Math.round((t - a.since) / 1000) },
      };
      send(s.channelIds, event, `reminder:monitor:${a.targetId}:${a.lastNotifiedAt}`);
      db.update(notificationAlerts)
        .set({ lastNotifiedAt: t })
        .where(and(eq(notificationAlerts.targetType, "monitor"), eq(notificationAlerts.targetId, a.targetId), eq(notificationAlerts.condition, "down")))
        .run();
    }
  }

  const guarded = <T>(what: string, fn: (x: T) => void) => (x: T) => {
    try {
      fn(x);
    } catch (e) {
      log.error("notification rule failed", { what, error: String((e as Error)?.stack ?? e) });
    }
  };

  let reminderTimer: ReturnType<typeof setInterval> | null = null;
  const off: (() => void)[] = [];

  return {
    start() {
      off.push(
        bus.on("monitor.status", guarded("monitor.status", onMonitorStatus)),
        bus.on("monitor.change", guarded("monitor.change", (e) => {
          if (e.action === "deleted") forget("monitor", e.monitorId);
        })),
        bus.on("agent.status", guarded("agent.status", onAgentStatus)),
        bus.on("agent.report", guarded("agent.report", onAgentReport)),
        bus.on("agent.change", guarded("agent.change", (e) => {
          if (e.kind === "deleted") {
            forget("agent", e.agentId);
            for (const key of streaks.keys()) if (key.startsWith(`${e.agentId}:`)) streaks.delete(key);
          }
        })),
      );
      reminderTimer = setInterval(guarded("reminders", remind), REMINDER_CHECK_MS);
    },
    stop() {
      for (const f of off.splice(0)) f();
      if (reminderTimer) clearInterval(reminderTimer);
      reminderTimer = null;
    },
    /** For tests: the reminder pass now. */
    remind,
  };
}

export type Rules = ReturnType<typeof createRules>;
