// History: hourly and daily rollups of check results, retention, and the per-monitor history and chart reads.
//
// Rollups run on a timer and keep two watermarks in the settings table: every hour before `hourly` is in
// monitor_hourly, every day before `daily` in monitor_daily. Each run rolls up the hours (then days) that closed
// since (a grace period after their end lets late results land), upserting rows keyed (monitor, bucket start), so a
// re-run changes nothing and a restart after downtime catches up. Raw results are pruned after the raw retention but
// never before their hour is rolled up; rollups after the rollup retention.
import { inArray, sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { silentLogger, type Logger } from "../log";
import type { CheckResult, HistoryWindow, MonitorHistory, MonitorSeries, PingStats, SeriesRange, StatusBucket } from "./public";
import { recordOutages } from "../reports/outages";
import { checkRows, newestChecks, oldestCheckTime } from "./check-rows";
import { createCheckPacking } from "./packing";
import { COUNTED, COUNTED_UP, DAY, HOUR, IN_MAINTENANCE, lit, rollupSql } from "./rollup-sql";
import { systemClock, type Clock } from "./scheduler";

export { DAY, HOUR, rollupSql };

/** Ranges charted check by check (short enough to send every point), with their span; longer ones are hourly. */
const RAW_SERIES_SPANS: Partial<Record<SeriesRange, number>> = { "1h": HOUR, "6h": 6 * HOUR, "24h": DAY };

/** Hours of PostgreSQL's default check partition packed per maintenance pass (a migrated table takes several). */
const DEFAULT_HOURS_PER_PASS = 24;

const HOURLY_KEY = "monitors.rollup.hourly";
const DAILY_KEY = "monitors.rollup.daily";

export interface HistoryOptions {
  clock?: Clock;
  log?: Logger;
  /** Raw results kept (default 7 days). */
  rawRetentionMs?: number;
  /** Hourly and daily rollups kept (default 365 days). */
  rollupRetentionMs?: number;
  /** How long after an hour ends before it is rolled up (results of checks started in it may still arrive). */
  graceMs?: number;
  /** How often the maintenance timer runs. */
  tickMs?: number;
  /** Monitors per statement: bounds how long one statement holds the (single) thread. */
  chunk?: number;
}

const floorTo = (t: number, unit: number) => Math.floor(t / unit) * unit;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The rollup watermarks (null before the first run); read in `orm` when given (a transaction). */
export async function readWatermarks(db: Db, orm = db.orm): Promise<{ hourly: number | null; daily: number | null }> {
  const { settings } = db.t;
  const rows = await orm.select().from(settings).where(inArray(settings.key, [HOURLY_KEY, DAILY_KEY]));
  const read = (key: string) => {
    const row = rows.find((r) => r.key === key);
    return row ? Number(row.value) : null;
  };
  return { hourly: read(HOURLY_KEY), daily: read(DAILY_KEY) };
}

async function writeWatermark(db: Db, key: string, value: number) {
  const { settings } = db.t;
  await db.orm.insert(settings).values({ key, value: String(value) }).onConflictDoUpdate({ target: settings.key, set: { value: String(value) } });
}

/** Counts of one bucket: `checks` and `up` leave out checks made in maintenance (counted in `maintenance`). */
interface Piece {
  start: number;
  checks: number;
  up: number;
  maintenance: number;
  rtSum: number;
  rtCount: number;
  rtMin: number | null;
  rtMax: number | null;
}

interface Acc {
  total: number;
  up: number;
  maintenance: number;
  rtSum: number;
  rtCount: number;
  rtMin: number | null;
  rtMax: number | null;
}

const emptyAcc = (): Acc => ({ total: 0, up: 0, maintenance: 0, rtSum: 0, rtCount: 0, rtMin: null, rtMax: null });

function addTo(acc: Acc, p: Piece) {
  acc.total += p.checks;
  acc.up += p.up;
  acc.maintenance += p.maintenance;
  acc.rtSum += p.rtSum;
  acc.rtCount += p.rtCount;
  if (p.rtMin !== null) acc.rtMin = acc.rtMin === null ? p.rtMin : Math.min(acc.rtMin, p.rtMin);
  if (p.rtMax !== null) acc.rtMax = acc.rtMax === null ? p.rtMax : Math.max(acc.rtMax, p.rtMax);
}

const pct = (up: number, total: number) => (total > 0 ? Math.floor((up / total) * 10_000 + 1e-9) / 100 : null);
const avg = (a: Acc) => (a.rtCount > 0 ? Math.round(a.rtSum / a.rtCount) : null);

function bucketOf(acc: Acc, start: number, end: number): StatusBucket {
  const down = acc.total - acc.up;
  return {
    start,
    end,
    total: acc.total,
    up: acc.up,
    down,
    maintenance: acc.maintenance,
    availability: pct(acc.up, acc.total),
    avgResponseTime: avg(acc),
    status: acc.total === 0 ? (acc.maintenance > 0 ? "maintenance" : "empty") : down === 0 ? "up" : acc.up === 0 ? "down" : "partial",
  };
}

interface RawRow {
  time: number;
  /** 0/1 on SQLite, a boolean on PostgreSQL. */
  up: number | boolean;
  response_time: number | null;
  http_status: number | null;
  error: string | null;
  maintenance: number | boolean;
  ping?: string | PingStats | null;
}

const toResult = (monitorId: number, r: RawRow): CheckResult => ({
  monitorId,
  time: r.time,
  status: r.up ? "up" : "down",
  responseTime: r.response_time,
  httpStatus: r.http_status,
  error: r.error,
  maintenance: Boolean(r.maintenance),
  ...(r.ping ? { ping: typeof r.ping === "string" ? (JSON.parse(r.ping) as PingStats) : r.ping } : {}),
});

export function createHistory(db: Db, options: HistoryOptions = {}) {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? silentLogger;
  const rawRetention = options.rawRetentionMs ?? 7 * DAY;
  const rollupRetention = options.rollupRetentionMs ?? 365 * DAY;
  const grace = options.graceMs ?? 2 * 60_000;
  const packing = db.engine === "postgres" ? createCheckPacking(db) : null;
  const tickMs = options.tickMs ?? 60_000;
  // 100: an hour of 100 monitors at one check a minute rolls up (counts and histogram) in about 9 ms on SQLite.
  const chunk = options.chunk ?? 100;

  // Monitors (id > lo AND id <= hi): statements run per chunk of monitors, each an index seek per monitor.
  const inChunk = (lo: number, hi: number) => sql`monitor_id IN (SELECT id FROM monitors WHERE id > ${lo} AND id <= ${hi})`;
  /** Runs `fn(lo, hi)` over every chunk of monitor ids, yielding to the event loop between chunks. */
  async function forChunks(fn: (lo: number, hi: number) => Promise<void>) {
    let lo = 0;
    for (;;) {
      const [row] = await db.rows<{ hi: number | null }>(
        sql`SELECT max(id) AS hi FROM (SELECT id FROM monitors WHERE id > ${lo} ORDER BY id LIMIT ${chunk}) AS ids`,
      );
      if (row?.hi == null) return;
      await fn(lo, row.hi);
      lo = row.hi;
      await yieldToLoop();
    }
  }

  /** The oldest raw result (index seek per monitor), or null. */
  async function oldestResult(): Promise<number | null> {
    const [row] = await db.rows<{ t: number | null }>(
      sql`SELECT min(t) AS t FROM (SELECT ${oldestCheckTime(db.engine, sql`m.id`)} AS t FROM monitors m) AS firsts`,
    );
    return row?.t ?? null;
  }

  let running: Promise<void> | null = null;
  let lastPrune = -Infinity;

  /** Rolls up every closed hour and day not rolled up yet. Returns how many hours and days it did. */
  async function rollUp(now = clock.now()): Promise<{ hours: number; days: number }> {
    const marks = await readWatermarks(db);
    const closedUntil = floorTo(now - grace, HOUR);
    let hourly = marks.hourly;
    if (hourly === null) {
      const oldest = await oldestResult();
      hourly = oldest === null ? closedUntil : Math.min(floorTo(oldest, HOUR), closedUntil);
      await writeWatermark(db, HOURLY_KEY, hourly);
    }
    // Days are rolled from hours: the first day is the one the first rolled hour falls in.
    let daily = marks.daily ?? floorTo(hourly, DAY);
    if (marks.daily === null) await writeWatermark(db, DAILY_KEY, daily);
    let hours = 0;
    // In steps of at most 6 hours, the watermark saved after each: a crash mid-catch-up resumes where it stopped.
    while (hourly < closedUntil) {
      const to = Math.min(closedUntil, hourly + 6 * HOUR);
      const from = hourly;
      await forChunks(async (lo, hi) => void (await db.exec(rollupSql(db.engine, "monitor_hourly", inChunk(lo, hi), from, to))));
      hours += (to - from) / HOUR;
      hourly = to;
      await writeWatermark(db, HOURLY_KEY, hourly);
    }

    // Outages of the hours just rolled up (server/reports/outages.ts); the first time, of every raw check kept.
    await recordOutages(db, hourly, async () => floorTo((await oldestResult()) ?? hourly, HOUR));

    const daysUntil = floorTo(hourly, DAY);
    let days = 0;
    while (daily < daysUntil) {
      const to = Math.min(daysUntil, daily + 7 * DAY);
      const from = daily;
      await forChunks(async (lo, hi) => void (await db.exec(rollupSql(db.engine, "monitor_daily", inChunk(lo, hi), from, to))));
      days += (to - from) / DAY;
      daily = to;
      await writeWatermark(db, DAILY_KEY, daily);
    }
    return { hours, days };
  }

  /**
   * Deletes raw results past the raw retention (never ones not rolled up yet) and rollups past theirs. On PostgreSQL
   * packed checks go a whole day at a time (a day's partition dropped once all of it is past the retention).
   */
  async function prune(now = clock.now()): Promise<{ raw: number; rollups: number }> {
    const hourly = (await readWatermarks(db)).hourly;
    if (hourly === null) return { raw: 0, rollups: 0 };
    const rawCutoff = Math.min(now - rawRetention, hourly);
    const rollupCutoff = now - rollupRetention;
    let raw = packing ? await packing.dropDays(rawCutoff) : 0;
    let rollups = 0;
    await forChunks(async (lo, hi) => {
      raw += await db.exec(sql`DELETE FROM check_results WHERE ${inChunk(lo, hi)} AND time < ${rawCutoff}`);
      rollups += await db.exec(sql`DELETE FROM monitor_hourly WHERE ${inChunk(lo, hi)} AND bucket_start < ${rollupCutoff}`);
      rollups += await db.exec(sql`DELETE FROM monitor_daily WHERE ${inChunk(lo, hi)} AND bucket_start < ${rollupCutoff}`);
      // Failure screenshots go with the raw results they belong to (not counted: they have no rollup). Last, so the
      // raw and rollup deletions stay as close together as before.
      await db.exec(sql`DELETE FROM check_screenshots WHERE ${inChunk(lo, hi)} AND time < ${rawCutoff}`);
    });
    return { raw, rollups };
  }

  /**
   * One maintenance pass: roll up, pack (PostgreSQL), and prune at most once an hour (or when asked). Never runs twice
   * at once.
   */
  function maintain(now = clock.now(), { forcePrune = false } = {}): Promise<void> {
    if (running) return running;
    running = (async () => {
      try {
        const started = performance.now();
        if (packing) await packing.ensureHours(now);
        const done = await rollUp(now);
        if (packing) {
          // Hours rolled up and an hour old: the newest checks stay rows, where "the last 50" and catch-up look.
          const packed = await packing.pack(Math.min((await readWatermarks(db)).hourly ?? -Infinity, floorTo(now, HOUR) - HOUR), DEFAULT_HOURS_PER_PASS);
          if (packed.hours) log.debug("checks packed", { ...packed });
        }
        let pruned = { raw: 0, rollups: 0 };
        if (forcePrune || done.hours > 0 || now - lastPrune >= HOUR) {
          pruned = await prune(now);
          lastPrune = now;
        }
        if (done.hours || done.days || pruned.raw || pruned.rollups) {
          log.debug("history maintenance", { ...done, prunedRaw: pruned.raw, prunedRollups: pruned.rollups, ms: Math.round(performance.now() - started) });
        }
      } catch (e) {
        log.error("history maintenance failed", { error: String((e as Error)?.stack ?? e) });
      } finally {
        running = null;
      }
    })();
    return running;
  }

  let timer: unknown = null;
  let started = false;
  const loop = (delay: number) => {
    timer = clock.setTimeout(() => {
      void maintain().finally(() => started && loop(tickMs));
    }, delay);
  };

  // ── Reads ──

  async function rawPieces(monitorId: number, from: number, to: number, unit: number): Promise<{ pieces: Map<number, Piece>; rows: number }> {
    const rows = await db.rows<Piece>(
      sql`SELECT (time / ${lit(unit)}) * ${lit(unit)} AS start, ${COUNTED} AS checks, ${COUNTED_UP} AS up, ${IN_MAINTENANCE} AS maintenance,
            coalesce(sum(response_time), 0) AS "rtSum", count(response_time) AS "rtCount", min(response_time) AS "rtMin", max(response_time) AS "rtMax"
          FROM ${checkRows(db.engine, from, to)} WHERE monitor_id = ${monitorId} AND time >= ${from} AND time <= ${to} GROUP BY (time / ${lit(unit)}) * ${lit(unit)}`,
    );
    const pieces = new Map<number, Piece>();
    let n = 0;
    for (const p of rows) {
      pieces.set(p.start, p);
      n += p.checks + p.maintenance;
    }
    return { pieces, rows: n };
  }

  /** Per-hour pieces for [from, to]: rolled-up hours from monitor_hourly, later ones from raw results. */
  async function hourPieces(monitorId: number, from: number, to: number): Promise<{ pieces: Map<number, Piece>; records: number }> {
    const wm = Math.max(from, (await readWatermarks(db)).hourly ?? from);
    const rolled = await db.rows<Piece>(
      sql`SELECT bucket_start AS start, checks, up, maintenance, rt_sum AS "rtSum", rt_count AS "rtCount", rt_min AS "rtMin", rt_max AS "rtMax"
          FROM monitor_hourly WHERE monitor_id = ${monitorId} AND bucket_start >= ${from} AND bucket_start < ${wm}`,
    );
    const { pieces, rows } = await rawPieces(monitorId, wm, to, HOUR);
    for (const p of rolled) pieces.set(p.start, p);
    return { pieces, records: rolled.length + rows };
  }

  async function latestResult(monitorId: number, from: number): Promise<CheckResult | null> {
    const [row] = await db.rows<RawRow>(
      sql`SELECT time, up, response_time, http_status, error, maintenance, ping FROM ${newestChecks(db.engine, monitorId, 1)} AS c WHERE time >= ${from}`,
    );
    return row ? toResult(monitorId, row) : null;
  }

  async function lastError(monitorId: number, from: number): Promise<HistoryWindow["error"]> {
    const [row] = await db.rows<{ time: number; error: string | null }>(
      sql`SELECT time, error FROM ${checkRows(db.engine, from)} WHERE monitor_id = ${monitorId} AND time >= ${from} AND NOT up ORDER BY time DESC LIMIT 1`,
    );
    return row ? { time: row.time, message: row.error ?? "check failed" } : null;
  }

  function window(acc: Acc, from: number, to: number, recordCount: number, latest: CheckResult | null, error: HistoryWindow["error"]): HistoryWindow {
    return {
      from,
      to,
      total: acc.total,
      up: acc.up,
      down: acc.total - acc.up,
      maintenance: acc.maintenance,
      avgResponseTime: avg(acc),
      minResponseTime: acc.rtMin,
      maxResponseTime: acc.rtMax,
      recordCount,
      availability: pct(acc.up, acc.total),
      latest,
      error,
    };
  }

  return {
    rollUp,
    prune,
    maintain,
    watermarks: () => readWatermarks(db),

    /** Starts the maintenance timer: a first pass shortly after start (catching up), then every tick. */
    start(firstDelayMs = 5000) {
      if (started) return;
      started = true;
      // The hour partitions at once, before the first pass: checks made meanwhile would land in the default one.
      if (packing) void packing.ensureHours(clock.now()).catch((e) => log.warn("check partitions not made", { error: String(e) }));
      loop(firstDelayMs);
    },

    async stop() {
      started = false;
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
      if (running) await running;
    },

    /** The 24-hour and 30-day aggregates and status bars of one monitor. */
    async monitorHistory(monitorId: number, now = clock.now()): Promise<MonitorHistory> {
      // 24 h: exact window from raw results, 24 one-hour slots ending now.
      const dayFrom = now - DAY;
      const rows = await db.rows<{ time: number; up: number | boolean; rt: number | null; m: number | boolean }>(
        sql`SELECT time, up, response_time AS rt, maintenance AS m FROM ${checkRows(db.engine, dayFrom, now)} WHERE monitor_id = ${monitorId} AND time > ${dayFrom} AND time <= ${now}`,
      );
      const slots = Array.from({ length: 24 }, emptyAcc);
      const dayAcc = emptyAcc();
      for (const r of rows) {
        const p: Piece = { start: r.time, checks: r.m ? 0 : 1, up: r.up && !r.m ? 1 : 0, maintenance: r.m ? 1 : 0, rtSum: r.rt ?? 0, rtCount: r.rt === null ? 0 : 1, rtMin: r.rt, rtMax: r.rt };
        addTo(slots[Math.min(23, Math.floor((r.time - dayFrom) / HOUR))], p);
        addTo(dayAcc, p);
      }
      const latest = await latestResult(monitorId, dayFrom + 1);
      const day = {
        ...window(dayAcc, dayFrom, now, rows.length, latest, await lastError(monitorId, dayFrom + 1)),
        buckets: slots.map((a, i) => bucketOf(a, dayFrom + i * HOUR, dayFrom + (i + 1) * HOUR)),
      };

      // 30 d: whole hours (the current one included), 30 slots of 24 hours ending with the current hour.
      const monthTo = floorTo(now, HOUR) + HOUR;
      const monthFrom = monthTo - 30 * DAY;
      const { pieces, records } = await hourPieces(monitorId, monthFrom, now);
      const daySlots = Array.from({ length: 30 }, emptyAcc);
      const monthAcc = emptyAcc();
      for (const p of pieces.values()) {
        const i = Math.floor((p.start - monthFrom) / DAY);
        if (i < 0 || i >= 30) continue;
        addTo(daySlots[i], p);
        addTo(monthAcc, p);
      }
      const monthLatest = await latestResult(monitorId, monthFrom);
      const monthError = await lastError(monitorId, Math.max(monthFrom, now - rawRetention));
      const month = {
        ...window(monthAcc, monthFrom, now, records, monthLatest, monthError),
        buckets: daySlots.map((a, i) => bucketOf(a, monthFrom + i * DAY, monthFrom + (i + 1) * DAY)),
      };
      return { monitorId, now, day, month };
    },

    /** Response-time chart points: raw (one per check) up to 24 h, hourly for 7 d and 30 d. */
    async series(monitorId: number, range: SeriesRange, now = clock.now()): Promise<MonitorSeries> {
      const base = { monitorId, range, maintenance: [] as number[], times: [] as number[], responseTimes: [] as (number | null)[], minResponseTimes: [] as (number | null)[], maxResponseTimes: [] as (number | null)[], up: [] as (number | null)[], checks: [] as number[] };
      const rawSpan = RAW_SERIES_SPANS[range];
      if (rawSpan !== undefined) {
        const from = now - rawSpan;
        const rows = await db.rows<{ time: number; up: number | boolean; rt: number | null; m: number | boolean }>(
          sql`SELECT time, up, response_time AS rt, maintenance AS m FROM ${checkRows(db.engine, from, now)} WHERE monitor_id = ${monitorId} AND time > ${from} AND time <= ${now} ORDER BY time`,
        );
        for (const r of rows) {
          base.times.push(r.time);
          base.responseTimes.push(r.rt);
          base.minResponseTimes.push(r.rt);
          base.maxResponseTimes.push(r.rt);
          base.up.push(r.up ? 1 : 0);
          base.checks.push(1);
          base.maintenance.push(r.m ? 1 : 0);
        }
        return { ...base, resolution: "raw", from, to: now };
      }
      const hours = range === "7d" ? 7 * 24 : 30 * 24;
      const from = floorTo(now, HOUR) - (hours - 1) * HOUR;
      const { pieces } = await hourPieces(monitorId, from, now);
      for (let h = from; h <= now; h += HOUR) {
        const p = pieces.get(h);
        base.times.push(h);
        base.checks.push(p?.checks ?? 0);
        base.maintenance.push(p?.maintenance ?? 0);
        base.responseTimes.push(p && p.rtCount > 0 ? Math.round(p.rtSum / p.rtCount) : null);
        base.minResponseTimes.push(p?.rtMin ?? null);
        base.maxResponseTimes.push(p?.rtMax ?? null);
        base.up.push(p && p.checks > 0 ? Math.round((p.up / p.checks) * 10_000) / 10_000 : null);
      }
      // The window is the whole range (charts span it); its first hour bucket starts inside it.
      return { ...base, resolution: "hour", from: now - hours * HOUR, to: now };
    },
  };
}

export type History = ReturnType<typeof createHistory>;
