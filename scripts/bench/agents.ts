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
// With --engines sqlite,postgres step 1 runs once per engine, side by side (engines.ts): on PostgreSQL in a schema of
// its own, on the server --database-url names (also VIGIL_BENCH_DATABASE_URL) or a throwaway one, with its
// processes' CPU over the same window beside Vigil's. Step 2 runs once, on SQLite.
//
//   bun scripts/bench/agents.ts [--agents 1000] [--duration 180] [--agent-duration 120] [--binary dist/vigil]
//                               [--engines sqlite,postgres] [--database-url postgres://…] [--keep]
import { sql } from "drizzle-orm";
import { existsSync, statSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { HostInfo } from "../../server/agents/protocol";
import { buildAgents } from "../build-agents";
import { dash, freshStore, parseEngines, withPg, type Engine, type PgServer } from "./engines";
import { agentSample } from "./fixtures";
import { apiClient, benchDir, cpuSeconds, mb, ROOT, rssBytes, startServer } from "./proc";

const { values: args } = parseArgs({
  args: process.argv.slice(2),
  options: {
    agents: { type: "string", default: "1000" },
    duration: { type: "string", default: "180" },
    "agent-duration": { type: "string", default: "120" },
    binary: { type: "string" },
    engines: { type: "string", default: "sqlite" },
    "database-url": { type: "string" },
    keep: { type: "boolean", default: false },
  },
});
args["database-url"] ??= process.env.VIGIL_BENCH_DATABASE_URL || undefined;
const engines = parseEngines(args.engines!);
const N = Number(args.agents);
const duration = Number(args.duration);
const agentDuration = Number(args["agent-duration"]);
if (!Number.isInteger(N) || N < 1 || !(duration > 0) || !(agentDuration >= 0) || !engines) {
  console.error("usage: bun scripts/bench/agents.ts [--agents 1000] [--duration 180] [--agent-duration 120] [--engines sqlite,postgres] [--database-url postgres://…]");
  process.exit(2);
}
const INTERVAL_MS = 10_000;
const PASSWORD = "bench password 1";

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
}

/** N simulated agents reporting to a server on `engine` (a fresh store). */
async function simulatedAgents(engine: Engine, pg: PgServer | null) {
  const temp = benchDir(`vigil-bench-agents-${engine}-`, args.keep);
  try {
    const store = await freshStore(engine, temp.path, pg, { keep: args.keep });
    try {
      return await simulate(temp.path, store);
    } finally {
      await store.drop().catch((e) => process.stderr.write(`dropping the run's schema failed: ${e}\n`));
    }
  } finally {
    temp.remove();
  }
}

async function simulate(dir: string, store: Awaited<ReturnType<typeof freshStore>>) {
  const server = await startServer(dir, { binary: args.binary, args: store.serverArgs });
  let latencies: number[] = [];
  let errors = 0, elapsed = 0, cpu = 0, rss = 0, peakRss = 0;
  let dbCpuSeconds: number | null = null, dbPss: number | null = null;
  try {
    const call = apiClient(server.base);
    await call("POST", "/api/auth/register", { username: "bench", password: PASSWORD });
    const token = (await call("POST", "/api/auth/login", { username: "bench", password: PASSWORD })).token as string;

    process.stderr.write(`registering ${N} agents (${store.engine})…\n`);
    const credentials: string[] = [];
    const hosts: HostInfo[] = [];
    for (let i = 0; i < N; i++) {
      const host: HostInfo = { hostname: `host-${i}`, ips: [`10.1.${i >> 8}.${i & 255}`], os: "Debian GNU/Linux 12 (bookworm)", kernel: "6.1.0-18-amd64", arch: "x64", uptime: 86_400, agentVersion: "bench" };
      const { token: registration } = await call("POST", "/api/agents/tokens", undefined, token);
      const reg = await call("POST", "/api/agents/register", { token: registration, host });
      if (!reg.credential) throw new Error(`agent registration failed: ${JSON.stringify(reg)}`);
      credentials.push(reg.credential);
      hosts.push(host);
    }

    process.stderr.write(`${N} agents reporting every 10 s for ${duration} s (${store.engine})…\n`);
    const pid = server.proc.pid;
    const cpuA = cpuSeconds(pid);
    const dbCpuA = store.serverCpu();
    peakRss = rssBytes(pid);
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
    elapsed = (performance.now() - start) / 1000;
    cpu = ((cpuSeconds(pid) - cpuA) / elapsed) * 100;
    const dbCpuB = store.serverCpu();
    dbCpuSeconds = dbCpuA !== null && dbCpuB !== null ? dbCpuB - dbCpuA : null;
    dbPss = store.serverPss();
    rss = rssBytes(pid);
  } finally {
    await server.stop();
  }

  // Bytes per stored row (a table with its indexes: SQLite's page accounting, PostgreSQL's relation sizes), scaled
  // to one agent-day.
  const db = await store.open();
  const count = async (table: "agent_samples" | "agent_minutely") =>
    (await db.rows<{ n: number }>(sql`SELECT count(*) AS n FROM ${sql.identifier(table)}`))[0].n;
  const sizes = await store.sizes(db, ["agent_samples", "agent_minutely"]);
  const rawRows = await count("agent_samples");
  const minutelyRows = await count("agent_minutely");
  await db.close();
  const rawPerRow = rawRows ? sizes.tables.agent_samples / rawRows : 0;
  const minutelyPerRow = minutelyRows ? sizes.tables.agent_minutely / minutelyRows : 0;
  // One agent-day: 8 640 raw samples, 1 440 minute rollups, 24 hour rollups (hour rows are minute-sized).
  const perAgentDay = rawPerRow * 8640 + minutelyPerRow * (1440 + 24);
  latencies = latencies.sort((a, b) => a - b);
  return {
    engine: store.engine,
    sent: latencies.length + errors,
    errors,
    rate: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpu,
    dbCpu: dbCpuSeconds === null ? null : (dbCpuSeconds / elapsed) * 100,
    dbPss,
    rss,
    peakRss,
    rawRows,
    rawPerRow,
    minutelyRows,
    perAgentDay,
    startupMs: server.startupMs,
    problems: server.problems,
  };
}

async function realAgent() {
  const bin = join(ROOT, "dist/agents/vigil-agent-linux-x64");
  if (!existsSync(bin)) await buildAgents(["linux-x64"]);
  const temp = benchDir("vigil-bench-agent-");
  const dir = temp.path;
  const server = await startServer(dir, { binary: args.binary });
  const call = apiClient(server.base);
  await call("POST", "/api/auth/register", { username: "bench", password: PASSWORD });
  const token = (await call("POST", "/api/auth/login", { username: "bench", password: PASSWORD })).token as string;
  const { token: registration } = await call("POST", "/api/agents/tokens", undefined, token);
  const config = join(dir, "agent.json");
  const reg = Bun.spawnSync([bin, "register", "--server", server.base, "--config", config], { env: { ...process.env, VIGIL_TOKEN: registration } });
  if (reg.exitCode !== 0) throw new Error(reg.stderr.toString());
  const agent = Bun.spawn([bin, "run", "--config", config, "--interval", "10"], { stdout: "ignore", stderr: "ignore" });
  const killAgent = () => void (agent.exitCode === null && agent.kill("SIGKILL")); // if this process ends early
  process.on("exit", killAgent);
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
  process.off("exit", killAgent);
  await server.stop();
  temp.remove();
  return { rss, peak, cpu, size: statSync(bin).size, gz: existsSync(`${bin}.gz`) ? statSync(`${bin}.gz`).size : 0, reported };
}

const sims = await withPg(engines!, args["database-url"], async (pg) => {
  console.log(
    `Agent benchmark: ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), Bun ${Bun.version}; server: ${args.binary ?? "bun server/main.ts"}; ` +
      `engines: ${engines!.join(", ")}${pg ? `\nPostgreSQL: ${pg.describe}` : ""}\n`,
  );
  const out = [];
  for (const engine of engines!) out.push(await simulatedAgents(engine, pg));
  return out;
});
const pct = (v: number) => `${v.toFixed(1)} %`;
console.log(
  "| engine | simulated agents | reports/s | ingest p50 | ingest p99 | errors | Vigil CPU (% of 1 core) | DB server CPU (% of 1 core) | Vigil RSS end / peak | DB bytes per agent-day |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const sim of sims) {
  console.log(
    `| ${sim.engine} | ${N.toLocaleString("en-US")} | ${sim.rate.toFixed(1)} | ${sim.p50.toFixed(1)} ms | ${sim.p99.toFixed(1)} ms | ${sim.errors} | ${pct(sim.cpu)} | ` +
      `${dash(sim.dbCpu, pct)} | ${mb(sim.rss)} / ${mb(sim.peakRss)} | ${(sim.perAgentDay / 1024 / 1024).toFixed(2)} MiB |`,
  );
}
console.log(
  "\n- DB server CPU: PostgreSQL's processes over the same window (SQLite runs inside Vigil: —). DB bytes: each table with its " +
    "indexes (SQLite: dbstat pages after a checkpoint; PostgreSQL: pg_total_relation_size) per row, × 8 640 raw samples + 1 464 rollups.",
);
for (const sim of sims) {
  console.log(
    `- ${sim.engine}: ${sim.rawRows} samples stored, ${sim.rawPerRow.toFixed(0)} B each; ${sim.minutelyRows} minute rollups; ${duration} s measured; ` +
      `start-up ${(sim.startupMs / 1000).toFixed(1)} s` +
      (sim.dbPss !== null ? `; PostgreSQL memory (PSS) ${mb(sim.dbPss)}` : "") +
      `; server log: ${sim.problems.length ? `${sim.problems.length} WARN/ERROR lines (below)` : "no WARN/ERROR lines"}.`,
  );
}
for (const sim of sims.filter((x) => x.problems.length)) {
  console.log(`\nServer log, ${sim.engine}: WARN/ERROR lines (first ${sim.problems.length}):\n`);
  for (const line of sim.problems) console.log(`    ${line}`);
}
if (agentDuration > 0) {
  const real = await realAgent();
  console.log("\n| real agent (10 s interval) | RSS end / peak | CPU (% of 1 core) | binary | gzip on the wire | status seen by server |");
  console.log("|---|---:|---:|---:|---:|---|");
  console.log(`| linux-x64 | ${mb(real.rss)} / ${mb(real.peak)} | ${real.cpu.toFixed(2)} % | ${mb(real.size)} | ${mb(real.gz)} | ${real.reported} |`);
}
