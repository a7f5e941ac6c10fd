import { Elysia } from "elysia";
import type { AgentService } from "../agents/service";
import type { sessions } from "../auth/session";
import { doc } from "../http/openapi";
import type { MonitorService } from "../monitors/service";
import type { Dashboard } from "./public";

export interface DashboardRouteDeps {
  monitors: MonitorService;
  agents: AgentService;
  /** Whether an agent is in maintenance now (monitors know theirs). */
  agentInMaintenance: (id: number) => boolean;
  session: ReturnType<typeof sessions>;
}

/**
 * The /dashboard counts and problems: all from memory, so the page can refetch on every pushed change. Targets in
 * maintenance are counted apart and are not problems.
 */
export function dashboardRoutes({ monitors, agents, agentInMaintenance, session }: DashboardRouteDeps) {
  return new Elysia({ prefix: "/api", detail: { tags: ["dashboard"] } })
    .use(session)
    .get(
      "/dashboard",
      (): Dashboard & { success: true } => ({
        success: true,
        ...monitors.counts(),
        agents: agents.counts(agentInMaintenance),
        problems: { monitors: monitors.down(), agents: agents.offline(agentInMaintenance) },
      }),
      { auth: "user", detail: doc("Monitor and agent counts, and what is down or offline") },
    );
}
