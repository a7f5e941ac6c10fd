// The compiled agent against a real Vigil server process: registration, reporting, and no sample lost while the
// server is down for a few seconds, on this machine and on a fixture host with 16 disks and 16 interfaces.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { buildAgent, client, freePort, startServer as startVigil, waitFor } from "./integration-support";
import { bigHostRoot } from "./test-support";
const dir = mkdtempSync(join(tmpdir(), "vigil-agent-it-"));
const agentBin = join(dir, "vigil-agent");
const configPath = join(dir, "agent", "agent.json");
const processes: Subprocess[] = [];
const bigHost = bigHostRoot();

async function startServer(port: number, dataDir = join(dir, "data")): Promise<Subprocess> {
  const proc = await startVigil(port, dataDir);
  processes.push(proc);
  return proc;
}

async function stop(proc: Subprocess) {
  proc.kill("SIGTERM");
  await proc.exited;
}

/** Sample times from a 1 h series, without the null points the series inserts at holes. */
const sampleTimes = (times: number[]) => times.filter((_, i, all) => i === 0 || all[i] !== all[i - 1] + 1);

beforeAll(async () => {
  buildAgent(agentBin);
}, 60_000);

afterAll(() => {
  for (const p of processes) p.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
  bigHost.remove();
});

test("the compiled agent registers, reports, and buffers across a server restart", async () => {
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  let server = await startServer(port);
  const api = client(base);
  await api("POST", "/api/auth/register", { username: "alice", password: "correct horse" });
  const { token } = await api("POST", "/api/auth/login", { username: "alice", password: "correct horse" });
  const { token: registration } = await api("POST", "/api/agents/tokens", undefined, token);

  const reg = Bun.spawnSync([agentBin, "register", "--server", base, "--config", configPath, "--name", "it-agent"], {
    env: { ...process.env, VIGIL_TOKEN: registration },
  });
  expect(reg.exitCode).toBe(0);
  expect(statSync(configPath).mode & 0o777).toBe(0o600);
  // The token was single-use.
  const again = Bun.spawnSync([agentBin, "register", "--server", base, "--config", join(dir, "other.json")], {
    env: { ...process.env, VIGIL_TOKEN: registration },
  });
  expect(again.exitCode).toBe(1);
  expect(again.stderr.toString()).toContain("already been used");

  const agent = Bun.spawn([agentBin, "run", "--config", configPath, "--interval", "1"], { stdout: "ignore", stderr: "ignore" });
  processes.push(agent);
  const agents = async () => (await api("GET", "/api/agents", undefined, token)).agents as any[];
  await waitFor(async () => (await agents())[0]?.status === "online", 10_000);
  const [online] = await agents();
  expect(online).toMatchObject({ name: "it-agent", interval: 1 });
  expect(online.latest.memory.total).toBeGreaterThan(0);
  expect(online.latest.cpu.cores).toBeGreaterThan(0);

  // Down for ~4 s: the agent keeps its samples and sends them when the server is back.
  await Bun.sleep(1500);
  await stop(server);
  await Bun.sleep(4000);
  server = await startServer(port);
  const series = async () => (await api("GET", `/api/agents/${online.id}/series?range=1h`, undefined, token)).series;
  // Back-off after the outage is at most a few seconds; then the backlog arrives.
  await waitFor(async () => {
    const s = await series();
    return s.times.length > 0 && s.times.at(-1) > Date.now() - 2000 && s.times.length >= 8;
  }, 20_000);
  const { times } = await series();
  const real = sampleTimes(times);
  const gaps = real.slice(1).map((t, i) => t - real[i]);
  // One sample a second with none missing across the outage (allowing timer jitter).
  expect(Math.max(...gaps)).toBeLessThan(1900);
  agent.kill("SIGTERM");
  await agent.exited;
  await stop(server);
}, 60_000);

test.skipIf(process.platform !== "linux")("a host with 16 disks and 16 interfaces (VIGIL_PROC_ROOT) loses nothing across a restart", async () => {
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = join(dir, "data-big");
  let server = await startServer(port, dataDir);
  const api = client(base);
  await api("POST", "/api/auth/register", { username: "bob", password: "correct horse" });
  const { token } = await api("POST", "/api/auth/login", { username: "bob", password: "correct horse" });
  const { token: registration } = await api("POST", "/api/agents/tokens", undefined, token);
  const config = join(dir, "big", "agent.json");
  const env = { ...process.env, VIGIL_PROC_ROOT: bigHost.root };
  const reg = Bun.spawnSync([agentBin, "register", "--server", base, "--config", config, "--name", "big-host"], { env: { ...env, VIGIL_TOKEN: registration } });
  expect(reg.exitCode).toBe(0);

  const agent = Bun.spawn([agentBin, "run", "--config", config, "--interval", "1"], { env, stdout: "ignore", stderr: "ignore" });
  processes.push(agent);
  const agents = async () => (await api("GET", "/api/agents", undefined, token)).agents as any[];
  await waitFor(async () => (await agents())[0]?.status === "online", 10_000);
  const [online] = await agents();
  expect(online).toMatchObject({ name: "big-host", os: "Ubuntu 24.04.1 LTS" });

  await Bun.sleep(1500);
  await stop(server);
  await Bun.sleep(5000);
  server = await startServer(port, dataDir);
  const series = async () => (await api("GET", `/api/agents/${online.id}/series?range=1h`, undefined, token)).series;
  await waitFor(async () => {
    const s = await series();
    return s.times.length >= 9 && s.times.at(-1) > Date.now() - 2000;
  }, 20_000);
  const s = await series();
  const real = sampleTimes(s.times);
  const gaps = real.slice(1).map((t, i) => t - real[i]);
  expect(Math.max(...gaps)).toBeLessThan(1900);
  expect(Object.keys(s.avg).filter((k) => k.startsWith("disk:"))).toHaveLength(16);
  expect(Object.keys(s.avg).filter((k) => k.startsWith("rx:"))).toHaveLength(16);
  const [latest] = await agents();
  expect(latest.latest.disks.map((d: { mountPoint: string }) => d.mountPoint)).toContain("/srv/data/volume-14");
  expect([latest.latest.disks.length, latest.latest.network.length]).toEqual([16, 16]);
  agent.kill("SIGTERM");
  await agent.exited;
  await stop(server);
}, 40_000);
