import { afterEach, describe, expect, test } from "bun:test";
import { createServices, type Services } from "../app";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import { fakeClock, testApp } from "../test-support";
import type { MaintenanceChangeEvent, PublicMaintenance } from "./public";

// /api/maintenance: windows, their validation, "start now" and "end" from an API token, and the in-memory answer
// that checks and lists read, moved by a fake clock through a window's boundaries.

const opened: { services: Services; db: Db }[] = [];
afterEach(async () => {
  for (const { services, db } of opened.splice(0)) {
    services.maintenance.stop();
    await services.notifications.stop().catch(() => {});
    await db.close().catch(() => {});
  }
});

const MIN = 60_000;
// Monday 2026-01-05 10:00 UTC.
const START = Date.UTC(2026, 0, 5, 10, 0, 0);

async function setup() {
  const db = await testDb();
  const clock = fakeClock(START);
  const services = await createServices(db, { monitors: { clock }, now: clock.now });
  opened.push({ services, db });
  const t = await testApp({ db, services });
  const { token } = await t.signUp("alice");
  const monitor = async (name: string) =>
    (await t.call<{ monitor: { id: number } }>("POST", "/api/monitors", { token, body: { name, url: "http://127.0.0.1:9/", active: false } })).body.monitor.id;
  const changes: MaintenanceChangeEvent[] = [];
  services.events.on("maintenance.change", (e) => changes.push(e));
  services.maintenance.start();
  return { ...t, token, clock, monitor, changes };
}

type WindowReply = { window: PublicMaintenance };

describe("maintenance windows", () => {
  test("a weekly window: created, listed with its next occurrence, active between its boundaries", async () => {
    const t = await setup();
    const shop = await t.monitor("Shop");
    const blog = await t.monitor("Blog");
    // Mondays 11:00 UTC for 30 minutes: an hour after the clock's start.
    const res = await t.call<WindowReply>("POST", "/api/maintenance", {
      token: t.token,
      body: { title: "Database upgrade", scope: "targets", monitorIds: [shop], schedule: { kind: "weekly", weekdays: [1], time: "11:00", durationMinutes: 30, timezone: "UTC" } },
    });
    expect(res.status).toBe(201);
    const w = res.body.window;
    expect(w).toMatchObject({ title: "Database upgrade", scope: "targets", monitorIds: [shop], agentIds: [], state: "upcoming", current: null });
    expect(w.next).toEqual({ start: START + 60 * MIN, end: START + 90 * MIN });
    expect(w.schedule).toMatchObject({ kind: "weekly", weekdays: [1], time: "11:00", durationMinutes: 30, timezone: "UTC", startsAt: null, cron: null });

    const list = await t.call<{ windows: PublicMaintenance[] }>("GET", "/api/maintenance", { token: t.token });
    expect(list.body.windows.map((x) => x.id)).toEqual([w.id]);
    expect((await t.call<{ windows: PublicMaintenance[] }>("GET", `/api/maintenance?monitorId=${blog}`, { token: t.token })).body.windows).toEqual([]);
    expect((await t.call<{ windows: PublicMaintenance[] }>("GET", `/api/maintenance?monitorId=${shop}`, { token: t.token })).body.windows).toHaveLength(1);

    const status = async (id: number) => (await t.call<{ monitor: { maintenance: boolean } }>("GET", `/api/monitors/${id}`, { token: t.token })).body.monitor.maintenance;
    expect(await status(shop)).toBe(false);
    await t.clock.advance(60 * MIN);
    expect(await status(shop)).toBe(true);
    expect(await status(blog)).toBe(false);
    expect(t.changes.at(-1)).toEqual({ at: START + 60 * MIN, monitors: { entered: [shop], left: [] }, agents: { entered: [], left: [] } });
    const active = (await t.call<WindowReply>("GET", `/api/maintenance/${w.id}`, { token: t.token })).body.window;
    expect(active).toMatchObject({ state: "active", current: { start: START + 60 * MIN, end: START + 90 * MIN } });
    expect(active.next).toEqual({ start: START + 7 * 24 * 60 * MIN + 60 * MIN, end: START + 7 * 24 * 60 * MIN + 90 * MIN });

    await t.clock.advance(30 * MIN);
    expect(await status(shop)).toBe(false);
    expect(t.changes.at(-1)).toMatchObject({ monitors: { entered: [], left: [shop] } });
    // And again a week later: a recurring window does not fire once only.
    await t.clock.advance(7 * 24 * 60 * MIN - 30 * MIN);
    expect(await status(shop)).toBe(true);
  });

  test("an instance-wide window covers every monitor and agent, and the dashboard counts them apart", async () => {
    const t = await setup();
    const a = await t.monitor("A");
    const b = await t.monitor("B");
    await t.call("PUT", `/api/monitors/${a}`, { token: t.token, body: { active: true } });
    const res = await t.call<WindowReply>("POST", "/api/maintenance/start", { token: t.token, body: { all: true, minutes: 30 } });
    expect(res.status).toBe(201);
    expect(res.body.window).toMatchObject({ title: "Maintenance", scope: "all", state: "active", schedule: { kind: "once", startsAt: START, endsAt: START + 30 * MIN } });
    expect(t.changes.at(-1)!.monitors.entered.sort()).toEqual([a, b].sort());
    const dash = await t.call<{ maintenance: number; up: number; pending: number }>("GET", "/api/dashboard", { token: t.token });
    expect(dash.body).toMatchObject({ maintenance: 1, pending: 0 });
    const metrics = await t.app.handle(new Request("http://localhost/metrics", { headers: { authorization: `Bearer ${t.token}` } }));
    expect(await metrics.text()).toContain('vigil_maintenance_targets{type="monitor"} 2');
    await t.clock.advance(30 * MIN);
    expect(t.changes.at(-1)!.monitors.left.sort()).toEqual([a, b].sort());
    expect((await t.call<WindowReply>("GET", `/api/maintenance/${res.body.window.id}`, { token: t.token })).body.window.state).toBe("ended");
  });

  test("a deploy pipeline opens and closes a window with an API token", async () => {
    const t = await setup();
    const shop = await t.monitor("Shop");
    const created = await t.call<{ secret: string }>("POST", "/api/tokens", { token: t.token, body: { name: "deploy", scope: "write" } });
    expect(created.status).toBe(201);
    const api = created.body.secret;
    const open = await t.call<WindowReply>("POST", "/api/maintenance/start", { token: api, body: { title: "Deploy 1.4.2", monitorIds: [shop] } });
    expect(open.status).toBe(201);
    expect(open.body.window).toMatchObject({ title: "Deploy 1.4.2", state: "active", schedule: { kind: "manual", startsAt: START, endsAt: null }, current: { start: START, end: null } });
    expect(t.services.maintenance.monitor(shop)).toBe(true);
    await t.clock.advance(5 * MIN);
    const close = await t.call<WindowReply>("POST", `/api/maintenance/${open.body.window.id}/end`, { token: api });
    expect(close.status).toBe(200);
    expect(close.body.window).toMatchObject({ state: "ended", cutAt: START + 5 * MIN, schedule: { endsAt: START + 5 * MIN } });
    expect(t.services.maintenance.monitor(shop)).toBe(false);
    // Ending again: nothing is in progress.
    const again = await t.call("POST", `/api/maintenance/${open.body.window.id}/end`, { token: api });
    expect([again.status, again.body.code]).toEqual([409, "MAINTENANCE_NOT_ACTIVE"]);
    // A read-only token cannot open one.
    const ro = (await t.call<{ secret: string }>("POST", "/api/tokens", { token: t.token, body: { name: "ro", scope: "read" } })).body.secret;
    const refused = await t.call("POST", "/api/maintenance/start", { token: ro, body: { monitorIds: [shop], minutes: 10 } });
    expect([refused.status, refused.body.code]).toEqual([403, "TOKEN_SCOPE"]);
  });

  test("ending a recurring occurrence early leaves the next ones; an edit forgets the early end", async () => {
    const t = await setup();
    const shop = await t.monitor("Shop");
    const body = { title: "Nightly", scope: "targets", monitorIds: [shop], schedule: { kind: "daily", time: "10:00", durationMinutes: 120, timezone: "UTC" } };
    const w = (await t.call<WindowReply>("POST", "/api/maintenance", { token: t.token, body })).body.window;
    expect(w.state).toBe("active");
    await t.clock.advance(10 * MIN);
    const ended = (await t.call<WindowReply>("POST", `/api/maintenance/${w.id}/end`, { token: t.token })).body.window;
    expect(ended).toMatchObject({ state: "upcoming", current: null, next: { start: START + 24 * 60 * MIN } });
    expect(t.services.maintenance.monitor(shop)).toBe(false);
    const edited = await t.call<WindowReply>("PUT", `/api/maintenance/${w.id}`, { token: t.token, body: { ...body, title: "Nightly backup" } });
    expect(edited.body.window).toMatchObject({ title: "Nightly backup", cutAt: null, state: "active" });
    expect(t.services.maintenance.monitor(shop)).toBe(true);
    expect((await t.call("DELETE", `/api/maintenance/${w.id}`, { token: t.token })).status).toBe(200);
    expect(t.services.maintenance.monitor(shop)).toBe(false);
    expect((await t.call("GET", `/api/maintenance/${w.id}`, { token: t.token })).status).toBe(404);
  });

  test("a deleted monitor leaves its windows", async () => {
    const t = await setup();
    const shop = await t.monitor("Shop");
    const blog = await t.monitor("Blog");
    const w = (await t.call<WindowReply>("POST", "/api/maintenance/start", { token: t.token, body: { monitorIds: [shop, blog] } })).body.window;
    await t.call("DELETE", `/api/monitors/${shop}`, { token: t.token });
    expect((await t.call<WindowReply>("GET", `/api/maintenance/${w.id}`, { token: t.token })).body.window.monitorIds).toEqual([blog]);
    expect(t.services.maintenance.monitor(shop)).toBe(false);
    expect((await t.services.maintenance.store.get(w.id))!.monitorIds).toEqual([blog]);
  });

  test("the preview gives the next five occurrences in the window's zone", async () => {
    const t = await setup();
    const res = await t.call<{ preview: { occurrences: { start: number; end: number }[]; timezone: string } }>("POST", "/api/maintenance/preview", {
      token: t.token,
      body: { schedule: { kind: "daily", time: "02:00", durationMinutes: 60, timezone: "Asia/Shanghai" } },
    });
    expect(res.status).toBe(200);
    expect(res.body.preview.timezone).toBe("Asia/Shanghai");
    // 02:00 in Shanghai is 18:00 UTC the day before.
    expect(res.body.preview.occurrences.map((o) => new Date(o.start).toISOString())).toEqual([
      "2026-01-05T18:00:00.000Z",
      "2026-01-06T18:00:00.000Z",
      "2026-01-07T18:00:00.000Z",
      "2026-01-08T18:00:00.000Z",
      "2026-01-09T18:00:00.000Z",
    ]);
  });

  test("bad input is refused with a clear message", async () => {
    const t = await setup();
    const shop = await t.monitor("Shop");
    const post = (body: unknown) => t.call("POST", "/api/maintenance", { token: t.token, body });
    const base = { title: "W", scope: "targets", monitorIds: [shop], schedule: { kind: "daily", time: "02:00", durationMinutes: 60, timezone: "UTC" } };
    const cases: [unknown, string][] = [
      [{ ...base, title: "  " }, "MAINTENANCE_TITLE_INVALID"],
      [{ ...base, monitorIds: [] }, "MAINTENANCE_NO_TARGETS"],
      [{ ...base, monitorIds: [999] }, "MONITOR_NOT_FOUND"],
      [{ ...base, agentIds: [999] }, "AGENT_NOT_FOUND"],
      [{ ...base, schedule: { ...base.schedule, timezone: "Mars/Base" } }, "MAINTENANCE_SCHEDULE_INVALID"],
      [{ ...base, schedule: { ...base.schedule, time: "25:00" } }, "MAINTENANCE_SCHEDULE_INVALID"],
      [{ ...base, schedule: { ...base.schedule, durationMinutes: 0 } }, "MAINTENANCE_SCHEDULE_INVALID"],
      [{ ...base, schedule: { kind: "cron", cron: "not a cron", durationMinutes: 60 } }, "MAINTENANCE_SCHEDULE_INVALID"],
      [{ ...base, schedule: { kind: "weekly", weekdays: [], time: "02:00", durationMinutes: 60 } }, "MAINTENANCE_SCHEDULE_INVALID"],
      [{ ...base, schedule: { kind: "once", startsAt: START + MIN, endsAt: START } }, "MAINTENANCE_SCHEDULE_INVALID"],
      [{ ...base, schedule: { kind: "yearly" } }, "VALIDATION"],
      [{ ...base, scope: "some" }, "VALIDATION"],
      [{ ...base, schedule: undefined }, "VALIDATION"],
    ];
    for (const [body, code] of cases) {
      const res = await post(body);
      expect([res.status, res.body.code, typeof res.body.message]).toEqual([400, code, "string"]);
    }
    const cron = await post({ ...base, schedule: { kind: "cron", cron: "not a cron", durationMinutes: 60 } });
    expect(cron.body.message).toContain("cron");
    const start = await t.call("POST", "/api/maintenance/start", { token: t.token, body: { monitorIds: [shop], minutes: 0 } });
    expect(start.status).toBe(400);
    const none = await t.call("POST", "/api/maintenance/start", { token: t.token, body: { minutes: 10 } });
    expect([none.status, none.body.code]).toEqual([400, "MAINTENANCE_NO_TARGETS"]);
    expect((await t.call("PUT", "/api/maintenance/999", { token: t.token, body: base })).status).toBe(404);
    expect((await t.call("POST", "/api/maintenance/999/end", { token: t.token })).status).toBe(404);
    expect((await t.call("DELETE", "/api/maintenance/abc", { token: t.token })).status).toBe(400);
    expect((await t.call("GET", "/api/maintenance")).status).toBe(401);
    expect((await t.call("POST", "/api/maintenance/start", { body: { all: true } })).status).toBe(401);
  });
});

describe("maintenance on the public status page", () => {
  test("windows of items on the page, in progress or within a week, naming only items on the page", async () => {
    const t = await setup();
    const shown = await t.monitor("Shop");
    const hidden = await t.monitor("Internal billing");
    await t.call("PUT", `/api/monitors/${shown}`, { token: t.token, body: { active: true } });
    await t.call("PUT", "/api/status/config", { token: t.token, body: { title: "Acme", description: "", monitorIds: [shown], agentIds: [], announcement: null } });
    const post = (body: Record<string, unknown>) => t.call<WindowReply>("POST", "/api/maintenance", { token: t.token, body }).then((r) => r.body.window);
    const onPage = await post({ title: "Shop upgrade", description: "Checkout may be slow.", scope: "targets", monitorIds: [shown, hidden], schedule: { kind: "once", startsAt: START + 60 * MIN, endsAt: START + 120 * MIN } });
    await post({ title: "Secret billing work", scope: "targets", monitorIds: [hidden], schedule: { kind: "once", startsAt: START, endsAt: START + 60 * MIN } });
    await post({ title: "Far away", scope: "all", schedule: { kind: "once", startsAt: START + 30 * 24 * 60 * MIN, endsAt: START + 31 * 24 * 60 * MIN } });
    const everything = await post({ title: "Network", scope: "all", schedule: { kind: "manual" } });

    const page = async () => (await t.call<{ page: { maintenance: unknown[]; monitors: { id: number; status: string }[] } }>("GET", "/api/status")).body.page;
    const first = await page();
    expect(first.maintenance).toEqual([
      { id: everything.id, title: "Network", description: "", state: "active", start: START, end: null, affects: ["Shop"] },
      { id: onPage.id, title: "Shop upgrade", description: "Checkout may be slow.", state: "upcoming", start: START + 60 * MIN, end: START + 120 * MIN, affects: ["Shop"] },
    ]);
    expect(first.monitors[0].status).toBe("maintenance");
    const text = JSON.stringify(first);
    expect(text).not.toContain("Internal billing");
    expect(text).not.toContain("Secret billing work");
    expect(text).not.toContain("Far away");
  });
});
