import { describe, expect, test } from "bun:test";
import { createServices } from "../app";
import { testApp } from "../test-support";
import type { ContainerInfo, ContainersSnapshot, Report } from "./protocol";
import { testHost as host, testSample as sample } from "./test-fixtures";

// Containers through the API (both engines): an agent's report carries them, GET /api/agents/:id/containers shows
// the latest (any signed-in role, kept across a restart and through reports of an older agent that sends none),
// why an agent cannot see them, and bad lists refused.

const container = (over: Partial<ContainerInfo> = {}): ContainerInfo => ({
  id: "0123456789ab", name: "web", image: "nginx:1.27", state: "running", health: "healthy", restarts: 0,
  cpu: 1.5, memory: 50e6, memoryLimit: 1e9, startedAt: Date.now() - 60_000, ...over,
});
const snapshot = (list: ContainerInfo[], over: Partial<ContainersSnapshot> = {}): ContainersSnapshot => ({
  time: Date.now(), access: "ok", socket: "/var/run/docker.sock", engine: "Docker 27.3.1", total: list.length, list, ...over,
});

async function withAgent() {
  const t = await testApp();
  const admin = await t.signUp("alice");
  const created = await t.call<{ token: string }>("POST", "/api/agents/tokens", { token: admin.token });
  const reg = await t.call<{ agentId: number; credential: string }>("POST", "/api/agents/register", { body: { token: created.body.token, name: "Web 1", host } });
  const send = (containers?: ContainersSnapshot) =>
    t.call("POST", "/api/agents/report", { token: reg.body.credential, body: { host, interval: 10, samples: [sample(Date.now())], ...(containers ? { containers } : {}) } satisfies Report });
  const read = async (token = admin.token, id = reg.body.agentId) => t.call<{ containers: ContainersSnapshot | null }>("GET", `/api/agents/${id}/containers`, { token });
  return { ...t, admin, agentId: reg.body.agentId, send, read };
}

describe("containers", () => {
  test("reported, shown to any signed-in role, kept through an older agent's reports and a restart", async () => {
    const t = await withAgent();
    expect((await t.read()).body.containers).toBeNull();
    const list = [container(), container({ id: "ba9876543210", name: "worker", image: "acme/worker:3", state: "exited", health: null, restarts: 7, cpu: null, memory: null, memoryLimit: null })];
    expect((await t.send(snapshot(list))).status).toBe(200);
    expect((await t.read()).body.containers).toMatchObject({ access: "ok", engine: "Docker 27.3.1", total: 2, list });
    // An agent that sends no containers leaves the last list as it is.
    expect((await t.send()).status).toBe(200);
    await t.services.agents.committed();
    const viewer = await t.signUp("vera");
    await t.call("PUT", `/api/users/${viewer.user.id}`, { token: t.admin.token, body: { username: "vera", role: "viewer" } });
    expect((await t.read(viewer.token)).body.containers?.list).toEqual(list);
    const again = await createServices(t.db);
    expect(await again.agents.containers(t.agentId)).toMatchObject({ total: 2, list });
  });

  test("an agent that may not read the socket says so; unknown agents are 404, strangers 401", async () => {
    const t = await withAgent();
    await t.send(snapshot([], { access: "denied", engine: undefined, message: "permission denied reading /var/run/docker.sock: add the agent's user to the docker group" }));
    expect((await t.read()).body.containers).toMatchObject({ access: "denied", list: [], message: expect.stringContaining("docker group") });
    expect((await t.read(t.admin.token, 999)).status).toBe(404);
    expect((await t.call("GET", `/api/agents/${t.agentId}/containers`)).status).toBe(401);
  });

  test("bad lists are refused with the field named", async () => {
    const t = await withAgent();
    const cases: [ContainersSnapshot, RegExp][] = [
      [snapshot(Array.from({ length: 201 }, (_, i) => container({ id: `c${i}` }))), /containers/],
      [snapshot([container({ health: "sick" as never })]), /health/],
      [snapshot([container({ restarts: -1 })]), /restarts/],
      [snapshot([], { access: "maybe" as never }), /access/],
    ];
    for (const [containers, field] of cases) {
      const r = await t.send(containers);
      expect([r.status, r.body.success]).toEqual([400, false]);
      expect(r.body.message).toMatch(field);
    }
  });
});
