// A group's state, kept as any monitor's so every reader (lists, live socket, badges, feeds, status pages,
// notification rules) sees it without knowing groups. A group is evaluated when one of its members' checks or states
// changes (nested groups propagate: a group's change evaluates its own group). An evaluation is recorded as a check of
// the group when the group's state changes, and otherwise at most once per the group's interval: so a group's uptime
// and history count its evaluations (≈ time-weighted while members are checked), and a group is notified as one.
// Pending (no verdict) changes the status without a check. On a cluster every node follows the groups in memory; the
// group's owner writes and notifies (the others announce as remote, which nothing notifies).
import type { EventBus } from "../events";
import type { GroupTree } from "./groups";
import type { CheckOutcome } from "./types/check-type";
import { bump, toCheckResult, type MonitorEntry, type MonitorStore } from "./store";
import type { createRecentChecks } from "./recent";
import type { Writer } from "./writer";

export interface GroupStateDeps {
  bus: EventBus;
  store: MonitorStore;
  tree: GroupTree;
  writer: Writer;
  recent: ReturnType<typeof createRecentChecks>;
  announce: (entry: MonitorEntry, outcome: CheckOutcome, result: ReturnType<typeof toCheckResult>, from: MonitorEntry["state"]["status"], remote: boolean) => void;
  now: () => number;
  owns: (id: number) => boolean;
  inMaintenance: (id: number) => boolean;
  /** How long a minute of the intervals is (60 000; shorter in real-clock tests). */
  minuteMs: number;
}

export function createGroupState(deps: GroupStateDeps) {
  const { bus, store, tree, writer, recent, announce, now, owns, inMaintenance, minuteMs } = deps;

  /** Re-evaluates a group (active ones only: a paused group keeps its state, as a paused monitor does). */
  function evaluate(id: number, depth = 0) {
    const entry = store.get(id);
    if (!entry || entry.fields.type !== "group" || !entry.fields.active || depth > 32) return;
    const v = tree.verdict(id);
    const s = entry.state;
    const from = s.status;
    const at = now();
    const mine = owns(id);
    if (v.status === "pending") {
      if (from === "pending") return;
      s.status = "pending";
      s.statusChangedAt = at;
      s.lastError = null;
      entry.failingSince = null;
      if (mine) writer.saveState(id, s);
      bus.emit("monitor.status", { monitorId: id, name: entry.fields.name, type: "group", url: "", facts: {}, from, to: "pending", at, ...(mine ? {} : { remote: true }) });
      return evaluateParentOf(entry, depth);
    }
    const due = s.lastCheckedAt === null || at - s.lastCheckedAt >= (entry.fields.intervalSeconds * minuteMs) / 60 || at < s.lastCheckedAt;
    if (v.status === from && !due) return;
    const up = v.status === "up";
    const outcome: CheckOutcome = { time: Math.max(at, (s.lastCheckedAt ?? 0) + 1), up, responseTime: null, httpStatus: null, error: v.error };
    if (inMaintenance(id)) outcome.maintenance = true;
    s.lastCheckedAt = outcome.time;
    s.lastResponseTime = null;
    s.lastHttpStatus = null;
    s.lastError = v.error;
    s.consecutiveFailures = up ? 0 : 1;
    entry.failingSince = up ? null : (entry.failingSince ?? outcome.time);
    if (v.status !== from) {
      s.status = v.status;
      s.statusChangedAt = outcome.time;
    }
    if (!outcome.maintenance) bump(entry.ring, outcome.time, up);
    if (mine) {
      writer.addResult(id, outcome);
      writer.saveState(id, s);
    }
    recent.add(id, outcome, !mine);
    announce(entry, outcome, toCheckResult(id, outcome), from, !mine);
    if (v.status !== from) evaluateParentOf(entry, depth);
  }

  function evaluateParentOf(entry: MonitorEntry, depth = 0) {
    if (entry.fields.parentId !== null) evaluate(entry.fields.parentId, depth + 1);
  }

  return {
    evaluate,
    /** A member's check was recorded or its state changed: its group looks again. */
    memberChanged: (entry: MonitorEntry) => evaluateParentOf(entry),
    /** Every active group (after loading, and when maintenance moved). */
    evaluateAll() {
      for (const e of store.all()) if (e.fields.type === "group") evaluate(e.id);
    },
  };
}

export type GroupState = ReturnType<typeof createGroupState>;
