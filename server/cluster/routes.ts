import { Elysia } from "elysia";
import type { sessions } from "../auth/session";
import { doc } from "../http/openapi";
import type { ClusterNodes } from "./public";
import type { Cluster } from "./service";

/** The nodes view: every node sharing this database, its heartbeat and how many monitor buckets it checks. */
export function clusterRoutes({ cluster, session }: { cluster: Cluster; session: ReturnType<typeof sessions> }) {
  return new Elysia({ prefix: "/api/cluster", detail: { tags: ["instance"] } })
    .use(session)
    .get(
      "/nodes",
      async (): Promise<ClusterNodes & { success: true }> => ({
        success: true,
        clustered: cluster.clustered,
        node: cluster.node,
        role: cluster.role(),
        buckets: cluster.health().buckets,
        nodes: await cluster.nodes(),
      }),
      { auth: "user", detail: doc("The nodes of this Vigil: one on SQLite; every process sharing the PostgreSQL database otherwise") },
    );
}
