// npm run bench:browser — what a real-browser check costs, and whether HTTP checks beside browser checks stay on time.
//
// Two runs on SQLite, each a fresh data dir with its monitors written straight into the database, pointing at a local
// page (Bun.serve in this process, 127.0.0.1 only), then the real server as its own process (`bun server/main.ts`, or
// `--binary dist/vigil`):
//   - http: --http monitors at 1 minute;
//   - http + browser: the same, plus --browser browser monitors every --every seconds (load the page, wait for a
//     selector and a text in Chromium).
// After --warmup seconds each is measured for --duration seconds: HTTP lateness from GET /api/monitors/stats (start
// minus scheduled time of every scheduled check), CPU of the server and of every process under it (Chromium's), and
// the peak memory of Chromium's processes (RSS summed, sampled every 500 ms; shared pages count once per process,
// so it overstates). CPU per browser check = the extra CPU of the second run over the browser checks it made.
//
//   bun scripts/bench/browser.ts [--http 3000] [--browser 6] [--every 30] [--duration 60] [--warmup 20] [--binary dist/vigil]
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { LatencyHistogram } from "../../server/monitors/scheduler";
import { freshStore } from "./engines";
import { apiClient, benchDir, CLK_TCK, mb, rssBytes, startServer } from "./proc";

const { values: args } = parseArgs({
  args: process.argv.slice(2),
  options: {
    http: { type: "string", default: "3000" },
    browser: { type: "string", default: "6" },
    every: { type: "string", default: "30" },
    duration: { type: "string", default: "60" },
    warmup: { type: "string", default: "20" },
    binary: { type: "string" },
  },
});
const [http, browsers, every, duration, warmup] = [args.http, args.browser, args.every, args.duration, args.warmup].map(Number) as number[];
if (![http, browsers, every].every((n) => Number.isInteger(n) && n >= 0) || !(duration > 0) || !(warmup >= 0)) {
  console.error("usage: bun scripts/bench/browser.ts [--http 3000] [--browser 6] [--every 30] [--duration 60] [--warmup 20] [--binary dist/vigil]");
  process.exit(2);
}
const binary = args.binary ?? (process.env.VIGIL_BINARY || undefined);
const PASSWORD = "bench password 1";

let pageLoads = 0;
const site = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(req) {
    if (new URL(req.url).pathname === "/page") {
      pageLoads++;
      return new Response("<!doctype html><title>Shop</title><script>document.addEventListener('DOMContentLoaded',()=>{document.querySelector('main').id='ready'})</script><main>All good</main>", {
        headers: { "content-type": "text/html" },
      });
    }
    return new Response("ok");
  },
});

/** /proc/<pid>/stat fields after the command name. */
const statOf = (pid: number) => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");

/** Every process under `root` (Chromium and its helpers), found through their parents. */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      parent.set(pid, Number(statOf(pid)[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, ppid] of parent) if (ppid === p) (out.push(child), walk(child));
  };
  walk(root);
  return out;
}

/** CPU seconds of the server and everything under it, reaped children included (renderers that came and went). */
function treeCpu(root: number): number {
  let ticks = 0;
  for (const pid of [root, ...descendants(root)]) {
    try {
      const f = statOf(pid);
      ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    } catch {
      // gone meanwhile: its time went to its parent's children's time
    }
  }
  return ticks / CLK_TCK;
}

const childrenRss = (root: number) => descendants(root).reduce((sum, pid) => sum + (() => { try { return rssBytes(pid); } catch { return 0; } })(), 0);

interface Stats {
  scheduler: { started: number; skippedBusy: number; skippedLate: number; lateness: { histogram: [number, number][] } };
}

async function run(label: string, browserCount: number) {
  const temp = benchDir("vigil-bench-browser-");
  const store = await freshStore("sqlite", temp.path, null);
  const db = await store.open();
  const now = Date.now();
  const rows = [];
  for (let i = 1; i <= http; i++) {
    rows.push({ name: `http ${i}`, settings: { url: `http://127.0.0.1:${site.port}/m/${i}` }, intervalSeconds: 60, timeoutMs: 10_000, retries: 1, status: "up" as const, statusChangedAt: now - 3_600_000, createdAt: now, updatedAt: now });
  }
  for (let i = 1; i <= browserCount; i++) {
    const settings = { url: `http://127.0.0.1:${site.port}/page`, selector: "#ready", keyword: "All good", steps: [], secret: "" };
    rows.push({ name: `browser ${i}`, type: "browser" as const, intervalSeconds: every, timeoutMs: Math.min(20_000, every * 800), retries: 1, status: "up" as const, statusChangedAt: now - 3_600_000, createdAt: now, updatedAt: now, settings });
  }
  for (let from = 0; from < rows.length; from += 500) await db.orm.insert(db.t.monitors).values(rows.slice(from, from + 500));
  await db.close();

  const server = await startServer(temp.path, { binary });
  try {
    const call = apiClient(server.base);
    await call("POST", "/api/auth/register", { username: "bench", password: PASSWORD });
    const token = (await call("POST", "/api/auth/login", { username: "bench", password: PASSWORD })).token as string;
    const stats = async () => (await call("GET", "/api/monitors/stats", undefined, token)).stats as Stats;
    await Bun.sleep(warmup * 1000);
    const a = await stats();
    const cpuA = treeCpu(server.proc.pid);
    const loadsA = pageLoads;
    const loadA = loadavg()[0]!;
    let peakChromium = 0;
    const sampler = setInterval(() => (peakChromium = Math.max(peakChromium, childrenRss(server.proc.pid))), 500);
    const t0 = performance.now();
    await Bun.sleep(duration * 1000);
    clearInterval(sampler);
    const b = await stats();
    const cpu = treeCpu(server.proc.pid) - cpuA;
    const elapsed = (performance.now() - t0) / 1000;
    const lateness = LatencyHistogram.from(b.scheduler.lateness.histogram).minus(LatencyHistogram.from(a.scheduler.lateness.histogram));
    return {
      label,
      started: (b.scheduler.started - a.scheduler.started) / elapsed,
      browserChecks: pageLoads - loadsA,
      p50: lateness.percentile(50),
      p99: lateness.percentile(99),
      max: Math.round(lateness.max),
      skipped: b.scheduler.skippedBusy - a.scheduler.skippedBusy + b.scheduler.skippedLate - a.scheduler.skippedLate,
      cpu,
      elapsed,
      serverRss: rssBytes(server.proc.pid),
      chromiumPeak: peakChromium,
      load: `${loadA.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`,
      problems: server.problems,
    };
  } finally {
    await server.stop();
    temp.remove();
  }
}

const runs = [await run(`${http.toLocaleString("en")} http at 1 min`, 0), await run(`+ ${browsers} browser every ${every} s`, browsers)];
site.stop(true);

const [alone, mixed] = runs as [Awaited<ReturnType<typeof run>>, Awaited<ReturnType<typeof run>>];
const perBrowserCheck = mixed.browserChecks ? (mixed.cpu / mixed.elapsed - alone.cpu / alone.elapsed) * mixed.elapsed / mixed.browserChecks : 0;
const ms = (v: number | null) => (v === null ? "–" : `${v} ms`);
console.log(`\nBrowser checks: ${duration} s window after ${warmup} s warm-up, ${binary ?? "bun server/main.ts"}, SQLite\n`);
console.log("| run | checks/s started | browser checks | http lateness p50 | p99 | max | skipped | CPU, server + Chromium (% of 1 core) | server RSS | Chromium peak RSS (summed) | load (1 min) |");
console.log("| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --- |");
for (const r of runs) {
  console.log(
    `| ${r.label} | ${r.started.toFixed(1)} | ${r.browserChecks} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.max)} | ${r.skipped} | ${((r.cpu / r.elapsed) * 100).toFixed(1)} % | ${mb(r.serverRss)} | ${r.chromiumPeak ? mb(r.chromiumPeak) : "–"} | ${r.load} |`,
  );
}
console.log(`\nCPU per browser check (the second run's extra CPU over its browser checks): ${perBrowserCheck.toFixed(2)} s`);
for (const r of runs) for (const line of r.problems.slice(0, 5)) console.log(`  ${r.label}: ${line}`);
