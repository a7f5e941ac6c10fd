// Checks from agents end to end: the compiled agent against a real Vigil server process. An admin assigns an HTTP
// monitor to the agent; the agent learns it from a report's reply and checks a local target; the server goes down
// while the check is under way, and the agent is killed once the result is written to probe-results.json beside its
// config; when both are back, the next run sends it and the server shows it among the monitor's locations.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { Database } from "bun:sqlite";
import { buildAgent, client, freePort, startServer as startVigil, waitFor } from "./integration-support";

const dir = mkdtempSync(join(tmpdir(), "vigil-agent-probes-it-"));
const agentBin = join(dir, "vigil-agent");
const configPath = join(dir, "agent", "agent.json");
const statePath = join(dir, "agent", "probe-results.json");
const processes: Subprocess[] = [];
/** The target answers after 3 s, time to take the server down while the agent's check waits; `checked` resolves then. */
let onCheck = () => {};
const checked = new Promise<void>((resolve) => (onCheck = resolve));
const target = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: async () => {
    onCheck();
    await Bun.sleep(3000);
    return new Response("ok");
  },
});

async function startServer(port: number): Promise<Subprocess> {
  const proc = await startVigil(port, join(dir, "data"));
  processes.push(proc);
  return proc;
}

beforeAll(async () => {
  buildAgent(agentBin);
}, 60_000);

afterAll(() => {
  for (const p of processes) p.kill("SIGKILL");
  target.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

test("an assigned monitor is checked by the compiled agent; its result outlives the server being down and a kill", async () => {
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  let server = await startServer(port);
  const api = client(base);
  await api("POST", "/api/auth/register", { username: "alice", password: "correct horse" });
  const { token } = await api("POST", "/api/auth/login", { username: "alice", password: "correct horse" });
  const { token: registration } = await api("POST", "/api/agents/tokens", undefined, token);
  const reg = Bun.spawnSync([agentBin, "register", "--server", base, "--config", configPath, "--name", "probe-agent"], {
    env: { ...process.env, VIGIL_TOKEN: registration },
  });
  expect(reg.exitCode).toBe(0);
  const [agentRow] = (await api("GET", "/api/agents", undefined, token)).agents;

  // Paused while it is set up, so the server itself never calls the target; then checked from the agent only.
  const created = await api("POST", "/api/monitors", { name: "local", url: `http://127.0.0.1:${target.port}/`, interval: 1, active: false }, token);
  const monitorId = created.monitor.id;
  const saved = await api("PUT", `/api/monitors/${monitorId}/locations`, { checkFromServer: false, agentIds: [agentRow.id], rule: "any" }, token);
  expect(saved.success).toBe(true);
  expect((await api("PUT", `/api/monitors/${monitorId}`, { active: true }, token)).success).toBe(true);

  const run = () => Bun.spawn([agentBin, "run", "--config", configPath, "--interval", "1"], { stdout: "ignore", stderr: "ignore" });
  let agent = run();
  processes.push(agent);
  // The first check comes within 10 s of the assignment (a random spread).
  await checked;
  server.kill("SIGTERM");
  await server.exited;
  // The result is written within a second of the check's end; then the agent dies without a goodbye.
  const unsent = () => (existsSync(statePath) ? (JSON.parse(readFileSync(statePath, "utf8")).results as { monitorId: number; time: number; up: boolean; responseTime: number | null }[]) : []);
  await waitFor(() => unsent().length > 0, 10_000);
  agent.kill("SIGKILL");
  await agent.exited;
  const [result] = unsent();
  expect(result).toMatchObject({ monitorId, up: true, httpStatus: 200, error: null });
  expect(result.responseTime).toBeGreaterThanOrEqual(3000);

  // Both back: the new run sends what the killed one left, and forgets it once the server has it.
  server = await startServer(port);
  agent = run();
  processes.push(agent);
  const agentLocation = async () => {
    const view = await api("GET", `/api/monitors/${monitorId}/locations`, undefined, token);
    return (view.locations as any[]).find((l) => l.agentId === agentRow.id);
  };
  // Stored as the killed run made it (the new run also checks again at once, from the assignments it kept).
  const stored = () => {
    const db = new Database(join(dir, "data", "vigil.db"), { readonly: true });
    try {
      return db.query("SELECT up, http_status AS httpStatus FROM probe_results WHERE monitor_id = ? AND agent_id = ? AND time = ?").get(monitorId, agentRow.id, result.time);
    } finally {
      db.close();
    }
  };
  await waitFor(() => stored() !== null, 15_000);
  expect(stored()).toEqual({ up: 1, httpStatus: 200 });
  expect(await agentLocation()).toMatchObject({ name: "probe-agent", latest: { up: true, httpStatus: 200, error: null } });
  await waitFor(() => unsent().length === 0, 10_000);
  agent.kill("SIGTERM");
  expect(await agent.exited).toBe(0);
  server.kill("SIGTERM");
  await server.exited;
}, 90_000);
