// Types the UI imports (import type): what the agent API returns.
import type { AgentState } from "./service";
export type { AgentStatus } from "./service";

/** An agent as GET /api/agents and /api/agents/:id answer: its state, and whether it is in maintenance now. */
export type PublicAgent = AgentState & { maintenance: boolean };
export type { Sample, DiskSample, InterfaceSample, ContainerInfo, ContainersSnapshot } from "./protocol";

/** What /api/live pushes about agents (through agentView, as REST replies: no report address). */
export type AgentLiveMessages = {
  "agent.status": Omit<import("./service").AgentStatusEvent, "lastAddress">;
  "agent.report": import("./service").AgentState;
  "agent.change": { agentId: number; kind: "created" | "updated" | "deleted" };
};

export type SeriesRange = "1h" | "24h" | "7d" | "30d";

/** Agents by status, for /dashboard. */
/** An agent that stopped reporting (the dashboard's triage list). */
export interface OfflineAgent {
  id: number;
  name: string;
  /** Its last report: it has been offline since then. */
  lastSeenAt: number | null;
}

export interface AgentCounts {
  total: number;
  online: number;
  offline: number;
  connecting: number;
  /** In maintenance now (counted here instead of by status). */
  maintenance: number;
}

/** Chart data, columnar for uPlot: `times[i]` (Unix ms) goes with `avg[key][i]` and `max[key][i]`; null is a gap. */
export interface AgentSeries {
  range: SeriesRange;
  /** bucket length in ms: 0 for raw samples */
  step: number;
  /** The window asked for (Unix ms): charts span it whatever data there is. */
  from: number;
  to: number;
  times: number[];
  avg: Record<string, (number | null)[]>;
  max: Record<string, (number | null)[]>;
}
