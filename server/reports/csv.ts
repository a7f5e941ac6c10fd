// A report as CSV: one row per monitor (the summary table), or one row per outage. Times in ISO 8601 UTC, durations
// in seconds, response times in milliseconds.
import { csvLine } from "../exports/csv";
import type { Report } from "./public";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const seconds = (ms: number | null) => (ms === null ? null : Math.round(ms / 1000));

export const MONITORS_CSV_HEADER = [
  "monitor_id", "monitor", "type", "availability_percent", "checks", "up", "down", "maintenance_checks", "downtime_s", "outages",
  "mttr_s", "mtbf_s", "longest_outage_s", "avg_response_ms", "p50_ms", "p95_ms", "p99_ms",
];

export const OUTAGES_CSV_HEADER = ["monitor_id", "monitor", "start", "end", "downtime_s", "maintenance_s", "failed_checks", "cause"];

export function reportCsv(report: Report, part: "monitors" | "outages"): string {
  if (part === "outages") {
    const names = new Map(report.monitors.map((m) => [m.id, m.name]));
    const outages = report.monitors.flatMap((m) => m.outageList).sort((a, b) => a.start - b.start);
    return (
      csvLine(OUTAGES_CSV_HEADER) +
      outages.map((o) => csvLine([o.monitorId, names.get(o.monitorId), iso(o.start), iso(o.end), seconds(o.downtimeMs), seconds(o.maintenanceMs), o.failures, o.cause])).join("")
    );
  }
  return (
    csvLine(MONITORS_CSV_HEADER) +
    report.monitors
      .map((m) =>
        csvLine([
          m.id, m.name, m.type, m.availability, m.checks, m.up, m.down, m.maintenanceChecks, seconds(m.downtimeMs), m.outages,
          seconds(m.mttrMs), seconds(m.mtbfMs), seconds(m.longestOutageMs), m.avgResponseTime, m.p50, m.p95, m.p99,
        ]),
      )
      .join("")
  );
}
