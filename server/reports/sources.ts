// Where a report's counts come from: which parts of the period the daily and hourly rollups cover, and which are read
// from raw checks (the hours not rolled up yet, and period edges inside an hour). Counts and histograms are summed
// per monitor over those parts in SQL.
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/database";
import { readWatermarks } from "../monitors/history";
import { COUNTED, COUNTED_UP, DAY, HOUR, IN_MAINTENANCE } from "../monitors/rollup-sql";
import { checkRows, oldestCheckTime } from "../monitors/check-rows";
import { addBin, addHistogramText, binSql, newHistogram, type Histogram } from "./histogram";

export interface Counts {
  checks: number;
  up: number;
  down: number;
  maintenance: number;
  rtSum: number;
  rtCount: number;
  rtMin: number | null;
  rtMax: number | null;
  hist: Histogram;
}

export const emptyCounts = (): Counts => ({ checks: 0, up: 0, down: 0, maintenance: 0, rtSum: 0, rtCount: 0, rtMin: null, rtMax: null, hist: newHistogram() });

export function addCounts(into: Counts, c: Omit<Counts, "hist">) {
  into.checks += Number(c.checks);
  into.up += Number(c.up);
  into.down += Number(c.down);
  into.maintenance += Number(c.maintenance);
  into.rtSum += Number(c.rtSum);
  into.rtCount += Number(c.rtCount);
  if (c.rtMin !== null) into.rtMin = into.rtMin === null ? Number(c.rtMin) : Math.min(into.rtMin, Number(c.rtMin));
  if (c.rtMax !== null) into.rtMax = into.rtMax === null ? Number(c.rtMax) : Math.max(into.rtMax, Number(c.rtMax));
}

type Span = [number, number];

export interface Plan {
  raw: Span[];
  hourly: Span[];
  daily: Span[];
  /** An edge of the period fell in an hour whose raw checks are gone; the whole hour was counted. */
  roundedToHour: boolean;
}

const floor = (t: number, unit: number) => Math.floor(t / unit) * unit;
const ceil = (t: number, unit: number) => Math.ceil(t / unit) * unit;

/**
 * Splits [from, to) into rollup and raw parts. `rawSince`: the oldest raw check of the monitors (older edges are
 * counted by whole hours). Days come from monitor_daily where whole UTC days lie inside, the rest from monitor_hourly.
 */
export function planSources(from: number, to: number, marks: { hourly: number | null; daily: number | null }, rawSince: number | null): Plan {
  const plan: Plan = { raw: [], hourly: [], daily: [], roundedToHour: false };
  const rolled = marks.hourly ?? -Infinity;
  let rf = ceil(from, HOUR);
  let rt = Math.min(floor(to, HOUR), rolled);
  if (rf >= rt) {
    plan.raw.push([from, to]);
    return plan;
  }
  const rawCovers = (t: number) => rawSince !== null && rawSince <= t;
  if (from < rf) {
    if (rawCovers(floor(from, HOUR))) plan.raw.push([from, rf]);
    else [rf, plan.roundedToHour] = [floor(from, HOUR), true];
  }
  if (rt < to) {
    if (rt === rolled || rawCovers(rt)) plan.raw.push([rt, to]);
    else [rt, plan.roundedToHour] = [ceil(to, HOUR), true];
  }
  const df = ceil(rf, DAY);
  const dt = Math.min(floor(rt, DAY), marks.daily ?? -Infinity);
  if (df < dt) {
    plan.daily.push([df, dt]);
    if (rf < df) plan.hourly.push([rf, df]);
    if (dt < rt) plan.hourly.push([dt, rt]);
  } else {
    plan.hourly.push([rf, rt]);
  }
  return plan;
}

const idList = (ids: number[]) => sql.join(ids.map((id) => sql`${id}`), sql`, `);

/** Monitors per query: a year of daily rows of 100 monitors is 36 500 rows in memory at once. */
const CHUNK = 100;

/** Counts and histograms per monitor of `ids` over the plan's parts. */
export async function countsOf(db: Db, ids: number[], plan: Plan): Promise<Map<number, Counts>> {
  const out = new Map<number, Counts>(ids.map((id) => [id, emptyCounts()]));
  for (let i = 0; i < ids.length; i += CHUNK) await countChunk(db, ids.slice(i, i + CHUNK), plan, out);
  return out;
}

async function countChunk(db: Db, ids: number[], plan: Plan, out: Map<number, Counts>) {
  const inIds = sql`monitor_id IN (${idList(ids)})`;
  const add = (rows: (Omit<Counts, "hist"> & { monitor_id: number })[]) => rows.forEach((r) => addCounts(out.get(r.monitor_id)!, r));
  const addHist = (rows: { monitor_id: number; bin: number; n: number }[]) =>
    rows.forEach((r) => addBin(out.get(r.monitor_id)!.hist, Number(r.bin), Number(r.n)));
  const rollupCounts = sql.raw(`sum(checks) AS checks, sum(up) AS up, sum(down) AS down, sum(maintenance) AS maintenance,
    sum(rt_sum) AS "rtSum", sum(rt_count) AS "rtCount", min(rt_min) AS "rtMin", max(rt_max) AS "rtMax"`);
  for (const [table, spans] of [["monitor_daily", plan.daily], ["monitor_hourly", plan.hourly]] as const) {
    for (const [from, to] of spans) {
      const where = sql`${inIds} AND bucket_start >= ${from} AND bucket_start < ${to}`;
      add(await db.rows(sql`SELECT monitor_id, ${rollupCounts} FROM ${sql.raw(table)} WHERE ${where} GROUP BY monitor_id`));
      // Histograms merged here rather than in SQL (json_each): 6 times faster over a year of days.
      for (const r of await db.rows<{ monitor_id: number; rt_hist: string | null }>(sql`SELECT monitor_id, rt_hist FROM ${sql.raw(table)} WHERE ${where} AND rt_hist IS NOT NULL`)) {
        addHistogramText(out.get(r.monitor_id)!.hist, r.rt_hist);
      }
    }
  }
  for (const [from, to] of plan.raw) {
    const where: SQL = sql`${inIds} AND time >= ${from} AND time < ${to}`;
    add(
      await db.rows(sql`SELECT monitor_id, ${COUNTED} AS checks, ${COUNTED_UP} AS up, sum(CASE WHEN up OR maintenance THEN 0 ELSE 1 END) AS down,
        ${IN_MAINTENANCE} AS maintenance, coalesce(sum(response_time), 0) AS "rtSum", count(response_time) AS "rtCount",
        min(response_time) AS "rtMin", max(response_time) AS "rtMax" FROM ${checkRows(db.engine, from, to)} WHERE ${where} GROUP BY monitor_id`),
    );
    addHist(
      await db.rows(sql`SELECT monitor_id, ${binSql(sql.raw("response_time"))} AS bin, count(*) AS n FROM ${checkRows(db.engine, from, to)}
        WHERE ${where} AND response_time IS NOT NULL GROUP BY 1, 2`),
    );
  }
}

/** The rollup watermarks and the oldest raw check of `ids` (an index seek per monitor). */
export async function sourceMarks(db: Db, ids: number[]) {
  const marks = await readWatermarks(db);
  if (ids.length === 0) return { marks, rawSince: null };
  const [row] = await db.rows<{ t: number | null }>(
    sql`SELECT min(t) AS t FROM (SELECT ${oldestCheckTime(db.engine, sql`m.id`)} AS t
        FROM monitors m WHERE m.id IN (${idList(ids)})) AS firsts`,
  );
  return { marks, rawSince: row?.t == null ? null : Number(row.t) };
}
