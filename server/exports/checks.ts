// A monitor's raw checks over a range, as CSV or NDJSON, streamed a page at a time: a year of one monitor at one-minute
// checks (525 600 rows) never sits in memory, and the database is asked by (monitor, time), its primary key.
import { and, asc, eq, gte, lt } from "drizzle-orm";
import type { Db } from "../db/database";
import type { PingStats } from "../monitors/public";
import { csvLine } from "./csv";
import { pagesFrom, textStream, type ExportFormat } from "./stream";

export interface ExportedCheck {
  time: string;
  status: "up" | "down";
  responseTime: number | null;
  httpStatus: number | null;
  error: string | null;
  maintenance: boolean;
  ping: PingStats | null;
}

export const CHECK_CSV_HEADER = csvLine([
  "time",
  "status",
  "response_time_ms",
  "http_status",
  "error",
  "maintenance",
  "ping_sent",
  "ping_received",
  "ping_loss",
  "ping_min_ms",
  "ping_avg_ms",
  "ping_max_ms",
]);

const asCsv = (c: ExportedCheck) =>
  csvLine([c.time, c.status, c.responseTime, c.httpStatus, c.error, c.maintenance, c.ping?.sent, c.ping?.received, c.ping?.loss, c.ping?.min, c.ping?.avg, c.ping?.max]);

/** The checks of `monitorId` with from <= time < to, oldest first, as a byte stream in `format`. */
export function checksStream(db: Db, monitorId: number, range: { from: number; to: number }, format: ExportFormat): ReadableStream<Uint8Array> {
  const { checkResults } = db.t;
  const read = (cursor: number, limit: number) =>
    db.orm
      .select()
      .from(checkResults)
      .where(and(eq(checkResults.monitorId, monitorId), gte(checkResults.time, cursor), lt(checkResults.time, range.to)))
      .orderBy(asc(checkResults.time))
      .limit(limit);
  return textStream(
    (async function* () {
      if (format === "csv") yield CHECK_CSV_HEADER;
      for await (const rows of pagesFrom(range.from, read)) {
        let text = "";
        for (const r of rows) {
          const check: ExportedCheck = {
            time: new Date(r.time).toISOString(),
            status: r.up ? "up" : "down",
            responseTime: r.responseTime,
            httpStatus: r.httpStatus,
            error: r.error,
            maintenance: Boolean(r.maintenance),
            ping: r.ping ?? null, // JSON-mode text on SQLite, jsonb on PostgreSQL: parsed by drizzle either way
          };
          text += format === "csv" ? asCsv(check) : `${JSON.stringify(check)}\n`;
        }
        yield text;
      }
    })(),
  );
}
