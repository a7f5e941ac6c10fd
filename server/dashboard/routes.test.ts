import { afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { testHost as host, testSample as sample } from "../agents/test-fixtures";
import { testApp } from "../test-support";
import type { Dashboard } from "./public";

describe("GET /api/dashboard", () => {
  test("needs a session", async () => {
    const { call } = await testApp();
    const res = await call("GET", "/api/dashboard");
    expect([res.status, res.body.success, res.body.code]).toEqual([401, false, "UNAUTHORIZED"]);
  });

  test("counts monitors (active ones by status) and agents by status", async () => {
    const t = await testApp();
    const { token } = await t.signUp("alice");
    const empty = await t.call<Dashboard>("GET", "/api/dashboard", { token });
    expect(empty.body).toEqual({
      success: true,
      totalMonitors: 0,
      activeMonitors: 0,
      pausedMonitors: 0,
      up: 0,
      down: 0,
      pending: 0,
      maintenance: 0,
      agents: { total: 0, online: 0, offline: 0, connecting: 0, maintenance: 0 },
      problems: { monitors: [], agents: [] },
    });

    // A paused monitor (the scheduler is not started: nothing is checked).
    const created = await t.call<{ monitor: { id: number } }>("POST", "/api/monitors", { token, body: { name: "API", url: "http://127.0.0.1:9/" } });
    expect(created.status).toBe(201);
    await t.call("PUT", `/api/monitors/${created.body.monitor.id}`, { token, body: { active: false } });

    // Two agents: one reports (online), one has not yet (connecting).
    const credentials: string[] = [];
    for (const name of ["web-1", "db-1"]) {
      const regToken = (await t.call<{ token: string }>("POST", "/api/agents/tokens", { token })).body.token;
      const reg = await t.call<{ credential: string }>("POST", "/api/agents/register", { body: { token: regToken, name, host } });
      expect(reg.status).toBe(201);
      credentials.push(reg.body.credential);
    }
    const sent = await t.call("POST", "/api/agents/report", { token: credentials[0], body: { host, interval: 10, samples: [sample(Date.now())] } });
    expect(sent.status).toBe(200);

    const dash = await t.call<Dashboard>("GET", "/api/dashboard", { token });
    expect(dash.body).toMatchObject({
      success: true,
      totalMonitors: 1,
      activeMonitors: 0,
      pausedMonitors: 1,
      agents: { total: 2, online: 1, offline: 0, connecting: 1, maintenance: 0 },
    });
  });

  afterEach(() => setSystemTime());

  test("lists down monitors (with their error and since when) and offline agents (with their last report)", async () => {
    const t = await testApp();
    const { token } = await t.signUp("alice");
    const make = async (name: string, url: string, active = true) =>
      (await t.call<{ monitor: { id: number } }>("POST", "/api/monitors", { token, body: { name, url, retries: 0, active } })).body.monitor.id;
    const refused = "http://127.0.0.1:9/";
    const down = await make("Billing API", refused);
    const paused = await make("Old API", refused, false);
    expect((await t.call("POST", `/api/monitors/${down}/check`, { token })).status).toBe(200);
    expect((await t.call("POST", `/api/monitors/${paused}/check`, { token })).status).toBe(200); // a paused monitor is not a problem

    const regToken = (await t.call<{ token: string }>("POST", "/api/agents/tokens", { token })).body.token;
    const reg = await t.call<{ credential: string; agentId: number }>("POST", "/api/agents/register", { body: { token: regToken, name: "web-1", host } });
    await t.call("POST", "/api/agents/report", { token: reg.body.credential, body: { host, interval: 10, samples: [sample(Date.now())] } });
    const lastSeen = t.services.agents.get(reg.body.agentId)!.lastSeenAt!;
    let dash = await t.call<Dashboard>("GET", "/api/dashboard", { token });
    expect(dash.body.problems.agents).toEqual([]);

    // Ten minutes of silence: offline.
    setSystemTime(new Date(Date.now() + 10 * 60_000));
    t.services.agents.checkPresence();
    dash = await t.call<Dashboard>("GET", "/api/dashboard", { token });
    expect(dash.body.down).toBe(1);
    expect(dash.body.problems.monitors).toHaveLength(1);
    expect(dash.body.problems.monitors[0]).toMatchObject({ id: down, name: "Billing API", error: expect.stringMatching(/refused|connect/i) });
    expect(dash.body.problems.monitors[0]!.since).toBeNumber();
    expect(dash.body.problems.agents).toEqual([{ id: reg.body.agentId, name: "web-1", lastSeenAt: lastSeen }]);
  });
});
