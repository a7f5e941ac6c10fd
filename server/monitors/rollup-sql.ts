// The rollup statements: hours from raw results, days from hours, each bucket with its counts, response-time sums and
// a response-time histogram (server/reports/histogram.ts). Keyed (monitor, bucket start) and upserted, so re-running a
// rollup is harmless. The rollup timer runs them (history.ts); the Kuma history import too (same numbers).
import { sql, type SQL } from "drizzle-orm";
import type { Engine } from "../db/database";
import { binSql, histogramAggSql, histogramEachSql } from "../reports/histogram";
import { checkRows, DAY, HOUR } from "./check-rows";

export { DAY, HOUR };

/** A constant in SQL text (bucket sizes): the same text wherever it appears, so GROUP BY matches it on PostgreSQL. */
export const lit = (value: number) => sql.raw(String(value));

// Aggregates of raw results: checks made in maintenance are counted apart, not in checks, up or down.
export const COUNTED = sql.raw("sum(CASE WHEN maintenance THEN 0 ELSE 1 END)");
export const COUNTED_UP = sql.raw("sum(CASE WHEN up AND NOT maintenance THEN 1 ELSE 0 END)");
export const IN_MAINTENANCE = sql.raw("sum(CASE WHEN maintenance THEN 1 ELSE 0 END)");

// `WHERE true` before ON CONFLICT: SQLite cannot otherwise tell the upsert's ON from the join's.
const upsert = sql`WHERE true ON CONFLICT (monitor_id, bucket_start) DO UPDATE SET checks = excluded.checks, up = excluded.up, down = excluded.down,
  maintenance = excluded.maintenance, rt_sum = excluded.rt_sum, rt_count = excluded.rt_count, rt_min = excluded.rt_min, rt_max = excluded.rt_max,
  rt_hist = excluded.rt_hist`;

/** The histogram of every response time of raw results in [from, to) of `scope`, per monitor and `unit` bucket. */
export function rawHistogramsSql(engine: Engine, scope: SQL, from: number, to: number, unit: number): SQL {
  return sql`SELECT monitor_id, b, ${histogramAggSql(engine, sql.raw("bin"), sql.raw("n"))} AS hist FROM (
      SELECT monitor_id, (time / ${lit(unit)}) * ${lit(unit)} AS b, ${binSql(sql.raw("response_time"))} AS bin, count(*) AS n
      FROM ${checkRows(engine, from, to)} WHERE ${scope} AND time >= ${from} AND time < ${to} AND response_time IS NOT NULL GROUP BY 1, 2, 3
    ) bins GROUP BY monitor_id, b`;
}

/** Rolls up [from, to) of the monitors `scope` selects (a condition on monitor_id), replacing the buckets it computes. */
export function rollupSql(engine: Engine, target: "monitor_hourly" | "monitor_daily", scope: SQL, from: number, to: number): SQL {
  const columns = sql.raw("monitor_id, bucket_start, checks, up, down, maintenance, rt_sum, rt_count, rt_min, rt_max, rt_hist");
  if (target === "monitor_hourly") {
    return sql`INSERT INTO monitor_hourly (${columns})
      SELECT a.*, h.hist FROM (
        SELECT monitor_id, (time / ${lit(HOUR)}) * ${lit(HOUR)} AS b, ${COUNTED}, ${COUNTED_UP},
          sum(CASE WHEN up OR maintenance THEN 0 ELSE 1 END), ${IN_MAINTENANCE}, coalesce(sum(response_time), 0), count(response_time), min(response_time), max(response_time)
        FROM ${checkRows(engine, from, to)} WHERE ${scope} AND time >= ${from} AND time < ${to}
        GROUP BY monitor_id, (time / ${lit(HOUR)}) * ${lit(HOUR)}
      ) a LEFT JOIN (${rawHistogramsSql(engine, scope, from, to, HOUR)}) h ON h.monitor_id = a.monitor_id AND h.b = a.b ${upsert}`;
  }
  return sql`INSERT INTO monitor_daily (${columns})
    SELECT a.*, h.hist FROM (
      SELECT monitor_id, (bucket_start / ${lit(DAY)}) * ${lit(DAY)} AS b, sum(checks), sum(up), sum(down), sum(maintenance), sum(rt_sum), sum(rt_count),
        min(rt_min), max(rt_max)
      FROM monitor_hourly WHERE ${scope} AND bucket_start >= ${from} AND bucket_start < ${to}
      GROUP BY monitor_id, (bucket_start / ${lit(DAY)}) * ${lit(DAY)}
    ) a LEFT JOIN (
      SELECT monitor_id, d AS b, ${histogramAggSql(engine, sql.raw("bin"), sql.raw("n"))} AS hist FROM (
        SELECT monitor_id, (bucket_start / ${lit(DAY)}) * ${lit(DAY)} AS d, CAST(j.key AS INTEGER) AS bin, sum(CAST(j.value AS BIGINT)) AS n
        FROM monitor_hourly, ${histogramEachSql(engine, sql.raw("rt_hist"))} j
        WHERE ${scope} AND bucket_start >= ${from} AND bucket_start < ${to} GROUP BY 1, 2, 3
      ) bins GROUP BY monitor_id, d
    ) h ON h.monitor_id = a.monitor_id AND h.b = a.b ${upsert}`;
}
