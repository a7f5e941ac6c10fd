import { afterEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { testDb, testEngine } from "../db/test-db";
import { createEventBus } from "../events";
import { fakeClock } from "../test-support";
import { DAY, HOUR } from "./history";
import { createCheckPacking } from "./packing";
import { createMonitorService } from "./service";
import { countRows, insertResults, type ResultRow } from "./test-db";

const T0 = Date.UTC(2026, 0, 5, 0, 0, 0); // a Monday, 00:00 UTC

const opened: Db[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
});

/**
 * Two monitors and a way to put raw results at chosen times: `put` queues them, `save` inserts what was put (the
 * reads and counts below save first).
 */
async function setup(options: { rawRetentionDays?: number } = {}) {
  const db = await testDb();
  opened.push(db);
  const clock = fakeClock(T0);
  const service = createMonitorService({ db, bus: createEventBus(), clock, tls: false, checker: async () => ({ time: 0, up: true, responseTime: 1, httpStatus: 200, error: null }), ...options });
  await service.load();
  // Paused: the results are the test's own (a scheduled check would land beside them at an unknown moment).
  const a = (await service.create({ name: "a", url: "http://a.test/", active: false })).id;
  const b = (await service.create({ name: "b", url: "http://b.test/", active: false })).id;
  const queued: ResultRow[] = [];
  const put = (monitorId: number, time: number, up: boolean, rt: number | null, error: string | null = up ? null : "status 500, expected 2xx") =>
    void queued.push({ monitorId, time, up, responseTime: rt, httpStatus: up ? 200 : 500, error });
  const save = () => insertResults(db, queued.splice(0));
  const rows = async (table: "monitor_hourly" | "monitor_daily") => {
    await save();
    return db.rows<Record<string, number>>(sql`SELECT * FROM ${sql.identifier(table)} ORDER BY monitor_id, bucket_start`);
  };
  const count = async (table: string) => {
    await save();
    return countRows(db, table);
  };
  // The history's calls, each after saving what was put.
  const h = service.history;
  const history = {
    rollUp: async (now: number) => (await save(), h.rollUp(now)),
    prune: async (now: number) => (await save(), h.prune(now)),
    monitorHistory: async (id: number, now: number) => (await save(), h.monitorHistory(id, now)),
    series: async (id: number, range: Parameters<typeof h.series>[1], now: number) => (await save(), h.series(id, range, now)),
    watermarks: h.watermarks,
  };
  return { db, clock, service, history, a, b, put, save, rows, count };
}

/** One check a minute for `hours` hours from `from`; every 10th down without a response time. */
function fill(put: (id: number, t: number, up: boolean, rt: number | null) => void, id: number, from: number, hours: number, rt = (i: number) => 100 + (i % 7)) {
  for (let i = 0; i < hours * 60; i++) {
    const down = i % 10 === 9;
    put(id, from + i * 60_000, !down, down ? null : rt(i));
  }
}

describe("rollups", () => {
  test("hourly rows hold checks, up, down and response time sum/count/min/max of their hour", async () => {
    const { history, a, b, put, rows } = await setup();
    put(a, T0 + 1000, true, 100);
    put(a, T0 + 2000, true, 300);
    put(a, T0 + 3000, false, null);
    put(a, T0 + HOUR + 5, true, 50);
    put(b, T0 + 10, false, 999);
    await history.rollUp(T0 + 2 * HOUR + 3 * 60_000);
    // The histogram counts every response time by its 10 % bin (server/reports/histogram.ts): 100 → 48, 300 → 59.
    const hist = (r: object): object => ({ ...r, rt_hist: JSON.parse((r as { rt_hist: string }).rt_hist) });
    expect((await rows("monitor_hourly")).map(hist)).toEqual([
      { monitor_id: a, bucket_start: T0, checks: 3, up: 2, down: 1, maintenance: 0, rt_sum: 400, rt_count: 2, rt_min: 100, rt_max: 300, rt_hist: { 48: 1, 59: 1 } },
      { monitor_id: a, bucket_start: T0 + HOUR, checks: 1, up: 1, down: 0, maintenance: 0, rt_sum: 50, rt_count: 1, rt_min: 50, rt_max: 50, rt_hist: { 41: 1 } },
      { monitor_id: b, bucket_start: T0, checks: 1, up: 0, down: 1, maintenance: 0, rt_sum: 999, rt_count: 1, rt_min: 999, rt_max: 999, rt_hist: { 72: 1 } },
    ]);
    expect((await history.watermarks()).hourly).toBe(T0 + 2 * HOUR);
  });

  test("a day's histogram is the sum of its hours' (rolled up in SQL on both engines)", async () => {
    const { history, a, put, rows } = await setup();
    put(a, T0 + 1000, true, 100);
    put(a, T0 + 2000, true, 101);
    put(a, T0 + HOUR + 5, true, 100);
    put(a, T0 + 5 * HOUR, true, 300);
    put(a, T0 + 6 * HOUR, false, null);
    await history.rollUp(T0 + DAY + HOUR);
    const [day] = await rows("monitor_daily");
    expect(JSON.parse(String(day!.rt_hist))).toEqual({ 48: 3, 59: 1 });
    expect(day!.rt_count).toBe(4);
  });

  test("an hour is rolled up only after its grace period; the open hour never", async () => {
    const { history, a, put, count } = await setup();
    put(a, T0 + 1000, true, 10);
    await history.rollUp(T0 + HOUR + 60_000); // 1 minute after the hour: within the 2-minute grace
    expect(await count("monitor_hourly")).toBe(0);
    put(a, T0 + HOUR - 1, true, 20); // a late result of a check started in the hour
    await history.rollUp(T0 + HOUR + 2 * 60_000);
    expect(await count("monitor_hourly")).toBe(1);
  });

  test("re-running is harmless: same rows, also when the watermark is reset", async () => {
    const { db, history, a, b, put, rows } = await setup();
    fill(put, a, T0, 30);
    fill(put, b, T0 + 5 * HOUR, 3);
    const now = T0 + 30 * HOUR + 5 * 60_000;
    await history.rollUp(now);
    const hourly = await rows("monitor_hourly");
    const daily = await rows("monitor_daily");
    expect(await history.rollUp(now)).toEqual({ hours: 0, days: 0 });
    await db.exec(sql`DELETE FROM settings WHERE key LIKE 'monitors.rollup.%'`);
    await history.rollUp(now);
    expect(await rows("monitor_hourly")).toEqual(hourly);
    expect(await rows("monitor_daily")).toEqual(daily);
  });

  test("catching up after downtime rolls every missed hour and day in one pass", async () => {
    const { history, a, put, rows } = await setup();
    await history.rollUp(T0 + 3 * 60_000); // first run: watermark at T0
    fill(put, a, T0, 72); // three days of results the server never rolled up (it was down)
    const done = await history.rollUp(T0 + 3 * DAY + 10 * HOUR);
    expect(done).toEqual({ hours: 3 * 24 + 9, days: 3 }); // up to 09:00 on day 4 (10:00 minus the grace)
    const hourly = await rows("monitor_hourly");
    expect(hourly).toHaveLength(72);
    expect(hourly.every((r) => r.checks === 60 && r.down === 6 && r.up === 54)).toBe(true);
    const daily = await rows("monitor_daily");
    expect(daily.map((r) => [r.bucket_start, r.checks, r.up, r.down, r.rt_min, r.rt_max])).toEqual(
      [0, 1, 2].map((d) => [T0 + d * DAY, 1440, 1296, 144, 100, 106]),
    );
    // Daily sums equal the raw sums.
    expect(daily[0].rt_sum).toBe(hourly.slice(0, 24).reduce((s, r) => s + r.rt_sum, 0));
  });

  test("the daily rollup waits for the whole day to be rolled into hours", async () => {
    const { history, a, put, count } = await setup();
    await history.rollUp(T0 + 3 * 60_000);
    fill(put, a, T0, 24);
    await history.rollUp(T0 + 23 * HOUR + 30 * 60_000);
    expect(await count("monitor_daily")).toBe(0);
    await history.rollUp(T0 + DAY + 3 * 60_000);
    expect(await count("monitor_daily")).toBe(1);
  });
});

describe("retention", () => {
  test("raw results go after the raw retention, rollups after 365 days; both are idempotent", async () => {
    const { history, a, put, count, rows } = await setup({ rawRetentionDays: 2 });
    await history.rollUp(T0 + 3 * 60_000);
    fill(put, a, T0, 24 * 4);
    const now = T0 + 4 * DAY + 10 * 60_000;
    await history.rollUp(now);
    const before = await count("check_results");
    const pruned = await history.prune(now);
    expect(pruned.raw).toBe(before - (await count("check_results")));
    // What is left starts at now - 2 days.
    expect((await rows("monitor_hourly"))[0].bucket_start).toBe(T0);
    const left = await count("check_results");
    expect(left).toBe(2 * 24 * 60 - 10);
    expect(await history.prune(now)).toEqual({ raw: 0, rollups: 0 });
    // Rollups stay for the year, then go.
    expect(await count("monitor_hourly")).toBe(96);
    const yearOn = T0 + 365 * DAY + DAY;
    await history.rollUp(yearOn);
    expect((await history.prune(yearOn)).rollups).toBe(24 + 1); // the first day's hours and the day itself
    await history.rollUp(yearOn + 3 * DAY);
    await history.prune(yearOn + 3 * DAY);
    expect((await count("monitor_hourly")) + (await count("monitor_daily")) + (await count("check_results"))).toBe(0);
  });

  test("raw results are never pruned before their hour is rolled up", async () => {
    const { history, a, put, count } = await setup({ rawRetentionDays: 1 });
    await history.rollUp(T0 + 3 * 60_000); // watermark T0, then the rollup timer never runs again…
    fill(put, a, T0, 72);
    // …but a prune runs: nothing at or after the watermark goes.
    expect((await history.prune(T0 + 3 * DAY)).raw).toBe(0);
    expect(await count("check_results")).toBe(72 * 60);
  });

  test("maintain rolls up and prunes on its timer", async () => {
    const { service, clock, a, put, save, count } = await setup({ rawRetentionDays: 1 });
    fill(put, a, T0 - 3 * DAY, 48);
    await save();
    service.start({ maintenanceDelayMs: 1000 });
    await clock.advance(2000);
    await service.stop(); // waits for the pass the timer started
    expect(await count("monitor_hourly")).toBe(48);
    expect(await count("monitor_daily")).toBe(2);
    expect(await count("check_results")).toBe(0); // older than a day, and rolled up
  });

  test("a maintenance pass drops a day past the retention and keeps its rollups; what is left reads the same", async () => {
    const { db, service, history, a, put, count } = await setup({ rawRetentionDays: 1 });
    fill(put, a, T0, 72);
    const now = T0 + 3 * DAY + 10 * 60_000;
    const before = await history.monitorHistory(a, now);
    const seriesBefore = await history.series(a, "24h", now);
    // On PostgreSQL, packed as the passes of those three days would have packed them, an hour at a time.
    if (testEngine === "postgres") await createCheckPacking(db).pack(now - HOUR - 10 * 60_000);
    await service.history.maintain(now, { forcePrune: true });
    expect(await count("monitor_hourly")).toBe(72);
    expect(await count("monitor_daily")).toBe(3);
    // The cutoff is T0 + 2 d 10 min. SQLite deletes up to it; PostgreSQL drops whole days of packed checks, so it
    // keeps the rest of that day (packing.ts): day 2's first ten minutes stay a little longer.
    expect(await count("check_results")).toBe(testEngine === "postgres" ? 24 * 60 : 24 * 60 - 10);
    if (testEngine === "postgres") {
      // Packed but the last hour (rows, for the newest reads), in one day partition: days 0 and 1 were dropped whole.
      expect(Number((await db.rows<{ n: number }>(sql`SELECT count(*) AS n FROM check_results`))[0]!.n)).toBe(60);
      const days = await db.rows<{ name: string }>(sql`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = to_regclass('check_blocks')`);
      expect(days.map((d) => d.name)).toEqual(["check_blocks_20260107"]);
    }
    const after = await history.monitorHistory(a, now);
    expect(after.day).toEqual(before.day);
    expect(after.month).toMatchObject({ total: before.month.total, up: before.month.up, down: before.month.down, latest: before.month.latest });
    expect(await history.series(a, "24h", now)).toEqual(seriesBefore);
  });
});

describe("history reads", () => {
  test("24 h: exact window from raw results in 24 one-hour slots ending now", async () => {
    const { service, history, a, put } = await setup();
    const now = T0 + 2 * DAY + 30 * 60_000;
    const from = now - DAY;
    put(a, from - 1, false, null); // just outside
    put(a, from + 1, true, 100);
    put(a, from + 5 * HOUR, false, null, "timeout after 10 s");
    put(a, now - 1000, true, 300);
    await service.writer.flush();
    const h = await history.monitorHistory(a, now);
    expect(h.day).toMatchObject({
      from,
      to: now,
      total: 3,
      up: 2,
      down: 1,
      avgResponseTime: 200,
      minResponseTime: 100,
      maxResponseTime: 300,
      recordCount: 3,
      availability: 66.66,
      latest: { monitorId: a, time: now - 1000, status: "up", responseTime: 300 },
      error: { time: from + 5 * HOUR, message: "timeout after 10 s" },
    });
    expect(h.day.buckets).toHaveLength(24);
    expect(h.day.buckets[0]).toMatchObject({ start: from, end: from + HOUR, total: 1, status: "up" });
    expect(h.day.buckets[5]).toMatchObject({ total: 1, down: 1, status: "down", availability: 0 });
    expect(h.day.buckets[23]).toMatchObject({ end: now, total: 1, status: "up" });
    expect(h.day.buckets[10]).toMatchObject({ total: 0, status: "empty", availability: null, avgResponseTime: null });
  });

  test("30 d: rolled-up hours and raw results together, in 30 day slots; the same before and after a rollup", async () => {
    const { history, a, put } = await setup();
    fill(put, a, T0, 24 * 10); // ten days, one check a minute
    const now = T0 + 10 * DAY + 30 * 60_000;
    put(a, now - 60_000, false, null);
    const before = await history.monitorHistory(a, now);
    await history.rollUp(now);
    const after = await history.monitorHistory(a, now);
    const strip = (w: typeof before.month) => ({ ...w, recordCount: 0 });
    expect(strip(after.month)).toEqual(strip(before.month));
    expect(after.month.recordCount).toBeLessThan(before.month.recordCount);
    expect(after.month).toMatchObject({ total: 14_401, up: 12_960, down: 1441, minResponseTime: 100, maxResponseTime: 106 });
    expect(after.month.buckets).toHaveLength(30);
    expect(after.month.buckets.at(-1)!.end).toBe(T0 + 10 * DAY + HOUR);
    const full = after.month.buckets.filter((b) => b.total > 0);
    expect(full.length).toBe(11);
    expect(after.month.buckets.filter((b) => b.status === "partial").length).toBe(11);
  });

  test("series: raw points for 1 h, 6 h and 24 h; one point per hour (every hour present) for 7 d", async () => {
    const { history, a, put } = await setup();
    fill(put, a, T0, 48);
    const now = T0 + 2 * DAY - 1;
    await history.rollUp(now);
    const day = await history.series(a, "24h", now);
    expect(day.resolution).toBe("raw");
    expect(day.times).toHaveLength(24 * 60);
    expect(day.times.every((t, i) => i === 0 || t > day.times[i - 1])).toBe(true);
    expect(day.responseTimes.filter((v) => v === null)).toHaveLength(144);
    expect(day.up.filter((v) => v === 0)).toHaveLength(144);

    const week = await history.series(a, "7d", now);
    expect(week.resolution).toBe("hour");
    expect(week.times).toHaveLength(168);
    expect(week.times[1] - week.times[0]).toBe(HOUR);
    expect(week.checks.filter((c) => c > 0)).toHaveLength(48);
    const i = week.times.indexOf(T0);
    expect([week.checks[i], week.up[i], week.minResponseTimes[i], week.maxResponseTimes[i]]).toEqual([60, 0.9, 100, 106]);
    expect(week.responseTimes[i - 1]).toBeNull();
    expect((await history.series(a, "30d", now)).times).toHaveLength(720);
    // Short ranges are raw too: one point per check of the last hour or six.
    for (const [range, hours] of [["1h", 1], ["6h", 6]] as const) {
      const s = await history.series(a, range, now);
      expect([s.resolution, s.times.length, s.checks.every((c) => c === 1)]).toEqual(["raw", hours * 60, true]);
      expect(s.times[0]).toBeGreaterThan(now - hours * HOUR);
    }
    // Every range states its whole window, data or not: the chart's x axis spans it.
    for (const [range, span] of [["1h", HOUR], ["6h", 6 * HOUR], ["24h", DAY], ["7d", 7 * DAY], ["30d", 30 * DAY]] as const) {
      const s = await history.series(a, range, now);
      expect([s.from, s.to]).toEqual([now - span, now]);
      expect(s.times[0]).toBeGreaterThan(s.from);
    }
  });
});
