// The agent benchmark (npm run bench runs it after the monitor one).
//
// 1. N simulated agents (default 1 000), registered through the API, each reporting one sample every 10 s (spread
//    evenly) for --duration seconds to the real server in its own process (`bun server/main.ts` or --binary).
//    Reports ingest latency p50/p99 as this client sees it, the server's CPU and RSS, and database bytes per
//    agent-day (raw samples at 10 s plus the minute and hour rollups a day of them makes).
// 2. The real agent (dist/agents/vigil-agent-linux-x64, built if missing) at a 10 s interval for --agent-duration
//    seconds: its RSS and CPU, and its binary size.
// Traffic goes to 127.0.0.1 only; every loop ends by itself.
//
//   bun scripts/bench/agents.ts [--agents 1000] [--duration 180] [--agent-duration 120] [--binary dist/vigil]
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { HostInfo } from "../../server/agents/protocol";
import { buildAgents } from "../build-agents";
import { agentSample } from "./fixtures";
import { apiClient, cpuSeconds, mb, ROOT, rssBytes, startServer } from "./proc";

const { values: args } = parseArgs({
  args: process.argv.slice(2),
  options: {
    agents: { type: "string", default: "1000" },
    duration: { type: "string", default: "180" },
    "agent-duration": { type: "string", default: "120" },
    binary: { type: "string" },
  },
});
const N = Number(args.agents);
const duration = Number(args.duration);
const agentDuration = Number(args["agent-duration"]);
if (!Number.isInteger(N) || N < 1 || !(duration > 0) || !(agentDuration >= 0)) {
  console.error("usage: bun scripts/bench/agents.ts [--agents 1000] [--duration 180] [--agent-duration 120]");
  process.exit(2);
}
const INTERVAL_MS = 10_000;
const PASSWORD = "bench password 1";

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
}

/** A plausible server: 2 disks, 2 interfaces, numbers that move. */

async function simulatedAgents() {
  const dir = mkdtempSync(join(tmpdir(), "vigil-bench-agents-"));
  const server = await startServer(dir, { binary: args.binary });
  const call = apiClient(server.base);
  await call("POST", "/api/auth/register", { username: "bench", password: PASSWORD });
  const token = (await call("POST", "/api/auth/login", { username: "bench", password: PASSWORD })).token as string;

  process.stderr.write(`registering ${N} agents…\n`);
  const credentials: string[] = [];
  const hosts: HostInfo[] = [];
  for (let i = 0; i < N; i++) {
    const host: HostInfo = { hostname: `host-${i}`, ips: [`10.1.${i >> 8}.${i & 255}`], os: "Debian GNU/Linux 12 (bookworm)", kernel: "6.1.0-18-amd64", arch: "x64", uptime: 86_400, agentVersion: "bench" };
    const { token: registration } = await call("POST", "/api/agents/tokens", undefined, token);
    const reg = await call("POST", "/api/agents/register", { token: registration, host });
    credentials.push(reg.credential);
    hosts.push(host);
  }

  process.stderr.write(`${N} agents reporting every 10 s for ${duration} s…\n`);
  const latencies: number[] = [];
  let errors = 0;
  const pid = server.proc.pid;
  const cpuA = cpuSeconds(pid);
  let peakRss = rssBytes(pid);
  const start = performance.now();
  const end = start + duration * 1000;
  const sends: Promise<void>[] = [];
  // Agent i reports at start + i·(10 s / N) + k·10 s.
  for (let k = 0; ; k++) {
    let done = false;
    for (let i = 0; i < N; i++) {
      const due = start + k * INTERVAL_MS + (i * INTERVAL_MS) / N;
      if (due >= end) {
        done = true;
        break;
      }
      const wait = due - performance.now();
      if (wait > 1) await Bun.sleep(wait);
      const body = JSON.stringify({ host: hosts[i], interval: 10, samples: [agentSample(i, Date.now())] });
      const t0 = performance.now();
      sends.push(
        fetch(`${server.base}/api/agents/report`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${credentials[i]}` },
          body,
        }).then(async (res) => {
          await res.arrayBuffer();
          if (res.ok) latencies.push(performance.now() - t0);
          else errors++;
        }, () => void errors++),
      );
      if (i % 100 === 0) peakRss = Math.max(peakRss, rssBytes(pid));
    }
    if (done) break;
  }
  await Promise.all(sends);
  const elapsed = (performance.now() - start) / 1000;
  const cpu = ((cpuSeconds(pid) - cpuA) / elapsed) * 100;
  const rss = rssBytes(pid);
  await server.stop();

  // Bytes per stored row, from SQLite's own page accounting, scaled to one agent-day.
  const db = new Database(join(dir, "vigil.db"));
  db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  const table = (name: string) => {
    const rows = (db.query(`SELECT count(*) AS n FROM ${name}`).get() as { n: number }).n;
    const bytes = (db.query("SELECT coalesce(sum(pgsize), 0) AS b FROM dbstat WHERE name LIKE ?").get(`%${name}%`) as { b: number }).b;
    return { rows, perRow: rows ? bytes / rows : 0 };
  };
  const raw = table("agent_samples");
  const minutely = table("agent_minutely");
  db.close();
  rmSync(dir, { recursive: true, force: true });
  // One agent-day: 8 640 raw samples, 1 440 minute rollups, 24 hour rollups (hour rows are minute-sized).
  const perAgentDay = raw.perRow * 8640 + minutely.perRow * (1440 + 24);
  latencies.sort((a, b) => a - b);
  return { sent: latencies.length + errors, errors, rate: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), cpu, rss, peakRss, rawRows: raw.rows, rawPerRow: raw.perRow, perAgentDay, startupMs: server.startupMs };
}

async function realAgent() {
  const bin = join(ROOT, "dist/agents/vigil-agent-linux-x64");
  if (!existsSync(bin)) await buildAgents(["linux-x64"]);
  const dir = mkdtempSync(join(tmpdir(), "vigil-bench-agent-"));
  const server = await startServer(dir, { binary: args.binary });
  const call = apiClient(server.base);
  await call("POST", "/api/auth/register", { username: "bench", password: PASSWORD });
  const token = (await call("POST", "/api/auth/login", { username: "bench", password: PASSWORD })).token as string;
  const { token: registration } = await call("POST", "/api/agents/tokens", undefined, token);
  const config = join(dir, "agent.json");
  const reg = Bun.spawnSync([bin, "register", "--server", server.base, "--config", config], { env: { ...process.env, VIGIL_TOKEN: registration } });
  if (reg.exitCode !== 0) throw new Error(reg.stderr.toString());
  const agent = Bun.spawn([bin, "run", "--config", config, "--interval", "10"], { stdout: "ignore", stderr: "ignore" });
  await Bun.sleep(5_000); // start-up is not the steady state
  const cpuA = cpuSeconds(agent.pid);
  const t0 = performance.now();
  let peak = rssBytes(agent.pid);
  const end = t0 + agentDuration * 1000;
  while (performance.now() < end) {
    await Bun.sleep(Math.min(5_000, end - performance.now()));
    peak = Math.max(peak, rssBytes(agent.pid));
  }
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = ((cpuSeconds(agent.pid) - cpuA) / elapsed) * 100;
  const rss = rssBytes(agent.pid);
  const reported = ((await call("GET", "/api/agents", undefined, token)).agents as { status: string }[])[0]?.status;
  agent.kill("SIGTERM");
  await agent.exited;
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
  return { rss, peak, cpu, size: statSync(bin).size, gz: existsSync(`${bin}.gz`) ? statSync(`${bin}.gz`).size : 0, reported };
}

console.log(`Agent benchmark: ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), Bun ${Bun.version}; server: ${args.binary ?? "bun server/main.ts"}\n`);
const sim = await simulatedAgents();
console.log("| simulated agents | reports/s | ingest p50 | ingest p99 | errors | server CPU (% of 1 core) | server RSS end / peak | DB bytes per agent-day |");
console.log("|---:|---:|---:|---:|---:|---:|---:|---:|");
console.log(
  `| ${N.toLocaleString("en-US")} | ${sim.rate.toFixed(1)} | ${sim.p50.toFixed(1)} ms | ${sim.p99.toFixed(1)} ms | ${sim.errors} | ${sim.cpu.toFixed(1)} % | ` +
    `${mb(sim.rss)} / ${mb(sim.peakRss)} | ${(sim.perAgentDay / 1024 / 1024).toFixed(2)} MiB |`,
);
console.log(`\n- ${sim.rawRows} samples stored, ${sim.rawPerRow.toFixed(0)} B each; ${duration} s measured.`);
if (agentDuration > 0) {
  const real = await realAgent();
  console.log("\n| real agent (10 s interval) | RSS end / peak | CPU (% of 1 core) | binary | gzip on the wire | status seen by server |");
  console.log("|---|---:|---:|---:|---:|---|");
  console.log(`| linux-x64 | ${mb(real.rss)} / ${mb(real.peak)} | ${real.cpu.toFixed(2)} % | ${mb(real.size)} | ${mb(real.gz)} | ${real.reported} |`);
}
