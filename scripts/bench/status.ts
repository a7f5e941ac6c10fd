// npm run bench:status — the public status page under a crowd, while checks keep their cadence.
//
// A fresh data dir holds 100 monitors and 20 agents that are on the status page, with 90 days of history written
// straight into the database as the server's tables hold it (raw results for the last 7 days, hourly rollups before
// them, daily rollups made by the server's own rollup code; agent samples for 24 h, minute rollups for 30 d, hour
// rollups for 90 d), plus 1 000 more monitors. All 1 100 monitors check a local target (Bun.serve on 127.0.0.1 in
// this process) at the shortest allowed interval (1 minute); the 20 agents report every 10 s. The server runs as its
// own process (`bun server/main.ts` or --binary). After a warm-up:
//   1. baseline: --baseline seconds without the crowd (the scheduler's lateness, as in monitors.ts);
//   2. crowd: --clients concurrent keep-alive loops on GET /api/status for --duration seconds, each sending the next
//      request as soon as the previous answer is in, with a browser's headers (gzip accepted); half revalidate with
//      If-None-Match (the last ETag they got, as a browser does), half ask plainly. The clients run in their own
//      process(es) (--client-procs) so the generator's CPU is not the server's; raw HTTP/1.1 sockets by default,
//      or Bun's fetch (--client fetch), which costs the generator far more CPU on the same cores;
//   3. reference: the same crowd for --reference seconds against a bare Bun.serve answering with the same bytes —
//      what this machine and this generator allow at best, to read the server's numbers against.
// With a closed loop, latency is concurrency / throughput (Little's law): it measures capacity, not an idle page.
// Everything goes to 127.0.0.1 and every loop ends by itself (about 100 s with the defaults).
//
//   bun scripts/bench/status.ts [--monitors 100] [--agents 20] [--checking 1000] [--days 90] [--clients 200]
//                               [--duration 30] [--baseline 30] [--warmup 10] [--reference 10] [--client-procs 1]
//                               [--client socket|fetch] [--binary dist/vigil] [--keep]
//                               [--pages 1] [--incidents 0] [--windows 0]
//
//   --pages      status pages in all (the extra ones list 5 of the page's monitors and an agent each)
//   --incidents  open incidents on the crowd's page (each on a monitor of it, with three updates)
//   --windows    maintenance windows in progress, each over one monitor of the crowd's page
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { HostInfo } from "../../server/agents/protocol";
import { sampleToSeries } from "../../server/agents/series";
import { hashSecret } from "../../server/auth/secrets";
import { openDatabase } from "../../server/db/open";
import { createHistory, DAY, HOUR } from "../../server/monitors/history";
import { LatencyHistogram, spread } from "../../server/monitors/scheduler";
import { agentSample as sharedSample, countingTarget } from "./fixtures";
import { CROWD_SCRIPT, runCrowd, type CrowdSummary, type Merged } from "./crowd";
import { apiClient, cpuSeconds, mb, rssBytes, startServer } from "./proc";

const { values: args } = parseArgs({
  args: process.argv.slice(2),
  options: {
    monitors: { type: "string", default: "100" },
    agents: { type: "string", default: "20" },
    checking: { type: "string", default: "1000" },
    days: { type: "string", default: "90" },
    clients: { type: "string", default: "200" },
    duration: { type: "string", default: "30" },
    baseline: { type: "string", default: "30" },
    warmup: { type: "string", default: "10" },
    "client-procs": { type: "string", default: "1" },
    binary: { type: "string" },
    reference: { type: "string", default: "10" },
    client: { type: "string", default: "socket" },
    keep: { type: "boolean", default: false },
    pages: { type: "string", default: "1" },
    incidents: { type: "string", default: "0" },
    windows: { type: "string", default: "0" },
  },
});

const MINUTE = 60_000;
const int = (name: keyof typeof args, min: number) => {
  const v = Number(args[name]);
  if (!Number.isInteger(v) || v < min) {
    console.error(`--${name} must be an integer ≥ ${min}`);
    console.error(
      "usage: bun scripts/bench/status.ts [--monitors 100] [--agents 20] [--checking 1000] [--days 90] [--clients 200] " +
        "[--duration 30] [--baseline 30] [--warmup 10] [--reference 10] [--client-procs 1] [--client socket|fetch] [--binary dist/vigil] [--keep]",
    );
    process.exit(2);
  }
  return v;
};

// ── The main run ────────────────────────────────────────────────────────────────────────────────────────────────

const PAGE_MONITORS = int("monitors", 1);
const AGENTS = int("agents", 0);
const CHECKING = int("checking", 0);
const PAGES = int("pages", 1);
const INCIDENTS = int("incidents", 0);
const WINDOWS = int("windows", 0);
const DAYS = int("days", 1);
const CLIENTS = int("clients", 1);
const DURATION = int("duration", 1);
const BASELINE = int("baseline", 1);
const WARMUP = int("warmup", 0);
const CLIENT_PROCS = Math.min(int("client-procs", 1), CLIENTS);
const REFERENCE = int("reference", 0);
const CLIENT = args.client === "fetch" ? "fetch" : "socket";
const crowdOptions = { clients: CLIENTS, procs: CLIENT_PROCS, client: CLIENT } as const;
if (args.client !== "fetch" && args.client !== "socket") {
  console.error("--client must be socket or fetch");
  process.exit(2);
}
const PASSWORD = "bench password 1";
const RAW_DAYS = 7; // the server's raw retention
const AGENT_RAW_MS = DAY; // agent_samples: 24 h
const AGENT_MINUTE_MS = 30 * DAY; // agent_minutely: 30 d
const AGENT_INTERVAL_S = 10;

// The target every monitor checks: a small 200.
const target = countingTarget();

/** A small deterministic hash, so every run seeds the same history. */
const mix = (a: number, b: number) => spread((a * 2_654_435_761 + b) >>> 0);
/** Down checks in hour `h` of monitor `id`: none in most hours, a short incident in about 1 of 300 (longer for some). */
const downMinutes = (id: number, h: number) => {
  const x = mix(id, h);
  return x % 300 === 0 ? 1 + ((x >>> 9) % (id % 10 === 0 ? 60 : 8)) : 0;
};
const baseRt = (id: number) => 20 + ((id * 37) % 180);
const rtOf = (id: number, t: number) => baseRt(id) + (mix(id, t / MINUTE) % 40);

/** Agent i's report at time t, on a 10-minute wave. */
const agentSample = (i: number, t: number) => sharedSample(i, t, 600_000);
const agentHost = (i: number): HostInfo => ({
  hostname: `web-${i}`,
  ips: [`10.2.0.${i}`],
  os: "Debian GNU/Linux 12 (bookworm)",
  kernel: "6.1.0-18-amd64",
  arch: "x64",
  uptime: 3_000_000 + i,
  agentVersion: "bench",
});
const agentCredential = (i: number) => `vgl_agent_bench-status-${i}`;

/** Seeds the database: monitors, agents, their history; returns row counts for the report. */
async function seed(dbPath: string, now: number) {
  // The SQLite file the server opens: the raw client writes the history in bulk.
  const db = await openDatabase(dbPath);
  const sql = db.sqlite!;
  const today = Math.floor(now / DAY) * DAY;
  const from = today - (DAYS - 1) * DAY;
  const rawFrom = Math.max(from, Math.floor((now - RAW_DAYS * DAY) / HOUR) * HOUR);
  const counts = { raw: 0, hourly: 0, daily: 0, agentSamples: 0, agentMinutes: 0, agentHours: 0 };

  const insertMonitor = sql.prepare(
    "INSERT INTO monitors (id, name, settings, interval, timeout, retries, status, status_changed_at, created_at, updated_at) " +
      "VALUES (?, ?, json_object('url', ?), 1, 10, 1, 'up', ?, ?, ?)",
  );
  const insertRaw = sql.prepare("INSERT INTO check_results (monitor_id, time, up, response_time, http_status, error) VALUES (?, ?, ?, ?, ?, ?)");
  const insertHour = sql.prepare(
    "INSERT INTO monitor_hourly (monitor_id, bucket_start, checks, up, down, rt_sum, rt_count, rt_min, rt_max) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  sql.transaction(() => {
    // Monitors 1..N are the page's, with history; the checking crowd follows. All start "up", as a running instance.
    for (let id = 1; id <= PAGE_MONITORS + CHECKING; id++) {
      const page = id <= PAGE_MONITORS;
      insertMonitor.run(id, page ? `Service ${id}` : `backend ${id}`, `http://127.0.0.1:${target.port}/${page ? "page" : "m"}/${id}`, from, from, from);
    }
    for (let id = 1; id <= PAGE_MONITORS; id++) {
      // Hours before the raw window: hourly rollups only (the raw results were pruned).
      for (let h = from; h < rawFrom; h += HOUR) {
        const down = downMinutes(id, h / HOUR);
        const rt = baseRt(id) + (mix(id, h / HOUR) % 40); // an hour's average moves, as real ones do
        insertHour.run(id, h, 60, 60 - down, down, 60 * rt, 60, rt - 10, rt + 25);
        counts.hourly++;
      }
      // The raw window: one check a minute on the monitor's own slot of the scheduler's grid.
      const phase = spread(id) % MINUTE;
      for (let h = rawFrom; h < now; h += HOUR) {
        const down = downMinutes(id, h / HOUR);
        for (let m = 0; m < 60; m++) {
          const t = h + m * MINUTE + phase;
          if (t >= now) break;
          const up = m >= down;
          insertRaw.run(id, t, up ? 1 : 0, rtOf(id, t), up ? 200 : 503, up ? null : "Expected status 2xx, got 503");
          counts.raw++;
        }
      }
    }
    // The rollups' watermarks: hours before the raw window are rolled up; days are still to do (the server's code).
    const mark = sql.prepare("INSERT INTO settings (key, value) VALUES (?, ?)");
    mark.run("monitors.rollup.hourly", String(rawFrom));
    mark.run("monitors.rollup.daily", String(from));
  })();
  // Hourly rollups of the raw window and every daily rollup, by the server's own code.
  await createHistory(db).rollUp(now);
  counts.hourly = (sql.query("SELECT count(*) AS n FROM monitor_hourly").get() as { n: number }).n;
  counts.daily = (sql.query("SELECT count(*) AS n FROM monitor_daily").get() as { n: number }).n;

  const insertAgent = sql.prepare(
    "INSERT INTO agents (id, name, credential_hash, hostname, ips, os, kernel, arch, agent_version, interval, uptime, last_seen_at, latest, created_at, updated_at) " +
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertSample = sql.prepare("INSERT INTO agent_samples (agent_id, time, \"values\") VALUES (?, ?, ?)");
  const insertMinute = sql.prepare("INSERT INTO agent_minutely (agent_id, time, avg, max) VALUES (?, ?, ?, ?)");
  const insertAgentHour = sql.prepare("INSERT INTO agent_hourly (agent_id, time, avg, max) VALUES (?, ?, ?, ?)");
  /** A bucket's avg and max: the series at its start, and a little above. */
  const bucket = (i: number, t: number) => {
    const avg = sampleToSeries(agentSample(i, t));
    const max = Object.fromEntries(Object.entries(avg).map(([k, v]) => [k, k.startsWith("disk:") ? v : Math.round(v * 1.1 * 100) / 100]));
    return [JSON.stringify(avg), JSON.stringify(max)] as const;
  };
  sql.transaction(() => {
    for (let i = 1; i <= AGENTS; i++) {
      const h = agentHost(i);
      insertAgent.run(i, `server ${i}`, hashSecret(agentCredential(i)), h.hostname, JSON.stringify(h.ips), h.os, h.kernel, h.arch, h.agentVersion,
        AGENT_INTERVAL_S, h.uptime, now, JSON.stringify(agentSample(i, now)), from, now);
      for (let t = Math.floor((now - AGENT_RAW_MS) / 10_000) * 10_000; t < now; t += AGENT_INTERVAL_S * 1000) {
        insertSample.run(i, t, JSON.stringify(sampleToSeries(agentSample(i, t))));
        counts.agentSamples++;
      }
      for (let t = Math.floor((now - AGENT_MINUTE_MS) / MINUTE) * MINUTE; t < now - MINUTE; t += MINUTE) {
        insertMinute.run(i, t, ...bucket(i, t));
        counts.agentMinutes++;
      }
      for (let t = from; t < now - HOUR; t += HOUR) {
        insertAgentHour.run(i, t, ...bucket(i, t));
        counts.agentHours++;
      }
    }
  })();
  // At once (it throws if a statement is still open): a lazily closed connection, still checkpointing the large WAL,
  // once locked the server out at its start (SQLITE_BUSY).
  sql.close(true);
  return counts;
}

interface Stats {
  scheduler: { started: number; completed: number; skippedBusy: number; skippedLate: number; lateness: { histogram: [number, number][] } };
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] : NaN;
}
const msOf = (v: number) => (Number.isNaN(v) ? "–" : v < 10 ? `${v.toFixed(2)} ms` : `${v.toFixed(1)} ms`);
const lateMs = (v: number | null) => (v === null ? "–" : `${v} ms`);
const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "vigil-bench-status-"));
  const dbPath = join(dir, "vigil.db");
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  let reporting = false;
  try {
    process.stderr.write(`seeding ${PAGE_MONITORS} page monitors and ${AGENTS} agents with ${DAYS} days of history, ${CHECKING} more monitors…\n`);
    const seedStarted = performance.now();
    const now = Date.now();
    const counts = await seed(dbPath, now);
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    server = await startServer(dir, { binary: args.binary });
    const pid = server.proc.pid;
    const call = apiClient(server.base);
    await call("POST", "/api/auth/register", { username: "bench", password: PASSWORD });
    const token = (await call("POST", "/api/auth/login", { username: "bench", password: PASSWORD })).token as string;
    const saved = await call(
      "PUT",
      "/api/status/config",
      {
        title: "Example Inc. status",
        description: "Live status of our public services and servers.",
        monitorIds: Array.from({ length: PAGE_MONITORS }, (_, i) => i + 1),
        agentIds: Array.from({ length: AGENTS }, (_, i) => i + 1),
        announcement: { severity: "outage", text: "Some customers see errors on checkout; we are on it." },
      },
      token,
    );
    if (!saved.success) throw new Error(`status page config: ${saved.message}`);
    // What else the instance holds: more pages, open incidents and maintenance in progress on the crowd's page.
    for (let i = 2; i <= PAGES; i++) {
      const items = [...Array.from({ length: 5 }, (_, k) => ({ type: "monitor", id: ((i * 5 + k) % PAGE_MONITORS) + 1 })), ...(AGENTS ? [{ type: "agent", id: (i % AGENTS) + 1 }] : [])];
      const made = await call("POST", "/api/status-pages", { slug: `page-${i}`, title: `Page ${i}`, description: "", logo: null, customDomain: null, visibility: "public", announcement: null, groups: [{ name: "Services", items }] }, token);
      if (!made.success) throw new Error(`status page ${i}: ${made.message}`);
    }
    for (let i = 0; i < INCIDENTS; i++) {
      const made = await call("POST", "/api/incidents", { title: `Incident ${i + 1}`, impact: "major", monitorIds: [(i % PAGE_MONITORS) + 1], update: { state: "investigating", message: "Errors on checkout for some customers." } }, token);
      if (!made.success) throw new Error(`incident ${i + 1}: ${made.message}`);
      for (const state of ["identified", "monitoring"]) await call("POST", `/api/incidents/${made.incident.id}/updates`, { state, message: `Now ${state}: details follow.` }, token);
    }
    for (let i = 0; i < WINDOWS; i++) {
      const made = await call("POST", "/api/maintenance/start", { title: `Window ${i + 1}`, monitorIds: [PAGE_MONITORS - i], minutes: 60 }, token);
      if (!made.success) throw new Error(`maintenance window ${i + 1}: ${made.message}`);
    }

    // The page's agents keep reporting every 10 s (spread evenly), so they stay online.
    reporting = true;
    const reports = (async () => {
      for (let tick = 0; reporting; tick++) {
        const i = (tick % AGENTS) + 1;
        if (AGENTS) {
          await fetch(`${server!.base}/api/agents/report`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${agentCredential(i)}` },
            body: JSON.stringify({ host: agentHost(i), interval: AGENT_INTERVAL_S, samples: [agentSample(i, Date.now())] }),
          }).then((r) => r.arrayBuffer(), () => {});
        }
        await Bun.sleep((AGENT_INTERVAL_S * 1000) / Math.max(1, AGENTS));
      }
    })();

    // The page's size as sent, plain and gzip; kept as a file for the reference server.
    const plainPage = new Uint8Array(await (await fetch(`${server.base}/api/status`, { headers: { "accept-encoding": "identity" } })).arrayBuffer());
    const gzipBytes = (await (await fetch(`${server.base}/api/status`, { headers: { "accept-encoding": "gzip" }, decompress: false } as RequestInit)).arrayBuffer()).byteLength;
    const pageFile = join(dir, "page.json");
    await Bun.write(pageFile, plainPage);

    const stats = async () => (await call("GET", "/api/monitors/stats", undefined, token)).stats as Stats;
    const window = async <T>(during: () => Promise<T>) => {
      const a = await stats();
      const cpu0 = cpuSeconds(pid);
      const t0 = performance.now();
      const hits0 = target.hits();
      const out = await during();
      const elapsed = (performance.now() - t0) / 1000;
      const b = await stats();
      const lateness = LatencyHistogram.from(b.scheduler.lateness.histogram).minus(LatencyHistogram.from(a.scheduler.lateness.histogram));
      return {
        out,
        elapsed,
        checks: (b.scheduler.started - a.scheduler.started) / elapsed,
        targetRate: (target.hits() - hits0) / elapsed,
        skipped: b.scheduler.skippedBusy - a.scheduler.skippedBusy + b.scheduler.skippedLate - a.scheduler.skippedLate,
        p50: lateness.percentile(50),
        p99: lateness.percentile(99),
        max: Math.round(lateness.max),
        samples: lateness.total,
        serverCpu: ((cpuSeconds(pid) - cpu0) / elapsed) * 100,
      };
    };

    process.stderr.write(`warm-up ${WARMUP} s, baseline ${BASELINE} s, crowd of ${CLIENTS} for ${DURATION} s${REFERENCE ? `, reference ${REFERENCE} s` : ""}…\n`);
    await Bun.sleep(WARMUP * 1000);
    const baseline = await window(() => Bun.sleep(BASELINE * 1000));

    let peakRss = rssBytes(pid);
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssBytes(pid))), 1000);
    const during = await window(() => runCrowd(`${server!.base}/api/status`, DURATION, crowdOptions));
    clearInterval(sampler);
    const rssEnd = rssBytes(pid);

    let reference: CrowdSummary | null = null;
    if (REFERENCE > 0) {
      const ref = Bun.spawn([process.execPath, CROWD_SCRIPT, "--reference-server", pageFile], { stdout: "pipe", stderr: "inherit" });
      try {
        const line = await ref.stdout.getReader().read();
        const base = new TextDecoder().decode(line.value).match(/listening on (http:\/\/\S+)/)?.[1];
        if (!base) throw new Error("the reference server did not start");
        reference = await runCrowd(`${base}/api/status`, REFERENCE, crowdOptions);
      } finally {
        ref.kill();
        await ref.exited;
      }
    }
    reporting = false;
    await reports;

    const vigil = during.out;
    console.log(
      `Status page benchmark: ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), Bun ${Bun.version}; server: ${args.binary ?? "bun server/main.ts"}; ` +
        `${PAGE_MONITORS} monitors and ${AGENTS} agents on the page with ${DAYS} days of history; ${PAGE_MONITORS + CHECKING} monitors checking ` +
        `every minute (127.0.0.1); ${CLIENTS} keep-alive clients (${CLIENT === "fetch" ? "fetch" : "raw HTTP/1.1 sockets"}, browser headers, gzip accepted) ` +
        `for ${DURATION} s in ${CLIENT_PROCS} process(es); ${PAGES} status page(s), ${INCIDENTS} open incident(s) and ${WINDOWS} maintenance window(s) in progress on the crowd's page; ` +
        `the page is ${kib(plainPage.byteLength)} of JSON, ${kib(gzipBytes)} gzip\n`,
    );
    console.log("| GET /api/status | requests/s | p50 | p99 | max | 200 | 304 | other / errors | MB/s on the wire |");
    console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    const row = (label: string, k: Merged, seconds: number) => {
      const n = k.latencies.length;
      console.log(
        `| ${label} | ${Math.round(n / seconds).toLocaleString("en-US")} | ${msOf(percentile(k.latencies, 50))} | ${msOf(percentile(k.latencies, 99))} | ` +
          `${msOf(k.latencies[n - 1] ?? NaN)} | ${k.ok.toLocaleString("en-US")} | ${k.notModified.toLocaleString("en-US")} | ${k.other} / ${k.errors} | ` +
          `${(k.bytes / 1e6 / seconds).toFixed(1)} |`,
      );
    };
    const etagClients = Math.floor(CLIENTS / 2);
    row(`plain (${CLIENTS - etagClients} clients)`, vigil.plain, vigil.seconds);
    row(`If-None-Match (${etagClients} clients)`, vigil.etag, vigil.seconds);
    row(`**all ${CLIENTS} clients**`, vigil.all, vigil.seconds);
    if (reference) row(`reference: the same bytes from a bare Bun.serve, all ${CLIENTS} clients (${REFERENCE} s)`, reference.all, reference.seconds);
    console.log("");
    console.log("| checks (1-minute interval) | window | checks/s | lateness p50 | lateness p99 | lateness max | skipped | server CPU (% of 1 core) |");
    console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (const [label, w] of [["baseline, no crowd", baseline], ["during the crowd", during]] as const) {
      console.log(
        `| ${label} | ${w.elapsed.toFixed(0)} s | ${w.checks.toFixed(1)} | ${lateMs(w.p50)} | ${lateMs(w.p99)} | ${w.max} ms | ${w.skipped} | ${w.serverCpu.toFixed(0)} % |`,
      );
    }
    console.log("");
    const p99 = percentile(vigil.all.latencies, 99);
    console.log(
      `Targets: p99 < 10 ms (measured ${msOf(p99)}: ${p99 < 10 ? "met" : "missed"}${reference ? `; the bare reference: ${msOf(percentile(reference.all.latencies, 99))}` : ""}); ` +
        `lateness p99 unchanged (baseline ${lateMs(baseline.p99)}, during the crowd ${lateMs(during.p99)}).`,
    );
    const busiest = Math.max(...vigil.clientCpu);
    console.log(
      `- load generator: ${vigil.clientCpu.map((c) => `${c.toFixed(0)} %`).join(", ")} of one core per process, beside the server's ${during.serverCpu.toFixed(0)} %, ` +
        `on ${cpus().length} cores` + (busiest > 90 ? " — SATURATED: its own queueing is in the latencies, and requests/s is a floor of what the server can do" : ""),
    );
    if (reference) {
      const ratio = reference.all.latencies.length / reference.seconds / (vigil.all.latencies.length / vigil.seconds);
      console.log(
        ratio < 1.2
          ? `- the bare reference served no more (${ratio.toFixed(2)}× Vigil's rate) with the same generator: the generator or the machine is the limit here, not Vigil`
          : `- the bare reference served ${ratio.toFixed(1)}× Vigil's rate with the same generator: the limit is the server`,
      );
    }
    console.log(`- server RSS ${mb(rssEnd)} at the end, ${mb(peakRss)} peak; lateness samples: ${baseline.samples} baseline, ${during.samples} crowd; the target saw ${during.targetRate.toFixed(1)} checks/s during the crowd`);
    console.log(
      `- seeded in ${seedSeconds.toFixed(1)} s: ${counts.raw.toLocaleString("en-US")} raw results, ${counts.hourly.toLocaleString("en-US")} hourly and ` +
        `${counts.daily.toLocaleString("en-US")} daily rollups; ${counts.agentSamples.toLocaleString("en-US")} agent samples, ` +
        `${counts.agentMinutes.toLocaleString("en-US")} minute and ${counts.agentHours.toLocaleString("en-US")} hour rollups`,
    );
  } finally {
    reporting = false;
    await server?.stop();
    target.stop();
    if (!args.keep) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
