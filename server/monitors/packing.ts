// PostgreSQL only: checks at SQLite's cost. A row of check_results costs ~70 B of heap (a 24-byte header, a line
// pointer, bigint columns) and ~30 B of primary key, against ~25 B for SQLite's packed WITHOUT ROWID records. So on
// PostgreSQL check_results is partitioned by the hour of `time` (migration 0031) and keeps only recent checks as rows;
// once an hour is rolled up and an hour old, its partition is packed into check_blocks, one row per monitor and hour
// holding one array per column (~12 B a check plus a row's overhead spread over its checks), and dropped. check_blocks
// is partitioned by UTC day, so retention drops whole days: no DELETE, no dead rows, no vacuum afterwards. Arrays,
// not an opaque encoding, so the rollups, reports and status pages keep reading the same rows in SQL (check-rows.ts).
//
// Rows that find no hour partition (the migrated table, a Kuma import of old checks, a clock far off) land in the
// DEFAULT partition; it is packed the same way, an hour at a time. A block that already exists for a monitor and hour
// is unpacked and packed again with the new rows (a check already packed keeps its values). Runs on the node that runs the
// chores (one at a time), after the rollups (history.ts).
import { sql, type SQL } from "drizzle-orm";
import type { Db, Orm } from "../db/database";
import { sqlState } from "../db/errors";
import { DAY, HOUR, UNNEST } from "./check-rows";

/** Hour partitions made ahead of the clock: the current hour and the two after it. */
const HOURS_AHEAD = 3;

const floorTo = (t: number, unit: number) => Math.floor(t / unit) * unit;
/** 2026112903 for 03:00 UTC on 29 November 2026 (10 digits), 20261129 for the day (8). */
const stamp = (t: number, digits: 8 | 10) => new Date(t).toISOString().replace(/\D/g, "").slice(0, digits);
const fromStamp = (s: string) => Date.UTC(Number(s.slice(0, 4)), Number(s.slice(4, 6)) - 1, Number(s.slice(6, 8)), s.length > 8 ? Number(s.slice(8, 10)) : 0);
export const hourPartition = (hour: number) => `check_results_${stamp(hour, 10)}`;
export const dayPartition = (day: number) => `check_blocks_${stamp(day, 8)}`;
const HOUR_NAME = /^check_results_(\d{10})$/;
const DAY_NAME = /^check_blocks_(\d{8})$/;
/** A partition the packer makes and drops as time goes by (not one the migrations made). */
export const isTimePartition = (name: string) => HOUR_NAME.test(name) || DAY_NAME.test(name);
const DEFAULT_PARTITION = "check_results_default";
/** Rows in the default partition past which no hour partition is made (its scan would hold writers up). */
const DEFAULT_SCAN_ROWS = 100_000;

/**
 * One check_blocks row per monitor from the check_results rows of `source` in [from, from + HOUR); its one row says
 * how many checks were packed.
 */
function packSql(source: SQL, hour: number, where: SQL): SQL {
  const by = sql.raw("ORDER BY time");
  return sql`WITH packed AS (INSERT INTO check_blocks (monitor_id, hour_start, offsets, ups, response_times, http_statuses, errors, maintenance, pings)
    SELECT monitor_id, ${hour}::bigint, array_agg((time - ${hour})::int ${by}), array_agg(up ${by}),
      -- Out-of-range values (an imported 30-day "response time") are clamped rather than failing the whole hour.
      array_agg(CASE WHEN response_time > 2147483647 THEN 2147483647 ELSE response_time END::int ${by}),
      array_agg(CASE WHEN http_status BETWEEN 0 AND 32767 THEN http_status END::smallint ${by}),
      CASE WHEN count(error) > 0 THEN array_agg(error ${by}) END,
      CASE WHEN bool_or(maintenance) THEN array_agg(maintenance ${by}) END,
      CASE WHEN count(ping) > 0 THEN array_agg(ping ${by}) END
    FROM ${source} WHERE ${where} GROUP BY monitor_id RETURNING cardinality(offsets) AS n)
    SELECT coalesce(sum(n), 0) AS n FROM packed`;
}

export interface PackResult {
  /** Hours packed (partitions and hours of the default partition). */
  hours: number;
  /** Checks moved into blocks. */
  checks: number;
}

export function createCheckPacking(db: Db) {
  if (db.engine !== "postgres") throw new Error("check packing is for PostgreSQL");

  async function partitionsOf(parent: "check_results" | "check_blocks"): Promise<string[]> {
    const rows = await db.rows<{ name: string }>(
      sql`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = to_regclass(${parent})`,
    );
    return rows.map((r) => r.name);
  }

  /** The day partition of check_blocks that `hour` falls in, made if missing. */
  async function ensureDay(hour: number, tx: Orm) {
    const day = floorTo(hour, DAY);
    await db.exec(sql`CREATE TABLE IF NOT EXISTS ${sql.identifier(dayPartition(day))} PARTITION OF check_blocks FOR VALUES FROM (${sql.raw(String(day))}) TO (${sql.raw(String(day + DAY))})`, tx);
  }

  /**
   * Unpacks into `source` the blocks of `hour` of the monitors `source` has rows for. Where both have a check at the
   * same millisecond the packed one wins: it was stored first, and the key kept the first one before packing too.
   */
  function unpackSql(source: SQL, hour: number, where: SQL): SQL {
    return sql`WITH gone AS (DELETE FROM check_blocks b WHERE b.hour_start = ${hour} AND b.monitor_id IN (SELECT DISTINCT monitor_id FROM ${source} WHERE ${where}) RETURNING b.*)
      INSERT INTO ${source} (monitor_id, time, up, response_time, http_status, error, maintenance, ping)
      SELECT b.monitor_id, b.hour_start + u.o, u.up, u.rt, u.hs, u.e, coalesce(u.m, false), u.p
      FROM gone b ${UNNEST}
      ON CONFLICT (monitor_id, time) DO UPDATE SET up = excluded.up, response_time = excluded.response_time, http_status = excluded.http_status,
        error = excluded.error, maintenance = excluded.maintenance, ping = excluded.ping`;
  }

  /** Packs one hour of `source` (a partition, or the default one) in one transaction, then empties it there. */
  async function packHour(source: string, hour: number, drop: boolean): Promise<number> {
    const rel = sql`${sql.identifier(source)}`;
    const where = drop ? sql`true` : sql`time >= ${hour} AND time < ${hour + HOUR}`;
    return db.tx(async (tx) => {
      // Writers of this hour (late results, an import) wait until it is packed rather than slip between the reads.
      await db.exec(sql`LOCK TABLE ${rel} IN SHARE ROW EXCLUSIVE MODE`, tx);
      await ensureDay(hour, tx);
      await db.exec(unpackSql(rel, hour, where), tx);
      const [{ n: checks }] = await db.rows<{ n: number }>(packSql(rel, hour, where), tx);
      if (drop) await db.exec(sql`DROP TABLE ${rel}`, tx);
      else await db.exec(sql`DELETE FROM ${rel} WHERE ${where}`, tx);
      return Number(checks);
    });
  }

  return {
    /**
     * Makes the hour partitions of the current hour and the next ones. An hour the default partition already holds
     * rows of cannot get one (PostgreSQL refuses): its rows stay there and are packed from there.
     */
    async ensureHours(now: number): Promise<number> {
      // Making a partition scans the default one for rows it would hold, under a lock writers wait on: while the
      // default is large (the table just migrated), checks keep landing there until the packer has emptied it.
      const [held] = await db.rows<{ n: number }>(sql`SELECT count(*) AS n FROM (SELECT 1 FROM ${sql.identifier(DEFAULT_PARTITION)} LIMIT ${DEFAULT_SCAN_ROWS}) d`);
      if (Number(held?.n ?? 0) >= DEFAULT_SCAN_ROWS) return 0;
      const existing = new Set(await partitionsOf("check_results"));
      let made = 0;
      for (let i = 0; i < HOURS_AHEAD; i++) {
        const hour = floorTo(now, HOUR) + i * HOUR;
        const name = hourPartition(hour);
        if (existing.has(name)) continue;
        try {
          await db.exec(sql`CREATE TABLE ${sql.identifier(name)} PARTITION OF check_results FOR VALUES FROM (${sql.raw(String(hour))}) TO (${sql.raw(String(hour + HOUR))})`);
          made++;
        } catch (e) {
          // 23514: the default partition has rows in that hour; 42P07: made meanwhile.
          if (sqlState(e) !== "23514" && sqlState(e) !== "42P07") throw e;
        }
      }
      return made;
    },

    /**
     * Packs every hour that ended at or before `before` (whole hours): hour partitions, then at most `defaultHours`
     * hours of the default partition (a migrated table is emptied over several passes, each of bounded length).
     */
    async pack(before: number, defaultHours = Infinity): Promise<PackResult> {
      const out: PackResult = { hours: 0, checks: 0 };
      for (const name of (await partitionsOf("check_results")).sort()) {
        const m = HOUR_NAME.exec(name);
        if (!m) continue;
        const hour = fromStamp(m[1]!);
        if (hour + HOUR > before) continue;
        out.checks += await packHour(name, hour, true);
        out.hours++;
      }
      // The default partition, an hour at a time from its oldest row (an index seek on its `time` index).
      for (let packed = 0; packed < defaultHours; packed++) {
        const [row] = await db.rows<{ t: number | null }>(sql`SELECT min(time) AS t FROM ${sql.identifier(DEFAULT_PARTITION)}`);
        if (row?.t == null) break;
        const hour = floorTo(Number(row.t), HOUR);
        if (hour + HOUR > before) break;
        out.checks += await packHour(DEFAULT_PARTITION, hour, false);
        out.hours++;
      }
      return out;
    },

    /** Drops the day partitions of check_blocks that end at or before `cutoff`; resolves to the checks they held. */
    async dropDays(cutoff: number): Promise<number> {
      let checks = 0;
      for (const name of await partitionsOf("check_blocks")) {
        const m = DAY_NAME.exec(name);
        if (!m || fromStamp(m[1]!) + DAY > cutoff) continue;
        const part = sql.identifier(name);
        checks += Number((await db.rows<{ n: number }>(sql`SELECT coalesce(sum(cardinality(offsets)), 0) AS n FROM ${part}`))[0]?.n ?? 0);
        await db.exec(sql`DROP TABLE ${part}`);
      }
      return checks;
    },
  };
}

export type CheckPacking = ReturnType<typeof createCheckPacking>;
