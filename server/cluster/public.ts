// What the API says about the nodes (GET /api/cluster/nodes); shared with the UI.

/** standalone: the only node (SQLite); leader: a cluster node that runs the chores (rollups, retention); member: any other. */
export type NodeRole = "standalone" | "leader" | "member";

export interface NodeView {
  name: string;
  version: string;
  /** Where it listens, as it said when it started. */
  address: string | null;
  startedAt: number;
  /** Its last lease renewal (every 5 s while it lives). */
  heartbeatAt: number;
  /** It renewed within the lease time and has not stopped. */
  live: boolean;
  stoppedAt: number | null;
  /** Monitor buckets it checks now (of `buckets`). */
  leases: number;
  /** The node that answered. */
  self: boolean;
}

export interface ClusterNodes {
  /** Several nodes may share the database (PostgreSQL): false on SQLite. */
  clustered: boolean;
  /** The node that answered. */
  node: string;
  role: NodeRole;
  buckets: number;
  nodes: NodeView[];
}
