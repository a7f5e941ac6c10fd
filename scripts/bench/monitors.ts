// npm run bench — the monitor benchmark: plain HTTP runs, then a mixed run of every check type.
//
// For each size N: a fresh data dir with N monitors (1-minute interval) pointing at a local target (Bun.serve in this
// process, 127.0.0.1 only), then the real server as its own process (`bun server/main.ts`, or `--binary dist/vigil`)
// so CPU and memory are the server's alone. After a warm-up, the run is measured for --duration seconds through the
// admin-only GET /api/monitors/stats (scheduler counters and lateness histogram) and /proc/<pid>. Then the server is
// stopped with SIGTERM (it writes what is pending) and the database is measured.
//
// Then the mixed run (mixed.ts): --mixed monitors of every type, --mix shares (by default 25 % each of http with a
// keyword assertion, tcp, dns against a local DNS responder, and push monitors this script calls once a minute),
// measured over the same --duration. A second table sets its CPU per check (server CPU seconds / checks recorded in
// the window) beside the plain HTTP runs'; a third gives its checks, down results and final statuses per type.
//
//   bun scripts/bench/monitors.ts [--sizes 1000,10000] [--duration 180] [--warmup 10] [--binary dist/vigil]
//                                 [--concurrency 200] [--keep] [--mixed 10000] [--mix http:25,tcp:25,dns:25,push:25]
//                                 [--mixed-only]
//
//   --binary       the server executable (default: bun server/main.ts); also VIGIL_BINARY
//   --mixed N      monitors of the mixed run; 0 skips it (default 10000)
//   --mix          type weights of the mixed run (e.g. dns:100 for DNS alone)
//   --mixed-only   skip the plain HTTP runs (--sizes)
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../../server/db/open";
import { LatencyHistogram } from "../../server/monitors/scheduler";
import { countingTarget } from "./fixtures";
import { MIX_TYPES, describeMix, insertMixed, parseMix, pushPinger, startMixedFixtures, type Mix, type MixedFixtures, type MixType, type PingCounts } from "./mixed";
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
    mixed: { type: "string", default: "10000" },
    mix: { type: "string", default: "http:25,tcp:25,dns:25,push:25" },
    "mixed-only": { type: "boolean", default: false },
  },
});
args.binary ??= process.env.VIGIL_BINARY || undefined;
const sizes = args.sizes!.split(",").map((s) => Number(s.trim().replace(/_/g, "")));
const duration = Number(args.duration);
const warmup = Number(args.warmup);
const mixedN = Number(args.mixed!.replace(/_/g, ""));
const mix = parseMix(args.mix!);
if (sizes.some((n) => !Number.isInteger(n) || n < 1) || !(duration > 0) || !(warmup >= 0) || !Number.isInteger(mixedN) || mixedN < 0 || !mix) {
  console.error(
    "usage: bun scripts/bench/monitors.ts [--sizes 1000,10000] [--duration 180] [--warmup 10] [--binary dist/vigil] " +
      "[--mixed 10000] [--mix http:25,tcp:25,dns:25,push:25] [--mixed-only]",
  );
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

/** What a mixed run adds: per type, the checks recorded in the window, their down results, the final statuses. */
interface TypeFigures {
  monitors: number;
  checks: number;
  down: number;
  status: { up: number; down: number; pending: number };
  /** A few errors of monitors down at the end. */
  errors: string[];
}

/** One run: n plain HTTP monitors (mix null), or n monitors of the mix. */
async function run(n: number, mix: Mix | null) {
  const dir = mkdtempSync(join(tmpdir(), `vigil-bench-${mix ? "mixed-" : ""}${n}-`));
  const dbPath = join(dir, "vigil.db");
  const fx = mix ? await startMixedFixtures() : null;
  try {
    // N monitors, written straight into the database the server will open (as a restart would find them).
    // The benchmark measures the SQLite file (its size per check): the raw client writes the rows in bulk.
    const db = await openDatabase(dbPath);
    const sqlite = db.sqlite!;
    const now = Date.now();
    let mixed: ReturnType<typeof insertMixed> | null = null;
    if (mix && fx) mixed = insertMixed(sqlite, n, mix, fx, now);
    else {
      const insert = sqlite.prepare(
        "INSERT INTO monitors (name, url, method, interval, timeout, expected_status, retries, created_at, updated_at) VALUES (?, ?, 'GET', 1, 10, '2xx', 1, ?, ?)",
      );
      sqlite.transaction(() => {
        for (let i = 1; i <= n; i++) insert.run(`bench ${i}`, `http://127.0.0.1:${target.port}/m/${i}`, now, now);
      })();
    }
    await db.close();
    const dbBefore = statSync(dbPath).size;

    const server = await startServer(dir, { binary: args.binary, args: args.concurrency ? ["--check-concurrency", args.concurrency] : [] });
    const { startupMs } = server;
    let pinger: ReturnType<typeof pushPinger> | null = null;
    let pings: PingCounts | null = null;
    const types: Partial<Record<MixType, TypeFigures>> = {};
    let a: Stats, b: Stats, cpuA: number, cpuB: number, rss: number, peakRss: number, elapsed: number, hits: number;
    let wallA: number, wallB: number;
    // The machine's 1-minute load average at the start and end of the window (other work on it skews lateness).
    let loadA = 0, loadB = 0;
    let fxA: ReturnType<MixedFixtures["counters"]> | null = null;
    let fxB: ReturnType<MixedFixtures["counters"]> | null = null;
    try {
      const call = apiClient(server.base);
      await call("POST", "/api/auth/register", { username: "bench", password: PASSWORD });
      const token = (await call("POST", "/api/auth/login", { username: "bench", password: PASSWORD })).token as string;
      const stats = async () => (await call("GET", "/api/monitors/stats", undefined, token)).stats as Stats;

      if (mixed) {
        // Push calls from now until the window ends (every monitor heard once a minute: none goes silent).
        pinger = pushPinger(server.base, mixed.pushTokens, { untilMs: performance.now() + (warmup + duration) * 1000 + 2000 });
        // One check of each checked type at once: a broken fixture fails here, not after minutes of down results.
        for (const type of ["http", "tcp", "dns"] as const) {
          const id = mixed.firstId[type];
          if (id === undefined) continue;
          const r = await call("POST", `/api/monitors/${id}/check`, undefined, token);
          if (r.result?.status !== "up") throw new Error(`the first ${type} monitor (${id}) is not up: ${JSON.stringify(r)}`);
        }
      }

      await Bun.sleep(warmup * 1000);
      a = await stats();
      const hitsA = target.hits();
      fxA = fx?.counters() ?? null;
      const pingsA = pinger?.snapshot() ?? null;
      const pid = server.proc.pid;
      cpuA = cpuSeconds(pid);
      wallA = Date.now();
      loadA = loadavg()[0];
      const tA = performance.now();
      peakRss = rssBytes(pid);
      const end = tA + duration * 1000;
      while (performance.now() < end) {
        await Bun.sleep(Math.min(5000, end - performance.now()));
        peakRss = Math.max(peakRss, rssBytes(pid));
      }
      b = await stats();
      cpuB = cpuSeconds(pid);
      wallB = Date.now();
      loadB = loadavg()[0];
      rss = rssBytes(pid);
      elapsed = (performance.now() - tA) / 1000;
      fxB = fx?.counters() ?? null;
      hits = fxA && fxB ? fxB.httpHits - fxA.httpHits : target.hits() - hitsA; // the mixed run's http monitors have their own target
      const pingsB = pinger?.snapshot() ?? null;
      if (pingsA && pingsB) {
        pings = { sent: 0, ok: 0, tooMany: 0, failed: 0, skipped: 0 };
        for (const k of Object.keys(pings) as (keyof PingCounts)[]) pings[k] = pingsB[k] - pingsA[k];
      }

      if (mix) {
        await pinger?.stop();
        // Statuses at the end, per type (after the window: the list's cost is not measured).
        const list = (await call("GET", "/api/monitors", undefined, token)).monitors as { type: MixType; status: "up" | "down" | "pending"; lastError: string | null }[];
        for (const m of list) {
          const t = (types[m.type] ??= { monitors: 0, checks: 0, down: 0, status: { up: 0, down: 0, pending: 0 }, errors: [] });
          t.monitors++;
          t.status[m.status]++;
          if (m.status === "down" && m.lastError && t.errors.length < 3 && !t.errors.includes(m.lastError)) t.errors.push(m.lastError);
        }
      }
    } finally {
      await pinger?.stop();
      await server.stop();
    }

    const after = new Database(dbPath);
    after.run("PRAGMA wal_checkpoint(TRUNCATE)");
    const rows = after.query("SELECT count(*) AS n, sum(up = 0) AS down FROM check_results").get() as { n: number; down: number };
    const bytes = (after.query("SELECT sum(pgsize) AS b FROM dbstat WHERE name IN ('check_results', 'check_results_monitor_time')").get() as { b: number }).b;
    // Checks recorded in the window (by start time), per type.
    const windowRows = after
      .query("SELECT m.type AS type, count(*) AS n, sum(c.up = 0) AS down FROM check_results c JOIN monitors m ON m.id = c.monitor_id WHERE c.time >= ? AND c.time < ? GROUP BY m.type")
      .all(wallA!, wallB!) as { type: MixType; n: number; down: number }[];
    after.close();
    const dbAfter = statSync(dbPath).size;
    for (const w of windowRows) {
      const t = (types[w.type] ??= { monitors: 0, checks: 0, down: 0, status: { up: 0, down: 0, pending: 0 }, errors: [] });
      t.checks = w.n;
      t.down = w.down ?? 0;
    }
    const checks = windowRows.reduce((s, w) => s + w.n, 0);

    const lateness = LatencyHistogram.from(b!.scheduler.lateness.histogram).minus(LatencyHistogram.from(a!.scheduler.lateness.histogram));
    return {
      n,
      mix,
      startupMs,
      elapsed: elapsed!,
      scheduled: n / 60,
      achieved: (b!.scheduler.started - a!.scheduler.started) / elapsed!,
      targetRate: hits! / elapsed!,
      p50: lateness.percentile(50),
      p99: lateness.percentile(99),
      max: Math.round(lateness.max),
      skipped: b!.scheduler.skippedBusy - a!.scheduler.skippedBusy + b!.scheduler.skippedLate - a!.scheduler.skippedLate,
      cpuSeconds: cpuB! - cpuA!,
      cpu: ((cpuB! - cpuA!) / elapsed!) * 100,
      rss: rss!,
      peakRss: peakRss!,
      rows: rows.n,
      down: rows.down ?? 0,
      checks,
      windowDown: windowRows.reduce((s, w) => s + (w.down ?? 0), 0),
      types,
      local: fxA && fxB ? { httpHits: fxB.httpHits - fxA.httpHits, tcpAccepted: fxB.tcpAccepted - fxA.tcpAccepted, dnsQueries: fxB.dnsQueries - fxA.dnsQueries } : null,
      pings,
      pingFailures: pinger?.firstFailures ?? [],
      bytesPerCheck: rows.n ? bytes / rows.n : 0,
      fileBytesPerCheck: rows.n ? (dbAfter - dbBefore) / rows.n : 0,
      maxFlushMs: b!.writer.maxFlushMs,
      load: [loadA, loadB],
    };
  } finally {
    fx?.stop();
    if (!args.keep) rmSync(dir, { recursive: true, force: true });
  }
}

const label = (r: { n: number; mix: Mix | null }) => `${r.n.toLocaleString("en-US")}${r.mix ? " mixed" : ""}`;

console.log(
  `Monitor benchmark: ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), ${mb(totalmem())} RAM, Bun ${Bun.version}; ` +
    `server: ${args.binary ?? "bun server/main.ts"}; 1-minute interval; measured ${duration} s after a ${warmup} s warm-up` +
    (mixedN > 0 ? `; mixed run: ${describeMix(mix)}` : "") +
    "\n",
);
const results = [];
for (const n of args["mixed-only"] ? [] : sizes) {
  process.stderr.write(`running ${n} monitors for ${duration + warmup} s…\n`);
  results.push(await run(n, null));
}
if (mixedN > 0) {
  process.stderr.write(`running ${mixedN} mixed monitors (${describeMix(mix)}) for ${duration + warmup} s…\n`);
  results.push(await run(mixedN, mix));
}
target.stop();

console.log("| monitors | scheduled checks/s | achieved checks/s | lateness p50 | lateness p99 | lateness max | server CPU (% of 1 core) | RSS end / peak | DB bytes per check | start-up |");
console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const r of results) {
  console.log(
    `| ${label(r)} | ${r.scheduled.toFixed(1)} | ${r.achieved.toFixed(1)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.max} ms | ` +
      `${r.cpu.toFixed(1)} % | ${mb(r.rss)} / ${mb(r.peakRss)} | ${r.bytesPerCheck.toFixed(1)} | ${(r.startupMs / 1000).toFixed(1)} s |`,
  );
}
console.log("");
for (const r of results) {
  console.log(
    `- ${label(r)}: target saw ${r.targetRate.toFixed(1)} req/s; ${r.rows} checks stored (${r.down} down); ${r.skipped} slots skipped; ` +
      `file growth ${r.fileBytesPerCheck.toFixed(1)} B/check; slowest batch write ${r.maxFlushMs.toFixed(1)} ms; ` +
      `load average ${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)}`,
  );
}

// CPU per check: server CPU seconds over the window / checks recorded in it (by start time; push calls count as checks,
// the scheduler's once-a-minute look at a push monitor does not, though its CPU is in the total).
console.log("");
console.log("| run | window | checks recorded | down results | server CPU | CPU per check | RSS end / peak | lateness p50 / p99 |");
console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
for (const r of results) {
  console.log(
    `| ${label(r)}${r.mix ? ` (${describeMix(r.mix)})` : " (http)"} | ${r.elapsed.toFixed(0)} s | ${r.checks.toLocaleString("en-US")} | ${r.windowDown} | ` +
      `${r.cpuSeconds.toFixed(1)} s | ${r.checks ? ((r.cpuSeconds / r.checks) * 1000).toFixed(3) : "–"} ms | ${mb(r.rss)} / ${mb(r.peakRss)} | ${ms(r.p50)} / ${ms(r.p99)} |`,
  );
}

for (const r of results.filter((x) => x.mix)) {
  console.log("");
  console.log(`Mixed run, ${label(r)}, per type (checks and down results in the ${r.elapsed.toFixed(0)} s window; status at its end):`);
  console.log("");
  console.log("| type | monitors | checks recorded | checks/s | down results | up / down / pending at end | local side in the window |");
  console.log("|---|---:|---:|---:|---:|---:|---|");
  for (const type of MIX_TYPES) {
    const t = r.types[type];
    if (!t) continue;
    const local =
      type === "http" ? `target: ${r.local?.httpHits ?? "?"} requests`
      : type === "tcp" ? `listener: ${r.local?.tcpAccepted ?? "?"} connections`
      : type === "dns" ? `responder: ${r.local?.dnsQueries ?? "?"} queries`
      : r.pings ? `pings: ${r.pings.sent} sent, ${r.pings.ok} × 200, ${r.pings.tooMany} × 429, ${r.pings.failed} failed, ${r.pings.skipped} skipped`
      : "";
    console.log(
      `| ${type === "http" ? "http+keyword" : type} | ${t.monitors.toLocaleString("en-US")} | ${t.checks.toLocaleString("en-US")} | ${(t.checks / r.elapsed).toFixed(1)} | ${t.down} | ` +
        `${t.status.up} / ${t.status.down} / ${t.status.pending} | ${local} |`,
    );
  }
  const errors = MIX_TYPES.flatMap((type) => (r.types[type]?.errors ?? []).map((e) => `${type}: ${e}`));
  if (errors.length) console.log(`\n- errors of monitors down at the end: ${errors.join("; ")}`);
  if (r.pingFailures.length) console.log(`- first failed push calls: ${r.pingFailures.join("; ")}`);
}
