import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { ContainerInfo, ContainersSnapshot } from "../agents/protocol";
import { RestartHistory } from "./container-rules";
import { startFake, type Fake } from "./providers/test-fake";
import { notificationHarness } from "./test-harness";

// Container alerts end to end (both engines): an agent's reports carry its containers, the rules watch the chosen ones,
// the outbox sends to a local webhook fake. Stopped, unhealthy and too many restarts each alert once when they start,
// re-arm silently when over; unwatched containers, lists the agent could not read and turned-off events send nothing.

let hook: Fake;
beforeEach(() => {
  hook = startFake(() => new Response("ok"));
});
const harness = notificationHarness(() => `${hook.url}/hook`);
afterEach(() => hook.stop());

const messages = () => hook.received.map((r) => r.json as { title: string; lines: string[]; events: { kind: string; facts: Record<string, unknown> }[] });
const host = { hostname: "docker-1", ips: ["10.0.0.9"], os: "Linux", kernel: "6", arch: "x64", uptime: 1, agentVersion: "0.1.0" };
const GiB = 1024 ** 3;
const sample = (time: number) => ({
  time,
  cpu: { usage: 5, cores: 2, model: "x" },
  memory: { total: 8 * GiB, used: GiB, free: 7 * GiB, usageRate: 12.5 },
  disks: [],
  network: [],
  load: { one: 0, five: 0, fifteen: 0 },
});
const c = (name: string, over: Partial<ContainerInfo> = {}): ContainerInfo => ({
  id: `${name}000000000`.slice(0, 12), name, image: `${name}:1`, state: "running", health: null, restarts: 0, cpu: 1, memory: 1e6, memoryLimit: null, startedAt: 1, ...over,
});

async function setup(containerSettings: Record<string, unknown>, events: Record<string, boolean> = {}) {
  const t = await harness();
  const { token, channel, now } = t;
  const regToken = (await t.call<{ token: string }>("POST", "/api/agents/tokens", { token })).body.token;
  const reg = await t.call<{ agentId: number; credential: string }>("POST", "/api/agents/register", { body: { token: regToken, host } });
  const override = await t.call("PUT", `/api/notifications/settings/agents/${reg.body.agentId}`, {
    token,
    body: {
      enabled: true,
      channelIds: [channel],
      events: { offline: true, online: true, cpu: true, memory: true, disk: true, container: true, ...events },
      thresholds: { cpu: 90, memory: 90, disk: 90 },
      containers: containerSettings,
    },
  });
  expect(override.status).toBe(200);
  /** One report with these containers, a minute after the previous one. */
  const report = async (list: ContainerInfo[], over: Partial<ContainersSnapshot> = {}) => {
    t.advanceClock(60_000);
    const containers: ContainersSnapshot = { time: now(), access: "ok", socket: "/var/run/docker.sock", total: list.length, list, ...over };
    const r = await t.call("POST", "/api/agents/report", { token: reg.body.credential, body: { host, interval: 10, samples: [sample(now())], containers } });
    expect(r.status).toBe(200);
  };
  return { ...t, agentId: reg.body.agentId, report, settle: () => t.settle(5_000) };
}

describe("container alerts", () => {
  test("a watched container that stops: one message, none while stopped, again after it ran and stopped again", async () => {
    const t = await setup({ watch: ["web", "db"], restarts: 0, restartMinutes: 10 });
    await t.report([c("web"), c("db"), c("cache")]);
    await t.report([c("web", { state: "exited" }), c("db"), c("cache", { state: "exited" })]);
    await t.settle();
    expect(messages().map((m) => m.title)).toEqual(["🔴 Container trouble on docker-1: web"]);
    expect(messages()[0]!.lines).toContain("Problem: stopped (exited)");
    expect(messages()[0]!.lines).toContain("Image: web:1");
    await t.report([c("web", { state: "exited" }), c("db")]);
    await t.report([c("web"), c("db")]);
    await t.settle();
    expect(messages()).toHaveLength(1);
    // Gone from the list counts as stopped too.
    await t.report([c("db")]);
    await t.settle();
    expect(messages().map((m) => m.lines.find((l) => l.startsWith("Problem")))).toEqual(["Problem: stopped (exited)", "Problem: stopped (missing)"]);
  });

  test("unhealthy, and more restarts than allowed within the window", async () => {
    const t = await setup({ watch: ["*"], restarts: 2, restartMinutes: 10 });
    await t.report([c("api"), c("worker")]);
    await t.report([c("api", { health: "unhealthy" }), c("worker", { restarts: 1 })]);
    await t.report([c("api", { health: "unhealthy" }), c("worker", { restarts: 2 })]);
    await t.settle();
    expect(messages().flatMap((m) => m.events).map((e) => [e.facts.container, e.facts.containerProblem])).toEqual([["api", "unhealthy"]]);
    await t.report([c("api"), c("worker", { restarts: 3, state: "restarting" })]);
    await t.settle();
    const last = messages().at(-1)!;
    expect(last.title).toBe("🔴 Container trouble on docker-1: worker");
    expect(last.lines).toContain("Problem: restarted 3 times in 10 min");
    // Quiet for longer than the window: the old restarts no longer count, the alert re-arms.
    for (let i = 0; i < 12; i++) await t.report([c("api"), c("worker", { restarts: 3 })]);
    await t.report([c("api"), c("worker", { restarts: 5 })]);
    await t.settle();
    expect(messages()).toHaveLength(2);
  });

  test("nothing from an unreadable list, unwatched containers, or with the event turned off", async () => {
    const off = await setup({ watch: ["web"], restarts: 0, restartMinutes: 10 }, { container: false });
    await off.report([c("web")]);
    await off.report([c("web", { state: "exited" })]);
    await off.settle();
    expect(messages()).toHaveLength(0);
    const t = await setup({ watch: ["web"], restarts: 0, restartMinutes: 10 });
    await t.report([c("web")]);
    await t.report([], { access: "denied", message: "permission denied" });
    await t.report([c("other", { state: "dead" }), c("web")]);
    await t.settle();
    expect(messages()).toHaveLength(0);
  });

  test("settings: defaults for clients that send none; bad values refused", async () => {
    const t = await setup({ watch: [" web ", "web", "db"], restarts: 3, restartMinutes: 10 });
    const got = await t.call<{ settings: { containers: unknown; events: { container: boolean } } }>("GET", `/api/notifications/settings/agents/${t.agentId}`, { token: t.token });
    expect(got.body.settings).toMatchObject({ containers: { watch: ["web", "db"], restarts: 3, restartMinutes: 10 }, events: { container: true } });
    const global = await t.call<{ settings: { agent: { containers: unknown } } }>("GET", "/api/notifications/settings", { token: t.token });
    expect(global.body.settings.agent.containers).toEqual({ watch: [], restarts: 3, restartMinutes: 10 });
    const base = { enabled: true, channelIds: [], events: { offline: true, online: true, cpu: true, memory: true, disk: true }, thresholds: { cpu: 90, memory: 90, disk: 90 } };
    for (const [containers, words] of [
      [{ watch: [], restarts: -1, restartMinutes: 10 }, "restarts"],
      [{ watch: [], restarts: 1, restartMinutes: 0 }, "restartMinutes"],
      [{ watch: Array.from({ length: 101 }, (_, i) => `c${i}`), restarts: 1, restartMinutes: 5 }, "watched containers"],
    ] as const) {
      const r = await t.call("PUT", `/api/notifications/settings/agents/${t.agentId}`, { token: t.token, body: { ...base, containers } });
      expect([r.status, r.body.success]).toEqual([400, false]);
      expect(r.body.message).toContain(words);
    }
  });
});

describe("restarts within a window", () => {
  test("counted from the newest reading at or before the window's start; a lower count starts over", () => {
    const h = new RestartHistory();
    const min = 60_000;
    expect(h.record("a", 0, 5, 10)).toBe(0);
    expect(h.record("a", 3 * min, 6, 10)).toBe(1);
    expect(h.record("a", 9 * min, 8, 10)).toBe(3);
    expect(h.record("a", 14 * min, 8, 10)).toBe(2); // the reading at 3 min (6) is the baseline now
    expect(h.record("a", 30 * min, 8, 10)).toBe(0);
    expect(h.record("a", 31 * min, 1, 10)).toBe(0); // recreated: its count went down
    expect(h.record("a", 32 * min, 3, 10)).toBe(2);
  });
});
