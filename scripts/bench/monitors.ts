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
// With --engines sqlite,postgres each plain HTTP size runs once per engine, side by side (engines.ts): on PostgreSQL
// in a schema of its own, on the server --database-url names or a throwaway one. Its processes' CPU over the same
// window is reported beside Vigil's (SQLite works inside Vigil's process: its CPU is in Vigil's figure). The mixed
// run stays on SQLite.
//
//   bun scripts/bench/monitors.ts [--sizes 1000,10000] [--duration 180] [--warmup 10] [--binary dist/vigil]
//                                 [--concurrency 200] [--keep] [--mixed 10000] [--mix http:25,tcp:25,dns:25,push:25]
//                                 [--mixed-only] [--engines sqlite,postgres] [--database-url postgres://…]
//
//   --binary       the server executable (default: bun server/main.ts); also VIGIL_BINARY
//   --engines      the engines of the plain HTTP runs (default sqlite)
//   --database-url the PostgreSQL server of postgres runs (default: a throwaway one); also VIGIL_BENCH_DATABASE_URL
//   --mixed N      monitors of the mixed run; 0 skips it (default 10000)
//   --mix          type weights of the mixed run (e.g. dns:100 for DNS alone)
//   --mixed-only   skip the plain HTTP runs (--sizes)
//   --windows      maintenance windows per plain HTTP run, each count a run of its own (default 0; e.g. 0,1000):
//                  each names an equal slice of the monitors, every other one in progress (scripts/bench/windows.ts)
//   --profile DIR  the floor comparison's Vigil runs write a CPU profile (Bun's --cpu-prof-md) into DIR
//   --floor-rate   checks/s of the floor comparison (default 50; 0 skips it): per --variants (plain keep-alive,
//                  https-close: a self-signed target closing every connection), Vigil with rate·60 monitors, then
//                  the bare-Bun floor (floor.ts) batched and with a timer per URL on Bun's defaults, and batched on
//                  the server's runtime settings (its Bun flags and environment), each measured over
//                  --floor-duration (default 60) after --warmup, the whole set --floor-repeats times (default 1);
//                  see floor-runs.ts
import { sql } from "drizzle-orm";
import { cpus, loadavg, totalmem } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { createCheckPacking } from "../../server/monitors/packing";
import { LatencyHistogram } from "../../server/monitors/scheduler";
import { dash, freshStore, parseEngines, withPg, type Engine, type PgServer } from "./engines";
import { countingTarget } from "./fixtures";
import { MIX_TYPES, describeMix, insertMixed, parseMix, pushPinger, startMixedFixtures, type Mix, type MixedFixtures, type MixType, type PingCounts } from "./mixed";
import { apiClient, benchDir, cpuSeconds, mb, rssBytes, startServer } from "./proc";
import { insertWindows } from "./windows";
import { insertUpMonitors } from "./seed-monitors";
import { FLOOR_RUNS, parseVariants, perRequestMs, runFloor, startVariantTarget, type BenchTarget, type FloorFigures, type Variant } from "./floor-runs";

const { values: args } = parseArgs({
  args: process.argv.slice(2),
  options: {
    sizes: { type: "string", default: "1000,10000,100000" },
    duration: { type: "string", default: "180" },
    warmup: { type: "string", default: "10" },
    binary: { type: "string" },
    concurrency: { type: "string" },
    keep: { type: "boolean", default: false },
    mixed: { type: "string", default: "10000" },
    mix: { type: "string", default: "http:25,tcp:25,dns:25,push:25" },
    "mixed-only": { type: "boolean", default: false },
    engines: { type: "string", default: "sqlite" },
    windows: { type: "string", default: "0" },
    "database-url": { type: "string" },
    "floor-rate": { type: "string", default: "50" },
    "floor-duration": { type: "string", default: "60" },
    "floor-repeats": { type: "string", default: "1" },
    variants: { type: "string", default: "plain,https-close" },
    profile: { type: "string" },
  },
});
args.binary ??= process.env.VIGIL_BINARY || undefined;
args["database-url"] ??= process.env.VIGIL_BENCH_DATABASE_URL || undefined;
const engines = parseEngines(args.engines!);
const sizes = args.sizes!.split(",").map((s) => Number(s.trim().replace(/_/g, "")));
const duration = Number(args.duration);
const warmup = Number(args.warmup);
const mixedN = Number(args.mixed!.replace(/_/g, ""));
const mix = parseMix(args.mix!);
const windowCounts = args.windows!.split(",").map((s) => Number(s.trim().replace(/_/g, "")));
const floorRate = Number(args["floor-rate"]);
const floorDuration = Number(args["floor-duration"]);
const floorRepeats = Number(args["floor-repeats"]);
const variants = parseVariants(args.variants!);
const profileDir = args.profile ? resolve(args.profile) : null;
if (!variants || !(floorRate >= 0) || !(floorDuration > 0) || !Number.isInteger(floorRepeats) || floorRepeats < 1) {
  console.error("usage: … [--floor-rate 50] [--floor-duration 60] [--floor-repeats 1] [--variants plain,https-close]");
  process.exit(2);
}
if (windowCounts.some((w) => !Number.isInteger(w) || w < 0) || sizes.some((n) => !Number.isInteger(n) || n < 1) || !(duration > 0) || !(warmup >= 0) || !Number.isInteger(mixedN) || mixedN < 0 || !mix || !engines) {
  console.error(
    "usage: bun scripts/bench/monitors.ts [--sizes 1000,10000] [--duration 180] [--warmup 10] [--binary dist/vigil] " +
      "[--mixed 10000] [--mix http:25,tcp:25,dns:25,push:25] [--mixed-only] [--engines sqlite,postgres] [--database-url postgres://…] [--windows 0,1000]",
  );
  process.exit(2);
}
const PASSWORD = "bench password 1";

// The target of the plain runs: answers every check with a small 200, counting requests.
const plainTarget = countingTarget();
const defaultTarget = { base: `http://127.0.0.1:${plainTarget.port}`, insecure: false, hits: plainTarget.hits };

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

/**
 * One run: n plain HTTP monitors (mix null) against `target`, or n monitors of the mix (SQLite only), on `engine`,
 * with `windows` maintenance windows, measured over `seconds`.
 */
async function run(
  n: number,
  mix: Mix | null,
  engine: Engine,
  pg: PgServer | null,
  windows = 0,
  target: Pick<BenchTarget, "base" | "insecure" | "hits"> = defaultTarget,
  seconds = duration,
) {
  if (mix && engine !== "sqlite") throw new Error("the mixed run is SQLite only");
  const temp = benchDir(`vigil-bench-${mix ? "mixed-" : ""}${engine}-${n}-`, args.keep);
  const dir = temp.path;
  const fx = mix ? await startMixedFixtures() : null;
  let store: Awaited<ReturnType<typeof freshStore>> | null = null;
  try {
    store = await freshStore(engine, dir, pg, { keep: args.keep });
    // N monitors, written straight into the database the server will open (insertUpMonitors; the mixed run's writer is
    // SQLite's raw client).
    const db = await store.open();
    const now = Date.now();
    let mixed: ReturnType<typeof insertMixed> | null = null;
    if (mix && fx) mixed = insertMixed(db.sqlite!, n, mix, fx, now);
    else await insertUpMonitors(db, n, (i) => ({ url: `${target.base}/m/${i}`, ignoreTls: target.insecure }));
    const maintenance = windows > 0 ? await insertWindows(db, n, windows, now) : { inMaintenance: 0 };
    const dbBefore = (await store.sizes(db, [])).total;
    await db.close();

    // Bun flags for the server (a CPU profile of the floor comparison's runs; VIGIL_BENCH_RUNTIME_ARGS: e.g. --heap-prof-md).
    const profile = [
      ...(profileDir && target !== defaultTarget ? ["--cpu-prof-md", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=vigil-${n}-${target.base.split(":")[0]}.md`] : []),
      ...(process.env.VIGIL_BENCH_RUNTIME_ARGS?.split(" ").filter(Boolean) ?? []),
    ];
    const server = await startServer(dir, {
      binary: profile.length ? undefined : args.binary,
      runtimeArgs: profile,
      args: [...store.serverArgs, ...(args.concurrency ? ["--check-concurrency", args.concurrency] : [])],
    });
    const { startupMs } = server;
    let pinger: ReturnType<typeof pushPinger> | null = null;
    let pings: PingCounts | null = null;
    const types: Partial<Record<MixType, TypeFigures>> = {};
    let a: Stats, b: Stats, cpuA: number, cpuB: number, rss: number, peakRss: number, elapsed: number, hits: number;
    // The database server's CPU seconds over the same window, and its memory at the end (null on SQLite).
    let dbCpuA: number | null = null, dbCpuB: number | null = null, dbPss: number | null = null;
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
      dbCpuA = store.serverCpu();
      wallA = Date.now();
      loadA = loadavg()[0];
      const tA = performance.now();
      peakRss = rssBytes(pid);
      const end = tA + seconds * 1000;
      while (performance.now() < end) {
        await Bun.sleep(Math.min(5000, end - performance.now()));
        peakRss = Math.max(peakRss, rssBytes(pid));
      }
      b = await stats();
      cpuB = cpuSeconds(pid);
      dbCpuB = store.serverCpu();
      dbPss = store.serverPss();
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

    const after = await store.open();
    const [rows] = await after.rows<{ n: number; down: number | null }>(sql`SELECT count(*) AS n, sum(CASE WHEN up THEN 0 ELSE 1 END) AS down FROM check_results`);
    // Checks recorded in the window (by start time), per type.
    const windowRows = await after.rows<{ type: MixType; n: number; down: number | null }>(
      sql`SELECT m.type AS type, count(*) AS n, sum(CASE WHEN c.up THEN 0 ELSE 1 END) AS down FROM check_results c JOIN monitors m ON m.id = c.monitor_id
          WHERE c.time >= ${wallA!} AND c.time < ${wallB!} GROUP BY m.type`,
    );
    // As written: on PostgreSQL, rows in the hour partitions. Then packed as the maintenance pass packs an hour once it
    // is an hour old (server/monitors/packing.ts), the run's hours at once, and measured after a VACUUM.
    const written = (await store.sizes(after, ["check_results"])).tables.check_results!;
    if (store.engine === "postgres") {
      await createCheckPacking(after).pack(Number.MAX_SAFE_INTEGER);
      await after.exec(sql`VACUUM check_results, check_blocks`);
    }
    const sizes = await store.sizes(after, ["check_results", "check_blocks"]);
    await after.close();
    const bytes = sizes.tables.check_results! + (sizes.tables.check_blocks ?? 0);
    for (const w of windowRows) {
      const t = (types[w.type] ??= { monitors: 0, checks: 0, down: 0, status: { up: 0, down: 0, pending: 0 }, errors: [] });
      t.checks = w.n;
      t.down = w.down ?? 0;
    }
    const checks = windowRows.reduce((s, w) => s + w.n, 0);

    const lateness = LatencyHistogram.from(b!.scheduler.lateness.histogram).minus(LatencyHistogram.from(a!.scheduler.lateness.histogram));
    const dbCpuSeconds = dbCpuA !== null && dbCpuB !== null ? dbCpuB - dbCpuA : null;
    return {
      n,
      mix,
      engine,
      windows,
      inMaintenance: maintenance.inMaintenance,
      startupMs,
      elapsed: elapsed!,
      scheduled: n / 60,
      achieved: (b!.scheduler.started - a!.scheduler.started) / elapsed!,
      hits: hits!,
      targetRate: hits! / elapsed!,
      p50: lateness.percentile(50),
      p99: lateness.percentile(99),
      max: Math.round(lateness.max),
      skipped: b!.scheduler.skippedBusy - a!.scheduler.skippedBusy + b!.scheduler.skippedLate - a!.scheduler.skippedLate,
      cpuSeconds: cpuB! - cpuA!,
      cpu: ((cpuB! - cpuA!) / elapsed!) * 100,
      dbCpuSeconds,
      dbCpu: dbCpuSeconds === null ? null : (dbCpuSeconds / elapsed!) * 100,
      dbPss,
      problems: server.problems,
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
      writtenBytesPerCheck: rows.n ? written / rows.n : 0,
      fileBytesPerCheck: rows.n ? (sizes.total - dbBefore) / rows.n : 0,
      maxFlushMs: b!.writer.maxFlushMs,
      load: [loadA, loadB],
    };
  } finally {
    fx?.stop();
    await store?.drop().catch((e) => process.stderr.write(`dropping the run's schema failed: ${e}\n`));
    temp.remove();
  }
}

const label = (r: { n: number; mix: Mix | null; windows: number; inMaintenance: number }) =>
  `${r.n.toLocaleString("en-US")}${r.mix ? " mixed" : ""}${r.windows ? ` + ${r.windows.toLocaleString("en-US")} windows (${r.inMaintenance.toLocaleString("en-US")} in maintenance)` : ""}`;
const plainEngines = args["mixed-only"] ? [] : engines!;

const results = await withPg(plainEngines, args["database-url"], async (pg) => {
  try {
    console.log(
      `Monitor benchmark: ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), ${mb(totalmem())} RAM, Bun ${Bun.version}; ` +
        `server: ${args.binary ?? "bun server/main.ts"}; 1-minute interval; measured ${duration} s after a ${warmup} s warm-up` +
        (mixedN > 0 ? `; mixed run (SQLite): ${describeMix(mix)}` : "") +
        `; engines: ${plainEngines.join(", ") || "–"}` +
        (pg ? `\nPostgreSQL: ${pg.describe}` : "") +
        "\n",
    );
    const out = [];
    for (const n of args["mixed-only"] ? [] : sizes) {
      for (const engine of plainEngines) {
        for (const windows of windowCounts) {
          process.stderr.write(`running ${n} monitors${windows ? ` with ${windows} maintenance windows` : ""} on ${engine} for ${duration + warmup} s…\n`);
          out.push(await run(n, null, engine, pg, windows));
        }
      }
    }
    if (mixedN > 0) {
      process.stderr.write(`running ${mixedN} mixed monitors (${describeMix(mix)}) on sqlite for ${duration + warmup} s…\n`);
      out.push(await run(mixedN, mix, "sqlite", null));
    }
    return out;
  } finally {
    plainTarget.stop();
  }
});

// The floor comparison: per variant and repeat, Vigil then the floor's two schedules, each alone on the machine.
interface FloorRow {
  variant: Variant;
  vigil: { cpuSeconds: number; requests: number; elapsed: number; p99: number | null; max: number; down: number };
  floors: FloorFigures[];
  /** TLS connections the target accepted over Vigil's whole run, against the requests it answered (null: not counted). */
  reuse: { connections: number; requests: number } | null;
}
const floorRows: FloorRow[] = [];
if (floorRate > 0) {
  const n = Math.round(floorRate * 60);
  for (let repeat = 0; repeat < floorRepeats; repeat++) {
    for (const variant of variants!) {
      const target = await startVariantTarget(variant);
      try {
        process.stderr.write(`floor comparison ${repeat + 1}/${floorRepeats}: ${variant}, ${n} monitors, Vigil then the floor (${FLOOR_RUNS.map((f) => `${f.mode} on ${f.settings === "bun" ? "Bun's defaults" : "the server's settings"}`).join(", ")})…\n`);
        const hitsA = target.hits();
        const connA = target.connections();
        const v = await run(n, null, "sqlite", null, 0, target, floorDuration);
        const connections = connA === null ? null : (target.connections() ?? 0) - connA;
        const hitsB = target.hits();
        const floors: FloorFigures[] = [];
        for (const { mode, settings } of FLOOR_RUNS) floors.push(await runFloor(target, n, mode, settings, warmup, floorDuration));
        floorRows.push({ variant, vigil: { cpuSeconds: v.cpuSeconds, requests: v.hits, elapsed: v.elapsed, p99: v.p99, max: v.max, down: v.windowDown }, floors, reuse: connections === null ? null : { connections, requests: hitsB - hitsA } });
      } finally {
        target.stop();
      }
    }
  }
}

const pct = (v: number) => `${v.toFixed(1)} %`;
console.log(
  "| engine | monitors | scheduled checks/s | achieved checks/s | lateness p50 | lateness p99 | lateness max | Vigil CPU (% of 1 core) | DB server CPU (% of 1 core) | Vigil RSS end / peak | DB bytes per check | start-up |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const r of results) {
  console.log(
    `| ${r.engine} | ${label(r)} | ${r.scheduled.toFixed(1)} | ${r.achieved.toFixed(1)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.max} ms | ` +
      `${pct(r.cpu)} | ${dash(r.dbCpu, pct)} | ${mb(r.rss)} / ${mb(r.peakRss)} | ${r.bytesPerCheck.toFixed(1)} | ${(r.startupMs / 1000).toFixed(1)} s |`,
  );
}
console.log("");
console.log(
  "- DB server CPU: PostgreSQL's processes (postmaster, backends, background workers, reaped children) over the same window; " +
    "SQLite runs inside Vigil (—: its work is in Vigil's CPU). DB bytes per check: check_results with its index " +
    "(SQLite: dbstat pages after a checkpoint; PostgreSQL: pg_total_relation_size of check_results and check_blocks after " +
    "the run's hours are packed and a VACUUM), over the rows stored.",
);
for (const r of results) {
  console.log(
    `- ${r.engine} ${label(r)}: target saw ${r.targetRate.toFixed(1)} req/s; ${r.rows} checks stored (${r.down} down); ${r.skipped} slots skipped; ` +
      (r.engine === "postgres" ? `rows as written ${r.writtenBytesPerCheck.toFixed(1)} B/check, packed ${r.bytesPerCheck.toFixed(1)}; ` : "") +
      `${r.engine === "sqlite" ? "file" : "schema"} growth ${r.fileBytesPerCheck.toFixed(1)} B/check; slowest batch write ${r.maxFlushMs.toFixed(1)} ms; ` +
      (r.dbPss !== null ? `PostgreSQL memory (PSS) ${mb(r.dbPss)}; ` : "") +
      `load average ${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)}; server log: ${r.problems.length ? `${r.problems.length} WARN/ERROR lines (below)` : "no WARN/ERROR lines"}`,
  );
}

// CPU per check: server CPU seconds over the window / checks recorded in it (by start time; push calls count as checks,
// the scheduler's once-a-minute look at a push monitor does not, though its CPU is in the total). On PostgreSQL the
// database server's CPU is added for the total.
const perCheck = (seconds: number, checks: number) => (checks ? `${((seconds / checks) * 1000).toFixed(3)} ms` : "–");
console.log("");
console.log("| engine | run | window | checks recorded | down results | Vigil CPU | DB server CPU | CPU per check: Vigil / Vigil + DB | RSS end / peak | lateness p50 / p99 |");
console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const r of results) {
  console.log(
    `| ${r.engine} | ${label(r)}${r.mix ? ` (${describeMix(r.mix)})` : " (http)"} | ${r.elapsed.toFixed(0)} s | ${r.checks.toLocaleString("en-US")} | ${r.windowDown} | ` +
      `${r.cpuSeconds.toFixed(1)} s | ${dash(r.dbCpuSeconds, (v) => `${v.toFixed(1)} s`)} | ${perCheck(r.cpuSeconds, r.checks)} / ${perCheck(r.cpuSeconds + (r.dbCpuSeconds ?? 0), r.checks)} | ` +
      `${mb(r.rss)} / ${mb(r.peakRss)} | ${ms(r.p50)} / ${ms(r.p99)} |`,
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

for (const r of results.filter((x) => x.problems.length)) {
  console.log(`\nServer log, ${r.engine} ${label(r)}: WARN/ERROR lines (first ${r.problems.length}):\n`);
  for (const line of r.problems) console.log(`    ${line}`);
}

if (floorRows.length) {
  // CPU per check for Vigil and the floor, per variant; with repeats, each variant's figures are summed over them.
  const sum = (rows: FloorRow[], f: (r: FloorRow) => number) => rows.reduce((s, r) => s + f(r), 0);
  const ms3 = (v: number | null) => (v === null ? "–" : `${v.toFixed(3)} ms`);
  console.log("");
  console.log(`Per-check CPU against the runtime's floor (${floorRate} checks/s, ${floorRepeats} × ${floorDuration} s windows per figure, each process alone):`);
  console.log("");
  console.log(
    "| variant | checks/s (Vigil) | Vigil CPU per check | floor, batched 100 ms ticks | floor, a timer per URL | Vigil / batched floor | Vigil / timer floor | " +
      "floor, batched, the server's runtime settings | Vigil / that floor | Vigil lateness p99 / max | down |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const variant of variants!) {
    const rows = floorRows.filter((r) => r.variant === variant);
    if (!rows.length) continue;
    const vigil = perRequestMs(sum(rows, (r) => r.vigil.cpuSeconds), sum(rows, (r) => r.vigil.requests));
    const floor = (mode: string, settings: string) => {
      const of = (r: FloorRow) => r.floors.find((f) => f.mode === mode && f.settings === settings)!;
      return perRequestMs(sum(rows, (r) => of(r).cpuSeconds), sum(rows, (r) => of(r).requests));
    };
    const batched = floor("batched", "bun");
    const timers = floor("timers", "bun");
    const like = floor("batched", "server");
    const ratio = (a: number | null, b: number | null) => (a !== null && b ? `${(a / b).toFixed(2)}×` : "–");
    console.log(
      `| ${variant} | ${(sum(rows, (r) => r.vigil.requests) / sum(rows, (r) => r.vigil.elapsed)).toFixed(1)} | ${ms3(vigil)} | ${ms3(batched)} | ${ms3(timers)} | ` +
        `${ratio(vigil, batched)} | ${ratio(vigil, timers)} | ${ms3(like)} | ${ratio(vigil, like)} | ${rows.map((r) => `${ms(r.vigil.p99)} / ${r.vigil.max} ms`).join(", ")} | ${sum(rows, (r) => r.vigil.down)} |`,
    );
  }
  console.log("");
  for (const r of floorRows) {
    console.log(
      `- ${r.variant}: Vigil ${r.vigil.requests} requests, ${r.vigil.cpuSeconds.toFixed(2)} s CPU in ${r.vigil.elapsed.toFixed(0)} s; ` +
        r.floors.map((f) => `floor ${f.mode}${f.settings === "server" ? " (server's settings)" : ""} ${f.requests} requests, ${f.cpuSeconds.toFixed(2)} s CPU, ${f.failed} failed`).join("; ") +
        (r.reuse ? `; the target accepted ${r.reuse.connections} TLS connections for ${r.reuse.requests} of Vigil's requests` : ""),
    );
  }
}
