// /api/escalation-policies (guarded as the notification channels they page: every signed-in role reads them, editors
// and admins change them), and GET /api/monitors/:id/escalation and /api/agents/:id/escalation: the policy a target
// follows and when its open problems escalate next.
import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import { notFound } from "../http/errors";
import { idParams } from "../http/ids";
import { doc } from "../http/openapi";
import type { EscalationService } from "./service";

const ids = (what: string) => t.Array(t.Integer({ minimum: 1, error: `${what} must be ids` }), { maxItems: 1000, error: `${what} must be a list of ids` });
const step = t.Object({
  channelIds: ids("steps[].channelIds"),
  userIds: t.Optional(ids("steps[].userIds")),
  scheduleIds: t.Optional(ids("steps[].scheduleIds")),
  waitMinutes: t.Integer({ minimum: 1, maximum: 1440, error: "steps[].waitMinutes must be a whole number of minutes, 1-1440" }),
});
const body = t.Object({
  name: t.String({ maxLength: 200, error: "name must be text of 1-100 characters" }),
  steps: t.Array(step, { minItems: 1, maxItems: 10, error: "steps must be a list of 1-10 steps" }),
  repeatEveryMinutes: t.Optional(t.Nullable(t.Integer({ minimum: 1, maximum: 1440, error: "repeatEveryMinutes must be 1-1440 minutes, or null" }))),
  repeatLimit: t.Optional(t.Integer({ minimum: 0, maximum: 100, error: "repeatLimit must be 0-100" })),
  isDefault: t.Optional(t.Boolean({ error: "isDefault must be true or false" })),
  monitorIds: t.Optional(ids("monitorIds")),
  groupIds: t.Optional(ids("groupIds")),
  tags: t.Optional(t.Array(t.String({ minLength: 1, maxLength: 100, error: "tags must be tag names" }), { maxItems: 1000, error: "tags must be a list of tag names" })),
});

export function escalationRoutes({ escalation, session, exists }: { escalation: EscalationService; session: ReturnType<typeof sessions>; exists: (type: "monitor" | "agent", id: number) => boolean }) {
  const { policies } = escalation;
  return new Elysia({ prefix: "/api", detail: { tags: ["escalation"] } })
    .use(session)
    .get("/escalation-policies", async () => ({ success: true, policies: await policies.list() }), { auth: "user", detail: doc("The escalation policies") })
    .post(
      "/escalation-policies",
      async ({ body, set }) => {
        const policy = await policies.create(body);
        set.status = 201;
        return { success: true, policy };
      },
      { auth: "user", body, detail: doc("Create an escalation policy", 409) },
    )
    .get("/escalation-policies/:id", async ({ params }) => ({ success: true, policy: await policies.get(params.id) }), {
      auth: "user",
      params: idParams("escalation policy"),
      detail: doc("An escalation policy"),
    })
    .put("/escalation-policies/:id", async ({ params, body }) => ({ success: true, policy: await policies.update(params.id, body) }), {
      auth: "user",
      params: idParams("escalation policy"),
      body,
      detail: doc("Replace an escalation policy (its steps and the monitors, groups and tags that follow it)", 409),
    })
    .delete(
      "/escalation-policies/:id",
      async ({ params }) => {
        await policies.remove(params.id);
        return { success: true };
      },
      { auth: "user", params: idParams("escalation policy"), detail: doc("Delete an escalation policy (problems it was escalating stop escalating)") },
    )
    .get(
      "/monitors/:id/escalation",
      async ({ params }) => {
        if (!exists("monitor", params.id)) throw notFound("MONITOR_NOT_FOUND", "Monitor not found");
        return { success: true, escalation: await escalation.of("monitor", params.id) };
      },
      { auth: "user", params: idParams("monitor"), detail: doc("The escalation policy a monitor follows (and why), and when its open problems escalate next") },
    )
    .get(
      "/agents/:id/escalation",
      async ({ params }) => {
        if (!exists("agent", params.id)) throw notFound("AGENT_NOT_FOUND", "Agent not found");
        return { success: true, escalation: await escalation.of("agent", params.id) };
      },
      { auth: "user", params: idParams("agent"), detail: doc("The escalation policy an agent follows, and when its open problems escalate next") },
    );
}
