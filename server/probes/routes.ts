import { Elysia, t } from "elysia";
import type { AgentService } from "../agents/service";
import type { sessions } from "../auth/session";
import { HttpError } from "../http/errors";
import { agentAuthDetail, doc } from "../http/openapi";
import { monitorIdParams } from "../monitors/schemas";
import { probeCallSchema, type ProbeReply } from "./protocol";
import type { ProbeService } from "./service";
import { LOCATION_RANGES, LOCATION_RULES } from "./public";

export interface ProbeRouteDeps {
  probes: ProbeService;
  agents: AgentService;
  session: ReturnType<typeof sessions>;
}

const locationsBody = t.Object({
  checkFromServer: t.Boolean({ error: "checkFromServer must be true or false" }),
  agentIds: t.Array(t.Integer({ minimum: 1 }), { maxItems: 100, error: "agentIds must be a list of at most 100 agent ids" }),
  rule: t.Union(LOCATION_RULES.map((r) => t.Literal(r)), { error: `rule must be ${LOCATION_RULES.join(", ")}` }),
  count: t.Optional(t.Union([t.Integer({ minimum: 1, maximum: 101 }), t.Null()], { error: "count must be a whole number of locations" })),
});

/** Where monitors are checked from (people), and the agents' side of it (their credential). */
export function probeRoutes({ probes, agents, session }: ProbeRouteDeps) {
  // The agent each call comes from, from its credential check (transform) to the handler.
  const calling = new WeakMap<Request, number>();
  return new Elysia({ detail: { tags: ["monitors"] } })
    .use(session)
    .get("/api/monitors/:id/locations", async ({ params }) => ({ success: true, ...(await probes.view(params.id)) }), {
      auth: "user",
      params: monitorIdParams,
      detail: doc("Where a monitor is checked from: the server and/or agents, the rule that combines them, and each location's latest result"),
    })
    .put("/api/monitors/:id/locations", async ({ params, body }) => ({ success: true, message: "Locations saved", ...(await probes.save(params.id, body)) }), {
      // Admins only: an agent runs the checks assigned to it inside its own network.
      auth: "admin",
      params: monitorIdParams,
      body: locationsBody,
      detail: doc("Choose where a monitor is checked from (admins: agents run what is assigned to them)"),
    })
    .get("/api/monitors/:id/locations/series", async ({ params, query }) => ({ success: true, range: query.range ?? "24h", locations: await probes.series(params.id, query.range ?? "24h") }), {
      auth: "user",
      params: monitorIdParams,
      query: t.Object({ range: t.Optional(t.Union(LOCATION_RANGES.map((r) => t.Literal(r)), { error: `range must be ${LOCATION_RANGES.join(", ")}` })) }),
      detail: doc("Each location's response times over a range (buckets of at least a minute)"),
    })
    .post(
      "/api/agents/probes",
      async ({ body, request }): Promise<ProbeReply> => {
        const agentId = calling.get(request)!;
        const { accepted, refused } = await probes.ingest(agentId, body.results);
        const assignments = probes.assignmentsOf(agentId);
        return { success: true, accepted, refused, ...(assignments.version !== body.version ? { assignments } : {}) };
      },
      {
        body: probeCallSchema,
        detail: { ...agentAuthDetail, ...doc("Agent: send the results of assigned checks; the reply counts those stored, lists those refused and why, and brings the assignments when the agent's version is not the current one") },
        // The credential is checked before the body is validated: an unknown caller learns nothing about the format.
        transform({ request }) {
          const header = request.headers.get("authorization") ?? "";
          const agentId = header.startsWith("Bearer ") ? agents.authenticate(header.slice(7).trim()) : undefined;
          if (agentId === undefined) throw new HttpError(401, "AGENT_UNKNOWN", "This agent's credential is not accepted (deleted or revoked)");
          calling.set(request, agentId);
        },
      },
    );
}
