// /api/oncall: on-call schedules, guarded as the escalation policies that will page them: every signed-in role reads
// them (who is on call now and next, the shifts), editors and admins change them and their overrides. The people
// picker is for editors only; it gives ids and names, nothing else about an account.
import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import { idField, idParams } from "../http/ids";
import { doc } from "../http/openapi";
import type { OnCallStore } from "./store";

const MAX_MS = 253_402_300_799_999; // 9999-12-31
const instant = (what: string) => t.Integer({ minimum: 0, maximum: MAX_MS, error: `${what} must be a time in Unix milliseconds` });

const body = t.Object({
  name: t.String({ maxLength: 200, error: "name must be text of 1-100 characters" }),
  timeZone: t.String({ minLength: 1, maxLength: 100, error: "timeZone must be an IANA time zone such as Europe/Berlin" }),
  rotation: t.Union([t.Literal("daily"), t.Literal("weekly")], { error: "rotation must be daily or weekly" }),
  handoverTime: t.String({ pattern: "^([01][0-9]|2[0-3]):[0-5][0-9]$", error: "handoverTime must be a time HH:MM (00:00-23:59)" }),
  handoverWeekday: t.Optional(t.Nullable(t.Integer({ minimum: 1, maximum: 7, error: "handoverWeekday must be 1 (Monday) to 7 (Sunday)" }))),
  startDate: t.String({ pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", error: "startDate must be a date YYYY-MM-DD" }),
  participants: t.Array(t.Integer({ minimum: 1, error: "participants must be user ids" }), { minItems: 1, maxItems: 50, error: "participants must be a list of 1-50 user ids" }),
});

const overrideBody = t.Object({
  userId: t.Integer({ minimum: 1, error: "userId must be a user id" }),
  startsAt: instant("startsAt"),
  endsAt: instant("endsAt"),
});

const shiftsQuery = t.Object({
  from: t.Numeric({ minimum: 0, maximum: MAX_MS, error: "from must be a time in Unix milliseconds" }),
  to: t.Numeric({ minimum: 0, maximum: MAX_MS, error: "to must be a time in Unix milliseconds" }),
});

export function oncallRoutes({ oncall, session }: { oncall: OnCallStore; session: ReturnType<typeof sessions> }) {
  const params = idParams("on-call schedule");
  return new Elysia({ prefix: "/api/oncall", detail: { tags: ["oncall"] } })
    .use(session)
    .get("/schedules", async () => ({ success: true, schedules: await oncall.list() }), { auth: "user", detail: doc("The on-call schedules, each with who is on call now (until when) and who is next (from when)") })
    .post(
      "/schedules",
      async ({ body, set }) => {
        const schedule = await oncall.create(body);
        set.status = 201;
        return { success: true, schedule };
      },
      { auth: "user", body, detail: doc("Create an on-call schedule") },
    )
    .get("/schedules/:id", async ({ params }) => ({ success: true, schedule: await oncall.get(params.id) }), { auth: "user", params, detail: doc("An on-call schedule, its overrides not yet ended, who is on call now and next") })
    .put("/schedules/:id", async ({ params, body }) => ({ success: true, schedule: await oncall.update(params.id, body) }), { auth: "user", params, body, detail: doc("Replace an on-call schedule's rotation (its overrides stay)") })
    .delete(
      "/schedules/:id",
      async ({ params }) => {
        await oncall.remove(params.id);
        return { success: true };
      },
      { auth: "user", params, detail: doc("Delete an on-call schedule and its overrides") },
    )
    .get("/schedules/:id/shifts", async ({ params, query }) => ({ success: true, shifts: await oncall.shifts(params.id, query.from, query.to) }), {
      auth: "user",
      params,
      query: shiftsQuery,
      detail: doc("Who is on call over [from, to) (Unix ms, at most 62 days): the rotation's shifts with overrides applied, each with its true bounds"),
    })
    .post(
      "/schedules/:id/overrides",
      async ({ params, body, set, user }) => {
        const { overrideId, schedule } = await oncall.addOverride(params.id, body, user.id);
        set.status = 201;
        return { success: true, overrideId, schedule };
      },
      { auth: "user", params, body: overrideBody, detail: doc("Put someone else on call for a while (at most a year); the latest override wins where they overlap", 409) },
    )
    .delete("/schedules/:id/overrides/:overrideId", async ({ params }) => ({ success: true, schedule: await oncall.removeOverride(params.id, params.overrideId) }), {
      auth: "user",
      params: t.Object({ id: idField("on-call schedule"), overrideId: idField("override") }),
      detail: doc("Delete an override"),
    })
    .get("/people", async () => ({ success: true, people: await oncall.people() }), { auth: "editor", detail: doc("The active accounts that can be put on call (ids and names), for the schedule form") });
}
