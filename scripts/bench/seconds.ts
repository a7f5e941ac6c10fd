// npm run bench:seconds — intervals in seconds beside minutes: does a mix of 20 s and 1 s monitors cost more per check,
// or make checks later, than the same server with 1-minute monitors alone?
//
// Two runs on SQLite, each a fresh data dir with its monitors written straight into the database (up for an hour, so
// the window measures steady checks) pointing at a local target (Bun.serve in this process, 127.0.0.1 only), then
// the real server as its own process (`bun server/main.ts`, or `--binary dist/vigil`):
//   - minutes: --base monitors at 1 minute;
//   - seconds: the same, plus --twenty monitors at 20 s and --one monitors at 1 s.
// After --warmup seconds, each is measured for --duration seconds through GET /api/monitors/stats (the lateness
// histogram: start minus scheduled time of every scheduled check) and /proc/<pid> (CPU). CPU per check is the
// server's CPU seconds over the checks it started in the window.
//
//   bun scripts/bench/seconds.ts [--base 15000] [--twenty 5000] [--one 100] [--duration 45] [--warmup 10] [--binary dist/vigil]
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { LatencyHistogram } from "../../server/monitors/scheduler";
import { freshStore } from "./engines";
import { countingTarget } from "./fixtures";
import { apiClient, benchDir, cpuSeconds, mb, rssBytes, startServer } from "./proc";

const { values: args } = parseArgs({
  args: process.argv.slice(2),
  options: {
    base: { type: "string", default: "15000" },
    twenty: { type: "string", default: "5000" },
    one: { type: "string", default: "100" },
    duration: { type: "string", default: "45" },
    warmup: { type: "string", default: "10" },
    binary: { type: "string" },
  },
});
const num = (v: string | undefined) => Number(v!.replace(/_/g, ""));
const [base, twenty, one, duration, warmup] = [num(args.base), num(args.twenty), num(args.one), num(args.duration), num(args.warmup)];
if (![base, twenty, one].every((n) => Number.isInteger(n) && n >= 0) || !(duration > 0) || !(warmup >= 0)) {
  console.error("usage: bun scripts/bench/seconds.ts [--base 15000] [--twenty 5000] [--one 100] [--duration 45] [--warmup 10] [--binary dist/vigil]");
  process.exit(2);
}
const binary = args.binary ?? (process.env.VIGIL_BINARY || undefined);
const PASSWORD = "bench password 1";
const target = countingTarget();

interface Stats {
  scheduler: { started: number; skippedBusy: number; skippedLate: number; lateness: { histogram: [number, number][] } };
}

/** One run: `groups` of [count, intervalSeconds] monitors, measured over the window. */
async function run(label: string, groups: [number, number][]) {
  const temp = benchDir("vigil-bench-seconds-");
  const store = await freshStore("sqlite", temp.path, null);
  const db = await store.open();
  const now = Date.now();
  let id = 0;
  for (const [count, intervalSeconds] of groups) {
    for (let from = 0; from < count; from += 500) {
      const chunk = [];
      for (let i = from; i < Math.min(count, from + 500); i++) {
        id++;
        const timeoutMs = Math.min(10_000, intervalSeconds * 800);
        chunk.push({ name: `bench ${id}`, settings: { url: `http://127.0.0.1:${target.port}/m/${id}` }, intervalSeconds, timeoutMs, retries: 1, status: "up" as const, statusChangedAt: now - 3_600_000, createdAt: now, updatedAt: now });
      }
      await db.orm.insert(db.t.monitors).values(chunk);
    }
  }
  await db.close();

  const server = await startServer(temp.path, { binary });
  try {
    const call = apiClient(server.base);
    await call("POST", "/api/auth/register", { username: "bench", password: PASSWORD });
    const token = (await call("POST", "/api/auth/login", { username: "bench", password: PASSWORD })).token as string;
    const stats = async () => (await call("GET", "/api/monitors/stats", undefined, token)).stats as Stats;
    await Bun.sleep(warmup * 1000);
    const a = await stats();
    const cpuA = cpuSeconds(server.proc.pid);
    const hitsA = target.hits();
    const loadA = loadavg()[0];
    const t0 = performance.now();
    await Bun.sleep(duration * 1000);
    const b = await stats();
    const cpu = cpuSeconds(server.proc.pid) - cpuA;
    const elapsed = (performance.now() - t0) / 1000;
    const rss = rssBytes(server.proc.pid);
    const started = b.scheduler.started - a.scheduler.started;
    const lateness = LatencyHistogram.from(b.scheduler.lateness.histogram).minus(LatencyHistogram.from(a.scheduler.lateness.histogram));
    return {
      label,
      monitors: id,
      scheduled: groups.reduce((s, [count, interval]) => s + count / interval, 0),
      rate: started / elapsed,
      hits: (target.hits() - hitsA) / elapsed,
      p50: lateness.percentile(50),
      p99: lateness.percentile(99),
      max: Math.round(lateness.max),
      skipped: b.scheduler.skippedBusy - a.scheduler.skippedBusy + b.scheduler.skippedLate - a.scheduler.skippedLate,
      cpu: (cpu / elapsed) * 100,
      cpuPerCheckUs: started ? (cpu / started) * 1e6 : 0,
      rss,
      load: `${loadA.toFixed(1)} → ${loadavg()[0].toFixed(1)}`,
      problems: server.problems,
    };
  } finally {
    await server.stop();
    temp.remove();
  }
}

const runs = [
  await run(`${base.toLocaleString("en")} at 1 min`, [[base, 60]]),
  await run(`+ ${twenty.toLocaleString("en")} at 20 s, ${one} at 1 s`, [[base, 60], [twenty, 20], [one, 1]]),
];
target.stop();

const ms = (v: number | null) => (v === null ? "–" : `${v} ms`);
console.log(`\nIntervals in seconds: ${duration} s window after ${warmup} s warm-up, ${binary ?? "bun server/main.ts"}, SQLite\n`);
console.log("| monitors | checks/s scheduled | checks/s started | lateness p50 | lateness p99 | lateness max | skipped | server CPU (% of 1 core) | CPU per check | RSS | load (1 min) |");
console.log("| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --- |");
for (const r of runs) {
  console.log(
    `| ${r.label} (${r.monitors.toLocaleString("en")}) | ${r.scheduled.toFixed(0)} | ${r.rate.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.max)} | ${r.skipped} | ${r.cpu.toFixed(1)} % | ${r.cpuPerCheckUs.toFixed(0)} µs | ${mb(r.rss)} | ${r.load} |`,
  );
}
for (const r of runs) for (const line of r.problems.slice(0, 5)) console.log(`  ${r.label}: ${line}`);
