// Where check results are read from. On SQLite, the check_results table (WITHOUT ROWID, ~25 B a check). On
// PostgreSQL a row costs ~70 B of heap and ~30 of index, so check_results holds only the last hour or two there and
// older checks are packed into check_blocks, one row per monitor and hour holding arrays (packing.ts): the reads below
// see both as one relation named check_results. A read names the time it covers so that only blocks that can hold
// it are unpacked; its own WHERE (monitor_id, time, up…) applies to both parts.
import { sql, type SQL } from "drizzle-orm";
import type { Db, Engine } from "../db/database";
import type { PingStats } from "./public";

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

const COLUMNS = sql.raw("monitor_id, time, up, response_time, http_status, error, maintenance, ping");

/** Every column of check_results, from a check_blocks row `b` unnested (UNNEST, as `u`). */
const UNPACKED = sql.raw(
  `b.monitor_id, b.hour_start + u.o AS time, u.up, u.rt AS response_time, u.hs AS http_status, u.e AS error, coalesce(u.m, false) AS maintenance, u.p AS ping`,
);
export const UNNEST = sql.raw(`CROSS JOIN LATERAL unnest(b.offsets, b.ups, b.response_times, b.http_statuses, b.errors, b.maintenance, b.pings) AS u(o, up, rt, hs, e, m, p)`);

/**
 * A FROM item named check_results: every check whose time may lie in [from, to] (null: unbounded). The caller still
 * says which monitors and times it wants in its WHERE; the bounds only say which packed hours to open.
 */
export function checkRows(engine: Engine, from: number | null, to: number | null = null): SQL {
  if (engine === "sqlite") return sql.raw("check_results");
  const lo = from === null ? sql`` : sql` AND b.hour_start >= ${Math.floor(from / HOUR) * HOUR}`;
  const hi = to === null ? sql`` : sql` AND b.hour_start <= ${to}`;
  return sql`(SELECT ${COLUMNS} FROM check_results UNION ALL SELECT ${UNPACKED} FROM check_blocks b ${UNNEST} WHERE true${lo}${hi}) AS check_results`;
}

/** The newest `n` checks of one monitor (`monitor`: an id or a column), newest first: a parenthesised subquery. */
export function newestChecks(engine: Engine, monitor: number | SQL, n: number): SQL {
  const raw = sql`SELECT ${COLUMNS} FROM check_results WHERE monitor_id = ${monitor} ORDER BY time DESC LIMIT ${sql.raw(String(n))}`;
  if (engine === "sqlite") return sql`(${raw})`;
  // The newest n blocks hold at least n checks.
  const limit = sql.raw(String(n));
  return sql`(SELECT * FROM ((${raw}) UNION ALL (SELECT ${UNPACKED}
      FROM (SELECT * FROM check_blocks WHERE monitor_id = ${monitor} ORDER BY hour_start DESC LIMIT ${limit}) b ${UNNEST}
      ORDER BY 2 DESC LIMIT ${limit})) n ORDER BY time DESC LIMIT ${limit})`;
}

/** The time of the oldest check of one monitor (`monitor`: an id or a column), or null: a scalar subquery. */
export function oldestCheckTime(engine: Engine, monitor: number | SQL): SQL {
  const raw = sql`(SELECT time FROM check_results WHERE monitor_id = ${monitor} ORDER BY time LIMIT 1)`;
  if (engine === "sqlite") return raw;
  return sql`LEAST(${raw}, (SELECT hour_start + offsets[1] FROM check_blocks WHERE monitor_id = ${monitor} ORDER BY hour_start LIMIT 1))`;
}

/** A check as read with raw SQL: SQLite gives booleans as 0/1 and ping as JSON text, PostgreSQL booleans and jsonb. */
export interface StoredCheck {
  monitor_id: number;
  time: number;
  up: boolean | number;
  response_time: number | null;
  http_status: number | null;
  error: string | null;
  maintenance: boolean | number;
  ping: string | PingStats | null;
}

/** The newest check of each monitor with lo <= id <= hi that has one (start-up: the store's latest state). */
export async function newestOfEach(db: Db, lo: number, hi: number): Promise<StoredCheck[]> {
  if (db.engine === "sqlite") {
    return db.rows<StoredCheck>(sql`SELECT c.* FROM monitors m
      JOIN check_results c ON c.monitor_id = m.id AND c.time = (SELECT max(time) FROM check_results WHERE monitor_id = m.id)
      WHERE m.id >= ${lo} AND m.id <= ${hi}`);
  }
  // Rows first: nearly every monitor has a check within the last hour or two. The packed hours only for the others.
  const rows = await db.rows<StoredCheck>(sql`SELECT c.* FROM monitors m
    CROSS JOIN LATERAL (SELECT ${COLUMNS} FROM check_results WHERE monitor_id = m.id ORDER BY time DESC LIMIT 1) c
    WHERE m.id >= ${lo} AND m.id <= ${hi}`);
  const packed = await db.rows<StoredCheck>(sql`SELECT c.* FROM monitors m
    CROSS JOIN LATERAL (SELECT ${UNPACKED} FROM (SELECT * FROM check_blocks WHERE monitor_id = m.id ORDER BY hour_start DESC LIMIT 1) b ${UNNEST}
      ORDER BY 2 DESC LIMIT 1) c
    WHERE m.id >= ${lo} AND m.id <= ${hi} AND NOT EXISTS (SELECT 1 FROM check_results WHERE monitor_id = m.id)`);
  return [...rows, ...packed];
}
