import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import type { Db } from "../db/database";
import { badRequest, notFound } from "../http/errors";
import { doc } from "../http/openapi";
import type { MonitorService } from "../monitors/service";
import { monitorIdParams } from "../monitors/schemas";
import type { AgentService } from "../agents/service";
import { idParams } from "../http/ids";
import { checksStream } from "./checks";
import { samplesStream } from "./samples";
import type { ExportFormat } from "./stream";

export interface ExportRouteDeps {
  db: Db;
  monitors: Pick<MonitorService, "get">;
  agents: Pick<AgentService, "get">;
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

/** The reply: the stream as a download named for what it holds and the days it covers, never cached. */
function download(body: ReadableStream<Uint8Array>, what: string, { format, from, to }: ReturnType<typeof exportRequest>) {
  return new Response(body, {
    headers: {
      "content-type": CONTENT_TYPES[format],
      "content-disposition": `attachment; filename="vigil-${what}-${stamp(from)}-${stamp(to - 1)}.${format}"`,
      "cache-control": "no-store",
    },
  });
}

/**
 * GET /api/monitors/:id/export: the monitor's raw checks in a range, CSV (a header line, RFC 4180) or NDJSON (one check
 * per line), streamed from the database. Everyone who may read the monitor may export it. Raw checks are kept
 * --raw-retention-days; older hours live on as rollups (the charts and reports read those).
 * GET /api/agents/:id/export: the agent's raw samples the same way, for whoever may read the agent (every signed-in
 * role, as GET /api/agents/:id). Raw samples are kept 24 hours; minute and hour rollups longer (the charts read those).
 */
export function exportRoutes({ db, monitors, agents, session }: ExportRouteDeps) {
  return new Elysia({ prefix: "/api" })
    .use(session)
    .get(
      "/monitors/:id/export",
      ({ params, query }) => {
        const monitor = monitors.get(params.id);
        if (!monitor) throw notFound("MONITOR_NOT_FOUND", "Monitor not found");
        const request = exportRequest(query, Date.now());
        return download(checksStream(db, monitor.id, request, request.format), `monitor-${monitor.id}-checks`, request);
      },
      {
        auth: "user",
        params: monitorIdParams,
        query: exportQuery,
        detail: { tags: ["monitors"], ...doc("A monitor's raw checks from `from` (inclusive) to `to` (exclusive), as CSV or NDJSON, streamed") },
      },
    )
    .get(
      "/agents/:id/export",
      ({ params, query }) => {
        const agent = agents.get(params.id);
        if (!agent) throw notFound("AGENT_NOT_FOUND", "Agent not found");
        const request = exportRequest(query, Date.now());
        return download(samplesStream(db, agent.id, request, request.format), `agent-${agent.id}-samples`, request);
      },
      {
        auth: "user",
        params: idParams("agent"),
        query: exportQuery,
        detail: {
          tags: ["agents"],
          ...doc("An agent's raw samples from `from` (inclusive) to `to` (exclusive), as CSV (a column per series) or NDJSON, streamed"),
        },
      },
    );
}
