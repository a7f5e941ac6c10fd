// Batched writes: check results and monitor state changes queue in memory and are written in one transaction per
// short tick (or as soon as a batch is full), never one write per check.
import type { Statement } from "bun:sqlite";
import type { Db } from "../db/open";
import { silentLogger, type Logger } from "../log";
import type { CheckOutcome } from "./types/check-type";
import type { MonitorStatus } from "./public";
import { systemClock, type Clock } from "./scheduler";

/** The part of a monitor's state kept in its row. */
export interface PersistedState {
  status: MonitorStatus;
  statusChangedAt: number | null;
  consecutiveFailures: number;
  lastCheckedAt: number | null;
  lastResponseTime: number | null;
  lastHttpStatus: number | null;
  lastError: string | null;
  tlsExpiresAt: number | null;
  /** push monitors: when the latest call came. */
  lastPushAt: number | null;
}

export interface WriterOptions {
  clock?: Clock;
  log?: Logger;
  /** Longest a result waits before it is written. */
  flushMs?: number;
  /** Rows that trigger a write at once. */
  batchSize?: number;
  /** When the database keeps failing, results beyond this many are dropped (oldest first) and logged. */
  maxQueue?: number;
}

export function createWriter(db: Db, options: WriterOptions = {}) {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? silentLogger;
  const flushMs = options.flushMs ?? 1000;
  const batchSize = options.batchSize ?? 1000;
  const maxQueue = options.maxQueue ?? 200_000;
  const sqlite = db.$client;

  let results: { monitorId: number; outcome: CheckOutcome }[] = [];
  let states = new Map<number, PersistedState>();
  let timer: unknown = null;
  let stopped = false;
  const counters = { written: 0, flushes: 0, failures: 0, dropped: 0, lastFlushMs: 0, maxFlushMs: 0 };

  // Prepared once: the hot path skips the query builder. The EXISTS guard drops a result whose monitor was deleted
  // between the check and the write, instead of failing the whole batch on the foreign key.
  let insert: Statement | null = null;
  let update: Statement | null = null;
  const statements = () => {
    insert ??= sqlite.prepare(
      "INSERT INTO check_results (monitor_id, time, up, response_time, http_status, error) " +
        "SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE EXISTS (SELECT 1 FROM monitors WHERE id = ?1)",
    );
    update ??= sqlite.prepare(
      "UPDATE monitors SET status = ?2, status_changed_at = ?3, consecutive_failures = ?4, last_checked_at = ?5, " +
        "last_response_time = ?6, last_http_status = ?7, last_error = ?8, tls_expires_at = ?9, last_push_at = ?10 WHERE id = ?1",
    );
    return { insert, update };
  };

  const write = sqlite.transaction((rows: typeof results, changed: [number, PersistedState][]) => {
    const { insert, update } = statements();
    for (const { monitorId, outcome: o } of rows) {
      insert.run(monitorId, o.time, o.up ? 1 : 0, o.responseTime, o.httpStatus, o.error);
    }
    for (const [id, s] of changed) {
      update.run(id, s.status, s.statusChangedAt, s.consecutiveFailures, s.lastCheckedAt, s.lastResponseTime, s.lastHttpStatus, s.lastError, s.tlsExpiresAt, s.lastPushAt);
    }
  });

  let timerSoon = false;
  function arm(ms: number) {
    if (stopped) return;
    if (timer !== null) {
      // Already due at least this soon?
      if (timerSoon || ms > 0) return;
      clock.clearTimeout(timer);
    }
    timerSoon = ms === 0;
    timer = clock.setTimeout(() => {
      timer = null;
      flush();
    }, ms);
    (timer as { unref?: () => void })?.unref?.();
  }

  /** Writes everything queued, in one transaction. Returns the rows written. */
  function flush(): number {
    if (timer !== null) {
      clock.clearTimeout(timer);
      timer = null;
    }
    if (results.length === 0 && states.size === 0) return 0;
    const rows = results;
    const changed = [...states];
    results = [];
    states = new Map();
    const started = performance.now();
    try {
      write(rows, changed);
      counters.written += rows.length;
      counters.flushes++;
      const ms = performance.now() - started;
      counters.lastFlushMs = ms;
      counters.maxFlushMs = Math.max(counters.maxFlushMs, ms);
      return rows.length;
    } catch (e) {
      counters.failures++;
      log.error("writing check results failed; will retry", { rows: rows.length, error: String((e as Error)?.message ?? e) });
      // Put them back (older first), newer state wins, and retry on the next tick.
      results = rows.concat(results);
      for (const [id, s] of changed) if (!states.has(id)) states.set(id, s);
      if (results.length > maxQueue) {
        const drop = results.length - maxQueue;
        results.splice(0, drop);
        counters.dropped += drop;
        log.error("dropped unwritten check results", { dropped: drop });
      }
      arm(Math.max(flushMs, 5000));
      return 0;
    }
  }

  return {
    addResult(monitorId: number, outcome: CheckOutcome) {
      results.push({ monitorId, outcome });
      if (results.length >= batchSize) arm(0);
      else arm(flushMs);
    },
    /** Queues a monitor's state for its row (the latest call wins). */
    saveState(monitorId: number, state: PersistedState) {
      states.set(monitorId, { ...state });
      arm(flushMs);
    },
    /** Drops whatever is queued for a deleted monitor. */
    forget(monitorId: number) {
      results = results.filter((r) => r.monitorId !== monitorId);
      states.delete(monitorId);
    },
    flush,
    /** Writes what is queued and stops the timer (later writes need an explicit flush). */
    stop() {
      flush();
      stopped = true;
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
    },
    start() {
      stopped = false;
    },
    stats: () => ({ queued: results.length, pendingStates: states.size, ...counters }),
  };
}

export type Writer = ReturnType<typeof createWriter>;
