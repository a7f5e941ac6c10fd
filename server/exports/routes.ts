import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import type { Db } from "../db/database";
import { badRequest, notFound } from "../http/errors";
import { doc } from "../http/openapi";
import type { MonitorService } from "../monitors/service";
import { monitorIdParams } from "../monitors/schemas";
import { checksStream, type ExportFormat } from "./checks";

export interface ExportRouteDeps {
  db: Db;
  monitors: Pick<MonitorService, "get">;
  session: ReturnType<typeof sessions>;
}

const exportQuery = t.Object({
  format: t.Optional(t.String()),
  from: t.Optional(t.String()),
  to: t.Optional(t.String()),
});

const CONTENT_TYPES: Record<ExportFormat, string> = { csv: "text/csv; charset=utf-8", ndjson: "application/x-ndjson; charset=utf-8" };

/** A bound of the range: Unix milliseconds or an ISO 8601 date-time (a date alone is its UTC midnight). */
function instant(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === "") return fallback;
  const value = /^\d{1,15}$/.test(raw) ? Number(raw) : /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : NaN;
  if (!Number.isFinite(value)) throw badRequest("VALIDATION", `${name} must be Unix milliseconds or an ISO 8601 date-time (2026-01-31T00:00:00Z)`);
  return value;
}

/** The range and format of an export request, checked. */
function exportRequest(query: { format?: string; from?: string; to?: string }, now: number) {
  const format = (query.format ?? "csv") as ExportFormat;
  if (format !== "csv" && format !== "ndjson") throw badRequest("VALIDATION", "format must be csv or ndjson");
  const from = instant("from", query.from, 0);
  const to = instant("to", query.to, now + 1);
  if (from >= to) throw badRequest("VALIDATION", "from must be before to");
  return { format, from, to };
}

const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * GET /api/monitors/:id/export: the monitor's raw checks in a range, CSV (a header line, RFC 4180) or NDJSON (one check
 * per line), streamed from the database. Everyone who may read the monitor may export it. Raw checks are kept
 * --raw-retention-days; older hours live on as rollups (the charts and reports read those).
 */
export function exportRoutes({ db, monitors, session }: ExportRouteDeps) {
  return new Elysia({ prefix: "/api", detail: { tags: ["monitors"] } }).use(session).get(
    "/monitors/:id/export",
    ({ params, query }) => {
      const monitor = monitors.get(params.id);
      if (!monitor) throw notFound("MONITOR_NOT_FOUND", "Monitor not found");
      const { format, from, to } = exportRequest(query, Date.now());
      const name = `vigil-monitor-${monitor.id}-checks-${stamp(from)}-${stamp(to - 1)}.${format}`;
      return new Response(checksStream(db, monitor.id, { from, to }, format), {
        headers: {
          "content-type": CONTENT_TYPES[format],
          "content-disposition": `attachment; filename="${name}"`,
          "cache-control": "no-store",
        },
      });
    },
    {
      auth: "user",
      params: monitorIdParams,
      query: exportQuery,
      detail: doc("A monitor's raw checks from `from` (inclusive) to `to` (exclusive), as CSV or NDJSON, streamed"),
    },
  );
}
