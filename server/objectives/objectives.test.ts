// Objectives and error budgets on both engines: the budget read from the rollups and raw checks, burn rates over the
// SRE workbook's windows, alerts through the monitor's channels once per episode (and not when turned off), a group's
// budget over its members, the objective's validation — and the timer on the real clock of the wired services.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { createServices } from "../app";
import { testDb } from "../db/test-db";
import { startFake, type Fake } from "../notifications/providers/test-fake";
import { webhookForEverything } from "../notifications/test-channel";
import { testApp } from "../test-support";
import { notificationHarness } from "../notifications/test-harness";
import { budgetOf, thresholdsFor } from "./budget";

let hook: Fake;
beforeEach(() => {
  hook = startFake(() => new Response("ok"));
});
const harness = notificationHarness(() => `${hook.url}/hook`);
afterEach(() => hook.stop());

const MIN = 60_000;
const messages = () => hook.received.map((r) => r.json as { title: string; lines: string[]; events: { kind: string; facts: Record<string, unknown> }[] });

async function setup() {
  const t = await harness();
  const monitor = async (name: string, body: Record<string, unknown> = {}) => {
    const res = await t.call<any>("POST", "/api/monitors", { token: t.token, body: { name, url: "http://127.0.0.1:9/", interval: 60, ...body } });
    expect(res.status).toBe(201);
    return res.body.monitor.id as number;
  };
  /** Checks every minute over [from, to) (Unix ms), failing at the given minutes before `to`. */
  const checks = async (id: number, from: number, to: number, failingMinutesAgo: number[] = []) => {
    // By whole minutes before `to`: `from` and `to` are read from the clock one after the other, a millisecond apart at times.
    const failing = new Set(failingMinutesAgo);
    const rows = [];
    for (let time = from; time < to; time += MIN) rows.push({ monitorId: id, time, up: !failing.has(Math.round((to - time) / MIN)), responseTime: 50 });
    for (let i = 0; i < rows.length; i += 1000) await t.db.orm.insert(t.db.t.checkResults).values(rows.slice(i, i + 1000));
  };
  const budget = async (id: number) => (await t.call<any>("GET", `/api/monitors/${id}/budget`, { token: t.token })).body.budget;
  return { ...t, monitor, checks, budget };
}

describe("error budgets", () => {
  test("thresholds scale with the window: 2 % of the budget in an hour, 5 % in six", () => {
    expect(thresholdsFor(30)).toEqual({ fast: 14.4, slow: 6 });
    expect(thresholdsFor(7)).toEqual({ fast: 3.36, slow: 1.4 });
    const quiet = { "5m": { checks: 5, down: 0 }, "30m": { checks: 30, down: 0 }, "1h": { checks: 60, down: 0 }, "6h": { checks: 360, down: 0 } };
    expect(budgetOf(99.9, 30, 0, { checks: 0, down: 0 }, quiet)).toMatchObject({ remaining: 100, availability: null, state: "ok", budgetMs: 2_592_000 });
    // 6 h at 6.11× with the last half hour at 6.67×: a slow burn; the last hour at 15× and its last 5 minutes at 20×: a fast one.
    const slow = { ...quiet, "30m": { checks: 30, down: 2 }, "6h": { checks: 360, down: 22 } };
    expect(budgetOf(99, 30, 0, { checks: 10_000, down: 22 }, slow)).toMatchObject({ state: "burning-slow", burnRates: { "6h": 6.11, "30m": 6.67 } });
    expect(budgetOf(99, 30, 0, { checks: 10_000, down: 5 }, { ...slow, "30m": { checks: 30, down: 1 } }).state).toBe("ok");
    expect(budgetOf(99, 30, 0, { checks: 10_000, down: 22 }, { ...slow, "5m": { checks: 5, down: 1 }, "1h": { checks: 60, down: 9 } }).state).toBe("burning-fast");
    expect(budgetOf(99, 30, 0, { checks: 1000, down: 10 }, quiet)).toMatchObject({ remaining: 0, state: "exhausted" });
  });

  test("a monitor's budget from the rollups and the hour not rolled up; burning fast alerts once, then spent alerts once", async () => {
    const s = await setup();
    const id = await s.monitor("Shop");
    expect(await s.budget(id)).toBeNull();
    expect((await s.call("PUT", `/api/monitors/${id}`, { token: s.token, body: { objective: 99, objectiveDays: 30 } })).status).toBe(200);
    const now = s.now();
    // Three days at one check a minute (4 320 checks, half a minute off the minute so the windows' ends never fall on
    // one), rolled up; 9 of them failed in the last hour, the latest half a minute ago.
    await s.checks(id, now - 3 * 1440 * MIN + 30_000, now + 30_000, [1, 3, 6, 10, 15, 20, 30, 40, 50]);
    await s.services.monitors.history.rollUp(now);
    const b = await s.budget(id);
    expect(b).toMatchObject({ objective: 99, objectiveDays: 30, checks: 4320, down: 9, availability: 99.791, allowedFailures: 43.2, remaining: 79.17, state: "burning-fast" });
    // Failures per window over (checks × 1 %): 2 of 5, 7 of 30, 9 of 60, 9 of 360.
    expect(b.burnRates).toEqual({ "5m": 40, "30m": 23.33, "1h": 15, "6h": 2.5 });

    await s.services.objectives.tick(s.now());
    await s.settle();
    await s.services.objectives.tick(s.now());
    await s.settle();
    expect(messages().map((m) => m.events[0]!.kind)).toEqual(["budget"]);
    expect(messages()[0]!.title).toBe("🟠 Error budget burning fast: Shop");
    expect(messages()[0]!.lines).toContain("Burn rate: 15× over the last 1 h (alert at 14.4×)");
    expect(messages()[0]!.lines).toContain("Budget left: 79.2%");

    // 40 more failures spend it: one more message, the budget negative.
    await s.checks(id, s.now() - 40 * MIN, s.now(), Array.from({ length: 40 }, (_, i) => i + 1));
    // Some of them fall in hours already rolled up: rolled up again from the start.
    await s.db.exec(sql`DELETE FROM settings WHERE key LIKE 'monitors.rollup.%'`);
    await s.services.monitors.history.rollUp(s.now());
    await s.services.objectives.tick(s.now());
    await s.settle(60_000);
    await s.settle(60_000);
    expect(messages().map((m) => m.title)).toEqual(["🟠 Error budget burning fast: Shop", "🔴 Error budget spent: Shop"]);
    expect((await s.budget(id)).state).toBe("exhausted");
  });

  test("turned off in the notification settings: nothing sent; a paused monitor is not looked at", async () => {
    const s = await setup();
    const id = await s.monitor("Shop", { objective: 99.5, objectiveDays: 7 });
    const settings = await s.call<any>("GET", `/api/notifications/settings`, { token: s.token });
    expect(settings.body.settings.monitor.events).toEqual({ down: true, recovery: true, budget: true });
    const monitor = { ...settings.body.settings.monitor, events: { down: true, recovery: true, budget: false } };
    expect((await s.call("PUT", "/api/notifications/settings", { token: s.token, body: { ...settings.body.settings, monitor } })).status).toBe(200);
    await s.checks(id, s.now() - 120 * MIN, s.now(), [1, 2, 3]);
    expect((await s.budget(id)).state).toBe("exhausted");
    await s.services.objectives.tick(s.now());
    await s.settle();
    expect(messages()).toEqual([]);
  });

  test("a group's budget counts its members' checks; bad objectives are refused", async () => {
    const s = await setup();
    const group = (await s.call<any>("POST", "/api/monitors", { token: s.token, body: { name: "Web", type: "group", objective: 99.9 } })).body.monitor;
    expect(group).toMatchObject({ objective: 99.9, objectiveDays: 30 });
    const a = await s.monitor("A", { parentId: group.id });
    const b = await s.monitor("B", { parentId: group.id });
    await s.checks(a, s.now() - 500 * MIN, s.now());
    await s.checks(b, s.now() - 500 * MIN, s.now(), [300]);
    expect(await s.budget(group.id)).toMatchObject({ checks: 1000, down: 1, allowedFailures: 1, remaining: 0, state: "exhausted" });
    for (const [body, message] of [
      [{ objective: 49.9 }, "objective must be null or a percentage from 50 to 99.999"],
      [{ objective: 100 }, "objective must be null or a percentage from 50 to 99.999"],
      [{ objective: "high" }, "objective must be null or a percentage from 50 to 99.999"],
      [{ objectiveDays: 0 }, "objectiveDays must be a whole number of days from 1 to 90"],
      [{ objectiveDays: 91 }, "objectiveDays must be a whole number of days from 1 to 90"],
    ] as const) {
      const res = await s.call<any>("PUT", `/api/monitors/${a}`, { token: s.token, body });
      expect(res.status).toBe(400);
      expect(res.body.message).toStartWith(message);
    }
    expect((await s.call<any>("PUT", `/api/monitors/${group.id}`, { token: s.token, body: { objective: null } })).body.monitor.objective).toBeNull();
    expect(await s.budget(group.id)).toBeNull();
    expect((await s.call("GET", "/api/monitors/99999/budget", { token: s.token })).status).toBe(404);
    expect((await s.call("GET", `/api/monitors/${a}/budget`)).status).toBe(401);
  });
});

describe("error budgets on the real clock", () => {
  test("the wired services' timer finds a burning budget and the alert reaches the channel, once", async () => {
    const db = await testDb();
    const services = await createServices(db, { minuteMs: 200, notifications: { send: { timeoutMs: 1_000 } } });
    const t = await testApp({ db, services });
    try {
      const { token } = await t.signUp("alice");
      await webhookForEverything(t.call, token, `${hook.url}/hook`);
      const created = await t.call<any>("POST", "/api/monitors", { token, body: { name: "Shop", url: "http://127.0.0.1:9/", interval: 60, active: true, objective: 99 } });
      const id = created.body.monitor.id as number;
      const now = Date.now();
      const rows = Array.from({ length: 120 }, (_, i) => ({ monitorId: id, time: now - (i + 0.5) * MIN, up: i >= 10, responseTime: 20 }));
      await db.orm.insert(db.t.checkResults).values(rows);
      services.notifications.start();
      services.objectives.start();
      const deadline = Date.now() + 15_000;
      while (messages().length === 0 && Date.now() < deadline) await Bun.sleep(100);
      await Bun.sleep(1_000); // a few more ticks: still one message
      expect(messages().map((m) => [m.events[0]!.kind, m.events[0]!.facts.budgetState])).toEqual([["budget", "exhausted"]]);
    } finally {
      await services.objectives.stop();
      await services.notifications.stop();
      await db.close();
    }
  }, 30_000);
});
