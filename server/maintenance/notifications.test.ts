import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startFake, type Fake } from "../notifications/providers/test-fake";
import { notificationHarness } from "../notifications/test-harness";
import { eq, sql } from "drizzle-orm";
import { createServices } from "../app";

// Maintenance and notifications end to end: real checks against a local target, the rules, the outbox and a local
// webhook. Inside a window nothing is sent; when it ends, what was last sent is compared with how the target is.

let hook: Fake;
let target: Server;
let targetStatus = 200;
let targetUrl = "";
const harness = notificationHarness(() => `${hook.url}/hook`);

beforeEach(async () => {
  hook = startFake(() => new Response("ok"));
  targetStatus = 200;
  target = createServer((_req, res) => void res.writeHead(targetStatus).end("x"));
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
});
afterEach(async () => {
  hook.stop();
  target.closeAllConnections();
  await new Promise((r) => target.close(r));
});

const titles = () => hook.received.map((r) => (r.json as { title: string }).title);

async function setup() {
  const t = await harness();
  const { token, settle } = t;
  const monitor = (await t.call<{ monitor: { id: number } }>("POST", "/api/monitors", { token, body: { name: "Shop", url: targetUrl, retries: 0 } })).body.monitor.id;
  const check = async (status: number) => {
    targetStatus = status;
    await t.call("POST", `/api/monitors/${monitor}/check`, { token });
    await settle();
  };
  const startWindow = async () => (await t.call<{ window: { id: number } }>("POST", "/api/maintenance/start", { token, body: { monitorIds: [monitor] } })).body.window.id;
  const endWindow = async (id: number) => {
    expect((await t.call("POST", `/api/maintenance/${id}/end`, { token })).status).toBe(200);
    await settle();
  };
  return { ...t, monitor, check, startWindow, endWindow };
}

describe("notifications and maintenance", () => {
  test("a monitor going down inside a window sends nothing; outside it, once", async () => {
    const t = await setup();
    await t.check(200);
    const w = await t.startWindow();
    await t.check(500);
    await t.check(200);
    await t.check(500);
    expect(titles()).toEqual([]);
    // The checks were recorded, marked.
    const checks = (await t.call<{ checks: { status: string; maintenance: boolean }[] }>("GET", `/api/monitors/${t.monitor}/checks`, { token: t.token })).body.checks;
    expect(checks.map((c) => [c.status, c.maintenance])).toEqual([["up", false], ["down", true], ["up", true], ["down", true]]);
    await t.check(200);
    await t.endWindow(w); // it ends as it began (up): nothing to say
    expect(titles()).toEqual([]);
    await t.check(500);
    expect(titles()).toEqual(["🔴 Monitor down: Shop"]);
  });

  test("a window that ends with the target down notifies a fresh down, and the recovery follows", async () => {
    const t = await setup();
    await t.check(200);
    const w = await t.startWindow();
    await t.check(500);
    expect(titles()).toEqual([]);
    await t.endWindow(w);
    expect(titles()).toEqual(["🔴 Monitor down: Shop"]);
    await t.check(200);
    expect(titles()).toEqual(["🔴 Monitor down: Shop", "🟢 Monitor recovered: Shop"]);
  });

  test("down before the window: recovered inside it → the recovery when it ends; still down → nothing more", async () => {
    const t = await setup();
    await t.check(500);
    expect(titles()).toEqual(["🔴 Monitor down: Shop"]);
    const first = await t.startWindow();
    await t.check(200);
    expect(titles()).toHaveLength(1);
    await t.endWindow(first);
    expect(titles()).toEqual(["🔴 Monitor down: Shop", "🟢 Monitor recovered: Shop"]);

    await t.check(500);
    const second = await t.startWindow();
    await t.check(200);
    await t.check(500);
    await t.endWindow(second);
    expect(titles()).toEqual(["🔴 Monitor down: Shop", "🟢 Monitor recovered: Shop", "🔴 Monitor down: Shop"]);
  });

  /** The server stops (everything written) and the window ends meanwhile; `restart()` starts it again. */
  async function stoppedWhileWindowEnds(t: Awaited<ReturnType<typeof setup>>, w: number, status: "up" | "down") {
    await t.services.notifications.stop();
    await t.services.monitors.stop();
    // (Windows follow the system clock; the harness's moves only the rules and the outbox.)
    const ended = Date.now();
    await t.db.orm.update(t.db.t.maintenanceWindows).set({ cutAt: ended, endsAt: ended }).where(eq(t.db.t.maintenanceWindows.id, w));
    return async () => {
      const services = await createServices(t.db, { now: t.now, notifications: { send: { timeoutMs: 1_000 } } });
      expect(services.monitors.get(t.monitor)).toMatchObject({ status, maintenance: false });
      await services.maintenance.start();
      await services.notifications.idle();
      t.advanceClock(1_000);
      await services.notifications.outbox.tick();
      services.maintenance.stop();
      await services.notifications.stop();
    };
  }

  test("down before the window, recovered in it, which ends while the server is stopped: the recovery at start-up", async () => {
    const t = await setup();
    await t.check(500);
    const w = await t.startWindow();
    await t.check(200);
    expect(titles()).toEqual(["🔴 Monitor down: Shop"]);
    await (await stoppedWhileWindowEnds(t, w, "up"))();
    expect(titles()).toEqual(["🔴 Monitor down: Shop", "🟢 Monitor recovered: Shop"]);
  });

  test("a window that ended while the server was stopped: at start-up the monitor leaves maintenance and a fresh down is sent, once", async () => {
    const t = await setup();
    await t.check(200);
    const w = await t.startWindow();
    await t.check(500);
    expect(titles()).toEqual([]);
    const restart = await stoppedWhileWindowEnds(t, w, "down");
    await restart();
    expect(titles()).toEqual(["🔴 Monitor down: Shop"]);
    // Started again: that alert is known, nothing more.
    await restart();
    expect(titles()).toEqual(["🔴 Monitor down: Shop"]);
  });

  test("uptime leaves maintenance out and says how many checks it left out", async () => {
    const t = await setup();
    await t.check(200);
    const w = await t.startWindow();
    await t.check(500);
    await t.check(500);
    await t.endWindow(w);
    const monitor = (await t.call<{ monitor: { uptime24h: number; maintenance: boolean } }>("GET", `/api/monitors/${t.monitor}`, { token: t.token })).body.monitor;
    expect(monitor).toMatchObject({ uptime24h: 100, maintenance: false });
    const history = (await t.call<{ history: { day: { total: number; up: number; maintenance: number; availability: number } } }>("GET", `/api/monitors/${t.monitor}/history`, { token: t.token })).body.history;
    expect(history.day).toMatchObject({ total: 1, up: 1, maintenance: 2, availability: 100 });
    // Rolled up, the same.
    await t.services.monitors.history.rollUp(Date.now() + 3 * 3_600_000);
    const hourly = await t.db.rows<{ checks: number; up: number; maintenance: number }>(
      sql`SELECT checks, up, maintenance FROM monitor_hourly WHERE monitor_id = ${t.monitor}`,
    );
    // (Summed: the checks may straddle an hour.)
    const sum = (k: "checks" | "up" | "maintenance") => hourly.reduce((n, r) => n + Number(r[k]), 0);
    expect([sum("checks"), sum("up"), sum("maintenance")]).toEqual([1, 1, 2]);
  });

  test("an agent offline in a window: nothing; still offline when it ends: one offline message, then back online", async () => {
    const t = await setup();
    const host = { hostname: "db-1", ips: ["10.0.0.5"], os: "Linux", kernel: "6", arch: "x64", uptime: 1, agentVersion: "0.1.0" };
    const sample = () => ({ time: t.now(), cpu: { usage: 5, cores: 2, model: "x" }, memory: { total: 8, used: 1, free: 7, usageRate: 12.5 }, disks: [], network: [], load: { one: 0, five: 0, fifteen: 0 } });
    const regToken = (await t.call<{ token: string }>("POST", "/api/agents/tokens", { token: t.token })).body.token;
    const reg = (await t.call<{ agentId: number; credential: string }>("POST", "/api/agents/register", { body: { token: regToken, host } })).body;
    const report = () => t.call("POST", "/api/agents/report", { headers: { authorization: `Bearer ${reg.credential}` }, body: { host, interval: 10, samples: [sample()] } });
    expect((await report()).status).toBe(200);
    const w = (await t.call<{ window: { id: number } }>("POST", "/api/maintenance/start", { token: t.token, body: { agentIds: [reg.agentId] } })).body.window.id;
    await t.settle(31_000);
    await t.services.agents.checkPresence(); // silent for 31 s: offline, in maintenance
    await t.settle();
    expect(t.services.agents.get(reg.agentId)?.status).toBe("offline");
    expect(titles()).toEqual([]);
    await t.endWindow(w);
    expect(titles()).toEqual(["🔴 Agent offline: db-1"]);
    await report();
    await t.settle();
    expect(titles()).toEqual(["🔴 Agent offline: db-1", "🟢 Agent back online: db-1"]);
  });
});
