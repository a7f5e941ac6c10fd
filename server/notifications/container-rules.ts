// Container alerts (rules.ts raises and settles them): from an agent's container list, which watched containers are in
// trouble right now — stopped, unhealthy, or restarting more than N times in M minutes. Each problem is its own
// condition (`container:<name>:<problem>`), edge-triggered like the usage alerts: one message when it starts, none
// while it lasts, re-armed silently once it is over.
import type { ContainerInfo, ContainersSnapshot } from "../agents/protocol";
import type { ContainerAlertSettings, NotificationEvent } from "./public";

/** States that count as stopped (paused and restarting do not: restarts have their own rule). */
const STOPPED = new Set(["exited", "dead", "created", "removing"]);

export interface ContainerCondition {
  condition: string;
  /** The problem is present in this list. */
  active: boolean;
  facts: NotificationEvent["facts"];
}

/**
 * Restart counts seen per container (agent id + name), to tell restarts within a window: the count is cumulative,
 * so the restarts in the window are the newest count minus the oldest one seen inside it. In memory: after a server
 * restart the window fills again.
 */
export class RestartHistory {
  private seen = new Map<string, { time: number; restarts: number }[]>();

  /** Records a reading; returns the restarts within the last `minutes` (0 when the count went down: a new container). */
  record(key: string, time: number, restarts: number, minutes: number): number {
    const since = time - minutes * 60_000;
    let list = this.seen.get(key) ?? [];
    if (list.length && restarts < list[list.length - 1]!.restarts) list = [];
    list.push({ time, restarts });
    // Keep the newest reading at or before the window's start: the baseline of restarts inside the window.
    let first = 0;
    while (first + 1 < list.length && list[first + 1]!.time <= since) first++;
    list = list.slice(first);
    this.seen.set(key, list);
    return restarts - list[0]!.restarts;
  }

  forget(prefix: string) {
    for (const key of this.seen.keys()) if (key.startsWith(prefix)) this.seen.delete(key);
  }
}

/** The conditions of every watched container in a list the agent could read (nothing when it could not). */
export function containerConditions(agentId: number, snapshot: ContainersSnapshot, settings: ContainerAlertSettings, history: RestartHistory): ContainerCondition[] {
  if (snapshot.access !== "ok" || settings.watch.length === 0) return [];
  const byName = new Map(snapshot.list.map((c) => [c.name, c]));
  // "*" watches what is listed; named containers are watched even when gone (gone is stopped).
  const names = settings.watch.includes("*") ? [...new Set([...byName.keys(), ...settings.watch.filter((n) => n !== "*")])] : settings.watch;
  const out: ContainerCondition[] = [];
  for (const name of names) {
    const c: ContainerInfo | undefined = byName.get(name);
    const base = { container: name, ...(c ? { image: c.image } : {}) };
    const state = c?.state ?? "missing";
    out.push({ condition: `container:${name}:stopped`, active: !c || STOPPED.has(c.state), facts: { ...base, containerProblem: "stopped", containerState: state } });
    out.push({ condition: `container:${name}:unhealthy`, active: c?.health === "unhealthy", facts: { ...base, containerProblem: "unhealthy", containerState: state } });
    if (settings.restarts > 0 && c) {
      const count = history.record(`${agentId}:${name}`, snapshot.time, c.restarts, settings.restartMinutes);
      out.push({
        condition: `container:${name}:restarts`,
        active: count > settings.restarts,
        facts: { ...base, containerProblem: "restarts", containerState: state, restarts: count, windowMinutes: settings.restartMinutes },
      });
    }
  }
  return out;
}
