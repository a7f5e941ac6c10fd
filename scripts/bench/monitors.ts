// npm run bench — the HTTP monitor benchmark.
//
// For each size N: a fresh data dir with N monitors (1-minute interval) pointing at a local target (Bun.serve in this
// process, 127.0.0.1 only), then the real server as its own process (`bun server/main.ts`, or `--binary dist/vigil`)
// so CPU and memory are the server's alone. After a warm-up, the run is measured for --duration seconds through the
// admin-only GET /api/monitors/stats (scheduler counters and lateness histogram) and /proc/<pid>. Then the server is
// stopped with SIGTERM (it writes what is pending) and the database is measured.
//
//   bun scripts/bench/monitors.ts [--sizes 1000,10000] [--duration 180] [--warmup 10] [--binary dist/vigil]
//                                 [--concurrency 200] [--keep]
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../../server/db/open";
import { LatencyHistogram } from "../../server/monitors/scheduler";
import { countingTarget } from "./fixtures";
import { apiClient, cpuSeconds, mb, rssBytes, startServer } from "./proc";

const { values: args } = parseArgs({
  args: process.argv.slice(2),
  options: {
    sizes: { type: "string", default: "1000,10000" },
    duration: { type: "string", default: "180" },
    warmup: { type: "string", default: "10" },
    binary: { type: "string" },
    concurrency: { type: "string" },
    keep: { type: "boolean", default: false },
  },
});
const sizes = args.sizes!.split(",").map((s) => Number(s.trim().replace(/_/g, "")));
const duration = Number(args.duration);
const warmup = Number(args.warmup);
if (sizes.some((n) => !Number.isInteger(n) || n < 1) || !(duration > 0) || !(warmup >= 0)) {
  console.error("usage: bun scripts/bench/monitors.ts [--sizes 1000,10000] [--duration 180] [--warmup 10] [--binary dist/vigil]");
  process.exit(2);
}
const PASSWORD = "bench password 1";

// The target: answers every check with a small 200, counting requests.
const target = countingTarget();

interface Stats {
  scheduler: { started: number; completed: number; skippedBusy: number; skippedLate: number; lateness: { histogram: [number, number][] } };
  writer: { written: number; maxFlushMs: number };
}

const ms = (v: number | null) => (v === null ? "–" : `${v} ms`);

async function run(n: number) {
  const dir = mkdtempSync(join(tmpdir(), `vigil-bench-${n}-`));
  const dbPath = join(dir, "vigil.db");

  // N monitors, written straight into the database the server will open (as a restart would find them).
  const db = openDatabase(dbPath);
  const insert = db.$client.prepare(
    "INSERT INTO monitors (name, url, method, interval, timeout, expected_status, retries, created_at, updated_at) VALUES (?, ?, 'GET', 1, 10, '2xx', 1, ?, ?)",
  );
  const now = Date.now();
  db.$client.transaction(() => {
    for (let i = 1; i <= n; i++) insert.run(`bench ${i}`, `http://127.0.0.1:${target.port}/m/${i}`, now, now);
  })();
  db.$client.close();
  const dbBefore = statSync(dbPath).size;

  const server = await startServer(dir, { binary: args.binary, args: args.concurrency ? ["--check-concurrency", args.concurrency] : [] });
  const { startupMs } = server;
  const call = apiClient(server.base);
  await call("POST", "/api/auth/register", { username: "bench", password: PASSWORD });
  const token = (await call("POST", "/api/auth/login", { username: "bench", password: PASSWORD })).token as string;
  const stats = async () => (await call("GET", "/api/monitors/stats", undefined, token)).stats as Stats;

  await Bun.sleep(warmup * 1000);
  const a = await stats();
  const hitsA = target.hits();
  const pid = server.proc.pid;
  const cpuA = cpuSeconds(pid);
  const tA = performance.now();
  let peakRss = rssBytes(pid);
  const end = tA + duration * 1000;
  while (performance.now() < end) {
    await Bun.sleep(Math.min(5000, end - performance.now()));
    peakRss = Math.max(peakRss, rssBytes(pid));
  }
  const b = await stats();
  const cpuB = cpuSeconds(pid);
  const rss = rssBytes(pid);
  const elapsed = (performance.now() - tA) / 1000;
  const hits = target.hits() - hitsA;

  await server.stop();

  const after = new Database(dbPath);
  after.run("PRAGMA wal_checkpoint(TRUNCATE)");
  const rows = (after.query("SELECT count(*) AS n, sum(up = 0) AS down FROM check_results").get() as { n: number; down: number });
  const bytes = (after.query("SELECT sum(pgsize) AS b FROM dbstat WHERE name IN ('check_results', 'check_results_monitor_time')").get() as { b: number }).b;
  after.close();
  const dbAfter = statSync(dbPath).size;
  if (!args.keep) rmSync(dir, { recursive: true, force: true });

  const lateness = LatencyHistogram.from(b.scheduler.lateness.histogram).minus(LatencyHistogram.from(a.scheduler.lateness.histogram));
  return {
    n,
    startupMs,
    elapsed,
    scheduled: n / 60,
    achieved: (b.scheduler.started - a.scheduler.started) / elapsed,
    targetRate: hits / elapsed,
    p50: lateness.percentile(50),
    p99: lateness.percentile(99),
    max: Math.round(lateness.max),
    skipped: b.scheduler.skippedBusy - a.scheduler.skippedBusy + b.scheduler.skippedLate - a.scheduler.skippedLate,
    cpu: ((cpuB - cpuA) / elapsed) * 100,
    rss,
    peakRss,
    rows: rows.n,
    down: rows.down ?? 0,
    bytesPerCheck: rows.n ? bytes / rows.n : 0,
    fileBytesPerCheck: rows.n ? (dbAfter - dbBefore) / rows.n : 0,
    maxFlushMs: b.writer.maxFlushMs,
  };
}

console.log(
  `HTTP monitor benchmark: ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), ${mb(totalmem())} RAM, Bun ${Bun.version}; ` +
    `server: ${args.binary ?? "bun server/main.ts"}; 1-minute interval; measured ${duration} s after a ${warmup} s warm-up\n`,
);
const results = [];
for (const n of sizes) {
  process.stderr.write(`running ${n} monitors for ${duration + warmup} s…\n`);
  results.push(await run(n));
}
target.stop();

console.log("| monitors | scheduled checks/s | achieved checks/s | lateness p50 | lateness p99 | lateness max | server CPU (% of 1 core) | RSS end / peak | DB bytes per check | start-up |");
console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const r of results) {
  console.log(
    `| ${r.n.toLocaleString("en-US")} | ${r.scheduled.toFixed(1)} | ${r.achieved.toFixed(1)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.max} ms | ` +
      `${r.cpu.toFixed(1)} % | ${mb(r.rss)} / ${mb(r.peakRss)} | ${r.bytesPerCheck.toFixed(1)} | ${(r.startupMs / 1000).toFixed(1)} s |`,
  );
}
console.log("");
for (const r of results) {
  console.log(
    `- ${r.n}: target saw ${r.targetRate.toFixed(1)} req/s; ${r.rows} checks stored (${r.down} down); ${r.skipped} slots skipped; ` +
      `file growth ${r.fileBytesPerCheck.toFixed(1)} B/check; slowest batch write ${r.maxFlushMs.toFixed(1)} ms`,
  );
}
