// The Kuma import's history section (--history): each imported monitor's heartbeats become Vigil check results and
// hourly/daily rollups, as if Vigil had made those checks itself.
//
// - Status: UP → up; DOWN → down; PENDING → down (a failed check still within its retries: Kuma's own uptime counts
//   it as down, stat_* tables agree); MAINTENANCE → maintenance (left out of uptime, as Vigil's own checks in a
//   window are). msg is kept as the error of checks that are not up; ping (ms) as the response time, rounded.
// - Retention: heartbeats within Vigil's raw retention (and any hour the rollup timer has not reached yet) go into
//   check_results, the hours they fall in already rolled up are rolled up again from check_results with the timer's
//   own SQL. Older ones go straight into monitor_hourly, counted exactly as that SQL counts. Days touched are rolled
//   up again from monitor_hourly.
// - Before a monitor's first heartbeat, Kuma 2.x may still hold stat_hourly / stat_daily rows (it prunes heartbeats
//   sooner than those): they fill monitor_hourly / monitor_daily for those periods (up and down as Kuma counted them;
//   their ping is Kuma's average over up beats).
// - Outages (server/reports/outages.ts): heartbeats before the rollup timer's outage watermark are walked here, the
//   later ones (raw check results) by the timer, so reports list Kuma's outages as Vigil's own.
// - Re-importing adds nothing: results keyed (monitor, time) that exist are skipped, and so are rollup buckets that
//   exist where no raw results back them.
// - The monitor's current status is left to its first check in Vigil (an old heartbeat says little about now).
import { sql, type SQL } from "drizzle-orm";
import type { Db, Orm } from "../../db/database";
import { DAY, HOUR, readWatermarks, rollupSql } from "../../monitors/history";
import { outagesWalkedUntil, recordPastOutages } from "../../reports/outages";
import { note } from "./notes";
import type { ApplyContext, KumaSection, KumaSource, PlanItem } from "./section";

const DEFAULT_RAW_RETENTION_MS = 7 * DAY;
/** Rows per INSERT (8 values each: well under either engine's limit of bound parameters). */
const CHUNK = 1000;

const STATUS = { DOWN: 0, UP: 1, PENDING: 2, MAINTENANCE: 3 } as const;

interface Beat {
  time: number;
  up: boolean;
  maintenance: boolean;
  responseTime: number | null;
  error: string | null;
}

/** One rollup bucket, as monitor_hourly / monitor_daily hold it. */
interface Bucket {
  start: number;
  checks: number;
  up: number;
  down: number;
  maintenance: number;
  rtSum: number;
  rtCount: number;
  rtMin: number | null;
  rtMax: number | null;
}

const floorTo = (t: number, unit: number) => Math.floor(t / unit) * unit;
const num = (v: unknown): number | null => (v === null || v === undefined || v === "" ? null : Number.isFinite(Number(v)) ? Number(v) : null);

/**
 * Kuma's heartbeat time: text "YYYY-MM-DD HH:MM:SS(.mmm)" in UTC in its databases, an ISO string in 1.x JSON
 * backups; a number is taken as milliseconds. NaN when unreadable.
 */
export function kumaTime(v: unknown): number {
  if (typeof v === "number") return v;
  if (v instanceof Date) return v.getTime();
  const text = String(v ?? "").trim();
  if (/^\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(text)) return Date.parse(`${text.replace(" ", "T")}Z`);
  return Date.parse(text);
}

function toBeat(row: Record<string, unknown>): Beat | null {
  const time = kumaTime(row.time);
  const status = Number(row.status);
  if (!Number.isFinite(time) || !Object.values(STATUS).includes(status as 0)) return null;
  const ping = num(row.ping);
  const msg = typeof row.msg === "string" && row.msg.trim() !== "" ? row.msg : null;
  return {
    time,
    up: status === STATUS.UP || status === STATUS.MAINTENANCE,
    maintenance: status === STATUS.MAINTENANCE,
    responseTime: ping === null ? null : Math.round(ping),
    error: status === STATUS.UP || status === STATUS.MAINTENANCE ? null : msg,
  };
}

/** Heartbeat rows by Kuma monitor id, oldest first. */
function beatsByMonitor(source: KumaSource): Map<string, Beat[]> {
  const out = new Map<string, Beat[]>();
  for (const row of source.rows("heartbeat")) {
    const beat = toBeat(row);
    if (!beat) continue;
    const id = String(row.monitor_id);
    const list = out.get(id);
    if (list) list.push(beat);
    else out.set(id, [beat]);
  }
  for (const list of out.values()) list.sort((a, b) => a.time - b.time);
  return out;
}

/** Kuma's stat_hourly / stat_daily rows (timestamps in seconds) as buckets, by Kuma monitor id. */
function statBuckets(source: KumaSource, table: "stat_hourly" | "stat_daily"): Map<string, Bucket[]> {
  const out = new Map<string, Bucket[]>();
  if (!source.has(table)) return out;
  for (const row of source.rows(table)) {
    const up = num(row.up) ?? 0;
    const down = num(row.down) ?? 0;
    const ping = num(row.ping);
    if (up + down === 0) continue;
    const pinged = up > 0 && ping !== null; // Kuma averages the ping of up beats only
    const bucket: Bucket = {
      start: (num(row.timestamp) ?? 0) * 1000,
      checks: up + down,
      up,
      down,
      maintenance: 0,
      rtSum: pinged ? Math.round(ping * up) : 0,
      rtCount: pinged ? up : 0,
      rtMin: pinged ? Math.round(num(row.ping_min) ?? ping) : null,
      rtMax: pinged ? Math.round(num(row.ping_max) ?? ping) : null,
    };
    const id = String(row.monitor_id);
    const list = out.get(id);
    if (list) list.push(bucket);
    else out.set(id, [bucket]);
  }
  return out;
}

/** Hourly buckets of beats, counted as rollupSql("monitor_hourly") counts check_results. */
function hourBuckets(beats: Beat[]): Bucket[] {
  const byHour = new Map<number, Bucket>();
  for (const b of beats) {
    const start = floorTo(b.time, HOUR);
    let k = byHour.get(start);
    if (!k) byHour.set(start, (k = { start, checks: 0, up: 0, down: 0, maintenance: 0, rtSum: 0, rtCount: 0, rtMin: null, rtMax: null }));
    if (b.maintenance) k.maintenance++;
    else {
      k.checks++;
      if (b.up) k.up++;
      else k.down++;
    }
    if (b.responseTime !== null) {
      k.rtSum += b.responseTime;
      k.rtCount++;
      k.rtMin = k.rtMin === null ? b.responseTime : Math.min(k.rtMin, b.responseTime);
      k.rtMax = k.rtMax === null ? b.responseTime : Math.max(k.rtMax, b.responseTime);
    }
  }
  return [...byHour.values()];
}

async function insertBuckets(db: Db, tx: Orm, table: "monitorHourly" | "monitorDaily", monitorId: number, buckets: Bucket[]) {
  const target = db.t[table];
  for (let i = 0; i < buckets.length; i += CHUNK) {
    const values = buckets.slice(i, i + CHUNK).map(({ start, ...b }) => ({ monitorId, bucketStart: start, ...b }));
    await tx.insert(target).values(values).onConflictDoNothing();
  }
}

/** Ranges [from, to) of whole `unit`s covering the times, merged where they touch. */
function spans(times: Iterable<number>, unit: number): [number, number][] {
  const starts = [...new Set([...times].map((t) => floorTo(t, unit)))].sort((a, b) => a - b);
  const out: [number, number][] = [];
  for (const s of starts) {
    const last = out.at(-1);
    if (last && last[1] === s) last[1] = s + unit;
    else out.push([s, s + unit]);
  }
  return out;
}

export interface HistorySectionOptions {
  /** Vigil's raw retention (--raw-retention-days): older heartbeats go into rollups only. */
  rawRetentionMs?: number;
}

export function createHistorySection({ rawRetentionMs = DEFAULT_RAW_RETENTION_MS }: HistorySectionOptions = {}): KumaSection {
  return {
    kind: "history",

    async plan(source, { links, options }) {
      if (!options.history) return [];
      const names = new Map(source.rows("monitor").map((m) => [String(m.id), String(m.name ?? `#${m.id}`)]));
      const items: PlanItem[] = [];
      for (const [id, beats] of beatsByMonitor(source)) {
        if (!names.has(id)) continue; // a heartbeat of a monitor no longer there
        const count = (f: (b: Beat) => boolean) => beats.filter(f).length;
        const maintenance = count((b) => b.maintenance);
        const up = count((b) => b.up && !b.maintenance);
        const notes = [note("history.heartbeats", { total: beats.length, up, down: beats.length - up - maintenance, maintenance })];
        if (links.target("monitor", id) !== undefined) notes.push(note("history.skipsKnown"));
        items.push({ kind: "history", sourceId: id, name: names.get(id)!, action: links.target("monitor", id) === undefined ? "create" : "update", notes });
      }
      return items;
    },

    async apply(source, items, { db, tx, links, now, options }: ApplyContext) {
      if (!options.history) return;
      const wanted = items.filter((i) => i.kind === "history" && i.action !== "skip");
      if (wanted.length === 0) return;
      const all = beatsByMonitor(source);
      const statHourly = statBuckets(source, "stat_hourly");
      const statDaily = statBuckets(source, "stat_daily");
      const marks = await readWatermarks(db, tx);
      // Raw from the first whole hour inside the retention (the hour before may be partly pruned already), or from
      // the rollup watermark when it lags (the timer rolls hours after it from check_results).
      const retention = options.rawRetentionDays !== undefined ? options.rawRetentionDays * 86_400_000 : rawRetentionMs;
      const retained = floorTo(now - retention, HOUR) + HOUR;
      const rawFrom = marks.hourly === null ? retained : Math.min(retained, marks.hourly);
      // Outages: the rollup timer walks raw checks from its own watermark on; the heartbeats before it are walked here.
      const walkedUntil = await outagesWalkedUntil(db, tx, rawFrom);

      for (const item of wanted) {
        const monitorId = links.target("monitor", item.sourceId);
        if (monitorId === undefined) continue; // the monitor did not come across: neither does its history
        const beats = all.get(item.sourceId) ?? [];
        const old = beats.filter((b) => b.time < rawFrom);
        const recent = beats.filter((b) => b.time >= rawFrom);
        const scope: SQL = sql`monitor_id = ${monitorId}`;
        // Hours given new data (a list, not spread into push: a monitor may have hundreds of thousands).
        let touchedHours: number[] = [];

        // Raw results: only keys not there yet.
        const added: number[] = [];
        for (let i = 0; i < recent.length; i += CHUNK) {
          const rows = recent.slice(i, i + CHUNK).map((b) => ({ monitorId, ...b }));
          const done = await tx.insert(db.t.checkResults).values(rows).onConflictDoNothing().returning({ time: db.t.checkResults.time });
          for (const r of done) added.push(r.time);
        }
        // Hours the timer already rolled up: rolled again, now with the imported results in them.
        const rolledUntil = marks.hourly ?? -Infinity;
        for (const [from, to] of spans(added.filter((t) => t < rolledUntil), HOUR)) {
          await db.exec(rollupSql(db.engine, "monitor_hourly", scope, from, Math.min(to, rolledUntil)), tx);
        }
        touchedHours = touchedHours.concat(added);

        // Older heartbeats: straight into hourly buckets (one existing already was imported, or is Vigil's own).
        const oldBuckets = hourBuckets(old);
        await insertBuckets(db, tx, "monitorHourly", monitorId, oldBuckets);
        touchedHours = touchedHours.concat(oldBuckets.map((b) => b.start));

        // Before the first heartbeat: Kuma's own hourly, then daily aggregates.
        const firstHour = floorTo(beats[0]?.time ?? now, HOUR);
        const statHours = (statHourly.get(item.sourceId) ?? []).filter((b) => b.start < firstHour);
        await insertBuckets(db, tx, "monitorHourly", monitorId, statHours);
        touchedHours = touchedHours.concat(statHours.map((b) => b.start));
        const firstDay = floorTo(statHours.reduce((min, b) => Math.min(min, b.start), firstHour), DAY);
        const statDays = (statDaily.get(item.sourceId) ?? []).filter((b) => b.start < firstDay);
        await insertBuckets(db, tx, "monitorDaily", monitorId, statDays);

        // Days with new hourly data: summed again from monitor_hourly. A day the timer has yet to reach is summed
        // again by it later (complete by then); one it passed has all its hours in monitor_hourly now.
        for (const [from, to] of spans(touchedHours, DAY)) await db.exec(rollupSql(db.engine, "monitor_daily", scope, from, to), tx);
        const walked = beats.filter((b) => b.time < walkedUntil);
        await recordPastOutages(db, tx, monitorId, walked, walked.length < beats.length);
      }
    },
  };
}

/** The section with Vigil's default raw retention. */
export const historySection = createHistorySection();
