import { Elysia } from "elysia";
import type { sessions } from "../auth/session";
import { notFound } from "../http/errors";
import { createBody, monitorIdParams, seriesQuery, updateBody } from "./schemas";
import type { MonitorService } from "./service";

export interface MonitorRouteDeps {
  monitors: MonitorService;
  session: ReturnType<typeof sessions>;
}

const monitorNotFound = () => notFound("MONITOR_NOT_FOUND", "Monitor not found");

/** Every signed-in user shares the instance's monitors: all calls need a session, none needs admin but /stats. */
export function monitorRoutes({ monitors, session }: MonitorRouteDeps) {
  return new Elysia({ prefix: "/api" })
    .use(session)
    .get("/monitors", () => ({ success: true, monitors: monitors.list() }), { auth: "user" })
    .post(
      "/monitors",
      ({ body, set }) => {
        const monitor = monitors.create(body);
        set.status = 201;
        return { success: true, message: "Monitor created", monitor };
      },
      { auth: "user", body: createBody },
    )
    // Scheduler and writer figures for operators and the benchmark.
    .get("/monitors/stats", () => ({ success: true, stats: monitors.stats() }), { auth: "admin" })
    .get(
      "/monitors/:id",
      ({ params }) => {
        const monitor = monitors.get(params.id);
        if (!monitor) throw monitorNotFound();
        return { success: true, monitor };
      },
      { auth: "user", params: monitorIdParams },
    )
    .put(
      "/monitors/:id",
      ({ params, body }) => {
        const monitor = monitors.update(params.id, body);
        if (!monitor) throw monitorNotFound();
        return { success: true, message: "Monitor updated", monitor };
      },
      { auth: "user", params: monitorIdParams, body: updateBody },
    )
    .delete(
      "/monitors/:id",
      ({ params }) => {
        if (!monitors.remove(params.id)) throw monitorNotFound();
        return { success: true, message: "Monitor deleted" };
      },
      { auth: "user", params: monitorIdParams },
    )
    .post(
      "/monitors/:id/check",
      async ({ params }) => {
        const done = await monitors.checkNow(params.id);
        if (!done) throw monitorNotFound();
        return { success: true, message: done.result.status === "up" ? "Check passed" : "Check failed", ...done };
      },
      { auth: "user", params: monitorIdParams },
    )
    .get("/monitors/checks/recent", () => ({ success: true, checks: monitors.allRecentChecks() }), { auth: "user" })
    .get(
      "/monitors/:id/checks",
      ({ params }) => {
        const checks = monitors.recentChecks(params.id);
        if (!checks) throw monitorNotFound();
        return { success: true, checks };
      },
      { auth: "user", params: monitorIdParams },
    )
    .get(
      "/monitors/:id/history",
      ({ params }) => {
        if (!monitors.get(params.id)) throw monitorNotFound();
        return { success: true, history: monitors.monitorHistory(params.id) };
      },
      { auth: "user", params: monitorIdParams },
    )
    .get(
      "/monitors/:id/series",
      ({ params, query }) => {
        if (!monitors.get(params.id)) throw monitorNotFound();
        return { success: true, series: monitors.series(params.id, query.range ?? "24h") };
      },
      { auth: "user", params: monitorIdParams, query: seriesQuery },
    );
}
