import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import { HttpError, badRequest, notFound } from "../http/errors";
import { idParams } from "../http/ids";
import { agentAuthDetail, doc } from "../http/openapi";
import { clientIp } from "../http/client-ip";
import { MAX_BODY_BYTES } from "../http/limits";
import { hostSchema, reportSchema } from "./protocol";
import { buildSeries, SERIES_RANGES } from "./series";
import { AgentService, SampleTimeError } from "./service";
import { agentView } from "./view";

const agentNotFound = () => notFound("AGENT_NOT_FOUND", "Agent not found");
// Not blank, and no control characters (PostgreSQL cannot store NUL; none belongs in a name).
const nameField = t.String({ minLength: 1, maxLength: 100, pattern: "^(?=.*\\S)[^\\u0000-\\u001f\\u007f]+$", error: "Agent name must be 1-100 characters, without control characters" });

// What an agent's checks are called among a monitor's locations ("Frankfurt"); blank clears it.
const locationField = t.String({ maxLength: 60, pattern: "^[^\\u0000-\\u001f\\u007f]*$", error: "Location name must be at most 60 characters, without control characters" });

export interface AgentRouteDeps {
  agents: AgentService;
  session: ReturnType<typeof sessions>;
  /** Proxies in front of Vigil (config trust-proxy): how a report's address is read. */
  trustProxy?: number;
  /** Whether an agent is in maintenance now (server/maintenance): lists show it. */
  inMaintenance?: (id: number) => boolean;
  /** The version of an agent's check assignments (server/probes), told in each report's reply: "" when none. */
  probesVersion?: (agentId: number) => string;
}

export function agentRoutes({ agents, session, trustProxy = 0, inMaintenance = () => false, probesVersion = () => "" }: AgentRouteDeps) {
  const invalidToken = (reason: "unknown" | "used" | "expired") =>
    new HttpError(401, "INVALID_TOKEN", {
      unknown: "This registration token is not valid",
      used: "This registration token has already been used",
      expired: "This registration token has expired: create a new one",
    }[reason]);

  // The agent each report comes from, from its credential check (transform) to the handler.
  const reporting = new WeakMap<Request, number>();

  return (
    new Elysia({ prefix: "/api/agents", detail: { tags: ["agents"] } })
      .use(session)
      // --- called by agents -------------------------------------------------------------------------------
      .post(
        "/register",
        async ({ body, set }) => {
          const result = await agents.register(body.token, body.name, body.host);
          if (typeof result === "string") throw invalidToken(result);
          set.status = 201;
          return { success: true, message: "Agent registered", agentId: result.agent.id, credential: result.credential, replaced: result.replaced };
        },
        {
          detail: {
            ...doc("Agent: register with a one-time registration token; returns the agent's credential", 401),
            description:
              "Never-reported agents registered earlier from the same host (hostname and addresses) under the same name " +
              "are deleted with this registration and listed in `replaced`: installing again leaves no dead twin.",
          },
          body: t.Object({
            token: t.String({ minLength: 1, maxLength: 200, error: "A registration token is required" }),
            name: t.Optional(t.String({ maxLength: 100, error: "Agent name must be at most 100 characters" })),
            host: hostSchema,
          }),
        },
      )
      .post(
        "/report",
        async ({ body, request, server }) => {
          const agentId = reporting.get(request)!;
          let accepted: number;
          try {
            // "local": handled without a socket (in-process tests), so no address to state.
            const address = clientIp(request, server, trustProxy);
            accepted = agents.ingest(agentId, body, address === "local" ? null : address);
          } catch (e) {
            if (e instanceof SampleTimeError) throw badRequest("SAMPLE_TIME", e.message);
            throw e;
          }
          // A 2xx means stored: the agent drops what it sent, so the samples must survive a crash from here on.
          try {
            await agents.committed();
          } catch {
            throw new HttpError(503, "STORAGE_BUSY", "The samples could not be stored just now: send them again");
          }
          // maxBytes: the agent sizes its batches under it (agent/report.ts); probes: when it differs from the
          // agent's, it asks for its check assignments (agent/probes.ts).
          return { success: true, accepted, maxBytes: MAX_BODY_BYTES, probes: probesVersion(agentId) };
        },
        {
          body: reportSchema,
          detail: { ...agentAuthDetail, ...doc("Agent: report a batch of samples", 503) },
          // The credential is checked before the body is validated: an unknown caller learns nothing about the format.
          transform({ request }) {
            const header = request.headers.get("authorization") ?? ""; // not `headers`: see auth/session.ts
            const agentId = header.startsWith("Bearer ") ? agents.authenticate(header.slice(7).trim()) : undefined;
            if (agentId === undefined) throw new HttpError(401, "AGENT_UNKNOWN", "This agent's credential is not accepted (deleted or revoked)");
            reporting.set(request, agentId);
          },
        },
      )
      // --- called by people -------------------------------------------------------------------------------
      .post(
        "/tokens",
        async ({ user, set }) => {
          const created = await agents.createToken(user.id);
          set.status = 201;
          return { success: true, message: "Registration token created", ...created };
        },
        { auth: "user", detail: doc("Create a one-time registration token for a new agent") },
      )
      .get("/tokens", async () => ({ success: true, tokens: await agents.pendingTokens() }), { auth: "editor", detail: doc("The unused registration tokens (editors and admins: they are secrets)") })
      .delete(
        "/tokens/:id",
        async ({ params }) => {
          if (!(await agents.revokeToken(params.id))) throw notFound("TOKEN_NOT_FOUND", "Registration token not found (already used, expired or revoked)");
          return { success: true, message: "Registration token revoked" };
        },
        { auth: "user", params: idParams("token"), detail: doc("Revoke a registration token") },
      )
      .get("/", ({ user }) => ({ success: true, agents: agents.list().map((a) => agentView(user.role, { ...a, maintenance: inMaintenance(a.id) })) }), {
        auth: "user",
        detail: doc("List the agents with their latest figures (maintenance: in a maintenance window now)"),
      })
      .get(
        "/:id",
        ({ params, user }) => {
          const agent = agents.get(params.id);
          if (!agent) throw agentNotFound();
          return { success: true, agent: agentView(user.role, { ...agent, maintenance: inMaintenance(agent.id) }) };
        },
        { auth: "user", params: idParams("agent"), detail: doc("An agent") },
      )
      .get(
        "/:id/containers",
        async ({ params }) => {
          if (!agents.get(params.id)) throw agentNotFound();
          return { success: true, containers: await agents.containers(params.id) };
        },
        {
          auth: "user",
          params: idParams("agent"),
          detail: doc("The agent's containers as it last saw them (Docker or Podman), or why it cannot see them; null: the agent never said (an older agent)"),
        },
      )
      .get(
        "/:id/series",
        async ({ params, query }) => {
          const agent = agents.get(params.id);
          if (!agent) throw agentNotFound();
          const range = query.range ?? "1h";
          const { span, resolution } = SERIES_RANGES[range];
          const now = Date.now();
          const rows = await agents.range(agent.id, resolution, now - span, now + 60_000); // + a minute of clock skew
          return { success: true, series: buildSeries(range, rows, agent.interval * 1000, { from: now - span, to: now }) };
        },
        {
          auth: "user",
          params: idParams("agent"),
          detail: doc("An agent's CPU, memory, disk, network and load series"),
          query: t.Object({
            range: t.Optional(
              t.Union([t.Literal("1h"), t.Literal("24h"), t.Literal("7d"), t.Literal("30d")], { error: "range must be 1h, 24h, 7d or 30d" }),
            ),
          }),
        },
      )
      .put(
        "/:id",
        async ({ params, body, user }) => {
          // A blank location name means "its name".
          const location = body.location === undefined ? undefined : body.location?.trim() || null;
          const agent = await agents.rename(params.id, body.name.trim(), location);
          if (!agent) throw agentNotFound();
          return { success: true, message: "Agent updated", agent: agentView(user.role, agent) };
        },
        { auth: "user", params: idParams("agent"), body: t.Object({ name: nameField, location: t.Optional(t.Union([locationField, t.Null()])) }),
          detail: doc("Rename an agent; `location` names its checks among a monitor's locations (null or blank: its name)"),
        },
      )
      .delete(
        "/:id",
        async ({ params }) => {
          if (!(await agents.remove(params.id))) throw agentNotFound();
          return { success: true, message: "Agent deleted" };
        },
        { auth: "user", params: idParams("agent"), detail: doc("Delete an agent and its data") },
      )
  );
}
