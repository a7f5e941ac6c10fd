// The agents' in-memory model and the events about them (shared by the service, the bus and the UI's types).
import type { Sample } from "./protocol";

export type AgentStatus = "connecting" | "online" | "offline";

/** What lists and the detail page show: the row's facts, the newest sample and the derived status. */
export interface AgentState {
  id: number;
  name: string;
  /** What its checks are called among a monitor's locations ("Frankfurt"); null: its name. */
  location: string | null;
  hostname: string;
  ips: string[];
  os: string;
  kernel: string;
  arch: string;
  agentVersion: string;
  interval: number;
  uptime: number;
  createdAt: number;
  lastSeenAt: number | null;
  latest: Sample | null;
  status: AgentStatus;
}

export interface AgentStatusEvent {
  agentId: number;
  name: string;
  from: AgentStatus;
  to: AgentStatus;
  at: number;
  /** Its last report (going online: the one that brought it back) and the address it came from (null: unknown). */
  lastSeenAt: number | null;
  lastAddress: string | null;
  /** Another node of the cluster is in charge of this agent's presence (it notifies; this node only shows it). */
  remote?: boolean;
  /** The agent was in maintenance: nothing is notified. */
  maintenance?: boolean;
}

/**
 * What agents need from a cluster (server/cluster/service.ts): which agents' presence this node decides, and a
 * channel to the other nodes. Reports may reach any node; each tells the others.
 */
export interface AgentPeers {
  owns(id: number): boolean;
  publish(kind: string, data: unknown): void;
  on(kind: string, handler: (data: unknown) => void): () => void;
}

/** A report accepted by another node: the agent's new facts and the minutes it touched after they were rolled up. */
export interface RemoteReport {
  id: number;
  facts: Pick<AgentState, "hostname" | "ips" | "os" | "kernel" | "arch" | "agentVersion" | "uptime" | "interval" | "latest" | "lastSeenAt">;
  address: string | null;
  late: number[];
}
