import { describe, expect, test } from "bun:test";
import { testHost as host, testSample as sample } from "../agents/test-fixtures";
import { testApp } from "../test-support";
import type { Dashboard } from "./public";

describe("GET /api/dashboard", () => {
  test("needs a session", async () => {
    const { call } = testApp();
    const res = await call("GET", "/api/dashboard");
    expect([res.status, res.body.success, res.body.code]).toEqual([401, false, "UNAUTHORIZED"]);
  });

  test("counts monitors (active ones by status) and agents by status", async () => {
    const t = testApp();
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
      agents: { total: 0, online: 0, offline: 0, connecting: 0 },
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
      agents: { total: 2, online: 1, offline: 0, connecting: 1 },
    });
  });
});
