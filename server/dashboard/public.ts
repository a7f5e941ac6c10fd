import type { AgentCounts, OfflineAgent } from "../agents/public";
import type { DashboardCounts, DownMonitor } from "../monitors/public";

/**
 * `GET /api/dashboard`: the monitor counts at the top level (as before), the agent counts under `agents`, and what
 * needs attention right now under `problems` (down monitors, offline agents), longest first.
 */
export interface Dashboard extends DashboardCounts {
  agents: AgentCounts;
  problems: { monitors: DownMonitor[]; agents: OfflineAgent[] };
}
