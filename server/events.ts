// The typed in-process event bus: producers emit what happened, subscribers (live push, notifications, status page
// cache…) react. Nothing polls the database to find out what changed.
import { silentLogger, type Logger } from "./log";
import type { AgentState, AgentStatusEvent } from "./agents/service";
import type { ContainersSnapshot } from "./agents/protocol";
import type { MaintenanceChangeEvent, PublicMaintenance } from "./maintenance/public";
import type { PublicIncident } from "./incidents/public";
import type { BudgetEvent } from "./objectives/service";
import type { NotificationEvent } from "./notifications/public";
import type { MonitorChangeEvent, MonitorCheckEvent, MonitorStatusEvent } from "./monitors/public";
import type { ProblemChange } from "./problems/public";

/** Every event type and its payload. Later features add theirs here (agent presence, thresholds…). */
export interface EventMap {
  "monitor.status": MonitorStatusEvent;
  "monitor.check": MonitorCheckEvent;
  "monitor.change": MonitorChangeEvent;
  /** An error budget's state changed: ok, burning slowly or fast, exhausted (server/objectives/). */
  "monitor.budget": BudgetEvent;
  /** connecting → online, online ↔ offline */
  "agent.status": AgentStatusEvent;
  /** an accepted report: the agent's new state (for live lists) */
  "agent.report": AgentState;
  /** an accepted report listed the agent's containers (notifications watch them) */
  "agent.containers": { agentId: number; name: string; hostname: string; containers: ContainersSnapshot };
  /** an agent registered, renamed or deleted */
  "agent.change": { agentId: number; kind: "created" | "updated" | "deleted" };
  /** a user was changed or deleted: their open sessions may have ended (auth/session-watch.ts re-checks them) */
  "user.change": {
    userId: number;
    kind: "updated" | "deleted";
    remote?: boolean;
    /** After an update: what open sessions are checked against, so this node's end at once (auth/session-watch.ts). */
    user?: { status: "active" | "disabled"; sessionVersion: number; role: "admin" | "editor" | "viewer" };
  };
  /** Stored settings changed (notification settings and overrides, the status page, maintenance windows): caches are dropped. */
  "settings.change": { area: SettingsArea; remote?: boolean };
  /** Monitors and agents entered or left maintenance (a window started, ended, was edited or deleted). */
  "maintenance.change": MaintenanceChangeEvent;
  /** An incident was posted or got a new update (status-page subscribers are told). */
  "incident.update": { incident: PublicIncident; update: { state: string; message: string; at: number } };
  /** A maintenance window was created (status-page subscribers are told of it). */
  "maintenance.created": { window: PublicMaintenance };
  /** An alert was raised (sent, or wanted by an escalation policy): escalation starts its run (server/escalation/). */
  "alert.raised": { targetType: "monitor" | "agent"; targetId: number; condition: string; since: number; at: number; event: NotificationEvent; channelIds: number[] };
  /** An alert ended: with the recovery event when one was sent (to `channelIds`), null when cleared silently. */
  "alert.settled": { targetType: "monitor" | "agent"; targetId: number; condition: string; event: NotificationEvent | null; channelIds: number[] };
  /** An open problem (a sent alert) was raised, acknowledged or resolved (server/notifications/alerts.ts). */
  "problem.change": ProblemChange;
}

export type SettingsArea = "notifications" | "status" | "maintenance" | "incidents" | "locations" | "monitors";
export type EventType = keyof EventMap;
export type Listener<K extends EventType> = (payload: EventMap[K]) => void;

export interface EventBus {
  /** Subscribes; returns the unsubscribe function. */
  on<K extends EventType>(type: K, listener: Listener<K>): () => void;
  /**
   * Calls every listener of `type` synchronously, in subscription order. A listener that throws is logged and does
   * not stop the others or the emitter. Listeners with slow work should hand it off (queue, outbox), not block.
   */
  emit<K extends EventType>(type: K, payload: EventMap[K]): void;
  /** Whether anything listens (lets a producer skip building a payload nobody reads). */
  has(type: EventType): boolean;
}

export function createEventBus(log: Logger = silentLogger): EventBus {
  const listeners = new Map<EventType, Set<Listener<never>>>();
  return {
    on(type, listener) {
      let set = listeners.get(type);
      if (!set) listeners.set(type, (set = new Set()));
      // Wrapped so the same function may subscribe twice and unsubscribe each time independently.
      const entry: Listener<never> = (payload) => (listener as Listener<never>)(payload);
      set.add(entry);
      return () => void set.delete(entry);
    },
    emit(type, payload) {
      const set = listeners.get(type);
      if (!set) return;
      for (const listener of [...set]) {
        try {
          (listener as Listener<typeof type>)(payload);
        } catch (e) {
          log.error("event listener failed", { type, error: String((e as Error)?.stack ?? e) });
        }
      }
    },
    has(type) {
      return (listeners.get(type)?.size ?? 0) > 0;
    },
  };
}
