import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import { badRequest } from "../http/errors";
import { doc } from "../http/openapi";
import type { ReportDeps } from "./compute";
import { reportCsv } from "./csv";
import { parsePeriod } from "./period";
import type { ReportTargetKind } from "./public";
import { buildReport, type TargetDeps } from "./report";

export type ReportRouteDeps = ReportDeps & TargetDeps & {
  session: ReturnType<typeof sessions>;
  /** The zone a report is read in when the request names none (the notification settings' zone). */
  defaultZone: () => Promise<string>;
  now?: () => number;
};

const KINDS: ReportTargetKind[] = ["monitor", "group", "tag", "status-page"];

const reportQuery = t.Object({
  period: t.String({ maxLength: 40, error: "period is required: 2026, 2026-Q4, 2026-10 or 2026-10-03..2026-10-17" }),
  zone: t.Optional(t.String({ maxLength: 64 })),
  format: t.Optional(t.String()),
  part: t.Optional(t.String()),
});

/**
 * GET /api/reports/:kind/:ref?period=&zone=&format=json|csv&part=monitors|outages — an availability report of a
 * monitor, a group (its members), a tag's monitors or a status page's monitors (by slug), over a calendar month,
 * quarter, year or a range of days in a zone. Everyone who may read the monitors may read their report.
 */
export function reportRoutes(deps: ReportRouteDeps) {
  const now = deps.now ?? Date.now;
  return new Elysia({ prefix: "/api", detail: { tags: ["reports"] } }).use(deps.session).get(
    "/reports/:kind/:ref",
    async ({ params, query }) => {
      const kind = params.kind as ReportTargetKind;
      if (!KINDS.includes(kind)) throw badRequest("VALIDATION", `kind must be one of ${KINDS.join(", ")}`);
      const format = query.format ?? "json";
      if (format !== "json" && format !== "csv") throw badRequest("VALIDATION", "format must be json or csv");
      const part = query.part ?? "monitors";
      if (part !== "monitors" && part !== "outages") throw badRequest("VALIDATION", "part must be monitors or outages");
      const period = parsePeriod(query.period, query.zone || (await deps.defaultZone()));
      if (typeof period === "string") throw badRequest("VALIDATION", period);
      const report = await buildReport(deps, kind, decodeURIComponent(params.ref), period, now());
      if (format === "json") return { success: true, report };
      const name = `vigil-report-${kind}-${params.ref}-${period.label}-${part}.csv`.replace(/[^\w.-]+/g, "_");
      return new Response(reportCsv(report, part), {
        headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${name}"`, "cache-control": "no-store" },
      });
    },
    {
      auth: "user",
      params: t.Object({ kind: t.String({ maxLength: 20 }), ref: t.String({ minLength: 1, maxLength: 200 }) }),
      query: reportQuery,
      detail: doc("An availability report (availability without maintenance, outages, MTTR/MTBF, percentiles) as JSON or CSV"),
    },
  );
}
