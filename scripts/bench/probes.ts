// The checks-from-agents benchmark (npm run bench:probes).
//
// 1. A real server (`bun server/main.ts` or --binary, SQLite) with --monitors HTTP monitors (default 1 000) at a 1 min
//    interval against a local target, first checked from the server alone (--baseline seconds), then from the server
//    and 3 simulated agents each (4 000 checks a minute): the agents send their results every 10 s as a real agent
//    does (POST /api/agents/probes, spread over the 10 s). Reports the server's CPU and RSS in both phases and the
//    ingest latency (p50/p99 of the agents' calls).
// 2. The real agent, compiled from agent/main.ts, with --agent-monitors monitors assigned (default 100): its CPU and
//    RSS while it checks them every minute, for --agent-duration seconds.
// Traffic goes to 127.0.0.1 only; every loop ends by itself.
//
//   bun scripts/bench/probes.ts [--monitors 1000] [--baseline 60] [--duration 180] [--agent-monitors 100] [--agent-duration 150] [--binary dist/vigil]
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { HostInfo } from "../../server/agents/protocol";
import type { ProbeResult } from "../../server/probes/protocol";
import { apiClient, benchDir, cpuSeconds, mb, ROOT, rssBytes, startServer } from "./proc";

const { values: args } = parseArgs({
  args: process.argv.slice(2),
  options: {
    monitors: { type: "string", default: "1000" },
    baseline: { type: "string", default: "60" },
    duration: { type: "string", default: "180" },
    "agent-monitors": { type: "string", default: "100" },
    "agent-duration": { type: "string", default: "150" },
    binary: { type: "string" },
  },
});
const N = Number(args.monitors);
const baseline = Number(args.baseline);
const duration = Number(args.duration);
const agentMonitors = Number(args["agent-monitors"]);
const agentDuration = Number(args["agent-duration"]);
if (!(N >= 1 && baseline >= 10 && duration >= 30 && agentMonitors >= 1 && agentMonitors <= N && agentDuration >= 30)) {
  console.error("usage: bun scripts/bench/probes.ts [--monitors 1000] [--baseline 60] [--duration 180] [--agent-monitors 100] [--agent-duration 150]");
  process.exit(2);
}
const AGENTS = 3;
const SEND_EVERY_MS = 10_000;
const PASSWORD = "bench password 1";

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);
const ms = (v: number) => `${v.toFixed(1)} ms`;

// The monitors' target: answers at once, like a healthy site next door.
const target = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ok") });

const temp = benchDir("vigil-bench-probes-");
const server = await startServer(temp.path, { binary: args.binary });
const pid = server.proc.pid;
const call = apiClient(server.base);
let agentProc: ReturnType<typeof Bun.spawn> | null = null;
process.on("exit", () => void (agentProc?.exitCode === null && agentProc.kill("SIGKILL")));

/** CPU % of one core and peak RSS of the server over `seconds`, sampling RSS every second. */
async function watch(seconds: number, during?: (end: number) => Promise<void>) {
  const cpuA = cpuSeconds(pid);
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  let peak = rssBytes(pid);
  const work = during?.(end);
  while (performance.now() < end) {
    await Bun.sleep(Math.min(1000, end - performance.now()));
    peak = Math.max(peak, rssBytes(pid));
  }
  await work;
  const elapsed = (performance.now() - t0) / 1000;
  return { cpu: ((cpuSeconds(pid) - cpuA) / elapsed) * 100, peak, elapsed };
}

try {
  await call("POST", "/api/auth/register", { username: "bench", password: PASSWORD, confirmPassword: PASSWORD });
  const token = (await call("POST", "/api/auth/login", { username: "bench", password: PASSWORD })).token as string;
  process.stderr.write(`creating ${N} monitors…\n`);
  const ids: number[] = [];
  for (let i = 0; i < N; i++) {
    const r = await call("POST", "/api/monitors", { name: `m${i}`, url: `http://127.0.0.1:${target.port}/${i}`, interval: 1 }, token);
    if (!r.monitor) throw new Error(`monitor: ${JSON.stringify(r)}`);
    ids.push(r.monitor.id);
  }

  process.stderr.write(`phase 1: checked from the server alone for ${baseline} s…\n`);
  await Bun.sleep(5_000); // the first checks of a fresh schedule are not the steady state
  const alone = await watch(baseline);

  // Three simulated agents and the real one, registered through the API.
  const host = (name: string): HostInfo => ({ hostname: name, ips: ["10.9.0.1"], os: "Debian GNU/Linux 12", kernel: "6.1.0", arch: "x64", uptime: 1000, agentVersion: "bench" });
  const register = async (name: string) => {
    const { token: registration } = await call("POST", "/api/agents/tokens", undefined, token);
    const reg = await call("POST", "/api/agents/register", { token: registration, name, host: host(name) });
    if (!reg.credential) throw new Error(`agent: ${JSON.stringify(reg)}`);
    return { id: reg.agentId as number, credential: reg.credential as string };
  };
  const simulated: { id: number; credential: string }[] = [];
  for (let i = 0; i < AGENTS; i++) simulated.push(await register(`sim-${i}`));
  process.stderr.write(`assigning each monitor to the server and ${AGENTS} agents…\n`);
  for (const id of ids) {
    const r = await call("PUT", `/api/monitors/${id}/locations`, { checkFromServer: true, agentIds: simulated.map((a) => a.id), rule: "majority" }, token);
    if (!r.success) throw new Error(`locations: ${JSON.stringify(r)}`);
  }

  // Agent a sends every 10 s (offset a·10 s/3) the results of the monitors whose minute slot fell in those 10 s.
  const latencies: number[] = [];
  let errors = 0;
  let results = 0;
  const simulate = async (end: number) => {
    const sends: Promise<void>[] = [];
    const start = performance.now();
    for (let k = 0; ; k++) {
      for (let a = 0; a < AGENTS; a++) {
        const due = start + k * SEND_EVERY_MS + (a * SEND_EVERY_MS) / AGENTS;
        if (due >= end) return void (await Promise.all(sends));
        const wait = due - performance.now();
        if (wait > 1) await Bun.sleep(wait);
        const now = Date.now();
        // 1 000 monitors a minute: a sixth of them in each 10 s.
        const slot = k % 6;
        const batch: ProbeResult[] = ids
          .filter((_, i) => i % 6 === slot)
          .map((monitorId, i) => ({ monitorId, time: now - 10_000 + Math.floor((i * 10_000) / (N / 6)), up: true, responseTime: 3 + (i % 7), httpStatus: 200, error: null }));
        const t0 = performance.now();
        sends.push(
          fetch(`${server.base}/api/agents/probes`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${simulated[a].credential}` },
            body: JSON.stringify({ version: "x", results: batch }),
          }).then(async (res) => {
            await res.arrayBuffer();
            if (res.ok) {
              latencies.push(performance.now() - t0);
              results += batch.length;
            } else errors++;
          }, () => void errors++),
        );
      }
    }
  };
  process.stderr.write(`phase 2: checked from the server and ${AGENTS} simulated agents for ${duration} s…\n`);
  const located = await watch(duration, simulate);
  latencies.sort((a, b) => a - b);

  // The real agent: assigned the first --agent-monitors monitors.
  process.stderr.write(`phase 3: the real agent with ${agentMonitors} monitors for ${agentDuration} s…\n`);
  const bin = join(temp.path, "vigil-agent");
  const build = Bun.spawnSync([process.execPath, "build", "--compile", join(ROOT, "agent/main.ts"), "--outfile", bin], { stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(build.stderr.toString());
  const { token: registration } = await call("POST", "/api/agents/tokens", undefined, token);
  const config = join(temp.path, "agent", "agent.json");
  const reg = Bun.spawnSync([bin, "register", "--server", server.base, "--config", config, "--name", "real"], { env: { ...process.env, VIGIL_TOKEN: registration } });
  if (reg.exitCode !== 0) throw new Error(reg.stderr.toString());
  const real = (await call("GET", "/api/agents", undefined, token)).agents.find((a: { name: string }) => a.name === "real").id as number;
  for (const id of ids.slice(0, agentMonitors)) {
    await call("PUT", `/api/monitors/${id}/locations`, { checkFromServer: true, agentIds: [...simulated.map((a) => a.id), real], rule: "majority" }, token);
  }
  agentProc = Bun.spawn([bin, "run", "--config", config, "--interval", "10", "--docker-socket", "off"], { stdout: "ignore", stderr: "ignore" });
  await Bun.sleep(20_000); // assignments learnt, first checks made
  const agentCpuA = cpuSeconds(agentProc.pid);
  let agentPeak = rssBytes(agentProc.pid);
  const a0 = performance.now();
  while (performance.now() - a0 < agentDuration * 1000) {
    await Bun.sleep(2_000);
    agentPeak = Math.max(agentPeak, rssBytes(agentProc.pid));
  }
  const agentCpu = ((cpuSeconds(agentProc.pid) - agentCpuA) / ((performance.now() - a0) / 1000)) * 100;
  const agentRss = rssBytes(agentProc.pid);
  agentProc.kill("SIGTERM");
  await agentProc.exited;
  const stored = (await call("GET", `/api/monitors/${ids[0]}/locations`, undefined, token)).locations.find((l: { agentId: number | null }) => l.agentId === real);

  const perCheck = (cpu: number, checksPerMinute: number) => `${((cpu / 100) * 60_000 / checksPerMinute).toFixed(3)} ms`;
  console.log(`\nChecks from agents: ${N} HTTP monitors at 1 min, a local target, SQLite, ${new Date().toISOString().slice(0, 10)}\n`);
  console.log("| | checks / min | server CPU (one core) | server CPU per check | server RSS (peak) |");
  console.log("|---|---|---|---|---|");
  console.log(`| server alone (${Math.round(alone.elapsed)} s) | ${N} | ${alone.cpu.toFixed(1)} % | ${perCheck(alone.cpu, N)} | ${mb(alone.peak)} |`);
  console.log(`| server + ${AGENTS} agents (${Math.round(located.elapsed)} s) | ${N * (AGENTS + 1)} | ${located.cpu.toFixed(1)} % | ${perCheck(located.cpu, N * (AGENTS + 1))} | ${mb(located.peak)} |`);
  console.log(`\n| agents' result calls | results stored | errors | ingest p50 | ingest p99 | max |`);
  console.log("|---|---|---|---|---|---|");
  console.log(`| ${latencies.length} (${Math.round(N / 6)} results each) | ${results} | ${errors} | ${ms(percentile(latencies, 50))} | ${ms(percentile(latencies, 99))} | ${ms(latencies.at(-1) ?? NaN)} |`);
  console.log(`\n| real agent, ${agentMonitors} monitors assigned (${agentDuration} s) | CPU (one core) | RSS | RSS (peak) | its latest result seen by the server |`);
  console.log("|---|---|---|---|---|");
  console.log(`| per ${agentMonitors} monitors | ${agentCpu.toFixed(2)} % | ${mb(agentRss)} | ${mb(agentPeak)} | ${stored?.status ?? "none"} |`);
  if (server.problems.length) console.log(`\nserver warnings:\n${server.problems.join("\n")}`);
} finally {
  await server.stop();
  target.stop(true);
  temp.remove();
}
