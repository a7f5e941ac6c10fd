// Outages, as reports list them: a run of failed checks counted in uptime, from the first failure to the first check
// that passed after it. Checks made in maintenance neither start a run nor count in it, but one that passed ends it
// (the service was back). Kept in monitor_outages, written by the rollup timer right after it rolls up an hour
// (server/monitors/history.ts), from the raw checks of that hour: raw checks go after --raw-retention-days, outages
// stay as long as the rollups. The timer keeps its own watermark, saved in the same transaction as the outages it
// wrote, so each hour is walked exactly once; a run still failing at the end of an hour stays open and the next
// hour continues it. The hours not rolled up yet are walked on the fly by the reports (same walk).
import { and, eq, gte, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { Db, Orm } from "../db/database";
import { HOUR } from "../monitors/rollup-sql";
import { checkRows } from "../monitors/check-rows";

export interface OutageRun {
  monitorId: number;
  startedAt: number;
  /** The first passing check after the run; null while it is still failing. */
  endedAt: number | null;
  lastFailureAt: number;
  /** Failed checks of the run outside maintenance. */
  failures: number;
  cause: string | null;
}

export interface WalkedCheck {
  time: number;
  /** 0/1 on SQLite, booleans on PostgreSQL. */
  up: boolean | number;
  maintenance: boolean | number;
  error: string | null;
}

/**
 * Walks one monitor's checks (in time order), continuing `open` (its run still failing before them). Returns every
 * run the checks touched, the continued one first, the last possibly still open. Runs are new objects.
 */
export function walkOutages(monitorId: number, checks: readonly WalkedCheck[], open: OutageRun | null): OutageRun[] {
  const runs: OutageRun[] = [];
  let run = open ? { ...open } : null;
  if (run) runs.push(run);
  for (const c of checks) {
    if (c.up) {
      if (run) run.endedAt = c.time;
      run = null;
    } else if (!c.maintenance) {
      if (run) {
        run.failures++;
        run.lastFailureAt = c.time;
      } else {
        run = { monitorId, startedAt: c.time, endedAt: null, lastFailureAt: c.time, failures: 1, cause: c.error };
        runs.push(run);
      }
    }
  }
  return open && runs[0] && runs[0].failures === open.failures && runs[0].endedAt === null ? runs.slice(1) : runs;
}

const WATERMARK_KEY = "reports.outages";
/** Monitors whose raw checks are read per statement. */
const CHUNK = 200;

export async function openOutages(db: Db, monitorIds: number[] | null, orm: Orm = db.orm): Promise<Map<number, OutageRun>> {
  const t = db.t.monitorOutages;
  const rows = await orm.select().from(t).where(monitorIds === null ? isNull(t.endedAt) : and(isNull(t.endedAt), inArray(t.monitorId, monitorIds)));
  return new Map(rows.map((r) => [r.monitorId, r]));
}

/** Raw checks of `ids` in [from, to), by monitor, in time order. */
export async function rawChecksOf(db: Db, ids: number[], from: number, to: number, orm?: Orm): Promise<Map<number, WalkedCheck[]>> {
  const byMonitor = new Map<number, WalkedCheck[]>();
  if (ids.length === 0) return byMonitor;
  const rows = await db.rows<WalkedCheck & { monitor_id: number }>(
    sql`SELECT monitor_id, time, up, maintenance, error FROM ${checkRows(db.engine, from, to)}
        WHERE monitor_id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) AND time >= ${from} AND time < ${to} ORDER BY monitor_id, time`,
    orm,
  );
  for (const r of rows) {
    let list = byMonitor.get(r.monitor_id);
    if (!list) byMonitor.set(r.monitor_id, (list = []));
    list.push(r);
  }
  return byMonitor;
}

async function saveRuns(db: Db, runs: OutageRun[], orm: Orm) {
  const t = db.t.monitorOutages;
  for (const r of runs) {
    await orm.insert(t).values(r).onConflictDoUpdate({
      target: [t.monitorId, t.startedAt],
      set: { endedAt: r.endedAt, lastFailureAt: r.lastFailureAt, failures: r.failures },
    });
  }
}

/**
 * Walks the hours from the outage watermark up to `rolledUntil` (the hourly rollup's watermark), at most 6 hours per
 * transaction. Only monitors with a failure counted in those hours, or a run still open, are read. The first run
 * after an upgrade starts at `firstHour` (the oldest raw check), so outages of the raw checks kept are not lost.
 */
export async function recordOutages(db: Db, rolledUntil: number, firstHour: () => Promise<number>): Promise<number> {
  const { settings } = db.t;
  const [mark] = await db.orm.select().from(settings).where(eq(settings.key, WATERMARK_KEY));
  let from = mark ? Number(mark.value) : Math.min(await firstHour(), rolledUntil);
  let written = 0;
  while (from < rolledUntil) {
    const to = Math.min(rolledUntil, from + 6 * HOUR);
    written += await db.tx(async (tx) => {
      const open = await openOutages(db, null, tx);
      const failing = await db.rows<{ monitor_id: number }>(
        sql`SELECT DISTINCT monitor_id FROM monitor_hourly WHERE bucket_start >= ${from} AND bucket_start < ${to} AND down > 0`,
        tx,
      );
      const ids = [...new Set([...open.keys(), ...failing.map((r) => r.monitor_id)])];
      let n = 0;
      for (let i = 0; i < ids.length; i += CHUNK) {
        const chunk = ids.slice(i, i + CHUNK);
        const checks = await rawChecksOf(db, chunk, from, to, tx);
        const runs = chunk.flatMap((id) => walkOutages(id, checks.get(id) ?? [], open.get(id) ?? null));
        await saveRuns(db, runs, tx);
        n += runs.length;
      }
      await tx.insert(settings).values({ key: WATERMARK_KEY, value: String(to) }).onConflictDoUpdate({ target: settings.key, set: { value: String(to) } });
      return n;
    });
    from = to;
  }
  return written;
}

/**
 * Where the timer's walk begins for checks written into the past (imported history, server/import/kuma/history.ts):
 * its watermark, or `fallback` (where such checks start being kept raw) when that is later or the timer has not run
 * yet. The importer walks the checks before it (the timer never will), the timer those after it.
 */
export async function outagesWalkedUntil(db: Db, orm: Orm, fallback: number): Promise<number> {
  const { settings } = db.t;
  const [mark] = await orm.select().from(settings).where(eq(settings.key, WATERMARK_KEY));
  return mark ? Math.max(Number(mark.value), fallback) : fallback;
}

/**
 * Records the outages of one monitor's checks that the timer will not walk (before `outagesWalkedUntil`), in time
 * order. A run still failing at their end stays open only when `continued` (raw checks after them that the timer will
 * walk) and the monitor has no open run already; otherwise it ends at its last failure (nothing says when it ended).
 * Runs overlapping outages already recorded (the same period checked by Vigil itself) are left out; recording the
 * same checks again adds nothing.
 */
export async function recordPastOutages(db: Db, orm: Orm, monitorId: number, checks: readonly WalkedCheck[], continued: boolean): Promise<number> {
  if (checks.length === 0) return 0;
  const t = db.t.monitorOutages;
  const first = checks[0]!.time;
  const last = checks.at(-1)!.time;
  const known = await orm
    .select()
    .from(t)
    .where(and(eq(t.monitorId, monitorId), lte(t.startedAt, last), or(isNull(t.endedAt), gte(t.endedAt, first))));
  const keepOpen = continued && !(await openOutages(db, [monitorId], orm)).has(monitorId);
  const overlaps = (r: OutageRun) => known.some((k) => k.startedAt !== r.startedAt && k.startedAt <= (r.endedAt ?? r.lastFailureAt) && (k.endedAt ?? Infinity) >= r.startedAt);
  const runs = walkOutages(monitorId, checks, null)
    .map((r) => (r.endedAt === null && !keepOpen ? { ...r, endedAt: r.lastFailureAt } : r))
    .filter((r) => !overlaps(r));
  for (let i = 0; i < runs.length; i += 500) await orm.insert(t).values(runs.slice(i, i + 500)).onConflictDoNothing();
  return runs.length;
}

