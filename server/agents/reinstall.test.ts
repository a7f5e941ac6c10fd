// Agents that registered but never reported (a failed or unfinished install), and installing again on the same host:
// the new registration replaces the never-reported twin instead of leaving it "connecting" forever.
import { describe, expect, test } from "bun:test";
import { testDb } from "../db/test-db";
import { silentLogger } from "../log";
import type { HostInfo } from "./protocol";
import { AgentService } from "./service";
import { createAgentStore } from "./store";
import { testHost as host, testSample as sample } from "./test-fixtures";
import { testApp } from "../test-support";

type Listed = { id: number; name: string; status: string; lastSeenAt: number | null; createdAt: number };

async function signedIn() {
  const t = await testApp();
  const { token } = await t.signUp("alice");
  const newToken = async () => (await t.call<{ token: string }>("POST", "/api/agents/tokens", { token })).body.token;
  const register = async (body: { name?: string; host: HostInfo }, regToken?: string) =>
    t.call<{ agentId: number; credential: string; replaced: { id: number; name: string }[] }>("POST", "/api/agents/register", {
      body: { token: regToken ?? (await newToken()), ...body },
    });
  const list = async () => (await t.call<{ agents: Listed[] }>("GET", "/api/agents", { token })).body.agents;
  const send = (credential: string, h: HostInfo = host) =>
    t.call("POST", "/api/agents/report", { token: credential, body: { host: h, interval: 10, samples: [sample(Date.now())] } });
  return { ...t, token, newToken, register, list, send };
}

describe("installing again on the same host", () => {
  test("replaces the never-reported twin: one agent left, the reply names the one replaced, its credential is refused", async () => {
    const t = await signedIn();
    const first = await t.register({ name: "web", host });
    expect([first.status, first.body.replaced]).toEqual([201, []]);
    const second = await t.register({ name: "web", host: { ...host, uptime: 99, ips: [...host.ips].reverse() } });
    expect(second.status).toBe(201);
    expect(second.body.replaced).toEqual([{ id: first.body.agentId, name: "web" }]);
    expect((await t.list()).map((a) => a.id)).toEqual([second.body.agentId]);
    expect((await t.call("GET", `/api/agents/${first.body.agentId}`, { token: t.token })).status).toBe(404);
    const late = await t.send(first.body.credential);
    expect([late.status, late.body.code]).toEqual([401, "AGENT_UNKNOWN"]);
    expect((await t.send(second.body.credential)).status).toBe(200);
  });

  test("without --name both use the hostname, so a plain retry replaces too, try after try", async () => {
    const t = await signedIn();
    let previous = (await t.register({ host })).body.agentId;
    for (let i = 0; i < 3; i++) {
      const retry = await t.register({ host });
      expect(retry.body.replaced).toEqual([{ id: previous, name: "web-1" }]);
      previous = retry.body.agentId;
    }
    expect((await t.list()).map((a) => [a.id, a.name])).toEqual([[previous, "web-1"]]);
  });

  test("never replaces an agent that reported, nor one of another name, hostname or addresses", async () => {
    const t = await signedIn();
    const reported = await t.register({ name: "web", host });
    expect((await t.send(reported.body.credential)).status).toBe(200);
    const otherName = await t.register({ name: "web (staging)", host });
    const otherHost = await t.register({ name: "web", host: { ...host, hostname: "web-2" } });
    const otherIps = await t.register({ name: "web", host: { ...host, ips: ["10.0.0.6"] } });
    const again = await t.register({ name: "web", host });
    for (const reply of [otherName, otherHost, otherIps, again]) expect([reply.status, reply.body.replaced]).toEqual([201, []]);
    expect((await t.list()).map((a) => a.id).sort((a, b) => a - b)).toEqual(
      [reported, otherName, otherHost, otherIps, again].map((r) => r.body.agentId),
    );
  });

  test("a refused registration (used token, bad body) removes nothing", async () => {
    const t = await signedIn();
    const regToken = await t.newToken();
    const first = await t.register({ name: "web", host }, regToken);
    const used = await t.register({ name: "web", host }, regToken);
    expect([used.status, used.body.code]).toEqual([401, "INVALID_TOKEN"]);
    const bad = await t.call("POST", "/api/agents/register", { body: { token: await t.newToken(), name: "web", host: { ...host, ips: "10.0.0.5" } } });
    expect([bad.status, bad.body.success]).toEqual([400, false]);
    expect((await t.list()).map((a) => a.id)).toEqual([first.body.agentId]);
  });
});

describe("an agent that never reported", () => {
  test("stays 'connecting' with no last report and its registration time, whatever time passes and across a restart", async () => {
    const db = await testDb();
    const [user] = await db.orm.insert(db.t.users).values({ username: "u", passwordHash: "h", createdAt: 0, updatedAt: 0 }).returning();
    const clock = { now: Date.UTC(2026, 0, 1, 12, 0, 0) };
    const changes: string[] = [];
    const make = () =>
      AgentService.create({
        store: createAgentStore(db),
        log: silentLogger,
        now: () => clock.now,
        onChange: (id, kind) => changes.push(`${id} ${kind}`),
      });
    const service = await make();
    const registeredAt = clock.now;
    const reg = await service.register((await service.createToken(user!.id)).token, undefined, host);
    if (typeof reg === "string") throw new Error(reg);
    clock.now += 5 * 60_000;
    service.checkPresence();
    const expected = { status: "connecting", lastSeenAt: null, createdAt: registeredAt, latest: null };
    expect(service.get(reg.agent.id)).toMatchObject(expected);
    expect(service.counts()).toMatchObject({ connecting: 1, offline: 0 });
    expect(service.offline()).toEqual([]); // not in the dashboard's "went silent" list: it never spoke
    const restarted = await make();
    expect(restarted.get(reg.agent.id)).toMatchObject(expected);

    // Installing again replaces it, and the change is announced (the lists drop it live).
    const again = await restarted.register((await restarted.createToken(user!.id)).token, undefined, host);
    if (typeof again === "string") throw new Error(again);
    expect(restarted.list().map((a) => a.id)).toEqual([again.agent.id]);
    expect(changes).toEqual([`${reg.agent.id} created`, `${reg.agent.id} deleted`, `${again.agent.id} created`]);
    expect(restarted.authenticate(reg.credential)).toBeUndefined();
    await db.close();
  });
});
