import type { ClusterNodes, NodeRole, NodeView } from "../../server/cluster/public";
import { api } from "./client";

export type { ClusterNodes, NodeRole, NodeView };

export const getClusterNodes = () => api.get<ClusterNodes>("/api/cluster/nodes");
