import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testHost as host, testSample as sample } from "../agents/test-fixtures";
import { testApp } from "../test-support";
import type { ProbeAssignments, ProbeReply, ProbeResult } from "./protocol";
import { isDownByRule } from "./service";

// Checks from agents through the API (both engines): where a monitor is checked from, who may change it, what an
// agent is told and may send, and the verdict the locations make together.

let target: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  target = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ok") });
});
afterAll(() => target.stop(true));

interface View {
  checkFromServer: boolean;
  agentIds: number[];
  rule: string;
  count: number | null;
  locations: { agentId: number | null; name: string; online: boolean; status: string; latest: { up: boolean; error: string | null } | null }[];
}

async function setUp() {
  const t = await testApp();
  const admin = await t.signUp("alice");
  const agent = async (name: string) => {
    const created = await t.call<{ token: string }>("POST", "/api/agents/tokens", { token: admin.token });
    const reg = await t.call<{ agentId: number; credential: string }>("POST", "/api/agents/register", { body: { token: created.body.token, name, host: { ...host, hostname: name } } });
    const report = () => t.call<{ probes: string }>("POST", "/api/agents/report", { token: reg.body.credential, body: { host: { ...host, hostname: name }, interval: 10, samples: [sample(Date.now())] } });
    const probe = (version: string, results: ProbeResult[] = []) => t.call<ProbeReply>("POST", "/api/agents/probes", { token: reg.body.credential, body: { version, results } });
    return { id: reg.body.agentId, credential: reg.body.credential, report, probe };
  };
  const monitor = async (body: Record<string, unknown> = {}) =>
    (await t.call<{ monitor: { id: number } }>("POST", "/api/monitors", { token: admin.token, body: { name: "Site", url: `http://127.0.0.1:${target.port}/`, interval: 1, ...body } })).body.monitor.id;
  const put = (id: number, body: unknown, token = admin.token) => t.call<View>("PUT", `/api/monitors/${id}/locations`, { token, body });
  const view = async (id: number) => (await t.call<View>("GET", `/api/monitors/${id}/locations`, { token: admin.token })).body;
  const check = (id: number) => t.call<{ result: { status: string; error: string | null } }>("POST", `/api/monitors/${id}/check`, { token: admin.token });
  const result = (monitorId: number, up: boolean, over: Partial<ProbeResult> = {}): ProbeResult => ({
    monitorId, time: Date.now(), up, responseTime: up ? 12 : null, httpStatus: up ? 200 : null, error: up ? null : "connection refused", ...over,
  });
  return { ...t, admin, agent, monitor, put, view, check, result };
}

describe("where a monitor is checked from", () => {
  test("by default the server alone; admins choose agents and a rule, which is kept", async () => {
    const t = await setUp();
    const id = await t.monitor();
    await t.check(id);
    const initial = await t.view(id);
    expect(initial).toMatchObject({ checkFromServer: true, agentIds: [], rule: "majority", count: null });
    expect(initial.locations).toEqual([expect.objectContaining({ agentId: null, name: "Vigil", status: "up" })]);

    const tokyo = await t.agent("tokyo");
    const saved = await t.put(id, { checkFromServer: false, agentIds: [tokyo.id], rule: "count", count: 1 });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ checkFromServer: false, agentIds: [tokyo.id], rule: "count", count: 1 });
    // A registered agent that never reported is not online: its location has no data, never "down".
    expect(saved.body.locations).toEqual([expect.objectContaining({ agentId: tokyo.id, name: "tokyo", online: false, status: "no data", latest: null })]);
    expect(await t.view(id)).toMatchObject({ checkFromServer: false, agentIds: [tokyo.id], rule: "count" });

    // The location is called by the agent's location name when it has one (blank: its name again).
    const renamed = await t.call("PUT", `/api/agents/${tokyo.id}`, { token: t.admin.token, body: { name: "tokyo", location: " Tokyo DC " } });
    expect(renamed.body).toMatchObject({ agent: { name: "tokyo", location: "Tokyo DC" } });
    expect((await t.view(id)).locations[0].name).toBe("Tokyo DC");
    expect((await t.call("PUT", `/api/agents/${tokyo.id}`, { token: t.admin.token, body: { name: "tokyo", location: "x".repeat(61) } })).status).toBe(400);
    await t.call("PUT", `/api/agents/${tokyo.id}`, { token: t.admin.token, body: { name: "tokyo", location: "" } });
    expect((await t.view(id)).locations[0].name).toBe("tokyo");
  });

  test("bad choices are refused with a reason; only admins may choose", async () => {
    const t = await setUp();
    const id = await t.monitor();
    const tokyo = await t.agent("tokyo");
    const cases: [unknown, number, string][] = [
      [{ checkFromServer: false, agentIds: [], rule: "majority" }, 400, "NO_LOCATION"],
      [{ checkFromServer: true, agentIds: [9999], rule: "majority" }, 400, "UNKNOWN_AGENT"],
      [{ checkFromServer: true, agentIds: [tokyo.id], rule: "count" }, 400, "LOCATION_COUNT"],
      [{ checkFromServer: true, agentIds: [tokyo.id], rule: "count", count: 3 }, 400, "LOCATION_COUNT"],
      [{ checkFromServer: true, agentIds: [tokyo.id], rule: "most" }, 400, "VALIDATION"],
      [{ checkFromServer: "yes", agentIds: [], rule: "any" }, 400, "VALIDATION"],
      [{ checkFromServer: true, agentIds: [0], rule: "any" }, 400, "VALIDATION"],
    ];
    for (const [body, status, code] of cases) {
      const res = await t.put(id, body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status, code });
      expect(res.body.success).toBe(false);
    }
    expect((await t.put(4242, { checkFromServer: true, agentIds: [], rule: "any" })).status).toBe(404);
    const push = await t.monitor({ type: "push", url: undefined });
    expect((await t.put(push, { checkFromServer: true, agentIds: [tokyo.id], rule: "any" })).body.code).toBe("PUSH_NO_LOCATIONS");

    const editor = await t.signUp("eddie");
    const viewer = await t.signUp("vera");
    await t.call("PUT", `/api/users/${viewer.user.id}`, { token: t.admin.token, body: { username: "vera", role: "viewer" } });
    const body = { checkFromServer: true, agentIds: [tokyo.id], rule: "any" };
    expect((await t.put(id, body, editor.token)).status).toBe(403);
    expect((await t.put(id, body, viewer.token)).status).toBe(403);
    expect((await t.call("PUT", `/api/monitors/${id}/locations`, { body })).status).toBe(401);
    // Everyone signed in may look.
    expect((await t.call("GET", `/api/monitors/${id}/locations`, { token: viewer.token })).status).toBe(200);
    expect((await t.view(id)).agentIds).toEqual([]);
  });
});

describe("agents' side", () => {
  test("an agent learns its own assignments (policy included), by version, and nothing of another agent's", async () => {
    const t = await setUp();
    const a = await t.agent("frankfurt");
    const b = await t.agent("tokyo");
    const mine = await t.monitor({ name: "Mine", headers: [{ name: "X-Key", value: "k1" }] });
    const theirs = await t.monitor({ name: "Theirs" });
    expect((await a.report()).body.probes).toBe("");
    await t.put(mine, { checkFromServer: true, agentIds: [a.id], rule: "majority" });
    await t.put(theirs, { checkFromServer: true, agentIds: [b.id], rule: "majority" });

    const version = (await a.report()).body.probes;
    expect(version).not.toBe("");
    const first = await a.probe("");
    const assignments = first.body.assignments as ProbeAssignments;
    expect(assignments.version).toBe(version);
    expect(assignments.policy).toEqual({ allowPrivate: true });
    expect(assignments.monitors.map((m) => m.id)).toEqual([mine]);
    expect(assignments.monitors[0]).toMatchObject({ interval: 1, fields: { type: "http", url: `http://127.0.0.1:${target.port}/`, headers: [{ name: "X-Key", value: "k1" }] } });
    expect(assignments.monitors[0].fields).not.toHaveProperty("pushToken");
    // Up to date: no list sent again.
    expect((await a.probe(version)).body.assignments).toBeUndefined();
    // An edit of the monitor changes the version.
    await t.call("PUT", `/api/monitors/${mine}`, { token: t.admin.token, body: { timeout: 20 } });
    expect((await a.report()).body.probes).not.toBe(version);
    // Paused: nothing to check.
    await t.call("PUT", `/api/monitors/${mine}`, { token: t.admin.token, body: { active: false } });
    expect((await a.probe(version)).body.assignments?.monitors).toEqual([]);
  });

  test("results are stored once, only for the agent's own monitors; strangers are refused", async () => {
    const t = await setUp();
    const a = await t.agent("frankfurt");
    const b = await t.agent("tokyo");
    const id = await t.monitor();
    await t.put(id, { checkFromServer: false, agentIds: [a.id], rule: "any" });
    const result = t.result(id, false);
    expect((await a.probe("", [result])).body.accepted).toBe(1);
    // Resent after a lost reply: still one.
    expect((await a.probe("", [result])).body.accepted).toBe(1);
    // Another agent cannot write into this monitor's results, and is told so.
    const stranger = await b.probe("", [t.result(id, true, { time: result.time + 1 })]);
    expect(stranger.body).toMatchObject({ accepted: 0, refused: [{ monitorId: id, time: result.time + 1, reason: "NOT_ASSIGNED" }] });
    const series = await t.call<{ locations: { agentId: number; points: unknown[] }[] }>("GET", `/api/monitors/${id}/locations/series?range=1h`, { token: t.admin.token });
    expect(series.body.locations).toEqual([expect.objectContaining({ agentId: a.id, name: "frankfurt", points: [expect.objectContaining({ up: false })] })]);
    expect((await t.call("GET", `/api/monitors/${id}/locations/series?range=2y`, { token: t.admin.token })).status).toBe(400);

    expect((await t.call("POST", "/api/agents/probes", { body: { version: "", results: [] } })).status).toBe(401);
    expect((await t.call("POST", "/api/agents/probes", { token: "vgl_agent_nope", body: { version: "", results: [] } })).status).toBe(401);
    const bad = await a.probe("", [{ ...result, up: "no" } as never]);
    expect(bad.status).toBe(400);
    expect((await a.probe("", [{ ...result, error: "x".repeat(501) }])).status).toBe(400);
    expect((await a.probe("", Array.from({ length: 1001 }, (_, i) => t.result(id, true, { time: i })))).status).toBe(400);
  });

  test("the reply counts the results stored and names each refused one with its reason (issue 37.10)", async () => {
    const t = await setUp();
    const a = await t.agent("frankfurt");
    const b = await t.agent("tokyo");
    const mine = await t.monitor({ name: "Mine" });
    const theirs = await t.monitor({ name: "Theirs" });
    const paused = await t.monitor({ name: "Paused" });
    await t.put(mine, { checkFromServer: true, agentIds: [a.id], rule: "majority" });
    await t.put(theirs, { checkFromServer: true, agentIds: [b.id], rule: "majority" });
    await t.put(paused, { checkFromServer: true, agentIds: [a.id], rule: "majority" });
    await t.call("PUT", `/api/monitors/${paused}`, { token: t.admin.token, body: { active: false } });
    const now = Date.now();

    const mixed = await a.probe("", [t.result(mine, true, { time: now }), t.result(theirs, false, { time: now })]);
    expect(mixed.status).toBe(200);
    expect(mixed.body).toMatchObject({
      success: true,
      accepted: 1,
      refused: [{ monitorId: theirs, time: now, reason: "NOT_ASSIGNED", message: "This monitor is not assigned to this agent" }],
    });
    // A monitor that does not exist reads the same: an agent learns nothing of monitors beyond its own.
    const times = await a.probe("", [
      t.result(4242, true, { time: now }),
      t.result(paused, true, { time: now }),
      t.result(mine, true, { time: now + 10 * 60_000 }),
      t.result(mine, true, { time: now - 8 * 86_400_000 }),
      t.result(mine, false, { time: now + 1 }),
    ]);
    expect(times.body.accepted).toBe(1);
    expect(times.body.refused.map((r) => [r.monitorId, r.reason])).toEqual([[4242, "NOT_ASSIGNED"], [paused, "MONITOR_PAUSED"], [mine, "TIME_AHEAD"], [mine, "TOO_OLD"]]);
    expect(times.body.refused.every((r) => r.message.length > 0)).toBe(true);

    // The rows stored are exactly the accepted ones.
    const rows = await t.db.orm.select().from(t.db.t.probeResults);
    const stored = rows.sort((x, y) => x.time - y.time).map((r) => [r.monitorId, r.agentId, r.time, r.up]);
    expect(stored).toEqual([[mine, a.id, now, true], [mine, a.id, now + 1, false]]);
  });
});

describe("the verdict of several locations", () => {
  test("majority: one of three down stays up; two of three is down, naming them; any and all", async () => {
    const t = await setUp();
    const a = await t.agent("frankfurt");
    const b = await t.agent("tokyo");
    await a.report();
    await b.report();
    const id = await t.monitor({ retries: 0 });
    await t.put(id, { checkFromServer: true, agentIds: [a.id, b.id], rule: "majority" });

    await a.probe("", [t.result(id, false)]);
    await b.probe("", [t.result(id, true)]);
    const one = await t.check(id);
    expect(one.body.result).toMatchObject({ status: "up", error: null });
    const view = await t.view(id);
    expect(view.locations.map((l) => [l.name, l.status])).toEqual([["Vigil", "up"], ["frankfurt", "down"], ["tokyo", "up"]]);
    expect(view.locations[1].latest?.error).toBe("connection refused");

    await b.probe("", [t.result(id, false, { error: "timeout after 30 s", time: Date.now() + 1 })]);
    const two = await t.check(id);
    expect(two.body.result).toMatchObject({ status: "down", error: "down from 2 of 3: frankfurt (connection refused), tokyo (timeout after 30 s)" });
    expect((await t.call<{ monitor: { status: string } }>("GET", `/api/monitors/${id}`, { token: t.admin.token })).body.monitor.status).toBe("down");

    await t.put(id, { checkFromServer: true, agentIds: [a.id, b.id], rule: "all" });
    expect((await t.check(id)).body.result.status).toBe("up");
    await t.put(id, { checkFromServer: true, agentIds: [a.id, b.id], rule: "any" });
    expect((await t.check(id)).body.result.status).toBe("down");
  });

  test("a location without a recent result does not count; checked from agents alone with none: 409, nothing recorded", async () => {
    const t = await setUp();
    const a = await t.agent("frankfurt");
    const id = await t.monitor();
    await t.put(id, { checkFromServer: false, agentIds: [a.id], rule: "majority" });
    const none = await t.check(id);
    expect(none.status).toBe(409);
    expect(none.body.code).toBe("NO_LOCATION_DATA");
    // Older than the interval and a minute: stale, so still no data.
    await a.probe("", [t.result(id, false, { time: Date.now() - 3 * 60_000 })]);
    expect((await t.check(id)).status).toBe(409);
    await a.probe("", [t.result(id, false)]);
    expect((await t.check(id)).body.result).toMatchObject({ status: "down", error: "down from 1 of 1: frankfurt (connection refused)" });
  });

  test("upside down: the server flips what agents report (they are not told), and its own check; the verdict follows", async () => {
    const t = await setUp();
    const a = await t.agent("frankfurt");
    await a.report();
    const id = await t.monitor({ retries: 0, upsideDown: true });
    await t.put(id, { checkFromServer: true, agentIds: [a.id], rule: "any" });
    const assigned = await a.probe("");
    const fields = (assigned.body.assignments as ProbeAssignments).monitors.find((m) => m.id === id)?.fields;
    expect(fields).toBeDefined();
    expect(fields).not.toHaveProperty("upsideDown");
    // The target answers: the server's own check is down; the agent reports a refusal: up once flipped.
    await a.probe("", [t.result(id, false)]);
    expect((await t.view(id)).locations.map((l) => [l.name, l.latest?.up, l.latest?.error])).toEqual([["Vigil", undefined, undefined], ["frankfurt", true, null]]);
    const verdict = await t.check(id);
    expect(verdict.body.result).toMatchObject({ status: "down", error: "down from 1 of 2: Vigil (up, but this monitor is upside down)" });
  });

  test("the rules", () => {
    expect(isDownByRule("majority", null, 1, 3)).toBe(false);
    expect(isDownByRule("majority", null, 2, 3)).toBe(true);
    expect(isDownByRule("majority", null, 1, 2)).toBe(false);
    expect(isDownByRule("any", null, 1, 3)).toBe(true);
    expect(isDownByRule("all", null, 2, 3)).toBe(false);
    expect(isDownByRule("all", null, 3, 3)).toBe(true);
    expect(isDownByRule("count", 2, 1, 3)).toBe(false);
    expect(isDownByRule("count", 2, 2, 3)).toBe(true);
    expect(isDownByRule("any", null, 0, 0)).toBe(false);
  });
});

describe("on a status page", () => {
  test("a page that shows locations lists each one's status and response time; others and server-only monitors do not", async () => {
    const t = await setUp();
    const a = await t.agent("frankfurt");
    await a.report();
    const id = await t.monitor({ name: "Shop" });
    const plain = await t.monitor({ name: "Blog" });
    await t.put(id, { checkFromServer: true, agentIds: [a.id], rule: "majority" });
    await a.probe("", [t.result(id, true, { responseTime: 42 })]);
    await t.check(id);
    const page = (slug: string, showLocations?: boolean) =>
      t.call<{ page: { showLocations: boolean } }>("POST", "/api/status-pages", {
        token: t.admin.token,
        body: { slug, title: slug, description: "", logo: null, customDomain: null, visibility: "public", announcement: null, groups: [{ name: "", items: [{ type: "monitor", id }, { type: "monitor", id: plain }] }], ...(showLocations === undefined ? {} : { showLocations }) },
      });
    expect((await page("shop", true)).body.page.showLocations).toBe(true);
    expect((await page("quiet")).body.page.showLocations).toBe(false);
    type Shown = { page: { monitors: { name: string; locations?: { name: string; server?: true; status: string; responseTime: number | null }[] }[] } };
    const shown = (await t.call<Shown>("GET", "/api/status/pages/shop")).body.page.monitors;
    expect(shown.find((m) => m.name === "Shop")?.locations).toEqual([
      { name: "Vigil", server: true, status: "up", responseTime: expect.any(Number) },
      { name: "frankfurt", status: "up", responseTime: 42 },
    ]);
    expect(shown.find((m) => m.name === "Blog")).not.toHaveProperty("locations");
    const quiet = (await t.call<Shown>("GET", "/api/status/pages/quiet")).body.page.monitors;
    expect(quiet.find((m) => m.name === "Shop")).not.toHaveProperty("locations");
    expect((await t.call("POST", "/api/status-pages", { token: t.admin.token, body: { slug: "bad", title: "", description: "", logo: null, customDomain: null, visibility: "public", announcement: null, groups: [], showLocations: "yes" } })).status).toBe(400);
  });
});
