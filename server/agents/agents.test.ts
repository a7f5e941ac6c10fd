import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { Report, Sample } from "./protocol";
import { testHost as host, testSample as sample } from "./test-fixtures";
import { testApp } from "../test-support";

const report = (samples: Sample[]): Report => ({ host, interval: 10, samples });

/** An instance with a signed-in user and a registered agent. */
async function withAgent() {
  const t = await testApp();
  const { token } = await t.signUp("alice");
  const created = await t.call<{ token: string; expiresAt: number }>("POST", "/api/agents/tokens", { token });
  const reg = await t.call<{ agentId: number; credential: string }>("POST", "/api/agents/register", {
    body: { token: created.body.token, name: "Web 1", host },
  });
  expect(reg.status).toBe(201);
  const send = (samples: Sample[], credential = reg.body.credential) =>
    t.call<{ accepted: number; maxBytes: number; probes: string }>("POST", "/api/agents/report", { token: credential, body: report(samples) });
  return { ...t, token, agentId: reg.body.agentId, credential: reg.body.credential, registrationToken: created.body.token, send };
}

describe("registration", () => {
  test("a token creates an agent once; reuse, unknown and expired tokens are refused", async () => {
    const t = await withAgent();
    const again = await t.call("POST", "/api/agents/register", { body: { token: t.registrationToken, host } });
    expect([again.status, again.body.code, again.body.message]).toEqual([401, "INVALID_TOKEN", "This registration token has already been used"]);
    const unknown = await t.call("POST", "/api/agents/register", { body: { token: "vgl_reg_nope", host } });
    expect(unknown.status).toBe(401);
    const list = await t.call<{ agents: { name: string; status: string }[] }>("GET", "/api/agents", { token: t.token });
    expect(list.body.agents.map((a) => [a.name, a.status])).toEqual([["Web 1", "connecting"]]);
    // Replies carrying a registration token or an agent credential are never cached.
    const minted = await t.call("POST", "/api/agents/tokens", { token: t.token });
    const registered = await t.call("POST", "/api/agents/register", { body: { token: minted.body.token, host } });
    expect([minted.headers.get("cache-control"), registered.headers.get("cache-control")]).toEqual(["no-store", "no-store"]);
  });

  test("an expired token is refused", async () => {
    const t = await testApp({ agentTokenTtlMs: -1 });
    const { token } = await t.signUp("alice");
    const created = await t.call<{ token: string }>("POST", "/api/agents/tokens", { token });
    const res = await t.call("POST", "/api/agents/register", { body: { token: created.body.token, host } });
    expect([res.status, res.body.message]).toEqual([401, "This registration token has expired: create a new one"]);
  });

  test("creating a token needs a session; the token is shown once and stored hashed", async () => {
    const t = await testApp();
    expect((await t.call("POST", "/api/agents/tokens")).status).toBe(401);
    const { token } = await t.signUp("alice");
    const created = await t.call<{ token: string }>("POST", "/api/agents/tokens", { token });
    expect(created.body.token).toStartWith("vgl_reg_");
    const stored = await t.db.rows<{ token_hash: string }>(sql`SELECT token_hash FROM agent_tokens`);
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).not.toContain(created.body.token);
  });

  test("bad registration bodies are a 400", async () => {
    const t = await testApp();
    const res = await t.call("POST", "/api/agents/register", { body: { token: "x", host: { hostname: 5 } } });
    expect(res.status).toBe(400);
  });
});

describe("registration tokens", () => {
  test("unused tokens are listed (never their secret) and can be revoked; a revoked token registers nothing", async () => {
    const t = await withAgent(); // its token is spent
    const a = await t.call<{ token: string; expiresAt: number }>("POST", "/api/agents/tokens", { token: t.token });
    const b = await t.call<{ token: string }>("POST", "/api/agents/tokens", { token: t.token });
    const listed = await t.call<{ tokens: { id: number; expiresAt: number }[] }>("GET", "/api/agents/tokens", { token: t.token });
    expect(listed.body.tokens.map((x) => x.expiresAt)).toEqual([a.body.expiresAt, expect.any(Number)]);
    expect(JSON.stringify(listed.body)).not.toContain(a.body.token);
    expect(JSON.stringify(listed.body)).not.toContain("Hash");
    const [first] = listed.body.tokens;
    expect((await t.call("DELETE", `/api/agents/tokens/${first.id}`, { token: t.token })).status).toBe(200);
    const again = await t.call("DELETE", `/api/agents/tokens/${first.id}`, { token: t.token });
    expect([again.status, again.body.code]).toEqual([404, "TOKEN_NOT_FOUND"]);
    expect((await t.call("POST", "/api/agents/register", { body: { token: a.body.token, host } })).status).toBe(401);
    expect((await t.call("POST", "/api/agents/register", { body: { token: b.body.token, host } })).status).toBe(201);
    expect((await t.call<{ tokens: unknown[] }>("GET", "/api/agents/tokens", { token: t.token })).body.tokens).toEqual([]);
  });

  test("only signed-in users list or revoke; bad ids are 400", async () => {
    const t = await withAgent();
    expect((await t.call("GET", "/api/agents/tokens")).status).toBe(401);
    expect((await t.call("DELETE", "/api/agents/tokens/1")).status).toBe(401);
    expect((await t.call("DELETE", "/api/agents/tokens/x", { token: t.token })).status).toBe(400);
  });
});

describe("reports", () => {
  test("an agent reports and shows online with its newest sample", async () => {
    const t = await withAgent();
    const now = Date.now();
    const res = await t.send([sample(now - 10_000, 10), sample(now, 30)]);
    expect(res.body).toEqual({ success: true, accepted: 2, maxBytes: 1024 * 1024, probes: "" });
    const one = await t.call<{ agent: any }>("GET", `/api/agents/${t.agentId}`, { token: t.token });
    expect(one.body.agent).toMatchObject({ name: "Web 1", status: "online", hostname: "web-1", ips: ["10.0.0.5"], interval: 10 });
    expect(one.body.agent.latest.cpu.usage).toBe(30);
  });

  test("samples land in the 1 h series, oldest first, every disk and interface apart", async () => {
    const t = await withAgent();
    const now = Date.now();
    await t.send([sample(now - 20_000, 10), sample(now - 10_000, 20), sample(now, 30)]);
    const res = await t.call<{ series: any }>("GET", `/api/agents/${t.agentId}/series?range=1h`, { token: t.token });
    expect(res.body.series.times).toEqual([now - 20_000, now - 10_000, now]);
    // The window is the whole hour asked for, whatever data it holds: charts span it.
    expect(res.body.series.to - res.body.series.from).toBe(3_600_000);
    expect(Math.abs(res.body.series.to - Date.now())).toBeLessThan(5_000);
    expect(res.body.series.avg.cpu).toEqual([10, 20, 30]);
    expect(res.body.series.avg["disk:/"]).toEqual([40, 40, 40]);
    expect(res.body.series.avg["rx:eth0"]).toEqual([1000, 1000, 1000]);
  });

  test("unknown or revoked credentials get 401; deleting an agent revokes it", async () => {
    const t = await withAgent();
    expect((await t.send([sample(Date.now())], "vgl_agent_forged")).status).toBe(401);
    expect((await t.call("DELETE", `/api/agents/${t.agentId}`, { token: t.token })).body).toEqual({ success: true, message: "Agent deleted" });
    const after = await t.send([sample(Date.now())]);
    expect([after.status, after.body.code]).toEqual([401, "AGENT_UNKNOWN"]);
    expect((await t.call("GET", `/api/agents/${t.agentId}`, { token: t.token })).status).toBe(404);
  });

  test("a person's session is not an agent credential", async () => {
    const t = await withAgent();
    expect((await t.send([sample(Date.now())], t.token)).status).toBe(401);
  });

  test.each([
    ["a sample an hour in the future", () => [sample(Date.now() + 3_600_000)], "SAMPLE_TIME"],
    ["a sample 8 days old", () => [sample(Date.now() - 8 * 86_400_000)], "SAMPLE_TIME"],
    ["no samples", () => [], "VALIDATION"],
    ["CPU over 100 %", () => [{ ...sample(Date.now()), cpu: { usage: 250, cores: 1, model: "x" } }], "VALIDATION"],
    ["negative memory", () => [{ ...sample(Date.now()), memory: { total: -1, used: 0, free: 0, usageRate: 0 } }], "VALIDATION"],
    ["501 samples", () => Array.from({ length: 501 }, (_, i) => sample(Date.now() - i * 1000)), "VALIDATION"],
    ["65 disks", () => [{ ...sample(Date.now()), disks: Array.from({ length: 65 }, () => sample(0).disks[0]) }], "VALIDATION"],
    ["a string for a number", () => [{ ...sample(Date.now()), load: { one: "high", five: 0, fifteen: 0 } }], "VALIDATION"],
  ])("%s is a 400 and nothing is stored", async (_name, samples, code) => {
    const t = await withAgent();
    const res = await t.send((samples as () => Sample[])());
    expect([res.status, res.body.code]).toEqual([400, code]);
    const series = await t.call<{ series: any }>("GET", `/api/agents/${t.agentId}/series?range=1h`, { token: t.token });
    expect(series.body.series.times).toEqual([]);
  });
});

describe("people's calls", () => {
  test("rename, validation, unknown and bad ids", async () => {
    const t = await withAgent();
    const ok = await t.call<{ agent: any }>("PUT", `/api/agents/${t.agentId}`, { token: t.token, body: { name: "Database" } });
    expect([ok.body.message, ok.body.agent.name]).toEqual(["Agent updated", "Database"]);
    expect((await t.call("PUT", `/api/agents/${t.agentId}`, { token: t.token, body: { name: "   " } })).status).toBe(400);
    expect((await t.call("PUT", `/api/agents/${t.agentId}`, { token: t.token, body: { name: "x".repeat(101) } })).status).toBe(400);
    expect((await t.call("PUT", "/api/agents/999", { token: t.token, body: { name: "x" } })).status).toBe(404);
    expect((await t.call("GET", "/api/agents/abc", { token: t.token })).status).toBe(400);
    expect((await t.call("GET", `/api/agents/${t.agentId}/series?range=1y`, { token: t.token })).status).toBe(400);
  });

  test("anonymous callers get 401", async () => {
    const t = await withAgent();
    for (const [method, path] of [["GET", "/api/agents"], ["GET", `/api/agents/${t.agentId}`], ["PUT", `/api/agents/${t.agentId}`], ["DELETE", `/api/agents/${t.agentId}`], ["GET", `/api/agents/${t.agentId}/series`]]) {
      expect((await t.call(method, path, { body: method === "PUT" ? { name: "x" } : undefined })).status).toBe(401);
    }
  });
});
