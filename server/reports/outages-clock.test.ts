// Outages are recorded by the history pass on the real clock, in the fully wired server (createServices + createApp,
// started through lifecycle.ts as main.ts does): a server stopped for two days finds a day of raw checks with two
// outages in it; its first pass (a few seconds after start) rolls the hours up, writes the outages to monitor_outages
// and prunes the raw checks past --raw-retention-days. The report of that day then lists both outages, with their
// start, end and cause, from what is left: the rollups and the recorded outages. Both engines.
import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createServices } from "../app";
import { testDb } from "../db/test-db";
import { startServices, stopServices } from "../lifecycle";
import { DAY, HOUR } from "../monitors/history";
import { testApp } from "../test-support";
import type { Report } from "./public";

const MINUTE = 60_000;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
}, 30_000);

async function until(what: string, ok: () => Promise<boolean>, ms: number) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(200);
  }
}

const floorTo = (t: number, unit: number) => Math.floor(t / unit) * unit;
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

test("the first history pass records the outages of hours closed while stopped; the report lists them after the raw checks are pruned", async () => {
  const db = await testDb();
  const services = await createServices(db, { monitors: { rawRetentionDays: 1 } });
  const s = await testApp({ db, services });
  let started = false;
  cleanups.push(async () => {
    if (started) await stopServices(services, async () => {});
    await db.close();
  });
  const { token } = await s.signUp("admin");
  const created = await s.call<any>("POST", "/api/monitors", { token, body: { name: "Shop", url: "http://127.0.0.1:9/", interval: 60, active: false } });
  expect(created.status).toBe(201);
  const id = created.body.monitor.id as number;
  const { checkResults, monitorOutages, settings } = db.t;

  // Stopped at midnight (UTC) two days ago, everything before rolled up; that day's checks every minute from 01:00 to
  // 07:00: down 01:50-03:10 (refused; across two hour boundaries), down 05:00-05:05 (timeout).
  const day = floorTo(Date.now(), DAY) - 2 * DAY;
  await db.orm.insert(settings).values([
    { key: "monitors.rollup.hourly", value: String(day) },
    { key: "monitors.rollup.daily", value: String(day) },
    { key: "reports.outages", value: String(day) },
  ]);
  const at = (h: number, m: number) => day + h * HOUR + m * MINUTE;
  const rows = [];
  for (let t = at(1, 0); t < at(7, 0); t += MINUTE) {
    const refused = t >= at(1, 50) && t < at(3, 10);
    const timeout = t >= at(5, 0) && t < at(5, 5);
    const up = !refused && !timeout;
    rows.push({ monitorId: id, time: t, up, responseTime: up ? 100 : null, error: refused ? "Connection refused" : timeout ? "Timed out after 10 s" : null });
  }
  for (let i = 0; i < rows.length; i += 100) await db.orm.insert(checkResults).values(rows.slice(i, i + 100));
  const raw = async () => (await db.orm.select({ time: checkResults.time }).from(checkResults).where(eq(checkResults.monitorId, id))).length;

  started = true;
  await startServices(services, { url: "http://127.0.0.1:1" });
  await until("the first history pass to prune the day's raw checks", async () => (await raw()) === 0, 25_000);

  // Written by the pass, not computed by the report on the fly: the raw checks they came from are gone.
  const recorded = await db.orm.select().from(monitorOutages).where(eq(monitorOutages.monitorId, id));
  expect(recorded.map(({ startedAt, endedAt, failures, cause }) => ({ startedAt, endedAt, failures, cause })).sort((a, b) => a.startedAt - b.startedAt)).toEqual([
    { startedAt: at(1, 50), endedAt: at(3, 10), failures: 80, cause: "Connection refused" },
    { startedAt: at(5, 0), endedAt: at(5, 5), failures: 5, cause: "Timed out after 10 s" },
  ]);

  // What a user sees: that day's report, from the daily rollup and the recorded outages.
  const res = await s.call<{ report: Report }>("GET", `/api/reports/monitor/${id}?period=${isoDay(day)}..${isoDay(day)}&zone=UTC`, { token });
  expect(res.status).toBe(200);
  const { report } = res.body;
  expect(report.granularity).toBe("hour");
  const [shop] = report.monitors;
  expect(shop!.outageList.map(({ start, end, downtimeMs, cause }) => ({ start, end, downtimeMs, cause }))).toEqual([
    { start: at(1, 50), end: at(3, 10), downtimeMs: 80 * MINUTE, cause: "Connection refused" },
    { start: at(5, 0), end: at(5, 5), downtimeMs: 5 * MINUTE, cause: "Timed out after 10 s" },
  ]);
  expect(shop).toMatchObject({ checks: 360, down: 85, outages: 2, longestOutageMs: 80 * MINUTE, mttrMs: 42.5 * MINUTE });
}, 90_000);
