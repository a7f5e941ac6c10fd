// A monitor's raw checks over a range, as CSV or NDJSON, streamed a page at a time: a year of one monitor at one-minute
// checks (525 600 rows) never sits in memory, and the database is asked by (monitor, time), its primary key.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { checkRows, DAY, type StoredCheck } from "../monitors/check-rows";
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
  const read = async (cursor: number, limit: number) => {
    const out: Omit<StoredCheck, "monitor_id">[] = [];
    // On PostgreSQL a day per query: older checks are packed an hour to a row, and the bounds say which rows to open.
    // SQLite reads the whole range by its key, a page at a time.
    const span = db.engine === "postgres" ? DAY : Infinity;
    for (let from = cursor; from < range.to && out.length < limit; from = Math.min(range.to, from + span)) {
      const to = Math.min(range.to, from + span);
      out.push(
        ...(await db.rows<Omit<StoredCheck, "monitor_id">>(
          sql`SELECT time, up, response_time, http_status, error, maintenance, ping FROM ${checkRows(db.engine, from, to)}
              WHERE monitor_id = ${monitorId} AND time >= ${from} AND time < ${to} ORDER BY time LIMIT ${limit - out.length}`,
        )),
      );
    }
    return out;
  };
  return textStream(
    (async function* () {
      if (format === "csv") yield CHECK_CSV_HEADER;
      for await (const rows of pagesFrom(range.from, read)) {
        let text = "";
        for (const r of rows) {
          const check: ExportedCheck = {
            time: new Date(Number(r.time)).toISOString(),
            status: r.up ? "up" : "down",
            responseTime: r.response_time === null ? null : Number(r.response_time),
            httpStatus: r.http_status === null ? null : Number(r.http_status),
            error: r.error,
            maintenance: Boolean(r.maintenance),
            // Raw SQL: SQLite hands the JSON text back, PostgreSQL the parsed jsonb.
            ping: typeof r.ping === "string" ? (JSON.parse(r.ping) as PingStats) : (r.ping ?? null),
          };
          text += format === "csv" ? asCsv(check) : `${JSON.stringify(check)}\n`;
        }
        yield text;
      }
    })(),
  );
}
