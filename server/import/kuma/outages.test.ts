// Kuma's outages in Vigil's reports: heartbeats imported into the past that the rollup timer's outage walk has passed
// (or will never see: older ones are kept as rollups only) are walked by the import itself; later ones, kept raw, by
// the timer. Both engines.
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createServices } from "../../app";
import { testDb } from "../../db/test-db";
import { DAY, HOUR } from "../../monitors/history";
import type { Report } from "../../reports/public";
import { fakeClock, testApp } from "../../test-support";
import { createHistorySection } from "./history";
import type { KumaSource } from "./section";
import { memoryLinks } from "./test-source";

const MINUTE = 60_000;
const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Kuma's heartbeat time text (UTC). */
const kumaText = (t: number) => new Date(t).toISOString().replace("T", " ").replace("Z", "");
const beat = (time: number, status: 0 | 1, msg = "") => ({ monitor_id: 4, status, time: kumaText(time), ping: status ? 20 : null, msg });

async function setup() {
  const db = await testDb();
  cleanups.push(() => db.close());
  const clock = fakeClock(NOW);
  const services = await createServices(db, { monitors: { clock }, now: clock.now });
  const t = await testApp({ db, services });
  const { token } = await t.signUp("alice");
  const res = await t.call<{ monitor: { id: number } }>("POST", "/api/monitors", { token, body: { name: "Shop", url: "http://127.0.0.1:9/", active: false } });
  const id = res.body.monitor.id;
  const links = memoryLinks();
  links.link("monitor", 4, id);
  const runImport = async (heartbeat: Record<string, unknown>[]) => {
    const tables: Record<string, Record<string, unknown>[]> = { monitor: [{ id: 4, name: "Shop" }], heartbeat };
    const source: KumaSource = { schema: "2.x", label: "test", file: "test.db", rows: (table) => tables[table] ?? [], has: (table) => table in tables };
    const section = createHistorySection();
    const options = { history: true };
    const items = await section.plan(source, { db, links, options });
    await db.tx((tx) => section.apply(source, items, { db, tx, links, now: NOW, options }));
  };
  const outages = async () =>
    (await db.orm.select().from(db.t.monitorOutages).where(eq(db.t.monitorOutages.monitorId, id)))
      .map(({ startedAt, endedAt, failures, cause }) => ({ startedAt, endedAt, failures, cause }))
      .sort((a, b) => a.startedAt - b.startedAt);
  return { db, t, token, id, services, runImport, outages };
}

describe("Kuma heartbeats' outages", () => {
  test("into an instance whose timer has walked past them: recorded by the import, listed by reports, once", async () => {
    const s = await setup();
    // The timer rolled up and walked outages until 11:00.
    const walked = NOW - HOUR;
    await s.db.orm.insert(s.db.t.settings).values([
      { key: "monitors.rollup.hourly", value: String(walked) },
      { key: "monitors.rollup.daily", value: String(walked - 11 * HOUR) },
      { key: "reports.outages", value: String(walked) },
    ]);
    const old = NOW - 10 * DAY; // past the raw retention: rollups only
    const nine = NOW - 3 * HOUR;
    await s.runImport([
      beat(old, 1),
      beat(old + MINUTE, 0, "timeout"),
      beat(old + 2 * MINUTE, 0, "timeout"),
      beat(old + 3 * MINUTE, 1),
      beat(nine, 1),
      beat(nine + MINUTE, 0, "Connection refused"),
      beat(nine + 5 * MINUTE, 1),
      // Kuma's last heartbeat failed, and nothing after it says when that ended: the outage ends at it.
      beat(NOW - 90 * MINUTE, 0, "500 - Internal Server Error"),
    ]);
    const expected = [
      { startedAt: old + MINUTE, endedAt: old + 3 * MINUTE, failures: 2, cause: "timeout" },
      { startedAt: nine + MINUTE, endedAt: nine + 5 * MINUTE, failures: 1, cause: "Connection refused" },
      { startedAt: NOW - 90 * MINUTE, endedAt: NOW - 90 * MINUTE, failures: 1, cause: "500 - Internal Server Error" },
    ];
    expect(await s.outages()).toEqual(expected);

    const day = (t: number) => new Date(t).toISOString().slice(0, 10);
    const res = await s.t.call<{ report: Report }>("GET", `/api/reports/monitor/${s.id}?period=${day(old)}..${day(NOW)}&zone=UTC`, { token: s.token });
    expect(res.status).toBe(200);
    expect(res.body.report.monitors[0]!.outageList.map(({ start, end, cause }) => ({ start, end, cause }))).toEqual(
      expected.map((o) => ({ start: o.startedAt, end: o.endedAt, cause: o.cause })),
    );

    // Importing again adds nothing; the timer's next pass does not walk them again.
    await s.runImport([beat(old + MINUTE, 0, "timeout"), beat(old + 3 * MINUTE, 1)]);
    await s.services.monitors.history.rollUp(NOW + 2 * HOUR);
    expect(await s.outages()).toEqual(expected);
  });

  test("into a new instance: older heartbeats walked by the import, the raw ones by the timer, one outage across both", async () => {
    const s = await setup();
    // Raw from the first whole hour inside the 7 days kept; an outage starts just before it and ends inside.
    const rawFrom = Math.floor((NOW - 7 * DAY) / HOUR) * HOUR + HOUR;
    await s.runImport([
      beat(rawFrom - 3 * MINUTE, 1),
      beat(rawFrom - 2 * MINUTE, 0, "timeout"),
      beat(rawFrom + MINUTE, 0, "timeout again"),
      beat(rawFrom + 5 * MINUTE, 1),
      beat(NOW - 2 * HOUR, 0, "Connection refused"),
      beat(NOW - 2 * HOUR + MINUTE, 1),
    ]);
    // The import leaves the run open at the edge of what it walks: the timer continues it from the raw checks.
    expect(await s.outages()).toEqual([{ startedAt: rawFrom - 2 * MINUTE, endedAt: null, failures: 1, cause: "timeout" }]);
    await s.services.monitors.history.rollUp(NOW);
    expect(await s.outages()).toEqual([
      { startedAt: rawFrom - 2 * MINUTE, endedAt: rawFrom + 5 * MINUTE, failures: 2, cause: "timeout" },
      { startedAt: NOW - 2 * HOUR, endedAt: NOW - 2 * HOUR + MINUTE, failures: 1, cause: "Connection refused" },
    ]);
  });
});
