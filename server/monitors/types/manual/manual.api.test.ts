// The manual type through the API: created with no target, never checked on a clock, set up and down by an operator
// or a script (recorded as checks, with the note as its error), refused for other types, paused monitors and viewers;
// and the types catalogue and the settings object's rules every later type shares.
import { describe, expect, test } from "bun:test";
import { testApp } from "../../../test-support";
import type { CheckResult, PublicMonitor, RecentCheck } from "../../public";
import type { MonitorTypeInfo } from "../../type-catalog";

async function signedIn() {
  const t = await testApp();
  const { token } = await t.signUp("alice");
  const create = (body: Record<string, unknown>) => t.call<{ monitor: PublicMonitor; message: string }>("POST", "/api/monitors", { token, body });
  const manual = (id: number, body: Record<string, unknown>, as = token) => t.call<{ result: CheckResult; message: string }>("POST", `/api/monitors/${id}/manual`, { token: as, body });
  const get = async (id: number) => (await t.call<{ monitor: PublicMonitor }>("GET", `/api/monitors/${id}`, { token })).body.monitor;
  return { ...t, token, create, manual, get };
}

describe("manual monitors", () => {
  test("created with nothing to configure; set down with a note, then up: recorded and shown like checks", async () => {
    const t = await signedIn();
    const created = await t.create({ name: "Office door", type: "manual" });
    expect(created.status).toBe(201);
    const m = created.body.monitor;
    expect(m).toMatchObject({ type: "manual", target: "", status: "pending", settings: {} });

    const down = await t.manual(m.id, { status: "down", message: "closed for the holidays" });
    expect(down.status).toBe(200);
    expect(down.body.result).toMatchObject({ status: "down", error: "set down manually: closed for the holidays" });
    expect(await t.get(m.id)).toMatchObject({ status: "down", lastError: "set down manually: closed for the holidays" });

    const up = await t.manual(m.id, { status: "up" });
    expect(up.body.result).toMatchObject({ status: "up", error: null });
    expect((await t.get(m.id)).status).toBe("up");

    const quiet = await t.manual(m.id, { status: "down" });
    expect(quiet.body.result.error).toBe("set down manually");
    const checks = (await t.call<{ checks: RecentCheck[] }>("GET", `/api/monitors/${m.id}/checks`, { token: t.token })).body.checks;
    expect(checks.map((c) => c.status)).toEqual(["down", "up", "down"]);
  });

  test("never checked on a clock, and 'check now' says why", async () => {
    const t = await signedIn();
    const m = (await t.create({ name: "Batch job", type: "manual", intervalSeconds: 1 })).body.monitor;
    t.services.monitors.start();
    try {
      await Bun.sleep(1_500);
      expect((await t.get(m.id)).lastCheckedAt).toBeNull();
      const now = await t.call<{ message: string }>("POST", `/api/monitors/${m.id}/check`, { token: t.token });
      expect(now.status).toBe(409);
      expect(now.body.message).toContain("manual");
    } finally {
      await t.services.monitors.stop();
    }
  });

  test("bad input: another type 409, paused 409, unknown 404, a wrong status 400, a viewer 403", async () => {
    const t = await signedIn();
    const http = (await t.create({ name: "Site", url: "https://example.com" })).body.monitor;
    expect((await t.manual(http.id, { status: "down" })).status).toBe(409);
    const paused = (await t.create({ name: "Paused", type: "manual", active: false })).body.monitor;
    expect((await t.manual(paused.id, { status: "up" })).status).toBe(409);
    expect((await t.manual(999_999, { status: "up" })).status).toBe(404);
    const bad = await t.manual(paused.id, { status: "sideways" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("status must be up or down");
    expect((await t.manual(paused.id, { status: "down", message: "x".repeat(201) })).status).toBe(400);

    const admin = await t.signUp("root-of-trust");
    void admin;
    const vera = await t.signUp("vera");
    // The first user is the admin (alice): make vera a viewer.
    expect((await t.call("PUT", `/api/users/${vera.user.id}`, { token: t.token, body: { username: "vera", role: "viewer" } })).status).toBe(200);
    const m = (await t.create({ name: "Door", type: "manual" })).body.monitor;
    expect((await t.manual(m.id, { status: "down" }, vera.token)).status).toBe(403);
  });

  test("a later type's settings: unknown fields are refused; the first five types keep settings empty", async () => {
    const t = await signedIn();
    const bad = await t.create({ name: "Door", type: "manual", settings: { colour: "red" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, message: "Unknown setting for a manual monitor: colour" });
    const notObject = await t.create({ name: "Door", type: "manual", settings: "open" });
    expect(notObject.status).toBe(400);
    const http = await t.create({ name: "Site", url: "https://example.com", settings: { anything: 1 } });
    expect(http.status).toBe(201);
    expect(http.body.monitor.settings).toEqual({});
  });
});

describe("GET /api/monitors/types", () => {
  test("every type: later types with their settings schema, which run on agents, which are checked on a clock", async () => {
    const t = await signedIn();
    const res = await t.call<{ types: MonitorTypeInfo[] }>("GET", "/api/monitors/types", { token: t.token });
    expect(res.status).toBe(200);
    const byType = Object.fromEntries(res.body.types.map((x) => [x.type, x]));
    expect(byType.http).toMatchObject({ settings: null, runsOnAgents: true, scheduled: true, unavailable: null });
    expect(byType.push).toMatchObject({ runsOnAgents: false, scheduled: true });
    expect(byType.group).toMatchObject({ runsOnAgents: false, scheduled: false });
    expect(byType.manual).toMatchObject({ runsOnAgents: false, scheduled: false, settings: { type: "object", properties: {} } });
    expect((await t.call("GET", "/api/monitors/types")).status).toBe(401);
  });
});
