// Reports on both engines against a month computed by hand: Europe/Berlin's October 2026 (745 hours: the clocks go
// back on the 25th), checks every 10 minutes, five outages — one from the month before, one across midnight, one with
// a maintenance window inside it, one across the daylight-saving change, one into the next month. The numbers must be
// the same read from raw checks, from the rollups, and from the rollups alone once raw checks are pruned.
import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { PASSWORD, testApp } from "../test-support";
import { binOf, binValue } from "./histogram";
import type { Report } from "./public";

const MIN = 60_000;
const Z = (iso: string) => Date.parse(iso);
const FROM = Z("2026-09-30T22:00:00Z"); // 1 October, 00:00 in Berlin (UTC+2)
const TO = Z("2026-10-31T23:00:00Z"); // 1 November, 00:00 in Berlin (UTC+1)

/** Failed checks (UTC, every 10 minutes) of each outage; each ends with the next check, which passes. */
const OUTAGES = {
  monthBefore: ["2026-09-30T21:40:00Z", "2026-09-30T21:50:00Z", "2026-09-30T22:00:00Z", "2026-09-30T22:10:00Z"],
  midnight: ["2026-10-10T21:50:00Z", "2026-10-10T22:00:00Z", "2026-10-10T22:10:00Z", "2026-10-10T22:20:00Z"],
  maintenance: Array.from({ length: 12 }, (_, i) => new Date(Z("2026-10-20T08:00:00Z") + i * 10 * MIN).toISOString()),
  dst: ["2026-10-25T00:30:00Z", "2026-10-25T00:40:00Z", "2026-10-25T00:50:00Z", "2026-10-25T01:00:00Z", "2026-10-25T01:10:00Z"],
  monthAfter: ["2026-10-31T22:50:00Z", "2026-10-31T23:00:00Z"],
};
/** 10:30-11:00 in Berlin on the 20th: three of the outage's failed checks are made in it. */
const WINDOW = { startsAt: Z("2026-10-20T08:30:00Z"), endsAt: Z("2026-10-20T09:00:00Z") };
/** Slow checks: 60 passing checks at 1 000 ms (the 5th, 08:00-18:00 UTC); every other passing check takes 100 ms. */
const SLOW = { from: Z("2026-10-05T08:00:00Z"), to: Z("2026-10-05T18:00:00Z") };

async function setup() {
  const t = await testApp();
  const admin = await t.signUp("alice");
  const created = await t.call<any>("POST", "/api/monitors", { token: admin.token, body: { name: "Shop", url: "http://127.0.0.1:9/", interval: 60, active: false, tags: ["team:web"] } });
  const id = created.body.monitor.id as number;
  await t.db.exec(sql`UPDATE monitors SET created_at = ${Z("2026-09-01T00:00:00Z")} WHERE id = ${id}`);
  await t.services.monitors.resync();
  const w = await t.call<any>("POST", "/api/maintenance", {
    token: admin.token,
    body: { title: "Disk swap", scope: "targets", monitorIds: [id], schedule: { kind: "once", ...WINDOW, timezone: "Europe/Berlin" } },
  });
  expect(w.status).toBe(201);
  const failed = new Set(Object.values(OUTAGES).flat().map(Z));
  const rows = [];
  for (let time = Z("2026-09-30T20:00:00Z"); time < Z("2026-11-01T02:00:00Z"); time += 10 * MIN) {
    const up = !failed.has(time);
    const maintenance = time >= WINDOW.startsAt && time < WINDOW.endsAt;
    rows.push({ monitorId: id, time, up, maintenance, error: up ? null : "Connection refused", responseTime: up ? (time >= SLOW.from && time < SLOW.to ? 1000 : 100) : null });
  }
  for (let i = 0; i < rows.length; i += 500) await t.db.orm.insert(t.db.t.checkResults).values(rows.slice(i, i + 500));
  const report = async (path: string) => {
    const res = await t.call<{ report: Report }>("GET", path, { token: admin.token });
    expect(res.status).toBe(200);
    return res.body.report;
  };
  return { ...t, admin, id, report };
}

const EXPECTED = {
  // 745 hours × 6 checks; 3 made in maintenance; 2 + 4 + 9 + 5 + 1 counted failures inside the month.
  checks: 4467,
  up: 4446,
  down: 21,
  maintenanceChecks: 3,
  availability: 99.529, // 4446 / 4467 = 99.52988… %, rounded down
  downtimeMs: (20 + 40 + 90 + 50 + 10) * MIN,
  outages: 5,
  mttrMs: 42 * MIN,
  mtbfMs: ((745 * 60 - 30 - 210) / 5) * MIN,
  longestOutageMs: 90 * MIN,
  avgResponseTime: 112, // (4386 × 100 + 60 × 1000) / 4446
  p50: binValue(binOf(100)), // 101: the middle of the 10 % bin holding 100
  p95: binValue(binOf(100)),
  p99: 1000, // the 1 000 ms bin, kept within the slowest check
};

const OUTAGE_LIST = [
  { start: Z(OUTAGES.monthBefore[0]!), end: Z("2026-09-30T22:20:00Z"), downtimeMs: 20 * MIN, maintenanceMs: 0, failures: 4 },
  { start: Z(OUTAGES.midnight[0]!), end: Z("2026-10-10T22:30:00Z"), downtimeMs: 40 * MIN, maintenanceMs: 0, failures: 4 },
  { start: Z(OUTAGES.maintenance[0]!), end: Z("2026-10-20T10:00:00Z"), downtimeMs: 90 * MIN, maintenanceMs: 30 * MIN, failures: 9 },
  { start: Z(OUTAGES.dst[0]!), end: Z("2026-10-25T01:20:00Z"), downtimeMs: 50 * MIN, maintenanceMs: 0, failures: 5 },
  { start: Z(OUTAGES.monthAfter[0]!), end: Z("2026-10-31T23:10:00Z"), downtimeMs: 10 * MIN, maintenanceMs: 0, failures: 2 },
];

function expectMonth(r: Report) {
  expect(r.period).toEqual({ kind: "month", label: "2026-10", zone: "Europe/Berlin", from: FROM, to: TO });
  const [m] = r.monitors;
  expect(m).toMatchObject({ name: "Shop", ...EXPECTED });
  expect(m!.outageList.map(({ start, end, downtimeMs, maintenanceMs, failures }) => ({ start, end, downtimeMs, maintenanceMs, failures }))).toEqual(OUTAGE_LIST);
  expect(m!.outageList[0]!.cause).toBe("Connection refused");
  expect(m!.maintenance).toEqual([{ windowId: expect.any(Number), title: "Disk swap", start: WINDOW.startsAt, end: WINDOW.endsAt }]);
  expect(r.summary).toMatchObject(EXPECTED);
}

describe("reports", () => {
  test("a Berlin month from raw checks, from the rollups, and from the rollups alone after raw checks are pruned: the same hand-computed numbers", async () => {
    const s = await setup();
    const path = `/api/reports/monitor/${s.id}?period=2026-10&zone=Europe/Berlin`;
    const raw = await s.report(path);
    expect(raw.granularity).toBe("checks");
    expectMonth(raw);

    await s.services.monitors.history.rollUp(Z("2026-11-02T00:00:00Z"));
    const rolled = await s.report(path);
    expect(rolled.granularity).toBe("hour");
    expectMonth(rolled);

    await s.services.monitors.history.prune(Z("2026-11-20T00:00:00Z"));
    const [left] = await s.db.rows<{ n: number }>(sql`SELECT count(*) AS n FROM check_results`);
    expect(Number(left!.n)).toBe(0);
    const pruned = await s.report(path);
    expect(pruned.granularity).toBe("hour");
    expect(pruned.roundedToHour).toBe(false);
    expectMonth(pruned);

    // India is 5:30 ahead: a month there starts and ends inside UTC hours, which are counted whole once raw is gone.
    const kolkata = await s.report(`/api/reports/monitor/${s.id}?period=2026-10&zone=Asia/Kolkata`);
    expect(kolkata.roundedToHour).toBe(true);
  });

  test("a tag, a group and a status page cover their monitors; CSV of the monitors and of the outages", async () => {
    const s = await setup();
    const group = await s.call<any>("POST", "/api/monitors", { token: s.admin.token, body: { name: "Web", type: "group" } });
    expect(group.status).toBe(201);
    await s.call("PUT", `/api/monitors/${s.id}`, { token: s.admin.token, body: { parentId: group.body.monitor.id } });
    for (const path of [`/api/reports/tag/team?period=2026-10&zone=Europe/Berlin`, `/api/reports/group/${group.body.monitor.id}?period=2026-10&zone=Europe/Berlin`]) {
      const r = await s.report(path);
      expect(r.monitors.map((m) => m.name)).toEqual(["Shop"]);
      expect(r.summary).toMatchObject(EXPECTED);
    }
    expect((await s.call("PUT", "/api/status/config", { token: s.admin.token, body: { title: "Acme status", description: "", monitorIds: [s.id], agentIds: [], announcement: null } })).status).toBe(200);
    const page = await s.report(`/api/reports/status-page/default?period=2026-10&zone=Europe/Berlin`);
    expect(page.target).toEqual({ kind: "status-page", ref: "default", name: "Acme status" });
    expect(page.monitors.map((m) => m.id)).toEqual([s.id]);

    const res = await s.app.handle(new Request(`http://localhost/api/reports/monitor/${s.id}?period=2026-10&zone=Europe/Berlin&format=csv`, { headers: { authorization: `Bearer ${s.admin.token}` } }));
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = (await res.text()).trim().split("\r\n").map((l) => l.split(","));
    expect(lines[0]!.slice(0, 4)).toEqual(["monitor_id", "monitor", "type", "availability_percent"]);
    expect(lines[1]!.slice(1, 11)).toEqual(["Shop", "http", "99.529", "4467", "4446", "21", "3", "12600", "5", "2520"]);
    const outages = await s.app.handle(new Request(`http://localhost/api/reports/monitor/${s.id}?period=2026-10&zone=Europe/Berlin&format=csv&part=outages`, { headers: { authorization: `Bearer ${s.admin.token}` } }));
    const rows = (await outages.text()).trim().split("\r\n").map((l) => l.split(","));
    expect(rows.length).toBe(6);
    expect(rows[3]).toEqual([String(s.id), "Shop", "2026-10-20T08:00:00.000Z", "2026-10-20T10:00:00.000Z", "5400", "1800", "9", "Connection refused"]);
  });

  test("quarters, years and ranges in the zone; bad input is refused; viewers may read, nobody signed out", async () => {
    const s = await setup();
    const q = await s.report(`/api/reports/monitor/${s.id}?period=2026-q4&zone=UTC`);
    expect(q.period).toMatchObject({ kind: "quarter", label: "2026-Q4", from: Z("2026-10-01T00:00:00Z"), to: Z("2027-01-01T00:00:00Z") });
    const range = await s.report(`/api/reports/monitor/${s.id}?period=2026-10-10..2026-10-11&zone=Europe/Berlin`);
    expect(range.period).toMatchObject({ from: Z("2026-10-09T22:00:00Z"), to: Z("2026-10-11T22:00:00Z") });
    expect(range.monitors[0]!.outageList.map((o) => o.downtimeMs)).toEqual([40 * MIN]);
    const year = await s.report(`/api/reports/monitor/${s.id}?period=2026&zone=Europe/Berlin`);
    expect(year.monitors[0]!.outages).toBe(5);
    for (const [path, status] of [
      [`/api/reports/monitor/${s.id}?period=2026-13&zone=UTC`, 400],
      [`/api/reports/monitor/${s.id}?period=2026-10&zone=Mars/Base`, 400],
      [`/api/reports/monitor/${s.id}?period=2026-10-11..2026-10-10`, 400],
      [`/api/reports/monitor/${s.id}?period=2025-01-01..2026-12-31`, 400],
      [`/api/reports/monitor/${s.id}?period=2026-10&format=pdf`, 400],
      [`/api/reports/planet/1?period=2026-10`, 400],
      [`/api/reports/monitor/${s.id}`, 400],
      [`/api/reports/monitor/99999?period=2026-10`, 404],
      [`/api/reports/group/${s.id}?period=2026-10`, 404],
      [`/api/reports/tag/nobody?period=2026-10`, 404],
      [`/api/reports/status-page/nope?period=2026-10`, 404],
    ] as const) {
      const res = await s.call<any>("GET", path, { token: s.admin.token });
      expect([path, res.status, res.body.success]).toEqual([path, status, false]);
      expect(typeof res.body.message).toBe("string");
    }
    expect((await s.call("GET", `/api/reports/monitor/${s.id}?period=2026-10`)).status).toBe(401);
    const vera = await s.signUp("vera");
    expect((await s.call("PUT", `/api/users/${vera.user.id}`, { token: s.admin.token, body: { username: "vera", role: "viewer" } })).status).toBe(200);
    const login = await s.call<{ token: string }>("POST", "/api/auth/login", { body: { username: "vera", password: PASSWORD } });
    expect((await s.call("GET", `/api/reports/monitor/${s.id}?period=2026-10`, { token: login.body.token })).status).toBe(200);
  });
});
