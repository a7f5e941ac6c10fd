// /api/maintenance: windows that silence notifications while planned work goes on. Every signed-in user (and API
// token: a deploy pipeline opens a window with POST /api/maintenance/start and closes it with …/:id/end) may call them.
import { Elysia, t } from "elysia";
import type { sessions } from "../auth/session";
import { idParams } from "../http/ids";
import { doc } from "../http/openapi";
import {
  MAINTENANCE_DESCRIPTION_MAX,
  MAINTENANCE_NOW_MAX_MINUTES,
  MAINTENANCE_TARGETS_MAX,
  MAINTENANCE_TITLE_MAX,
} from "./public";
import { SCHEDULE_KINDS, type ScheduleKind } from "./schedule";
import { windowNotFound, type MaintenanceService } from "./service";

const ids = (what: string) =>
  t.Array(t.Integer({ minimum: 1, error: `${what} must be positive integers` }), {
    maxItems: MAINTENANCE_TARGETS_MAX,
    error: `${what} must be a list of at most ${MAINTENANCE_TARGETS_MAX} ids`,
  });
const instant = (what: string) => t.Union([t.Null(), t.Integer({ minimum: 0 })], { error: `${what} must be a time in Unix milliseconds, or null` });
const kinds = SCHEDULE_KINDS.join(", ");

const scheduleBody = t.Object(
  {
    kind: t.UnionEnum(SCHEDULE_KINDS as [ScheduleKind, ...ScheduleKind[]], { error: `schedule.kind must be one of ${kinds}` }),
    startsAt: t.Optional(instant("schedule.startsAt")),
    endsAt: t.Optional(instant("schedule.endsAt")),
    time: t.Optional(t.Union([t.Null(), t.String({ maxLength: 5 })], { error: "schedule.time must be HH:MM" })),
    weekdays: t.Optional(t.Array(t.Integer({ minimum: 1, maximum: 7 }), { maxItems: 7, error: "schedule.weekdays must be weekdays 1 (Monday) to 7 (Sunday)" })),
    monthDays: t.Optional(t.Array(t.Integer({ minimum: -1, maximum: 31 }), { maxItems: 32, error: "schedule.monthDays must be days 1-31, or -1 for the last day" })),
    cron: t.Optional(t.Union([t.Null(), t.String({ maxLength: 200 })], { error: "schedule.cron must be a cron expression of at most 200 characters" })),
    durationMinutes: t.Optional(t.Union([t.Null(), t.Integer()], { error: "schedule.durationMinutes must be a whole number of minutes" })),
    timezone: t.Optional(t.String({ maxLength: 64, error: "schedule.timezone must be an IANA time zone such as Europe/Berlin" })),
    activeFrom: t.Optional(instant("schedule.activeFrom")),
    activeUntil: t.Optional(instant("schedule.activeUntil")),
  },
  { error: "schedule must be an object with a kind" },
);

const windowBody = t.Object({
  title: t.String({ maxLength: MAINTENANCE_TITLE_MAX, error: `Title must be 1-${MAINTENANCE_TITLE_MAX} characters` }),
  description: t.Optional(t.String({ maxLength: MAINTENANCE_DESCRIPTION_MAX, error: `Description must be at most ${MAINTENANCE_DESCRIPTION_MAX} characters` })),
  scope: t.UnionEnum(["all", "targets"], { error: "scope must be all or targets" }),
  monitorIds: t.Optional(ids("monitorIds")),
  agentIds: t.Optional(ids("agentIds")),
  schedule: scheduleBody,
});

const nowBody = t.Object({
  title: t.Optional(t.String({ maxLength: MAINTENANCE_TITLE_MAX, error: `Title must be at most ${MAINTENANCE_TITLE_MAX} characters` })),
  description: t.Optional(t.String({ maxLength: MAINTENANCE_DESCRIPTION_MAX, error: `Description must be at most ${MAINTENANCE_DESCRIPTION_MAX} characters` })),
  all: t.Optional(t.Boolean({ error: "all must be true or false" })),
  monitorIds: t.Optional(ids("monitorIds")),
  agentIds: t.Optional(ids("agentIds")),
  minutes: t.Optional(t.Integer({ minimum: 1, maximum: MAINTENANCE_NOW_MAX_MINUTES, error: `minutes must be a whole number from 1 to ${MAINTENANCE_NOW_MAX_MINUTES}` })),
});

const windowParams = idParams("maintenance window");
const listQuery = t.Object({
  monitorId: t.Optional(t.Integer({ minimum: 1, error: "monitorId must be a monitor id" })),
  agentId: t.Optional(t.Integer({ minimum: 1, error: "agentId must be an agent id" })),
});

export function maintenanceRoutes({ maintenance, session }: { maintenance: MaintenanceService; session: ReturnType<typeof sessions> }) {
  return new Elysia({ prefix: "/api/maintenance", detail: { tags: ["maintenance"] } })
    .use(session)
    .get(
      "",
      ({ query }) => {
        const filter = query.monitorId ? { type: "monitor" as const, id: query.monitorId } : query.agentId ? { type: "agent" as const, id: query.agentId } : null;
        return { success: true, windows: maintenance.list(filter) };
      },
      { auth: "user", query: listQuery, detail: doc("List maintenance windows (?monitorId= or ?agentId=: those covering that target)") },
    )
    .post(
      "",
      async ({ body, set }) => {
        const window = await maintenance.create(body);
        set.status = 201;
        return { success: true, message: "Maintenance window created", window };
      },
      { auth: "user", body: windowBody, detail: doc("Create a maintenance window", 400, 409) },
    )
    .post(
      "/start",
      async ({ body, set }) => {
        const window = await maintenance.startNow(body);
        set.status = 201;
        return { success: true, message: "Maintenance started", window };
      },
      { auth: "user", body: nowBody, detail: doc("Start maintenance now, for `minutes` or until ended (deploy pipelines)", 400, 409) },
    )
    .post(
      "/preview",
      ({ body }) => ({ success: true, preview: maintenance.preview(body.schedule) }),
      { auth: "user", body: t.Object({ schedule: scheduleBody }), detail: doc("The next 5 occurrences of a schedule", 400) },
    )
    .get(
      "/:id",
      ({ params }) => {
        const window = maintenance.get(params.id);
        if (!window) throw windowNotFound();
        return { success: true, window };
      },
      { auth: "user", params: windowParams, detail: doc("A maintenance window") },
    )
    .put(
      "/:id",
      async ({ params, body }) => {
        const window = await maintenance.update(params.id, body);
        if (!window) throw windowNotFound();
        return { success: true, message: "Maintenance window updated", window };
      },
      { auth: "user", params: windowParams, body: windowBody, detail: doc("Update a maintenance window (an early end is forgotten)", 400) },
    )
    .post(
      "/:id/end",
      async ({ params }) => {
        const window = await maintenance.end(params.id);
        if (!window) throw windowNotFound();
        return { success: true, message: "Maintenance ended", window };
      },
      { auth: "user", params: windowParams, detail: doc("End the occurrence in progress now", 409) },
    )
    .delete(
      "/:id",
      async ({ params }) => {
        if (!(await maintenance.remove(params.id))) throw windowNotFound();
        return { success: true, message: "Maintenance window deleted" };
      },
      { auth: "user", params: windowParams, detail: doc("Delete a maintenance window") },
    );
}
