// /api/incidents: outages told in the operator's words, with a timeline of updates, shown on the status pages of what
// they affect. Every signed-in user (and API token) may call them.
import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import { idParams } from "../http/ids";
import { doc } from "../http/openapi";
import { INCIDENT_IMPACTS, INCIDENT_MESSAGE_MAX, INCIDENT_STATES, INCIDENT_TARGETS_MAX, INCIDENT_TITLE_MAX } from "./public";
import { incidentNotFound, type IncidentService } from "./service";

const ids = (what: string) =>
  t.Array(t.Integer({ minimum: 1, error: `${what} must be positive integers` }), { maxItems: INCIDENT_TARGETS_MAX, error: `${what} must be a list of at most ${INCIDENT_TARGETS_MAX} ids` });
const impact = t.UnionEnum([...INCIDENT_IMPACTS], { error: `impact must be one of ${INCIDENT_IMPACTS.join(", ")}` });
const updateBody = t.Object({
  state: t.UnionEnum([...INCIDENT_STATES], { error: `state must be one of ${INCIDENT_STATES.join(", ")}` }),
  message: t.String({ maxLength: INCIDENT_MESSAGE_MAX, error: `The message must be 1-${INCIDENT_MESSAGE_MAX} characters` }),
  at: t.Optional(t.Integer({ minimum: 0, error: "at must be a time in Unix milliseconds" })),
});
const patchFields = {
  title: t.String({ maxLength: INCIDENT_TITLE_MAX, error: `Title must be 1-${INCIDENT_TITLE_MAX} characters` }),
  impact,
  monitorIds: t.Optional(ids("monitorIds")),
  agentIds: t.Optional(ids("agentIds")),
  pageIds: t.Optional(ids("pageIds")),
};
const createBody = t.Object({ ...patchFields, update: updateBody });
const patchBody = t.Object(patchFields);
const incidentParams = idParams("incident");
const updateParams = t.Object({ ...idParams("incident").properties, updateId: idParams("update").properties.id });
const listQuery = t.Object({ state: t.Optional(t.UnionEnum(["open", "resolved", "all"], { error: "state must be open, resolved or all" })) });

export function incidentRoutes({ incidents, session }: { incidents: IncidentService; session: ReturnType<typeof sessions> }) {
  return new Elysia({ prefix: "/api/incidents", detail: { tags: ["incidents"] } })
    .use(session)
    .get("", async ({ query }) => ({ success: true, incidents: await incidents.list(query.state ?? "all") }), {
      auth: "user",
      query: listQuery,
      detail: doc("List incidents, newest first (?state=open|resolved|all)"),
    })
    .post(
      "",
      async ({ body, user, set }) => {
        const incident = await incidents.create(body, user.id);
        set.status = 201;
        return { success: true, message: "Incident created", incident };
      },
      { auth: "user", body: createBody, detail: doc("Create an incident with its first update", 400) },
    )
    .get(
      "/:id",
      async ({ params }) => {
        const incident = await incidents.get(params.id);
        if (!incident) throw incidentNotFound();
        return { success: true, incident };
      },
      { auth: "user", params: incidentParams, detail: doc("An incident with its timeline") },
    )
    .put(
      "/:id",
      async ({ params, body }) => {
        const incident = await incidents.update(params.id, body);
        if (!incident) throw incidentNotFound();
        return { success: true, message: "Incident updated", incident };
      },
      { auth: "user", params: incidentParams, body: patchBody, detail: doc("Change an incident's title, impact, what it affects and its pages", 400) },
    )
    .delete(
      "/:id",
      async ({ params }) => {
        if (!(await incidents.remove(params.id))) throw incidentNotFound();
        return { success: true, message: "Incident deleted" };
      },
      { auth: "user", params: incidentParams, detail: doc("Delete an incident and its timeline") },
    )
    .post(
      "/:id/updates",
      async ({ params, body, user, set }) => {
        const incident = await incidents.addUpdate(params.id, body, user.id);
        if (!incident) throw incidentNotFound();
        set.status = 201;
        return { success: true, message: "Update posted", incident };
      },
      { auth: "user", params: incidentParams, body: updateBody, detail: doc("Post an update (its state becomes the incident's; resolved closes it)", 400) },
    )
    .put(
      "/:id/updates/:updateId",
      async ({ params, body }) => {
        const incident = await incidents.editUpdate(params.id, params.updateId, body);
        if (!incident) throw incidentNotFound();
        return { success: true, message: "Update changed", incident };
      },
      { auth: "user", params: updateParams, body: updateBody, detail: doc("Correct an update", 400) },
    )
    .delete(
      "/:id/updates/:updateId",
      async ({ params }) => {
        const incident = await incidents.deleteUpdate(params.id, params.updateId);
        if (!incident) throw incidentNotFound();
        return { success: true, message: "Update deleted", incident };
      },
      { auth: "user", params: updateParams, detail: doc("Delete an update (not the last one)", 409) },
    );
}
