// Batched writes: check results and monitor state changes queue in memory and are written in one transaction per
// short tick (or as soon as a batch is full), never one write per check. Recording a check never waits for the
// database: only flushes are async, and one runs at a time (what is queued meanwhile goes in the next).
import { sqlState } from "../db/errors";
import { sqliteBatch } from "../db/sqlite";
import type { TransactionSQL } from "bun";
import type { Statement } from "bun:sqlite";
import type { Db } from "../db/database";
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

type QueuedResult = { monitorId: number; outcome: CheckOutcome };
type Batch = (rows: QueuedResult[], changed: [number, PersistedState][]) => Promise<void>;

type PgRow = { monitorId: number; time: number; o: CheckOutcome };

/** The rows with each monitor's start times made distinct (a later one at a taken millisecond moves to a free one). */
function distinctTimes(rows: PgRow[]): PgRow[] {
  const taken = new Set<string>();
  for (const r of rows) {
    while (taken.has(`${r.monitorId}:${r.time}`)) r.time++;
    taken.add(`${r.monitorId}:${r.time}`);
  }
  return rows;
}

/** Rows per statement on PostgreSQL (a bound on one statement's size; a batch may hold several). */
const PG_CHUNK = 5000;

/**
 * How a batch is written: the one place the engines differ. Both guard each result with EXISTS (a result whose
 * monitor was deleted between the check and the write is dropped instead of failing the whole batch on the foreign
 * key) and write the whole batch in one transaction.
 */
function batchWriter(db: Db): Batch {
  if (db.engine === "sqlite") {
    // SQLite: prepared statements run row by row inside one synchronous transaction — the fastest way in, and a
    // synchronous transaction cannot interleave with anything else on the (single) connection.
    const sqlite = db.sqlite!;
    let insert: Statement | null = null;
    let update: Statement | null = null;
    const writeRows = (rows: QueuedResult[], changed: [number, PersistedState][]) => {
      insert ??= sqlite.prepare(
        "INSERT INTO check_results (monitor_id, time, up, response_time, http_status, error, maintenance, ping) " +
          "SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8 WHERE EXISTS (SELECT 1 FROM monitors WHERE id = ?1)",
      );
      update ??= sqlite.prepare(
        "UPDATE monitors SET status = ?2, status_changed_at = ?3, consecutive_failures = ?4, last_checked_at = ?5, " +
          "last_response_time = ?6, last_http_status = ?7, last_error = ?8, tls_expires_at = ?9, last_push_at = ?10 WHERE id = ?1",
      );
      for (const { monitorId, outcome: o } of rows) {
        const ping = o.ping ? JSON.stringify(o.ping) : null;
        // A check of this monitor already stored at this millisecond (a manual check beside a scheduled one, two
        // pushes at once): this one moves to the next free millisecond rather than being lost.
        for (let time = o.time; ; time++) {
          try {
            insert.run(monitorId, time, o.up ? 1 : 0, o.responseTime, o.httpStatus, o.error, o.maintenance ? 1 : 0, ping);
            break;
          } catch (e) {
            if ((e as { code?: string }).code !== "SQLITE_CONSTRAINT_PRIMARYKEY") throw e;
          }
        }
      }
      for (const [id, s] of changed) {
        update.run(id, s.status, s.statusChangedAt, s.consecutiveFailures, s.lastCheckedAt, s.lastResponseTime, s.lastHttpStatus, s.lastError, s.tlsExpiresAt, s.lastPushAt);
      }
    };
    return sqliteBatch(db, writeRows);
  }

  // PostgreSQL: one round trip per statement, so one multi-row INSERT (arrays unnested) for the results and one
  // UPDATE … FROM unnest for the states, in one transaction on the client's pool. The results go in with a plain
  // INSERT: store.apply already gives a monitor's checks distinct times, so a taken key is rare (a check imported or
  // written by another node at that millisecond). When one is met, the transaction is tried again the careful way
  // (ON CONFLICT … RETURNING, moving such a check to the next free millisecond), which costs PostgreSQL about half as
  // much again per row (speculative insertion) and sends every key back.
  const pg = db.pg!;
  const unnested = (tx: TransactionSQL, chunk: PgRow[]) => tx`SELECT r.monitor_id, r.time, r.up, r.response_time, r.http_status, r.error, r.maintenance, r.ping::jsonb FROM unnest(
      ${tx.array(chunk.map((r) => r.monitorId), "BIGINT")}::bigint[], ${tx.array(chunk.map((r) => r.time), "BIGINT")}::bigint[],
      ${tx.array(chunk.map((r) => r.o.up), "BOOLEAN")}::bool[], ${tx.array(chunk.map((r) => r.o.responseTime), "BIGINT")}::bigint[],
      ${tx.array(chunk.map((r) => r.o.httpStatus), "BIGINT")}::bigint[], ${tx.array(chunk.map((r) => r.o.error), "TEXT")}::text[],
      ${tx.array(chunk.map((r) => r.o.maintenance === true), "BOOLEAN")}::bool[],
      ${tx.array(chunk.map((r) => (r.o.ping ? JSON.stringify(r.o.ping) : null)), "TEXT")}::text[]
    ) AS r(monitor_id, time, up, response_time, http_status, error, maintenance, ping)
    WHERE EXISTS (SELECT 1 FROM monitors WHERE id = r.monitor_id)`;

  /** The plain way: rows of monitors deleted meanwhile are left out by EXISTS; a taken key fails the statement. */
  async function insertPlain(tx: TransactionSQL, rows: PgRow[]) {
    for (let i = 0; i < rows.length; i += PG_CHUNK) await tx`INSERT INTO check_results (monitor_id, time, up, response_time, http_status, error, maintenance, ping) ${unnested(tx, rows.slice(i, i + PG_CHUNK))}`;
  }

  /** The careful way: a row that meets a taken key moves to the next free millisecond, as on SQLite. */
  async function insertMoving(tx: TransactionSQL, rows: PgRow[]) {
    for (let i = 0; i < rows.length; i += PG_CHUNK) {
      let chunk = rows.slice(i, i + PG_CHUNK); // distinct already (the batch's own times); moved ones are copies
      while (chunk.length > 0) {
        const stored = await tx<{ monitor_id: string; time: string }[]>`INSERT INTO check_results (monitor_id, time, up, response_time, http_status, error, maintenance, ping) ${unnested(tx, chunk)}
          ON CONFLICT (monitor_id, time) DO NOTHING RETURNING monitor_id, time`;
        if (stored.length === chunk.length) break;
        // The rest either belong to a deleted monitor (dropped) or met a check already stored at their millisecond.
        const done = new Set(stored.map((r) => `${r.monitor_id}:${r.time}`));
        const left = chunk.filter((r) => !done.has(`${r.monitorId}:${r.time}`));
        const live = new Set(
          (await tx<{ id: string }[]>`SELECT id FROM monitors WHERE id = ANY(${tx.array([...new Set(left.map((r) => r.monitorId))], "BIGINT")}::bigint[])`).map((r) => Number(r.id)),
        );
        chunk = distinctTimes(left.filter((r) => live.has(r.monitorId)).map((r) => ({ ...r, time: r.time + 1 })));
      }
    }
  }

  return async (queued, changed) => {
    const rows = distinctTimes(queued.map((r) => ({ monitorId: r.monitorId, time: r.outcome.time, o: r.outcome })));
    const attempt = (insert: (tx: TransactionSQL, rows: PgRow[]) => Promise<void>) =>
      pg.begin(async (tx) => {
        await insert(tx, rows);
        await writeStates(tx, changed);
      });
    try {
      await attempt(insertPlain);
    } catch (e) {
      if (sqlState(e) !== "23505") throw e;
      await attempt(insertMoving);
    }
  };

  async function writeStates(tx: TransactionSQL, changed: [number, PersistedState][]) {
    // In id order: two writers updating the same rows lock them in the same order.
    const states = [...changed].sort((a, b) => a[0] - b[0]);
    for (let i = 0; i < states.length; i += PG_CHUNK) {
      const chunk = states.slice(i, i + PG_CHUNK);
      const col = <T>(f: (s: PersistedState) => T) => chunk.map(([, s]) => f(s));
      await tx`UPDATE monitors SET status = s.status, status_changed_at = s.status_changed_at,
          consecutive_failures = s.consecutive_failures, last_checked_at = s.last_checked_at,
          last_response_time = s.last_response_time, last_http_status = s.last_http_status, last_error = s.last_error,
          tls_expires_at = s.tls_expires_at, last_push_at = s.last_push_at
        FROM unnest(
          ${tx.array(chunk.map(([id]) => id), "BIGINT")}::bigint[], ${tx.array(col((s) => s.status), "TEXT")}::text[],
          ${tx.array(col((s) => s.statusChangedAt), "BIGINT")}::bigint[], ${tx.array(col((s) => s.consecutiveFailures), "BIGINT")}::bigint[],
          ${tx.array(col((s) => s.lastCheckedAt), "BIGINT")}::bigint[], ${tx.array(col((s) => s.lastResponseTime), "BIGINT")}::bigint[],
          ${tx.array(col((s) => s.lastHttpStatus), "BIGINT")}::bigint[], ${tx.array(col((s) => s.lastError), "TEXT")}::text[],
          ${tx.array(col((s) => s.tlsExpiresAt), "BIGINT")}::bigint[], ${tx.array(col((s) => s.lastPushAt), "BIGINT")}::bigint[]
        ) AS s(id, status, status_changed_at, consecutive_failures, last_checked_at, last_response_time, last_http_status,
               last_error, tls_expires_at, last_push_at)
        WHERE monitors.id = s.id`;
    }
  }
}

export function createWriter(db: Db, options: WriterOptions = {}) {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? silentLogger;
  const flushMs = options.flushMs ?? 1000;
  const batchSize = options.batchSize ?? 1000;
  const maxQueue = options.maxQueue ?? 200_000;
  const write = batchWriter(db);

  let results: QueuedResult[] = [];
  let states = new Map<number, PersistedState>();
  let timer: unknown = null;
  let stopped = false;
  const counters = { written: 0, flushes: 0, failures: 0, dropped: 0, lastFlushMs: 0, maxFlushMs: 0 };

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
      void flush();
    }, ms);
    (timer as { unref?: () => void })?.unref?.();
  }

  /** Writes everything queued now, in one transaction. Resolves to the rows written; never rejects. */
  async function writeQueued(): Promise<number> {
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
      await write(rows, changed);
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

  // One flush at a time: a call during one waits for it, then writes what was queued meanwhile (callers that came
  // during the same flush share that next one).
  let running: Promise<number> | null = null;
  let next: Promise<number> | null = null;
  /** Writes everything queued so far; resolves (to the rows this call's write took) once it is committed. */
  function flush(): Promise<number> {
    if (!running) {
      running = writeQueued().finally(() => (running = null));
      return running;
    }
    next ??= running.then(() => {
      next = null;
      return flush();
    });
    return next;
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
    /** Resolves once no flush is running (starting none): for tests that let the timer write. */
    async idle() {
      while (running || next) await (next ?? running);
    },
    /** Writes what is queued and stops the timer (later writes need an explicit flush). */
    async stop() {
      await flush();
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
