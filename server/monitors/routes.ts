import { Elysia } from "elysia";
import type { sessions } from "../auth/session";
import { notFound } from "../http/errors";
import { doc } from "../http/openapi";
import { createBody, monitorIdParams, seriesQuery, updateBody } from "./schemas";
import type { MonitorService } from "./service";

export interface MonitorRouteDeps {
  monitors: MonitorService;
  session: ReturnType<typeof sessions>;
}

const monitorNotFound = () => notFound("MONITOR_NOT_FOUND", "Monitor not found");

/** Every signed-in user shares the instance's monitors: all calls need a session, none needs admin but /stats. */
export function monitorRoutes({ monitors, session }: MonitorRouteDeps) {
  return new Elysia({ prefix: "/api", detail: { tags: ["monitors"] } })
    .use(session)
    .get("/monitors", () => ({ success: true, monitors: monitors.list() }), { auth: "user", detail: doc("List the monitors with their current status") })
    .post(
      "/monitors",
      ({ body, set }) => {
        const monitor = monitors.create(body);
        set.status = 201;
        return { success: true, message: "Monitor created", monitor };
      },
      { auth: "user", body: createBody, detail: doc("Create a monitor") },
    )
    // Scheduler and writer figures for operators and the benchmark.
    .get("/monitors/stats", () => ({ success: true, stats: monitors.stats() }), { auth: "admin", detail: doc("Scheduler and writer figures") })
    .get(
      "/monitors/:id",
      ({ params }) => {
        const monitor = monitors.get(params.id);
        if (!monitor) throw monitorNotFound();
        return { success: true, monitor };
      },
      { auth: "user", params: monitorIdParams, detail: doc("A monitor") },
    )
    .put(
      "/monitors/:id",
      ({ params, body }) => {
        const monitor = monitors.update(params.id, body);
        if (!monitor) throw monitorNotFound();
        return { success: true, message: "Monitor updated", monitor };
      },
      { auth: "user", params: monitorIdParams, body: updateBody, detail: doc("Update a monitor") },
    )
    .delete(
      "/monitors/:id",
      ({ params }) => {
        if (!monitors.remove(params.id)) throw monitorNotFound();
        return { success: true, message: "Monitor deleted" };
      },
      { auth: "user", params: monitorIdParams, detail: doc("Delete a monitor and its history") },
    )
    .post(
      "/monitors/:id/check",
      async ({ params }) => {
        const done = await monitors.checkNow(params.id);
        if (!done) throw monitorNotFound();
        return { success: true, message: done.result.status === "up" ? "Check passed" : "Check failed", ...done };
      },
      { auth: "user", params: monitorIdParams, detail: doc("Check a monitor now") },
    )
    .get("/monitors/checks/recent", () => ({ success: true, checks: monitors.allRecentChecks() }), { auth: "user", detail: doc("The latest checks of every monitor") })
    .get(
      "/monitors/:id/checks",
      ({ params }) => {
        const checks = monitors.recentChecks(params.id);
        if (!checks) throw monitorNotFound();
        return { success: true, checks };
      },
      { auth: "user", params: monitorIdParams, detail: doc("A monitor's latest checks") },
    )
    .get(
      "/monitors/:id/history",
      ({ params }) => {
        if (!monitors.get(params.id)) throw monitorNotFound();
        return { success: true, history: monitors.monitorHistory(params.id) };
      },
      { auth: "user", params: monitorIdParams, detail: doc("A monitor's 24-hour and 30-day figures and status bars") },
    )
    .get(
      "/monitors/:id/series",
      ({ params, query }) => {
        if (!monitors.get(params.id)) throw monitorNotFound();
        return { success: true, series: monitors.series(params.id, query.range ?? "24h") };
      },
      { auth: "user", params: monitorIdParams, query: seriesQuery, detail: doc("A monitor's response-time and uptime series") },
    );
}
