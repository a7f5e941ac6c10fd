// npm run bench:list-api — the monitor list's API at 10 000 and 100 000 monitors: the whole list (GET /api/monitors,
// plain and gzipped) against one page (GET /api/monitors/page) as the screen asks for it.
//
// For each size N: a fresh data dir with N http monitors at a 1-minute interval against a local target (written
// straight into the database, as bench:monitors does; a third tagged, one in eight in one of N/50 groups), then the
// server as its own process (`bun server/main.ts`, or --binary) checking them. After --warmup seconds, each call is
// timed --runs times from 127.0.0.1 (the median is reported): request to the last byte, bytes on the wire, and the
// server's CPU for it. Page calls: the first page of the default view (its ordering made), the next page (the
// ordering reused), a search, a status filter, a sort by name, all at limit=100.
//
//   bun scripts/bench/list-api.ts [--sizes 10000,100000] [--runs 5] [--warmup 20] [--binary dist/vigil] [--keep]
import { parseArgs } from "node:util";
import { ORDER_TTL_MS } from "../../server/monitors/list-page";
import { countingTarget } from "./fixtures";
import { apiClient, benchDir, cpuSeconds, startServer } from "./proc";
import { seedMonitors } from "./seed-monitors";

const { values: args } = parseArgs({
  args: process.argv.slice(2),
  options: {
    sizes: { type: "string", default: "10000,100000" },
    runs: { type: "string", default: "5" },
    warmup: { type: "string", default: "20" },
    binary: { type: "string" },
    keep: { type: "boolean", default: false },
  },
});
const sizes = args.sizes!.split(",").map((s) => Number(s.trim().replace(/_/g, "")));
const runs = Number(args.runs);
const warmup = Number(args.warmup);
if (sizes.some((n) => !Number.isInteger(n) || n < 100) || !(runs >= 1) || !(warmup >= 0)) {
  console.error("usage: bun scripts/bench/list-api.ts [--sizes 10000,100000] [--runs 5] [--warmup 20] [--binary dist/vigil] [--keep]");
  process.exit(2);
}
const PASSWORD = "bench password 1";

interface Timed {
  ms: number;
  bytes: number;
  cpuMs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Times `path` --runs times: wall time to the last byte, bytes, server CPU (medians). `fresh`: each run makes the
 * view's ordering again (the kept one is waited out first); otherwise one untimed call makes it and the runs reuse it.
 */
async function time(base: string, pid: number, path: string, token: string, gzip: boolean, fresh: boolean): Promise<Timed> {
  const once = async () => {
    const cpu = cpuSeconds(pid);
    const started = performance.now();
    const res = await fetch(base + path, { headers: { authorization: `Bearer ${token}`, "accept-encoding": gzip ? "gzip" : "identity" }, decompress: false } as RequestInit);
    const body = await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    return { ms: performance.now() - started, bytes: body.byteLength, cpuMs: (cpuSeconds(pid) - cpu) * 1000 };
  };
  if (!fresh) await once();
  const results: Timed[] = [];
  for (let i = 0; i < runs; i++) {
    if (fresh) await Bun.sleep(ORDER_TTL_MS + 100);
    results.push(await once());
  }
  return { ms: median(results.map((r) => r.ms)), bytes: median(results.map((r) => r.bytes)), cpuMs: median(results.map((r) => r.cpuMs)) };
}

const target = countingTarget();
const rows: string[] = [];
try {
  for (const n of sizes) {
    const temp = benchDir(`vigil-bench-list-${n}-`, args.keep);
    try {
      await seedMonitors(temp.path, n, target.port!);

      const server = await startServer(temp.path, { binary: args.binary });
      try {
        const call = apiClient(server.base);
        await call("POST", "/api/auth/register", { username: "bench", password: PASSWORD });
        const token = (await call("POST", "/api/auth/login", { username: "bench", password: PASSWORD })).token as string;
        await Bun.sleep(warmup * 1000);
        const pid = server.proc.pid;
        // [label, path, gzip, fresh ordering per run]
        const calls: [string, string, boolean, boolean][] = [
          ["whole list, plain", "/api/monitors", false, false],
          ["whole list, gzip", "/api/monitors", true, false],
          ["page 1, default view (ordering made)", "/api/monitors/page?limit=100", true, true],
          ["page 2, default view (ordering kept)", "/api/monitors/page?offset=100&limit=100", true, false],
          ["search q=shop 1 (ordering made)", "/api/monitors/page?q=shop%201&limit=100", true, true],
          ["status=down (ordering made)", "/api/monitors/page?status=down&limit=100", true, true],
          ["sort=name (ordering made)", "/api/monitors/page?sort=name&limit=100", true, true],
        ];
        for (const [label, path, gzip, fresh] of calls) {
          const t = await time(server.base, pid, path, token, gzip, fresh);
          rows.push(`| ${n.toLocaleString("en-US")} | ${label} | ${Math.round(t.ms)} ms | ${formatBytes(t.bytes)} | ${Math.round(t.cpuMs)} ms |`);
          console.log(rows.at(-1));
        }
      } finally {
        await server.stop();
      }
    } finally {
      temp.remove();
    }
  }
} finally {
  target.stop();
}

function formatBytes(bytes: number): string {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} kB`;
}

console.log("\n| monitors | call | time to last byte (median) | bytes on the wire | server CPU |\n|---|---|---|---|---|");
for (const row of rows) console.log(row);
