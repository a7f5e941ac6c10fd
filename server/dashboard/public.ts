import type { AgentCounts } from "../agents/public";
import type { DashboardCounts } from "../monitors/public";

/** `GET /api/dashboard`: the monitor counts at the top level (as before), the agent counts under `agents`. */
export interface Dashboard extends DashboardCounts {
  agents: AgentCounts;
}
