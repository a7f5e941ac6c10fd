// The monitors of the rows the list holds (pagedList.ts fetches them a window at a time), outside React: one entry per
// monitor, each with its own subscribers. A live check changes one entry and wakes the one row that shows it, so a
// list stays smooth while checks stream in; which rows there are and in what order is the server's (pagedList.ts).
import type { MonitorCheckEvent, PublicMonitor, RecentCheck } from "../../../api/monitors";
import { appendCheck } from "../CheckStrip";
import { applyCheck, applyStatus, type MonitorPush } from "../model";
import { bumpHeartbeat, hourOf, normalizeHeartbeat, type HeartbeatPair } from "../listModel";

/** What a row renders: the monitor and its heartbeat strip (kept apart: it is bumped locally between replies). */
export interface ListEntry {
  monitor: PublicMonitor;
  heartbeat: HeartbeatPair[];
  /** The hour number of the strip's last pair. */
  hour: number;
  /** The latest checks (oldest first), once fetched for a row that came into view; null until then. */
  checks: RecentCheck[] | null;
}

export interface ListStoreOptions {
  now?: () => number;
}

export function createListStore(options: ListStoreOptions = {}) {
  const now = options.now ?? Date.now;

  const entries = new Map<number, ListEntry>();
  /** The time of the newest check counted in each strip: the same check reported twice (reply and push) counts once. */
  const counted = new Map<number, number>();
  const rowListeners = new Map<number, Set<() => void>>();

  const wake = (id: number) => {
    for (const listener of [...(rowListeners.get(id) ?? [])]) listener();
  };

  // The strip's last pair is the server's current hour. This clock stands for the server's; a monitor checked in a
  // later hour than this clock says shows the server is ahead (a slow clock here), so its hour is taken instead.
  const entryOf = (monitor: PublicMonitor, checks: RecentCheck[] | null): ListEntry => ({
    monitor,
    heartbeat: normalizeHeartbeat(monitor.heartbeat),
    hour: Math.max(hourOf(now()), monitor.lastCheckedAt ? hourOf(monitor.lastCheckedAt) : 0),
    checks,
  });

  // Checks are fetched for the rows in view only (the whole list's would be megabytes). Checks that arrive live while
  // a fetch is out are kept here and added to its answer, which may have been read before them.
  const arriving = new Map<number, RecentCheck[]>();

  /** A whole monitor from the server (list, push, or a reply): its strip already counts its checks up to lastCheckedAt. */
  function put(monitor: PublicMonitor, checks = entries.get(monitor.id)?.checks ?? null) {
    entries.set(monitor.id, entryOf(monitor, checks));
    counted.set(monitor.id, monitor.lastCheckedAt ?? 0);
  }

  function onCheck(event: MonitorCheckEvent) {
    const entry = entries.get(event.monitorId);
    if (!entry) return;
    const monitor = applyCheck(entry.monitor, event);
    let { heartbeat, hour, checks } = entry;
    const time = event.result.time;
    if (checks) checks = appendCheck(checks, event.result);
    else arriving.get(event.monitorId)?.push(event.result);
    if (time > (counted.get(event.monitorId) ?? 0)) {
      counted.set(event.monitorId, time);
      // Like the server's counters: a check made in maintenance is not counted.
      if (!event.result.maintenance) ({ heartbeat, hour } = bumpHeartbeat(heartbeat, hour, time, event.result.status === "up"));
    }
    if (monitor === entry.monitor && heartbeat === entry.heartbeat && checks === entry.checks) return;
    entries.set(event.monitorId, { monitor, heartbeat, hour, checks });
    wake(event.monitorId);
  }

  /** One monitor as the server has it now (created, edited, paused, or after a manual check). */
  function upsert(monitor: PublicMonitor) {
    put(monitor);
    wake(monitor.id);
  }

  function remove(id: number) {
    if (!entries.delete(id)) return;
    counted.delete(id);
    arriving.delete(id);
    wake(id);
  }

  return {
    /**
     * The monitors of the rows the list holds now (a page reply); the others are forgotten. `fresh` (after a reconnect:
     * checks may have been missed) fetches every strip again; otherwise strips are kept, and a monitor a live check
     * has made newer than the reply keeps what the check said.
     */
    setRows(monitors: readonly PublicMonitor[], fresh: boolean) {
      const ids = new Set<number>();
      if (fresh) arriving.clear();
      for (const m of monitors) {
        ids.add(m.id);
        const known = entries.get(m.id);
        if (fresh || !known) put(m, null);
        else if ((counted.get(m.id) ?? 0) <= (m.lastCheckedAt ?? 0)) put(m);
        else continue;
        wake(m.id);
      }
      for (const id of [...entries.keys()]) {
        if (ids.has(id)) continue;
        entries.delete(id);
        counted.delete(id);
        arriving.delete(id);
      }
    },

    upsert,
    remove,

    /** Monitors entered or left maintenance (/api/live "maintenance.change"). */
    setMaintenance(entered: readonly number[], left: readonly number[]) {
      for (const [ids, on] of [[entered, true], [left, false]] as const) {
        for (const id of ids) {
          const entry = entries.get(id);
          if (!entry || entry.monitor.maintenance === on) continue;
          entries.set(id, { ...entry, monitor: { ...entry.monitor, maintenance: on } });
          wake(id);
        }
      }
    },

    /** A message from /api/live. */
    apply(push: MonitorPush) {
      switch (push.type) {
        case "monitor.check":
          return onCheck(push.data);
        case "monitor.status": {
          const entry = entries.get(push.data.monitorId);
          if (!entry) return;
          const monitor = applyStatus(entry.monitor, push.data);
          if (monitor === entry.monitor) return;
          entries.set(monitor.id, { ...entry, monitor });
          wake(monitor.id);
          return;
        }
        case "monitor.change": {
          const { action, monitorId, monitor } = push.data;
          if (action === "deleted") return remove(monitorId);
          if (monitor) upsert(monitor);
        }
      }
    },

    get: (id: number): ListEntry | undefined => entries.get(id),

    /** Of these ids, the monitors whose checks are neither loaded nor being fetched; they count as being fetched now. */
    claimChecks(ids: readonly number[]): number[] {
      const wanted = ids.filter((id) => entries.get(id)?.checks === null && !arriving.has(id));
      for (const id of wanted) arriving.set(id, []);
      return wanted;
    },

    /** A fetch's answer for the ids it claimed (a monitor it does not name has no checks yet). */
    setChecks(ids: readonly number[], answer: Readonly<Record<string, RecentCheck[]>>) {
      for (const id of ids) {
        const during = arriving.get(id);
        if (!during) continue; // the list was reloaded or the monitor deleted since: that answer is stale
        arriving.delete(id);
        const entry = entries.get(id);
        if (!entry) continue;
        const checks = during.reduce<RecentCheck[]>((list, check) => appendCheck(list, check), answer[id] ?? []);
        entries.set(id, { ...entry, checks });
        wake(id);
      }
    },

    /** A fetch failed: its rows may try again when next shown. */
    releaseChecks(ids: readonly number[]) {
      for (const id of ids) arriving.delete(id);
    },

    has: (id: number) => entries.has(id),

    get size() {
      return entries.size;
    },

    subscribeRow(id: number, listener: () => void): () => void {
      let set = rowListeners.get(id);
      if (!set) rowListeners.set(id, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) rowListeners.delete(id);
      };
    },
  };
}

export type ListStore = ReturnType<typeof createListStore>;
