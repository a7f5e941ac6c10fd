// Export benchmark: a year of one monitor's checks at one-minute intervals (525 600 rows) and a day of one agent's
// samples at 5 s (17 280 rows, the 24 h raw samples are kept) written straight into a stopped server's SQLite database,
// then GET /api/monitors/:id/export and GET /api/agents/:id/export as CSV and as NDJSON from the running server on
// 127.0.0.1: the time to the last byte, the bytes, and the server's peak RSS while it streams (sampled every 50 ms)
// against its RSS before. Bounded: one server, four downloads, a few minutes at most.
//   bun scripts/bench/export.ts [--days 365] [--binary dist/vigil]
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { apiClient, benchDir, mb, rssBytes, startServer } from "./proc";

const { values: args } = parseArgs({
  args: process.argv.slice(2),
  options: { days: { type: "string", default: "365" }, binary: { type: "string" } },
});
const days = Number(args.days);
if (!Number.isInteger(days) || days < 1 || days > 366) {
  console.error("usage: bun scripts/bench/export.ts [--days 365] [--binary dist/vigil]");
  process.exit(2);
}
const PASSWORD = "bench password 1";
const dir = benchDir("vigil-bench-export-");

// A server makes the schema, the monitor and the agent, then stops; the rows go in directly (the API has no bulk import).
let server = await startServer(dir.path, { binary: args.binary });
let api = apiClient(server.base);
await api("POST", "/api/auth/register", { username: "admin", password: PASSWORD, confirmPassword: PASSWORD });
const { token } = await api("POST", "/api/auth/login", { username: "admin", password: PASSWORD });
const { monitor } = await api("POST", "/api/monitors", { name: "Year", url: "http://127.0.0.1:9/", interval: 60, active: false }, token);
const { token: registration } = await api("POST", "/api/agents/tokens", {}, token);
const host = { hostname: "bench-1", ips: ["10.0.0.9"], os: "Debian GNU/Linux 12", kernel: "6.1.0", arch: "x64", uptime: 1, agentVersion: "0.1.0" };
const { agentId } = await api("POST", "/api/agents/register", { token: registration, name: "Day", host });
await server.stop();

const rows = days * 1440;
const end = Math.floor(Date.now() / 60_000) * 60_000;
const start = end - rows * 60_000;
const db = new Database(join(dir.path, "vigil.db"));
const insert = db.prepare("INSERT INTO check_results (monitor_id, time, up, response_time, http_status, error) VALUES (?, ?, ?, ?, ?, ?)");
db.transaction(() => {
  for (let i = 0; i < rows; i++) {
    const down = i % 997 === 0;
    insert.run(monitor.id, start + i * 60_000, down ? 0 : 1, down ? null : 80 + (i % 150), down ? 503 : 200, down ? "status 503, expected 2xx" : null);
  }
})();
// A whole day of samples is older than 24 h at its first end the moment it is written, and the server's first chore
// prunes raw samples past 24 h: the day ends 5 minutes ahead instead, and the export asks for it by from and to.
const SAMPLES = 17_280;
const samplesStart = Date.now() + 5 * 60_000 - SAMPLES * 5_000;
const insertSample = db.prepare(`INSERT INTO agent_samples (agent_id, time, "values") VALUES (?, ?, ?)`);
db.transaction(() => {
  for (let i = 0; i < SAMPLES; i++) {
    const values = { cpu: i % 100, memory: 40 + (i % 7), load1: 0.5, load5: 0.4, load15: 0.3, "disk:/": 41.2, "disk:/data": 77.5, "disk:/boot": 12, "rx:eth0": 1000 + i, "tx:eth0": 500 + i, "rx:lo": 10, "tx:lo": 10 };
    insertSample.run(agentId, samplesStart + i * 5_000, JSON.stringify(values));
  }
})();
db.close();

server = await startServer(dir.path, { binary: args.binary });
api = apiClient(server.base);
const { token: fresh } = await api("POST", "/api/auth/login", { username: "admin", password: PASSWORD });
await Bun.sleep(2_000); // start-up chores settle
Bun.gc(true);

/** Downloads `path` to the last byte: the table row (time, rate, bytes, the server's RSS before and at its peak). */
async function measure(path: string, format: "csv" | "ndjson", count: number): Promise<string> {
  const before = rssBytes(server.proc.pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(server.proc.pid))), 50);
  const t0 = performance.now();
  const res = await fetch(`${server.base}${path}&format=${format}`, { headers: { authorization: `Bearer ${fresh}` } });
  let bytes = 0;
  let lines = 0;
  const reader = res.body!.getReader();
  for (;;) {
    const { value: chunk, done } = await reader.read();
    if (done) break;
    bytes += chunk.byteLength;
    for (let i = 0; i < chunk.byteLength; i++) if (chunk[i] === 10) lines++;
  }
  const ms = performance.now() - t0;
  clearInterval(sampler);
  peak = Math.max(peak, rssBytes(server.proc.pid));
  const expected = count + (format === "csv" ? 1 : 0);
  if (res.status !== 200 || lines !== expected) throw new Error(`${path} ${format}: status ${res.status}, ${lines} lines, expected ${expected}`);
  return `| ${format.toUpperCase()} | ${count.toLocaleString("en")} | ${(ms / 1000).toFixed(2)} s | ${Math.round(count / (ms / 1000)).toLocaleString("en")} | ${mb(bytes)} | ${mb(before)} | ${mb(peak)} (+${mb(peak - before)}) |`;
}

const checks: string[] = [];
for (const format of ["csv", "ndjson"] as const) checks.push(await measure(`/api/monitors/${monitor.id}/export?from=${start}&to=${end}`, format, rows));
const samples: string[] = [];
const day = `from=${samplesStart}&to=${samplesStart + SAMPLES * 5_000}`;
for (const format of ["csv", "ndjson"] as const) samples.push(await measure(`/api/agents/${agentId}/export?${day}`, format, SAMPLES));
await server.stop();
dir.remove();

console.log(`\nExport: ${days} days of one monitor at 1-minute checks, ${args.binary ?? "bun server/main.ts"}, SQLite\n`);
console.log("| format | checks | time to last byte | checks/s | bytes | server RSS before | server RSS peak |");
console.log("| --- | --: | --: | --: | --: | --: | --: |");
for (const line of checks) console.log(line);
console.log(`\nThen a day of one agent's samples at 5 s (12 series), the same server\n`);
console.log("| format | samples | time to last byte | samples/s | bytes | server RSS before | server RSS peak |");
console.log("| --- | --: | --: | --: | --: | --: | --: |");
for (const line of samples) console.log(line);
