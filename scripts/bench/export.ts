// Export benchmark: a year of one monitor's checks at one-minute intervals (525 600 rows) written straight into a
// stopped server's SQLite database, then GET /api/monitors/:id/export as CSV and as NDJSON from the running server on
// 127.0.0.1: the time to the last byte, the bytes, and the server's peak RSS while it streams (sampled every 50 ms)
// against its RSS before. Bounded: one server, two downloads, a few minutes at most.
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

// A server makes the schema and the monitor, then stops; the checks go in directly (the API has no bulk import).
let server = await startServer(dir.path, { binary: args.binary });
let api = apiClient(server.base);
await api("POST", "/api/auth/register", { username: "admin", password: PASSWORD, confirmPassword: PASSWORD });
const { token } = await api("POST", "/api/auth/login", { username: "admin", password: PASSWORD });
const { monitor } = await api("POST", "/api/monitors", { name: "Year", url: "http://127.0.0.1:9/", interval: 60, active: false }, token);
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
db.close();

server = await startServer(dir.path, { binary: args.binary });
api = apiClient(server.base);
const { token: fresh } = await api("POST", "/api/auth/login", { username: "admin", password: PASSWORD });
await Bun.sleep(2_000); // start-up chores settle
Bun.gc(true);

const results: string[] = [];
for (const format of ["csv", "ndjson"] as const) {
  const before = rssBytes(server.proc.pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(server.proc.pid))), 50);
  const t0 = performance.now();
  const res = await fetch(`${server.base}/api/monitors/${monitor.id}/export?format=${format}&from=${start}&to=${end}`, { headers: { authorization: `Bearer ${fresh}` } });
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
  const expected = rows + (format === "csv" ? 1 : 0);
  if (res.status !== 200 || lines !== expected) throw new Error(`${format}: status ${res.status}, ${lines} lines, expected ${expected}`);
  results.push(`| ${format.toUpperCase()} | ${rows.toLocaleString("en")} | ${(ms / 1000).toFixed(1)} s | ${Math.round(rows / (ms / 1000)).toLocaleString("en")} | ${mb(bytes)} | ${mb(before)} | ${mb(peak)} (+${mb(peak - before)}) |`);
}
await server.stop();
dir.remove();

console.log(`\nExport: ${days} days of one monitor at 1-minute checks, ${args.binary ?? "bun server/main.ts"}, SQLite\n`);
console.log("| format | checks | time to last byte | checks/s | bytes | server RSS before | server RSS peak |");
console.log("| --- | --: | --: | --: | --: | --: | --: |");
for (const line of results) console.log(line);
