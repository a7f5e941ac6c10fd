// A monitor checked from three places, with real processes: the server and two compiled agents. One agent cannot
// reach the target (its requests go through a proxy that refuses them, like a network that lost its route), so it
// sees the monitor down while the others see it up: "down from 1 of 3", and no down verdict under the majority rule.
// Then, under the "all" rule, the target fails for everyone: the verdict is down, and one notification names the
// three locations.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { buildAgent, client, freePort, startServer, waitFor } from "./integration-support";

const dir = mkdtempSync(join(tmpdir(), "vigil-locations-it-"));
const agentBin = join(dir, "vigil-agent");
const processes: Subprocess[] = [];

let healthy = true;
const target = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => (healthy ? new Response("ok") : new Response("broken", { status: 503 })) });
const hooks: string[] = [];
const hook = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: async (req) => {
    hooks.push(await req.text());
    return new Response("ok");
  },
});

beforeAll(async () => {
  buildAgent(agentBin);
}, 60_000);

afterAll(() => {
  for (const p of processes) p.kill("SIGKILL");
  target.stop(true);
  hook.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

test("checked from the server and two agents: one location down is not a down verdict; all three are, notified once with their names", async () => {
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startServer(port, join(dir, "data"));
  processes.push(server);
  const api = client(base);
  await api("POST", "/api/auth/register", { username: "alice", password: "correct horse" });
  const { token } = await api("POST", "/api/auth/login", { username: "alice", password: "correct horse" });
  const channel = (await api("POST", "/api/notifications/channels", { name: "Hook", type: "webhook", config: { url: `http://127.0.0.1:${hook.port}/hook` } }, token)).channel.id;
  const settings = await api("PUT", "/api/notifications/settings", {
    monitor: { enabled: true, channelIds: [channel], events: { down: true, recovery: true }, reminderMinutes: 0 },
    agent: { enabled: false, channelIds: [], events: { offline: false, online: false, cpu: false, memory: false, disk: false }, thresholds: { cpu: 90, memory: 90, disk: 90 } },
    language: "en-US",
    timeZone: "UTC",
  }, token);
  expect(settings.success).toBe(true);

  // Two agents; tokyo's requests go through a proxy that refuses them, all but those to the server.
  const agent = async (name: string, env: Record<string, string> = {}) => {
    const configPath = join(dir, name, "agent.json");
    const { token: registration } = await api("POST", "/api/agents/tokens", undefined, token);
    const reg = Bun.spawnSync([agentBin, "register", "--server", base, "--config", configPath, "--name", name], { env: { ...process.env, VIGIL_TOKEN: registration } });
    expect(reg.exitCode).toBe(0);
    const proc = Bun.spawn([agentBin, "run", "--config", configPath, "--interval", "1", "--docker-socket", "off"], { stdout: "ignore", stderr: "ignore", env: { ...process.env, ...env } });
    processes.push(proc);
    return (await api("GET", "/api/agents", undefined, token)).agents.find((a: { name: string }) => a.name === name).id as number;
  };
  const frankfurt = await agent("frankfurt");
  const tokyo = await agent("tokyo", { HTTP_PROXY: "http://127.0.0.1:9", NO_PROXY: `127.0.0.1:${port}` });

  const monitorId = (await api("POST", "/api/monitors", { name: "Shop", url: `http://127.0.0.1:${target.port}/`, interval: 1, retries: 0, active: false }, token)).monitor.id;
  const located = await api("PUT", `/api/monitors/${monitorId}/locations`, { checkFromServer: true, agentIds: [frankfurt, tokyo], rule: "majority" }, token);
  expect(located.success).toBe(true);
  expect((await api("PUT", `/api/monitors/${monitorId}`, { active: true }, token)).success).toBe(true);

  type Location = { agentId: number | null; name: string; status: string; latest: { time: number; up: boolean; error: string | null } | null };
  const locations = async () => (await api("GET", `/api/monitors/${monitorId}/locations`, undefined, token)).locations as Location[];
  const of = (all: Location[], id: number) => all.find((l) => l.agentId === id)!;
  // Each agent learns the assignment from a report's reply and checks within 10 s.
  const first = await waitFor(async () => {
    const all = await locations();
    return of(all, frankfurt).latest && of(all, tokyo).latest ? all : undefined;
  }, 40_000, "both agents' first results");
  expect(of(first, frankfurt)).toMatchObject({ name: "frankfurt", status: "up" });
  expect(of(first, tokyo)).toMatchObject({ name: "tokyo", status: "down", latest: { up: false, error: expect.any(String) } });

  const check = async () => (await api("POST", `/api/monitors/${monitorId}/check`, undefined, token)).result as { status: string; error: string | null };
  expect(await check()).toMatchObject({ status: "up", error: null });
  expect((await locations()).map((l) => [l.name, l.status])).toEqual([["Vigil", "up"], ["frankfurt", "up"], ["tokyo", "down"]]);

  // Under "all", the target failing for everyone is one down notification naming the three. (An edit re-sends the
  // assignment, so the agents check again within 10 s; the server's own check at the edit still sees frankfurt up.)
  expect((await api("PUT", `/api/monitors/${monitorId}/locations`, { checkFromServer: true, agentIds: [frankfurt, tokyo], rule: "all" }, token)).rule).toBe("all");
  healthy = false;
  const since = of(await locations(), frankfurt).latest!.time;
  expect((await api("PUT", `/api/monitors/${monitorId}`, { timeout: 20 }, token)).success).toBe(true);
  await waitFor(async () => {
    const l = of(await locations(), frankfurt).latest;
    return l && l.time > since && !l.up;
  }, 40_000, "frankfurt to see the target fail");
  const down = await check();
  expect(down.status).toBe("down");
  expect(down.error).toMatch(/^down from 3 of 3: Vigil \(status 503, expected 2xx\), frankfurt \(status 503, expected 2xx\), tokyo \(.+\)$/);

  const sent = await waitFor(async () => {
    const found = hooks.filter((h) => /down from 3 of 3/i.test(h));
    return found.length ? found : undefined;
  }, 20_000, `the down notification (got ${hooks.length}: ${hooks.join(" | ").slice(0, 1500)})`);
  expect(sent[0]).toContain("Vigil server (Status 503");
  expect(sent[0]).toContain("frankfurt (Status 503");
  expect(sent[0]).toContain("tokyo (");
  // Still down at the next look: nothing more is sent.
  await check();
  await Bun.sleep(2_000);
  expect(hooks.filter((h) => /down from/i.test(h))).toHaveLength(1);
}, 150_000);
