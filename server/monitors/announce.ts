// What a recorded check tells the rest of the process: a monitor.check event (for live pages, when anyone listens)
// and, when the status changed, a monitor.status event with the facts notifications need.
import type { EventBus } from "../events";
import type { CheckResult, MonitorStatus } from "./public";
import type { MonitorEntry, MonitorStore } from "./store";
import type { CheckOutcome, CheckState, CheckTypes } from "./types";

/** What a check type may read of a monitor's state (push: when the last call came). */
export const checkStateOf = (entry: MonitorEntry): CheckState => ({
  lastPushAt: entry.state.lastPushAt,
  tlsExpiresAt: entry.state.tlsExpiresAt,
  pushWatch: entry.pushWatch,
});

/** The check and status events of a recorded check (this node's, or another node's when `remote`). */
export function createAnnouncer({ bus, store, types, now }: { bus: EventBus; store: MonitorStore; types: CheckTypes; now: () => number }) {
  return function announce(entry: MonitorEntry, outcome: CheckOutcome, result: CheckResult, from: MonitorStatus, remote: boolean) {
    const extra = remote ? { remote } : {};
    if (bus.has("monitor.check")) {
      bus.emit("monitor.check", {
        monitorId: entry.id,
        result,
        status: entry.state.status,
        consecutiveFailures: entry.state.consecutiveFailures,
        uptime24h: store.uptime24h(entry, now()),
        lastPushAt: entry.state.lastPushAt,
        ...extra,
      });
    }
    const to = entry.state.status;
    if (from !== to) {
      bus.emit("monitor.status", {
        monitorId: entry.id,
        name: entry.fields.name,
        type: entry.fields.type,
        url: types.of(entry.fields.type).target(entry.fields),
        facts: types.of(entry.fields.type).facts(entry.fields, checkStateOf(entry)),
        from,
        to,
        at: outcome.time,
        ...(to === "down" ? { failingSince: entry.failingSince ?? outcome.time } : {}),
        ...(outcome.maintenance ? { maintenance: true } : {}),
        ...(outcome.unreachable ? { unreachable: true } : {}),
        error: outcome.error,
        responseTime: outcome.responseTime,
        httpStatus: outcome.httpStatus,
        ...extra,
      });
    }
  };
}
