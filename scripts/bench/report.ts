// Report benchmark: a year's availability report of one monitor and of 1 000 monitors (a tag). A server makes the
// monitors and stops; a year of rollups goes straight into its SQLite database as the rollup timer leaves them — a
// daily row per monitor and day with its response-time histogram, hourly rows around the period's ends (the report
// reads hours only where its zone's midnight is not a UTC day's), 20 outages per monitor — with the watermarks at
// the end, so nothing is left raw. Then GET /api/reports/… from the running server on 127.0.0.1: the time to the reply
// (median of 3), its size, and the server's peak RSS against its RSS before. Bounded: one server, a few minutes.
//   bun scripts/bench/report.ts [--monitors 1000] [--binary dist/vigil]
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { apiClient, benchDir, mb, rssBytes, startServer } from "./proc";

const { values: args } = parseArgs({ args: process.argv.slice(2), options: { monitors: { type: "string", default: "1000" }, binary: { type: "string" } } });
const count = Number(args.monitors);
if (!Number.isInteger(count) || count < 1 || count > 10_000) {
  console.error("usage: bun scripts/bench/report.ts [--monitors 1000] [--binary dist/vigil]");
  process.exit(2);
}
const PASSWORD = "bench password 1";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const dir = benchDir("vigil-bench-report-");

let server = await startServer(dir.path, { binary: args.binary });
let api = apiClient(server.base);
await api("POST", "/api/auth/register", { username: "admin", password: PASSWORD, confirmPassword: PASSWORD });
let { token } = await api("POST", "/api/auth/login", { username: "admin", password: PASSWORD });
const ids: number[] = [];
for (let i = 0; i < count; i += 50) {
  const batch = Array.from({ length: Math.min(50, count - i) }, (_, j) =>
    api("POST", "/api/monitors", { name: `Site ${i + j + 1}`, url: "http://127.0.0.1:9/", interval: 60, active: false, tags: ["fleet"] }, token),
  );
  for (const { monitor } of await Promise.all(batch)) ids.push(monitor.id);
}
await server.stop();

// The last 365 whole days in Europe/Berlin, ending at today's midnight there.
const today = Temporal.Now.instant().toZonedDateTimeISO("Europe/Berlin");
const last = Temporal.PlainDate.from({ year: today.year, month: today.month, day: today.day }).add({ days: -1 });
const first = last.add({ days: -364 });
const period = `${first.toString()}..${last.toString()}`;
const from = first.toZonedDateTime({ timeZone: "Europe/Berlin" }).epochMilliseconds;
const to = last.add({ days: 1 }).toZonedDateTime({ timeZone: "Europe/Berlin" }).epochMilliseconds;
const dayFrom = Math.floor(from / DAY) * DAY - DAY;
const dayTo = Math.ceil(to / DAY) * DAY + DAY;

const db = new Database(join(dir.path, "vigil.db"));
const rollup = (table: string) =>
  db.prepare(`INSERT INTO ${table} (monitor_id, bucket_start, checks, up, down, maintenance, rt_sum, rt_count, rt_min, rt_max, rt_hist) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)`);
const daily = rollup("monitor_daily");
const hourly = rollup("monitor_hourly");
const outage = db.prepare("INSERT INTO monitor_outages (monitor_id, started_at, ended_at, last_failure_at, failures, cause) VALUES (?, ?, ?, ?, ?, ?)");
// A steady service: 80-200 ms over a dozen bins, a failed check or two a day.
const hist = (scale: number) => JSON.stringify({ 46: 3 * scale, 47: 8 * scale, 48: 14 * scale, 49: 12 * scale, 50: 9 * scale, 51: 6 * scale, 52: 4 * scale, 53: 2 * scale, 55: scale, 60: scale });
db.transaction(() => {
  for (const id of ids) {
    for (let t = dayFrom; t < dayTo; t += DAY) daily.run(id, t, 1440, 1438, 2, 1440 * 110, 1438, 80, 1900, hist(24));
    for (const edge of [dayFrom, dayTo - 3 * DAY]) for (let t = edge; t < edge + 3 * DAY; t += HOUR) hourly.run(id, t, 60, 60, 0, 60 * 110, 60, 80, 900, hist(1));
    for (let k = 0; k < 20; k++) {
      const start = from + Math.floor(((k + 0.5) * (to - from)) / 20);
      outage.run(id, start, start + 4 * 60_000, start + 3 * 60_000, 4, "status 503, expected 2xx");
    }
  }
  const mark = db.prepare("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value");
  mark.run("monitors.rollup.hourly", String(dayTo));
  mark.run("monitors.rollup.daily", String(dayTo));
  mark.run("reports.outages", String(dayTo));
})();
db.close();

server = await startServer(dir.path, { binary: args.binary });
api = apiClient(server.base);
({ token } = await api("POST", "/api/auth/login", { username: "admin", password: PASSWORD }));
await Bun.sleep(2_000); // start-up chores settle
Bun.gc(true);

/** Asks for `path` three times: the table row (median time, bytes, the server's RSS before and at its peak). */
async function measure(label: string, path: string, monitors: number): Promise<string> {
  const before = rssBytes(server.proc.pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(server.proc.pid))), 20);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const res = await fetch(`${server.base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.text();
    times.push(performance.now() - t0);
    bytes = body.length;
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
    if (path.includes("format=csv")) continue;
    const { report } = JSON.parse(body);
    if (report.monitors.length !== monitors || report.granularity !== "hour" || report.summary.outages !== 20 * monitors) throw new Error(`${path}: unexpected report`);
  }
  clearInterval(sampler);
  peak = Math.max(peak, rssBytes(server.proc.pid));
  const median = times.sort((a, b) => a - b)[1]!;
  return `| ${label} | ${monitors.toLocaleString("en")} | ${(median / 1000).toFixed(2)} s | ${mb(bytes)} | ${mb(before)} | ${mb(peak)} (+${mb(peak - before)}) |`;
}

const q = `period=${period}&zone=Europe/Berlin`;
const rowsOut = [
  await measure("one monitor, JSON", `/api/reports/monitor/${ids[0]}?${q}`, 1),
  await measure(`${count.toLocaleString("en")} monitors (a tag), JSON`, `/api/reports/tag/fleet?${q}`, count),
  await measure(`${count.toLocaleString("en")} monitors (a tag), CSV`, `/api/reports/tag/fleet?${q}&format=csv`, count),
];
await server.stop();
dir.remove();

console.log(`\nReport: a year (${period}, Europe/Berlin) from the rollups, ${args.binary ?? "bun server/main.ts"}, SQLite\n`);
console.log("| report | monitors | time (median of 3) | reply | server RSS before | server RSS peak |");
console.log("| --- | --: | --: | --: | --: | --: |");
for (const line of rowsOut) console.log(line);
