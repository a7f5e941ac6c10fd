import { Elysia } from "elysia";
import type { sessions } from "../auth/session";
import { notFound } from "../http/errors";
import { doc } from "../http/openapi";
import type { MonitorService } from "../monitors/service";
import { monitorIdParams } from "../monitors/schemas";
import type { ObjectivesService } from "./service";

/** GET /api/monitors/:id/budget: the error budget of a monitor or group with an objective (null without one). */
export function objectiveRoutes({ monitors, objectives, session }: { monitors: Pick<MonitorService, "get">; objectives: ObjectivesService; session: ReturnType<typeof sessions> }) {
  return new Elysia({ prefix: "/api", detail: { tags: ["monitors"] } }).use(session).get(
    "/monitors/:id/budget",
    async ({ params }) => {
      const monitor = monitors.get(params.id);
      if (!monitor) throw notFound("MONITOR_NOT_FOUND", "Monitor not found");
      return { success: true, budget: await objectives.budgetOf(monitor) };
    },
    { auth: "user", params: monitorIdParams, detail: doc("A monitor's or group's error budget: its objective, budget left, burn rates and state") },
  );
}
