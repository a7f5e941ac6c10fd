import { afterEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { createServices } from "../../app";
import type { Db } from "../../db/database";
import { testDb } from "../../db/test-db";
import { DAY, HOUR } from "../../monitors/history";
import type { MonitorHistory } from "../../monitors/public";
import { fakeClock, testApp } from "../../test-support";
import { kumaManifest as manifest } from "./fixture";
import { createHistorySection, kumaTime } from "./history";
import { fixtureSource, memoryLinks } from "./test-source";
import type { ImportLinks, KumaSource } from "./section";

// The --history section against a real Kuma 2.5.3 database: every heartbeat of a linked monitor lands once (UP as up,
// DOWN and PENDING as down, as Kuma's own uptime counts them), Vigil's history API then shows Kuma's uptime, older
// heartbeats go into rollups only, and importing again adds nothing.

type Counts = { total: number; UP?: number; DOWN?: number; PENDING?: number; MAINTENANCE?: number };
const kuma = manifest.monitors.map((m) => ({ id: m.id, name: m.name, beats: m.heartbeats as Counts }));
/** The fixture's last heartbeat. */
const LAST = Date.UTC(2026, 10, 27, 9, 58, 12, 835);
/** Vigil's uptime figure of `up` of `total` (two decimals, rounded down). */
const share = (up: number, total: number) => Math.floor((up / total) * 10_000 + 1e-9) / 100;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function setup(now: number) {
  const db = await testDb();
  const clock = fakeClock(now);
  const services = await createServices(db, { monitors: { clock }, now: clock.now });
  const t = await testApp({ db, services });
  cleanups.push(() => db.close().catch(() => {}));
  const { token } = await t.signUp("alice");
  const links = memoryLinks();
  const vigilId = new Map<number, number>();
  for (const m of kuma) {
    const res = await t.call<{ monitor: { id: number } }>("POST", "/api/monitors", { token, body: { name: m.name, url: "http://127.0.0.1:9/", active: false } });
    expect(res.status).toBe(201);
    links.link("monitor", m.id, res.body.monitor.id);
    vigilId.set(m.id, res.body.monitor.id);
  }
  const source = fixtureSource();
  cleanups.push(() => source.close());
  const history = async (id: number) => (await t.call<{ history: MonitorHistory }>("GET", `/api/monitors/${vigilId.get(id)}/history`, { token })).body.history;
  return { db, t, token, links, vigilId, source, services, history };
}

async function runImport(db: Db, source: KumaSource, links: ImportLinks, now: number, rawRetentionMs = 7 * DAY) {
  const section = createHistorySection({ rawRetentionMs });
  const options = { history: true };
  const items = await section.plan(source, { db, links, options });
  await db.tx((tx) => section.apply(source, items, { db, tx, links, now, options }));
  return items;
}

const count = async (db: Db, query: ReturnType<typeof sql>) => Number((await db.rows<{ n: number }>(query))[0]!.n);

describe("Kuma history import", () => {
  test("kumaTime reads Kuma's UTC text, ISO text and numbers", () => {
    expect(kumaTime("2026-11-27 09:58:12.835")).toBe(LAST);
    expect(kumaTime("2026-11-27 09:58:12")).toBe(LAST - 835);
    expect(kumaTime("2026-11-27T09:58:12.835Z")).toBe(LAST);
    expect(kumaTime(LAST)).toBe(LAST);
    expect(kumaTime("yesterday")).toBeNaN();
  });

  test("the plan: one item per monitor with heartbeats, with its counts; nothing without --history", async () => {
    const s = await setup(LAST + HOUR);
    const items = await createHistorySection().plan(s.source, { db: s.db, links: s.links, options: { history: true } });
    const withBeats = kuma.filter((m) => m.beats.total > 0);
    expect(items.map((i) => Number(i.sourceId)).sort((a, b) => a - b)).toEqual(withBeats.map((m) => m.id));
    const shop = items.find((i) => i.sourceId === "4")!;
    expect(shop).toMatchObject({ kind: "history", name: "Shop homepage", action: "update" });
    expect(shop.notes[0]!.text).toContain("17 heartbeats: 10 up, 7 down or pending");
    expect(await createHistorySection().plan(s.source, { db: s.db, links: s.links, options: { history: false } })).toEqual([]);
    expect((await createHistorySection().plan(s.source, { db: s.db, links: memoryLinks(), options: { history: true } }))[0]!.action).toBe("create");
  });

  test("recent heartbeats become check results; Vigil's history API shows Kuma's uptime; a re-import adds nothing", async () => {
    const now = LAST + HOUR;
    const s = await setup(now);
    // The rollup timer has run (its watermark is past the heartbeats' hour): those hours are rolled up again.
    await s.services.monitors.history.rollUp(now);
    await runImport(s.db, s.source, s.links, now);
    const total = kuma.reduce((n, m) => n + m.beats.total, 0);
    expect(await count(s.db, sql`SELECT count(*) AS n FROM check_results`)).toBe(total);
    for (const m of kuma.filter((x) => x.beats.total > 0)) {
      const id = s.vigilId.get(m.id)!;
      const up = m.beats.UP ?? 0;
      expect(await count(s.db, sql`SELECT count(*) AS n FROM check_results WHERE monitor_id = ${id}`)).toBe(m.beats.total);
      expect(await count(s.db, sql`SELECT count(*) AS n FROM check_results WHERE monitor_id = ${id} AND up`)).toBe(up);
      const h = await s.history(m.id);
      expect({ total: h.day.total, up: h.day.up, availability: h.day.availability }).toEqual({ total: m.beats.total, up, availability: share(up, m.beats.total) });
      expect({ total: h.month.total, up: h.month.up, availability: h.month.availability }).toEqual({ total: m.beats.total, up, availability: share(up, m.beats.total) });
    }
    // A failed check keeps Kuma's message; an up one has none.
    const shop = s.vigilId.get(4)!;
    expect(await count(s.db, sql`SELECT count(*) AS n FROM check_results WHERE monitor_id = ${shop} AND NOT up AND error IS NOT NULL`)).toBe(7);
    expect(await count(s.db, sql`SELECT count(*) AS n FROM check_results WHERE monitor_id = ${shop} AND up AND error IS NOT NULL`)).toBe(0);

    const hourly = await s.db.rows(sql`SELECT * FROM monitor_hourly ORDER BY monitor_id, bucket_start`);
    const daily = await s.db.rows(sql`SELECT * FROM monitor_daily ORDER BY monitor_id, bucket_start`);
    await runImport(s.db, s.source, s.links, now);
    expect(await count(s.db, sql`SELECT count(*) AS n FROM check_results`)).toBe(total);
    expect(await s.db.rows(sql`SELECT * FROM monitor_hourly ORDER BY monitor_id, bucket_start`)).toEqual(hourly);
    expect(await s.db.rows(sql`SELECT * FROM monitor_daily ORDER BY monitor_id, bucket_start`)).toEqual(daily);
  });

  test("heartbeats older than the raw retention go into rollups only, with the numbers Vigil's own rollup gives", async () => {
    // Imported 20 days later with 7 days of raw retention: nothing raw, the 30-day figures from rollups.
    const later = LAST + 20 * DAY;
    const s = await setup(later);
    await runImport(s.db, s.source, s.links, later);
    expect(await count(s.db, sql`SELECT count(*) AS n FROM check_results`)).toBe(0);
    await s.services.monitors.history.rollUp(later);
    for (const m of kuma.filter((x) => x.beats.total > 0)) {
      const up = m.beats.UP ?? 0;
      const h = await s.history(m.id);
      expect(h.day.total).toBe(0);
      expect({ total: h.month.total, up: h.month.up, availability: h.month.availability }).toEqual({ total: m.beats.total, up, availability: share(up, m.beats.total) });
    }
    const rollups = async (db: Db) => ({
      hourly: await db.rows(sql`SELECT m.name, h.bucket_start, h.checks, h.up, h.down, h.maintenance, h.rt_sum, h.rt_count, h.rt_min, h.rt_max FROM monitor_hourly h JOIN monitors m ON m.id = h.monitor_id ORDER BY m.name, h.bucket_start`),
      daily: await db.rows(sql`SELECT m.name, d.bucket_start, d.checks, d.up, d.down, d.rt_sum, d.rt_count FROM monitor_daily d JOIN monitors m ON m.id = d.monitor_id ORDER BY m.name, d.bucket_start`),
    });
    const direct = await rollups(s.db);
    expect(direct.hourly.length).toBeGreaterThan(0);
    expect(direct.daily.length).toBe(direct.hourly.length); // the heartbeats span one hour of one day

    // The same heartbeats kept raw (a long retention) and rolled up by Vigil's timer: the same buckets.
    const r = await setup(later);
    await runImport(r.db, r.source, r.links, later, 30 * DAY);
    expect(await count(r.db, sql`SELECT count(*) AS n FROM check_results`)).toBe(kuma.reduce((n, m) => n + m.beats.total, 0));
    await r.services.monitors.history.rollUp(later);
    expect(await rollups(r.db)).toEqual(direct);

    // Again: nothing more.
    await runImport(s.db, s.source, s.links, later);
    expect(await rollups(s.db)).toEqual(direct);
    expect(await count(s.db, sql`SELECT count(*) AS n FROM check_results`)).toBe(0);
  });

  test("maintenance heartbeats stay out of uptime; Kuma's stat_hourly and stat_daily fill the time before the first heartbeat", async () => {
    const now = LAST + HOUR;
    const s = await setup(now);
    const t0 = Date.UTC(2026, 10, 27, 9, 0, 0);
    const tables: Record<string, Record<string, unknown>[]> = {
      monitor: [{ id: 4, name: "Shop homepage" }],
      heartbeat: [
        { monitor_id: 4, status: 1, time: "2026-11-27 09:10:00.000", ping: 20, msg: "200 - OK" },
        { monitor_id: 4, status: 3, time: "2026-11-27 09:11:00.000", ping: null, msg: "Maintenance" },
        { monitor_id: 4, status: 0, time: "2026-11-27 09:12:00.000", ping: null, msg: "timeout" },
      ],
      // Two hours before (kept), and the heartbeats' own hour (left to the heartbeats).
      stat_hourly: [
        { monitor_id: 4, timestamp: (t0 - 2 * HOUR) / 1000, up: 3, down: 1, ping: 10, ping_min: 5, ping_max: 15 },
        { monitor_id: 4, timestamp: t0 / 1000, up: 60, down: 0, ping: 1, ping_min: 1, ping_max: 1 },
      ],
      // Three days before (kept) and the hourly rows' day (left to them).
      stat_daily: [
        { monitor_id: 4, timestamp: (t0 - 9 * HOUR - 3 * DAY) / 1000, up: 90, down: 10, ping: 8, ping_min: 2, ping_max: 30 },
        { monitor_id: 4, timestamp: (t0 - 9 * HOUR) / 1000, up: 1000, down: 0, ping: 8, ping_min: 2, ping_max: 30 },
      ],
    };
    const source: KumaSource = { schema: "2.x", label: "test", file: "test.db", rows: (table) => tables[table] ?? [], has: (table) => table in tables };
    await runImport(s.db, source, s.links, now);
    const shop = s.vigilId.get(4)!;
    expect(await s.db.rows(sql`SELECT up, maintenance, error FROM check_results WHERE monitor_id = ${shop} ORDER BY time`)).toEqual(
      s.db.engine === "postgres"
        ? [{ up: true, maintenance: false, error: null }, { up: true, maintenance: true, error: null }, { up: false, maintenance: false, error: "timeout" }]
        : [{ up: 1, maintenance: 0, error: null }, { up: 1, maintenance: 1, error: null }, { up: 0, maintenance: 0, error: "timeout" }],
    );
    expect(await s.db.rows(sql`SELECT bucket_start, checks, up, down, rt_sum, rt_count, rt_min, rt_max FROM monitor_hourly WHERE monitor_id = ${shop}`)).toEqual([
      { bucket_start: t0 - 2 * HOUR, checks: 4, up: 3, down: 1, rt_sum: 30, rt_count: 3, rt_min: 5, rt_max: 15 },
    ]);
    expect(await s.db.rows(sql`SELECT bucket_start, checks, up, down FROM monitor_daily WHERE monitor_id = ${shop} ORDER BY bucket_start`)).toEqual([
      { bucket_start: t0 - 9 * HOUR - 3 * DAY, checks: 100, up: 90, down: 10 },
      { bucket_start: t0 - 9 * HOUR, checks: 4, up: 3, down: 1 },
    ]);
    await s.services.monitors.history.rollUp(now);
    const h = await s.history(4);
    // 24 h: the heartbeats (maintenance apart) and the stat hour; the hour of the heartbeats from them alone.
    expect({ total: h.day.total, up: h.day.up, maintenance: h.day.maintenance }).toEqual({ total: 2, up: 1, maintenance: 1 });
    expect({ total: h.month.total, up: h.month.up }).toEqual({ total: 6, up: 4 });
  });

  test("a monitor that did not come across brings no history", async () => {
    const s = await setup(LAST + HOUR);
    const links = memoryLinks();
    links.link("monitor", 4, s.vigilId.get(4)!);
    const items = await createHistorySection().plan(s.source, { db: s.db, links, options: { history: true } });
    await s.db.tx((tx) => createHistorySection().apply(s.source, items, { db: s.db, tx, links, now: LAST + HOUR, options: { history: true } }));
    expect(await count(s.db, sql`SELECT count(*) AS n FROM check_results`)).toBe(17);
  });
});
