// The cluster benchmark: 1, 2 and 3 nodes on one PostgreSQL on this machine with the same monitors, side by side.
// For each node count: a fresh schema, M plain HTTP monitors at 1 minute against a local counting target written
// straight into the database (up for an hour, as a restart finds them), N nodes started with --database-url and
// their own --node-name, a wait until the nodes hold all 256 buckets in fair shares, a warm-up, then a window over
// which it measures checks started (every node's /api/monitors/stats summed), CPU per check (the nodes' CPU plus the
// database server's, over the checks), lateness p50/p99/max (the nodes' histograms merged) and the target's rate.
//
//   bun scripts/bench/cluster.ts [--nodes 1,2,3] [--monitors 30000] [--duration 60] [--warmup 30]
//                                [--binary dist/vigil] [--database-url postgres://…]
//
// Load goes to 127.0.0.1 only and every run stops by itself; the nodes and the throwaway PostgreSQL are stopped at
// the end, on an error and on Ctrl-C.
import { parseArgs } from "node:util";
import { LatencyHistogram } from "../../server/monitors/scheduler";
import { freshStore, withPg, type PgServer } from "./engines";
import { countingTarget } from "./fixtures";
import { apiClient, benchDir, cpuSeconds, mb, rssBytes, startServer, type RunningServer } from "./proc";
import { insertUpMonitors } from "./seed-monitors";

const { values: args } = parseArgs({
  options: {
    nodes: { type: "string", default: "1,2,3" },
    monitors: { type: "string", default: "30000" },
    duration: { type: "string", default: "60" },
    warmup: { type: "string", default: "30" },
    binary: { type: "string" },
    "database-url": { type: "string" },
  },
});
const nodeCounts = args.nodes!.split(",").map(Number);
const M = Number(args.monitors);
const duration = Number(args.duration);
const warmup = Number(args.warmup);
if (nodeCounts.some((n) => !Number.isInteger(n) || n < 1 || n > 8) || !Number.isInteger(M) || M < 1 || !(duration > 0) || !(warmup >= 0)) {
  console.error("usage: bun scripts/bench/cluster.ts [--nodes 1,2,3] [--monitors 30000] [--duration 60] [--warmup 30] [--binary dist/vigil] [--database-url postgres://…]");
  process.exit(2);
}
const PASSWORD = "bench password 1";
const BUCKETS = 256;

interface Stats {
  scheduler: { started: number; skippedBusy: number; skippedLate: number; lateness: { histogram: [number, number][] } };
}

const target = countingTarget();
const base = `http://127.0.0.1:${target.port}`;

async function run(nodes: number, pg: PgServer) {
  const temp = benchDir(`vigil-bench-cluster-${nodes}-`);
  const store = await freshStore("postgres", temp.path, pg);
  const servers: RunningServer[] = [];
  try {
    const db = await store.open();
    await insertUpMonitors(db, M, (i) => ({ url: `${base}/m/${i}` }));
    await db.close();

    for (let i = 0; i < nodes; i++) {
      const dir = benchDir(`vigil-bench-cluster-node-${i}-`);
      servers.push(await startServer(dir.path, { binary: args.binary, args: [...store.serverArgs, "--node-name", `node-${i + 1}`] }));
    }
    const first = apiClient(servers[0]!.base);
    await first("POST", "/api/auth/register", { username: "bench", password: PASSWORD });
    const token = (await first("POST", "/api/auth/login", { username: "bench", password: PASSWORD })).token as string;
    const calls = servers.map((s) => apiClient(s.base));
    // Fair shares: every bucket held, none by a node over its share plus one.
    const fair = Math.ceil(BUCKETS / nodes);
    for (let deadline = Date.now() + 120_000; ; ) {
      const view = (await first("GET", "/api/cluster/nodes", undefined, token)) as { nodes: { live: boolean; leases: number }[] };
      const live = view.nodes.filter((n) => n.live);
      if (live.length === nodes && live.reduce((s, n) => s + n.leases, 0) === BUCKETS && live.every((n) => n.leases <= fair)) break;
      if (Date.now() > deadline) throw new Error(`the nodes did not share the buckets: ${JSON.stringify(view.nodes)}`);
      await Bun.sleep(1000);
    }
    await Bun.sleep(warmup * 1000);

    const stats = () => Promise.all(calls.map(async (call) => (await call("GET", "/api/monitors/stats", undefined, token)).stats as Stats));
    const cpu = () => servers.reduce((s, srv) => s + cpuSeconds(srv.proc.pid), 0);
    const a = await stats();
    const cpuA = cpu();
    const dbA = store.serverCpu();
    const hitsA = target.hits();
    const tA = performance.now();
    await Bun.sleep(duration * 1000);
    const b = await stats();
    const cpuB = cpu();
    const dbB = store.serverCpu();
    const hits = target.hits() - hitsA;
    const elapsed = (performance.now() - tA) / 1000;
    const rss = servers.map((s) => rssBytes(s.proc.pid));

    let started = 0;
    let skipped = 0;
    const lateness = new LatencyHistogram();
    for (let i = 0; i < nodes; i++) {
      started += b[i]!.scheduler.started - a[i]!.scheduler.started;
      skipped += b[i]!.scheduler.skippedBusy - a[i]!.scheduler.skippedBusy + b[i]!.scheduler.skippedLate - a[i]!.scheduler.skippedLate;
      const window = LatencyHistogram.from(b[i]!.scheduler.lateness.histogram).minus(LatencyHistogram.from(a[i]!.scheduler.lateness.histogram));
      for (const [bucket, n] of window.counts) lateness.counts.set(bucket, (lateness.counts.get(bucket) ?? 0) + n);
      lateness.total += window.total;
      lateness.max = Math.max(lateness.max, window.max);
    }
    const nodeCpu = cpuB - cpuA;
    const dbCpu = dbA !== null && dbB !== null ? dbB - dbA : null;
    return {
      nodes,
      scheduled: M / 60,
      achieved: started / elapsed,
      targetRate: hits / elapsed,
      skipped,
      nodeCpu: (nodeCpu / elapsed) * 100,
      dbCpu: dbCpu === null ? null : (dbCpu / elapsed) * 100,
      perCheck: started ? ((nodeCpu + (dbCpu ?? 0)) / started) * 1000 : null,
      p50: lateness.percentile(50),
      p99: lateness.percentile(99),
      max: Math.round(lateness.max),
      rss,
    };
  } finally {
    for (const s of servers) await s.stop();
    await store.drop();
  }
}

const results = await withPg(["postgres"], args["database-url"], async (pg) => {
  const out = [];
  for (const n of nodeCounts) {
    console.error(`running ${M} monitors on ${n} node(s) for ${warmup + duration} s…`);
    out.push(await run(n, pg!));
  }
  return out;
});
target.stop?.();

const pct = (v: number) => `${v.toFixed(1)} %`;
console.log(`\n${M.toLocaleString("en-US")} monitors at 1 minute (${(M / 60).toFixed(1)} checks/s), ${duration} s after a ${warmup} s warm-up, one PostgreSQL on this machine:\n`);
console.log("| nodes | achieved checks/s | target saw req/s | skipped | nodes' CPU (% of 1 core) | DB server CPU | CPU per check, nodes + DB | lateness p50 / p99 / max | RSS per node |");
console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---|");
for (const r of results) {
  console.log(
    `| ${r.nodes} | ${r.achieved.toFixed(1)} | ${r.targetRate.toFixed(1)} | ${r.skipped} | ${pct(r.nodeCpu)} | ${r.dbCpu === null ? "—" : pct(r.dbCpu)} | ` +
      `${r.perCheck === null ? "—" : `${r.perCheck.toFixed(3)} ms`} | ${r.p50} / ${r.p99} / ${r.max} ms | ${r.rss.map(mb).join(", ")} |`,
  );
}
process.exit(0);
